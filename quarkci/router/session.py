"""Build and write ``session_context.json`` from a routing decision.

Hardware, workspace and install facts are never copied in: only the ``*_ref`` paths of the
artifacts that hold them. An existing session context is carried forward: its constraints and
``*_ref`` pointers are kept (a new ``--env-context``/``--workspace-context`` replaces the matching ref).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quarkci.core.documents import check_document, load_document, validate_document, write_artifact
from quarkci.core.errors import BadInputError
from quarkci.router.catalog import CatalogSkill
from quarkci.router.confidence import decide
from quarkci.router.constraints import extract
from quarkci.router.lexical import index_for
from quarkci.router.parse import parse
from quarkci.router.roles import ROLES, resolve_roles
from quarkci.router.route import DESCRIBED, UNDECIDED, Decision, Facts
from quarkci.router.text import invisible_free

MAX_GOAL_CHARS = 4000
REFS = ("env_context_ref", "workspace_context_ref", "pytorch_install_result_ref", "quark_install_result_ref")


@dataclass(frozen=True)
class RouteResult:
    """``document`` is the session context; ``reason`` the one-paragraph explanation printed."""

    document: dict[str, Any]
    reason: str
    decision: Decision


def _load_context(path: str | None, artifact: str, flag: str) -> dict[str, Any] | None:
    if path is None:
        return None
    document: dict[str, Any] = load_document(path)
    check_document(document, artifact, f"{flag} {path}")
    assert isinstance(document, dict)  # every context contract is a JSON object
    return document


def clean_goal(goal: object) -> str:
    """``goal`` on one line, without invisible format characters (zero-width spaces, BOM, bidi marks).

    Raises :class:`BadInputError` when nothing is left (white space or invisible characters only) or when it
    is over :data:`MAX_GOAL_CHARS` characters.
    """
    text = " ".join(invisible_free(goal).split()) if isinstance(goal, str) else ""
    if not text:
        raise BadInputError('goal: empty; say what you want to do, e.g. "quantize Qwen/Qwen3-8B to fp8"')
    if len(text) > MAX_GOAL_CHARS:
        raise BadInputError(f"goal: {len(text)} characters, over the {MAX_GOAL_CHARS}-character limit")
    return text


def check_contexts(
    env_context: str | None, workspace_context: str | None, session_context: str | None
) -> None:
    """Load and validate the context files given (cheap), so bad input fails before the catalog and the
    lexical index are built. Raises :class:`BadInputError` like :func:`route`."""
    _load_context(session_context, "session_context", "--session-context")
    _load_context(env_context, "env_context", "--env-context")
    _load_context(workspace_context, "workspace_context", "--workspace-context")


def route(
    goal: str,
    catalog: list[CatalogSkill],
    catalog_label: str,
    *,
    env_context: str | None = None,
    workspace_context: str | None = None,
    session_context: str | None = None,
) -> RouteResult:
    """Route ``goal`` over ``catalog``; context arguments are file paths (validated, exit 2 if bad).

    Raises :class:`BadInputError` for an empty goal (nothing but white space or invisible format
    characters such as zero-width spaces), an over-long one (over :data:`MAX_GOAL_CHARS`) or an invalid
    context file (the message names the file and the JSON path).
    """
    goal = clean_goal(goal)
    previous = _load_context(session_context, "session_context", "--session-context") or {}
    refs = {k: previous.get(k) for k in REFS}
    if env_context:
        refs["env_context_ref"] = env_context
    if workspace_context:
        refs["workspace_context_ref"] = workspace_context
    env = _carried(refs["env_context_ref"], env_context, "env_context", "--env-context")
    workspace = _carried(
        refs["workspace_context_ref"], workspace_context, "workspace_context", "--workspace-context"
    )
    facts = Facts(
        env_known=env is not None,
        accelerator=(env or {}).get("hardware", {}).get("accelerator"),
        workspace_known=workspace is not None,
    )
    names = resolve_roles(catalog)
    decision = decide(goal, facts, names, catalog, index_for(tuple(s.positive for s in catalog)))
    document, reason = _document(goal, decision, names, refs, previous, catalog_label)
    problems = validate_document(document, "session_context")
    if problems:  # a bug, not bad input: the router must only ever write valid documents
        raise AssertionError(f"router built an invalid session_context: {problems[0]}")
    return RouteResult(document, reason, decision)


def _carried(ref: str | None, given: str | None, artifact: str, flag: str) -> dict[str, Any] | None:
    """The context ``ref`` points to: one given now must load and validate (else exit 2); one carried
    forward from a previous session context is read when its file still exists, else ignored."""
    if ref is None:
        return None
    if ref != given and not Path(ref).is_file():
        return None
    label = flag if ref == given else f"{artifact}_ref (from --session-context)"
    return _load_context(ref, artifact, label)


def _skill(role: str, names: dict[str, str]) -> str | None:
    if role.startswith(DESCRIBED + ":"):
        return role.split(":", 1)[1]
    return names.get(role)


def _summary(role: str) -> str:
    if role.startswith(DESCRIBED + ":"):
        return f"use {role.split(':', 1)[1]} (its description matches the goal)"
    return ROLES[role].summary


def _document(
    goal: str, d: Decision, names: dict[str, str], refs: dict[str, Any], previous: dict[str, Any], label: str
) -> tuple[dict[str, Any], str]:
    constraints = dict(previous.get("constraints") or {})
    understood = parse(goal)
    constraints.update(extract(goal, understood))
    questions: list[str] = []
    if d.role is None:
        options = [(r.split(":", 1)[0], _skill(r, names), _summary(r)) for r in d.interpretations]
        letters = "abcdef"
        text = ", ".join(
            f"({letters[i]}) {summary}" + (f" [{n}]" if n else "")
            for i, (_r, n, summary) in enumerate(options)
        )
        questions.append(f"Ambiguous goal ({d.reason}). Do you want to: {text}?")
        route = {
            "role": None,
            "next_skill": None,
            "reason": d.reason,
            "prerequisites": [],
            "interpretations": [{"role": r, "skill": n} for r, n, _s in options],
            "catalog": label,
        }
        doc = {
            "user_goal": goal,
            "workflow": UNDECIDED,
            "constraints": constraints,
            **refs,
            "open_questions": questions,
            "route": route,
        }
        return doc, f"no route yet: {d.reason}; asking: {text}"
    skill = d.skill or _skill(d.role, names)
    if skill is None:
        questions.append(
            f"No skill in the catalog ({label}) fits the role '{d.role}' ({ROLES[d.role].summary})."
        )
        route = {
            "role": d.role,
            "next_skill": None,
            "reason": d.reason,
            "prerequisites": [],
            "catalog": label,
        }
        doc = {
            "user_goal": goal,
            "workflow": UNDECIDED,
            "constraints": constraints,
            **refs,
            "open_questions": questions,
            "route": route,
        }
        return doc, f"no route: {questions[0]}"
    prereqs = []
    if (
        d.role in ROLES
        and ROLES[d.role].needs_hardware
        and understood.hardware is not None
        and not refs["env_context_ref"]
    ):
        questions.append(
            "The accelerator named in the goal is not confirmed by an env_context; "
            f"{_skill('env_preflight', names) or 'environment preflight'} can confirm it."
        )
    for role, why in d.prerequisites:
        pskill = _skill(role, names)
        prereqs.append({"role": role, "skill": pskill, "reason": why})
        questions.append(f"{why}: run {pskill or role} first.")
    next_skill = prereqs[0]["skill"] if prereqs and prereqs[0]["skill"] else skill
    route = {
        "role": d.role,
        "next_skill": next_skill,
        "reason": d.reason,
        "prerequisites": prereqs,
        "catalog": label,
    }
    doc = {
        "user_goal": goal,
        "workflow": skill,
        "constraints": constraints,
        **refs,
        "open_questions": questions,
        "route": route,
    }
    first = f"; first {next_skill} ({prereqs[0]['reason']})" if next_skill != skill else ""
    return doc, f"route: {skill} ({d.role}): {d.reason}{first}"


def write(result: RouteResult, out: str | Path) -> Path:
    """Write the session context to ``out`` atomically through the contract writer (sorted keys, 2-space indent).

    Raises :class:`BadInputError` when ``out`` cannot be written (nothing is left behind).
    """
    try:
        return write_artifact("session_context", out, result.document)
    except OSError as exc:
        raise BadInputError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
