"""Goal -> routing decision: rules propose roles with scores, lexical similarity to the catalog
descriptions adds to them, and a close race, a low best score or a role the catalog lacks is a question.

Scoring (deterministic):

* each rule that fires proposes roles with a rule score (:data:`DECISIVE` for a clear request, equal
  lower scores for the readings of an ambiguous one, e.g. "compare" = accuracy or outputs);
* each proposed role that the catalog has a skill for gains up to :data:`LEXICAL_WEIGHT` from the BM25
  similarity between the goal and that skill's description (relative to the best-matching skill);
* the best candidate is routed when it clears :data:`FLOOR` and leads the second by :data:`MARGIN`;
  otherwise the result is undecided and the candidates are the options in ``open_questions``.
  A proposed role with no skill in the catalog is never replaced by another skill: the router asks,
  offering the role's alternatives (export -> the PTQ workflow, whose description covers export).

Rules, first match wins (explicit early returns; every branch has cases in tests/router_cases.yaml):

1. import errors -> the install role of the module named; a broken torch build -> torch install
2. file2file / quant-perf / shrink requests -> their skill
3. an error, a crash or wrong output -> ONNX debug for .onnx, the install role when installing, else debug
4. path questions -> workspace; plan-only requests -> quant plan; environment questions -> preflight
5. "is X supported", layer counts, architecture -> model intake; validate an output -> result validator
6. export / package / convert (not together with a request to quantize) -> export
7. a request to quantize (verb, PTQ, "N bits") -> the PTQ workflow (ONNX or PyTorch); an install in the
   same goal becomes a prerequisite
8. evaluate / benchmark -> eval; compare -> eval or result validator; serve / deploy -> eval or the workflow
9. a scheme or "quantized" alone -> the PTQ workflow
10. install / set up -> the product nearest the verb (Quark, PyTorch, ONNX Runtime); inspect -> intake
11. nothing recognised -> undecided with three interpretations

Negated verbs ("don't quantize") and stated facts ("torch is already there") never fire a rule.
Prerequisites (recorded in open_questions): hardware facts unknown -> env preflight; model path and
output directory unvalidated -> workspace validation; an install asked for with a quantization.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from quarkci.router.catalog import CatalogSkill
from quarkci.router.intent import Goal, understand
from quarkci.router.lexical import LexicalIndex
from quarkci.router.roles import ROLES
from quarkci.router.text import tokens

UNDECIDED = "undecided"
DECISIVE = 10.0  # rule score of a clear request
AMBIGUOUS = 6.0  # rule score of each reading of an ambiguous request
LEXICAL_WEIGHT = 2.0  # most lexical similarity can add
FLOOR = 5.0  # a best score under this is a question
MARGIN = 2.5  # the best must lead the second by this much
MENTION = 8.0  # rule score of a quantization named without a verb ("an FP8 checkpoint of Llama")
DESCRIBED = "described_skill"  # the role of a skill no role covers, chosen because the goal uses its description's terms
DISTINCTIVE_DF = 2  # a description term used by at most this many skills is distinctive
DISTINCTIVE_POINTS = (
    4.0  # score per distinctive goal term in a skill's description (two needed, capped at 12)
)
DEFAULT_OPTIONS = ("model_intake", "ptq_workflow", "quark_install")


@dataclass(frozen=True)
class Facts:
    """What the router knows besides the goal: only presence and the accelerator value are read."""

    env_known: bool = False  # an env_context is available ...
    accelerator: str | None = None  # ... with this hardware.accelerator
    workspace_known: bool = False


@dataclass(frozen=True)
class Candidate:
    """A role a rule proposes: ``evidence`` is the goal text that fired the rule."""

    role: str
    score: float
    evidence: str
    why: str
    skill: str | None = None  # set for a skill no role covers (role DESCRIBED), chosen by its description


@dataclass(frozen=True)
class Decision:
    """``role`` is None when no route is chosen; then ``interpretations`` holds the roles offered."""

    role: str | None
    reason: str
    interpretations: tuple[str, ...] = ()
    prerequisites: tuple[tuple[str, str], ...] = field(default=())  # (role, why)
    scores: tuple[tuple[str, float], ...] = ()  # (role, total score), best first
    skill: str | None = None  # the skill when role is DESCRIBED


_MODULE = re.compile(r"no module named '?([a-z_][\w.]*)")
_PRODUCTS = re.compile(r"\b(amd-quark|quark|pytorch|torch|onnxruntime|onnx runtime)\b")
_INSTALL_VERB = re.compile(r"\b(install\w*|reinstall|set ?up|setup)\b")


def _install_role(product: str) -> str:
    if "quark" in product:
        return "quark_install"
    return "torch_install" if "torch" in product else "onnx_install"


def install_target(g: Goal) -> str | None:
    """The install role of the product the goal asks to install: the product nearest the install verb in
    its clause, else one named in a clause that is not a stated fact; None when no product is named."""
    for clause in g.clauses:
        verb = _INSTALL_VERB.search(clause)
        if not verb:
            continue
        products = [(abs(m.start() - verb.start()), m.group(1)) for m in _PRODUCTS.finditer(clause)]
        if products and not re.search(r"\balready\b|\bis there\b", clause):
            return _install_role(min(products)[1])
    for clause in g.clauses:
        if re.search(r"\balready\b|\bis (there|installed|fine)\b|\bworks\b|\blater\b", clause):
            continue
        found = [m.group(1) for m in _PRODUCTS.finditer(clause)]
        if found:
            return _install_role(found[0])
    return None


def _label(c: Candidate) -> str:
    """The option a candidate stands for: its role, or ``described_skill:<name>``."""
    return f"{DESCRIBED}:{c.skill}" if c.role == DESCRIBED else c.role


def _asked_install(g: Goal) -> str | None:
    """The install role when the goal asks to install a named product ("install amd-quark and check the
    environment"; "set up amd-quark in my venv"); None otherwise ("is my setup ready for Quark?")."""
    target = install_target(g)
    if g.has("install") and target:
        return target
    if (
        g.has("setup")
        and target
        and re.search(r"amd-quark|\bpip\b|\bvenv\b|\bconda\b|\bvirtualenv\b", g.text)
    ):
        return target
    return None


def _c(role: str, evidence: str, why: str, score: float = DECISIVE) -> list[Candidate]:
    return [Candidate(role, score, evidence, why)]


def rules(g: Goal) -> tuple[list[Candidate], tuple[str, ...]]:
    """The rule candidates for goal ``g`` and the prerequisite roles it asks for (see the module docstring)."""
    onnx = (g.mentions("onnx") or g.has("error") and g.mentions("onnxruntime")) and not g.has("onnx_target")
    a = g.active
    quantizing = g.has("quantize_verb")

    if g.has("authoring"):
        return (
            [],
            (),
        )  # writing a skill is maintainer work: no routing target (the described-skill scan may still fit)
    if g.has("import_error"):
        module = _MODULE.search(g.text)
        named = (
            module.group(1)
            if module
            else ("quark" if g.mentions("quark") else "torch" if g.mentions("torch") else "")
        )
        if named:
            role = (
                "quark_install" if named.startswith("quark") else "torch_install" if "torch" in named else ""
            )
            if role:
                return _c(role, a["import_error"], f"the {named} module cannot be imported"), ()
    if g.has("torch_broken"):
        return _c("torch_install", a["torch_broken"], "the PyTorch build does not match the accelerator"), ()
    if g.has("file2file"):
        return _c("file2file", a["file2file"], "a low-memory file2file quantization"), ()
    if g.has("perf"):
        return _c("quant_perf", a["perf"], "a mixed-precision search with throughput validation"), ()
    if g.has("shrink"):
        return _c("shrink_model", a["shrink"], "a one-layer model for debugging"), ()
    if g.has("error"):
        if onnx:
            return _c("onnx_debug", a["error"], "an ONNX quantization failure: diagnose it"), ()
        target = install_target(g) if g.has("install") or g.has("setup") else None
        if target:
            return _c(target, a.get("install", a.get("setup", "")), "an installation that fails"), ()
        return _c("debug", a["error"], "a failure or wrong output to diagnose, not a new run"), ()
    if not quantizing and (target := _asked_install(g)):
        return _c(target, a.get("install", a.get("setup", "")), "an installation of the product named"), ()
    if g.has("workspace"):
        return _c("workspace_validate", a["workspace"], "a question about model or output paths"), ()
    if g.has("plan") and (not quantizing or g.has("plan_only")) and not (onnx and g.has("search")):
        # a plan inside a quantize request is a step; searching configs of an .onnx model is no PyTorch plan
        return _c("quant_plan", a["plan"], "a quantization plan without execution (smallest fit)"), ()
    if g.has("env"):
        return _c("env_preflight", a["env"], "a question about the machine's environment"), ()
    if g.has("supported"):
        return _c(
            "onnx_model_intake" if onnx else "model_intake",
            a["supported"],
            "whether the model is supported: inspect it first",
        ), ()
    if g.has("validate_out") and not quantizing:  # validating after quantizing is a step of the workflow
        return _c(
            "onnx_result_validator" if onnx else "result_validator",
            a["validate_out"],
            "validate an existing quantized output",
        ), ()
    if g.has("export") and not g.has("quantize_verb"):
        return _c("export", a["export"], "export or package a model that is already quantized"), ()
    if g.has("quantize_verb"):
        prereq = install_target(g) if g.has("install") or g.has("setup") else None
        role = "onnx_ptq_workflow" if onnx else "ptq_workflow"
        return _c(role, a["quantize_verb"], "a request to quantize a model: the PTQ workflow"), (
            (prereq,) if prereq else ()
        )
    if g.has("eval"):
        return _c("eval", a["eval"], "an accuracy evaluation, not a quantization"), ()
    if g.has("compare"):
        why = '"compare" may mean model accuracy or the quantized outputs'
        return _c("eval", a["compare"], why, AMBIGUOUS) + _c(
            "result_validator", a["compare"], why, AMBIGUOUS
        ), ()
    if g.has("serve"):
        why = "Quark has no serving skill; serving is part of evaluation, or the goal is a model to serve"
        return _c("eval", a["serve"], why, AMBIGUOUS) + _c("ptq_workflow", a["serve"], why, AMBIGUOUS), ()
    if g.has("quantize") and not (set(a) & {"install", "setup"}) and a["quantize"] != "quantized":
        role = "onnx_ptq_workflow" if onnx else "ptq_workflow"
        return _c(
            role, a["quantize"], "a quantization scheme or target was named: the PTQ workflow", MENTION
        ), ()
    if g.has("install") or g.has("setup"):
        target = install_target(g)
        if (
            target == "quark_install"
            and not g.has("install")
            and not re.search(r"amd-quark|\bpip\b|venv", g.text)
        ):
            why = '"set up Quark" may mean installing it, or installing it and then quantizing'
            return _c("quark_install", a["setup"], why, AMBIGUOUS) + _c(
                "ptq_workflow", a["setup"], why, AMBIGUOUS
            ), ()
        if target:
            return _c(
                target, a.get("install", a.get("setup", "")), "an installation of the product named"
            ), ()
        if g.has("install"):
            return _c(
                "quark_install", a["install"], "an installation (Quark is the product this catalog is for)"
            ), ()
    if g.has("inspect"):
        return _c(
            "onnx_model_intake" if onnx else "model_intake", a["inspect"], "inspect the model (smallest fit)"
        ), ()
    return [], ()


def decide(
    goal: str,
    facts: Facts,
    names: dict[str, str],
    catalog: list[CatalogSkill] | None = None,
    index: LexicalIndex | None = None,
) -> Decision:
    """The routing decision for ``goal`` (non-empty) given ``facts`` and the catalog's role map ``names``.

    ``catalog``/``index`` (the skills and a :class:`LexicalIndex` over their descriptions, same order)
    add lexical similarity to the rule scores; without them only the rules count. Deterministic.
    """
    g = understand(goal)
    candidates, prereq_roles = rules(g)
    if catalog and index is not None:
        candidates = candidates + described(goal, names, catalog, index)
    negated = f'; "{next(iter(g.negated.values()))}" is negated' if g.negated else ""
    if not candidates:
        return Decision(None, "the goal names no Quark task the router recognises" + negated, DEFAULT_OPTIONS)
    lexical = _lexical(goal, names, catalog, index)
    totals = [(c.score + lexical_bonus(c, lexical), c) for c in candidates]
    totals.sort(key=lambda t: (-t[0], t[1].role))
    scores = tuple((_label(c), round(s, 2)) for s, c in totals)
    best_score, best = totals[0]
    said = f'the goal says "{best.evidence}": {best.why}{negated}'
    if best_score < FLOOR:
        offers = [_label(c) for s, c in totals if best_score - s < MARGIN][:2]
        return Decision(None, said, tuple(dict.fromkeys([*offers, *DEFAULT_OPTIONS]))[:4], (), scores)
    if best.role == DESCRIBED:
        runner_up = totals[1][0] if len(totals) > 1 else 0.0
        if best_score - runner_up >= MARGIN:
            return Decision(DESCRIBED, said, (), (), scores, best.skill)
        offers = [_label(c) for s, c in totals if best_score - s < MARGIN][:2]
        return Decision(None, said, tuple(dict.fromkeys([*offers, *DEFAULT_OPTIONS]))[:4], (), scores)
    if best.role not in names:
        missing = (best.role, *(r for r in ROLES[best.role].alternatives if r in names))
        why = f"{said}; the catalog has no skill for the role '{best.role}' ({ROLES[best.role].summary})"
        return Decision(None, why, missing, (), scores)
    if len(totals) > 1 and best_score - totals[1][0] < MARGIN:
        close = {_label(c) for s, c in totals if best_score - s < MARGIN}
        ordered = tuple(
            _label(c) for c in candidates if _label(c) in close or len(close) == 1
        )  # the rule's order
        return Decision(None, said, ordered, (), scores)
    prereqs = _prerequisites(best.role, g, facts, prereq_roles)
    return Decision(best.role, said, (), prereqs, scores)


_AUTHORING_LEAD = re.compile(r"^(author|create|write|add|implement)\w*\b")


def described(
    goal: str, names: dict[str, str], catalog: list[CatalogSkill], index: LexicalIndex
) -> list[Candidate]:
    """Candidates for routable skills no role covers (ShapeShifter passes, graph partitioning, ...): a skill
    whose description uses the goal's distinctive terms (terms at most
    :data:`DISTINCTIVE_DF` skill descriptions use), scored :data:`DISTINCTIVE_POINTS` per term, at most 12,
    plus :data:`DISTINCTIVE_POINTS` when one of those terms carries a token of the skill's name, and again when
    the goal asks to write code (a pass, a transform) and the description's first sentence is about authoring."""
    from quarkci.router.roles import first_sentence, routable

    authoring = understand(goal).has("authoring_code")
    covered = set(names.values())
    targets = {i for i, s in enumerate(catalog) if routable(s)}
    raw = index.scores(goal)
    best: dict[tuple[str, ...], tuple[float, Candidate]] = {}
    for i, skill in enumerate(catalog):
        if skill.name in covered or not routable(skill):
            continue
        terms = [t for t in index.matched(goal, i) if len(t) >= 3 and index.df(t, targets) <= DISTINCTIVE_DF]
        stems = {tokens(n)[0] for n in skill.tokens if len(n) >= 5 and tokens(n)}
        named = any(s in t or t in s for t in terms for s in stems)  # "autosearchpro" names autosearch
        if terms:  # one term alone scores under FLOOR: offered, never routed
            score = min(12.0, DISTINCTIVE_POINTS * len(terms)) + (
                DISTINCTIVE_POINTS if named and len(terms) > 1 else 0.0
            )
            if authoring and len(terms) > 1 and _AUTHORING_LEAD.search(first_sentence(skill)):
                score += (
                    DISTINCTIVE_POINTS  # "write a new pass" -> the skill whose description is about authoring
                )
            candidate = Candidate(
                DESCRIBED,
                score,
                ", ".join(terms[:4]),
                f"terms only the description of {skill.name} uses",
                skill.name,
            )
            key = tuple(sorted(terms))  # same evidence in two skills: the closer description (BM25) keeps it
            if key not in best or raw[i] > best[key][0]:
                best[key] = (raw[i], candidate)
    out = [c for _s, c in best.values()]
    return out


def _lexical(
    goal: str, names: dict[str, str], catalog: list[CatalogSkill] | None, index: LexicalIndex | None
) -> dict[str, float]:
    """Role -> lexical bonus in [0, LEXICAL_WEIGHT]: BM25(goal, skill description) over the best skill's."""
    if not catalog or index is None:
        return {}
    raw = index.scores(goal)
    top = max(raw, default=0.0)
    if top <= 0:
        return {}
    position = {s.name: i for i, s in enumerate(catalog)}
    return {
        role: LEXICAL_WEIGHT * raw[position[name]] / top for role, name in names.items() if name in position
    }


def lexical_bonus(candidate: Candidate, bonus: dict[str, float]) -> float:
    """The lexical bonus of ``candidate`` (none for a described skill: its score is already lexical)."""
    return 0.0 if candidate.role == DESCRIBED else bonus.get(candidate.role, 0.0)


def _prerequisites(role: str, g: Goal, facts: Facts, asked: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    spec = ROLES.get(role)
    if spec is None:
        return ()
    prereq: list[tuple[str, str]] = []
    stated = g.mentions("hardware_stated")
    if spec.needs_hardware and not stated:
        if not facts.env_known:
            prereq.append(
                ("env_preflight", "accelerator not known yet (no env_context); CUDA is not assumed")
            )
        elif facts.accelerator in (None, "unknown"):
            prereq.append(("env_preflight", "env_context reports the accelerator as unknown"))
    for install in asked:
        if install != role:
            prereq.append((install, "the goal asks for this installation before the quantization"))
    if spec.needs_workspace and not facts.workspace_known:
        prereq.append(
            ("workspace_validate", "model path and output directory not validated yet (no workspace_context)")
        )
    return tuple(prereq)
