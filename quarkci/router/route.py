"""Parse -> routing decision: the seed's routing rules pick the role the goal asks for, and the route is
confident only when the catalog's descriptions agree with it. This is the rules' decision; the router then
asks the learned classifier for a second opinion (:mod:`quarkci.router.confidence`: a rule route stands only
when the classifier reads the same role).

The rules (upstream: Quark 0.13's quark-torch-router skill, "Routing Logic" and "CRITICAL ROUTING RULE"),
applied to the active actions of the :mod:`quarkci.router.parse` parse:

1. a catalog skill named in the goal ("/skill quark-skill-creator") is that skill, unless an error is
   reported;
2. the active action of the highest ``rank`` (``lexicon.yaml``) owns the goal; scheme mentions without a
   verb count only when nothing else is asked. Ranks encode the seed: a specialised skill the catalog has
   (file2file, Quant-Perf, ShapeShifter, ...) > a reported failure > quantize (any request that involves
   quantizing goes to the PTQ workflow, unless negated or deferred) > a stage after quantization (export,
   validate, evaluate) > plan > install > inspect > the L0 foundations (environment preflight, workspace
   validation), so L0 skills are the route only when the goal is about nothing else. A specialised skill
   outranks a failure only when its description covers diagnosing ("run, resume, diagnose"); otherwise the
   error goes to the debugger;
3. roles by object: the PTQ workflow, intake, validator and debugger by backend (ONNX or PyTorch); an install
   by product (Quark before ONNX Runtime before PyTorch; the others become prerequisites); a failure during
   an installation (an install asked for, a pip/build log, ``No module named``) is that product's install,
   whatever else the log mentions;
4. smallest fit: a plan that is asked for without execution ("plan only", "don't run it") is the plan skill,
   even inside a quantize request; installs stated next to a workflow are its prerequisites, never its
   replacement; facts the workflow needs and the goal lacks (hardware, validated paths) are prerequisites
   recorded in ``open_questions``, never the route;
5. a bare action verb (its clause names no model, file, scheme or product, and asks nothing) never
   outranks a question asked in another clause: the goal asks between the two (an L0 question, "which GPU
   is this?", stays a prerequisite instead); a bare *quantize* does not outrank any other request (L0
   included): an unknown way of saying "not now" must not reach the PTQ workflow.

Confidence: a route is confident only when the parse has settled it and the catalog agrees. The parse
leaves it open (``undecided``, the readings offered) when

* the goal names an ONNX model in one clause and a PyTorch model in another (``Parse.both_backends``) and
  the role is chosen by backend: which model is meant is the user's answer;
* the route is an L0 skill (preflight, workspace) and another clause mentions a higher-ranked action (a
  scheme name next to a model): the seed routes to L0 only when the goal is about nothing else;
* a bare verb faces another clause's request (rule 5), or the reading is ambiguous (below).

Agreement with the catalog. Each catalog skill gets ``parse + LEXICAL_WEIGHT * similarity``: ``parse`` is
:data:`PARSE_STRONG` for the rules' skill (:data:`PARSE_WEAK` when only a scheme was mentioned),
0 for every other skill; ``similarity`` is the BM25 score (``bm25s``) of the deciding clause (with the
clauses that only name objects; prerequisite clauses such as "install torch first" are left out) against
the skill's description over the best skill's score, or over :data:`SIMILARITY_FLOOR` when the best is
lower (a weak lexical match can only weakly disagree). Skills the rules set aside on purpose (the tool a
reported failure was about; the debugger, when an installation fails) are no rivals. The rules' skill is
routed when it leads every other skill by :data:`MARGIN`; otherwise the goal is ``undecided`` with the
rules' skill and the best-matching descriptions offered. An ambiguous reading
("compare", "serve", "set up Quark"), a goal the rules find nothing in, and a role the catalog has no skill
for are questions too (the last offers the role's alternatives, never a guess; a goal the rules find
nothing in offers the seed's "I want to use Quark" question, led by the skill whose description matches
its words when that is a real match, BM25 at least :data:`SIMILARITY_FLOOR`: offered, never routed to).

Calibration (dev set ``dev_3``, 80 goals by an independent writer, and every own set; see
``benchmarks/bench_router.py``): :data:`MARGIN` 3 (a lexical veto when another description leads the rules'
skill by more than 0.7 of the best normalised similarity) is kept: a tighter agreement (margin 4-7, i.e. a
veto at a 0.6-0.3 lead) made no dev route more precise and made 3 (margin 4) to 41 (margin 7) own-set
answers and 1-2 of the 30 bundled evals wrong; requiring the rules' skill to be the lexical top-1 would have turned 162 of 660 right own-set routes into
questions (short descriptions rank incidental words: paths, hardware, a second clause). Asking on two strong
requests whose precedence is not one of the seed's explicit ones (quantize > post-quantization stage > plan >
install > inspect > L0) was measured too and not kept: every such dev and own-set route was right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from quarkci.router.catalog import CatalogSkill
from quarkci.router.lexical import LexicalIndex
from quarkci.router.lexicon import ActionSpec
from quarkci.router.parse import Act, Parse, lexicon_action, parse
from quarkci.router.roles import ROLES

UNDECIDED = "undecided"
PARSE_STRONG = 10.0  # parse score of the rules' skill for a request
PARSE_WEAK = 6.0  # ... when only a scheme was mentioned, or for each reading of an ambiguous request
LEXICAL_WEIGHT = 10.0  # what the best-matching description adds
# BM25 score below which the best description counts as a weak match (about one distinctive term)
SIMILARITY_FLOOR = 2.0
MARGIN = 3.0  # the rules' skill must lead every other skill by this much
DESCRIBED = "described_skill"  # the label of an offered skill no role covers
DEFAULT_OPTIONS = (
    "model_intake",
    "ptq_workflow",
    "quark_install",
)  # the seed's "I want to use Quark" question
MAX_OPTIONS = 3
_COVERS_FAILURES = re.compile(r"\b(diagnos\w*|debug\w*|troubleshoot\w*|resum\w*|recover\w*)\b")
_INSTALL_ORDER = ("torch_install", "onnx_install", "quark_install")  # prerequisites in the order they run
_PRODUCT_ROLE = {"quark": "quark_install", "torch": "torch_install", "onnxruntime": "onnx_install"}


@dataclass(frozen=True)
class Facts:
    """What the router knows besides the goal: only presence and the accelerator value are read."""

    env_known: bool = False  # an env_context is available ...
    accelerator: str | None = None  # ... with this hardware.accelerator
    workspace_known: bool = False


@dataclass(frozen=True)
class Intent:
    """What the rules read from the parse: ``roles`` (one: a route; several: an ambiguous reading; none:
    nothing Quark does), the act that decided it, installs to run first, and the skill named outright."""

    roles: tuple[str, ...]
    act: Act | None
    why: str
    weak: bool = False
    installs: tuple[str, ...] = ()
    skill: str | None = None
    overridden: tuple[str, ...] = ()  # roles of actions a reported failure outranked (the tool that failed)


@dataclass(frozen=True)
class Decision:
    """``role`` is None when no route is chosen; then ``interpretations`` holds the roles offered."""

    role: str | None
    reason: str
    interpretations: tuple[str, ...] = ()
    prerequisites: tuple[tuple[str, str], ...] = field(default=())  # (role, why)
    scores: tuple[tuple[str, float], ...] = ()  # (skill or role, parse + lexical score), best first
    skill: str | None = None  # the skill when it was named in the goal or offered by its description


def _why(spec: ActionSpec) -> str:
    return _WHY.get(spec.name, f"a request to {spec.name.replace('_', ' ')}")


_WHY = {
    "quantize": "a request to quantize a model: the PTQ workflow",
    "failure": "a failure to diagnose, not a new run",
    "export": "export, convert or package a model that is already quantized",
    "validate_out": "validate an existing quantized output",
    "eval": "an accuracy evaluation, not a quantization",
    "compare": '"compare" may mean model accuracy or the quantized outputs',
    "serve": "Quark has no serving skill; serving is part of evaluation, or the goal is a model to serve",
    "plan": "a quantization plan (smallest fit)",
    "install": "an installation of the product named",
    "setup": '"set up Quark" may mean installing it, or installing it and then quantizing',
    "inspect": "inspect the model (smallest fit)",
    "preflight": "a question about the machine's environment",
    "workspace": "a question about model or output paths",
    "shrink": "a one-layer model for debugging",
    "file2file": "a low-memory file2file quantization",
    "quant_perf": "a mixed-precision search with accuracy and throughput validation",
    "config_search": "a search over quantization configs",
    "graph_rewrite": "a graph rewrite with ShapeShifter passes",
    "pass_authoring": "writing a new ShapeShifter pass",
    "partition": "partitioning the graph into subgraphs",
    "skill_creation": "creating a Quark agent skill (maintainer work)",
    "skill_audit": "auditing the skills against upstream Quark (maintainer work)",
    "out_of_scope": "a task no Quark skill does",
}


def _by_key(roles: dict[str, Any], key: str | None, default: str) -> Any:
    return roles.get(key or default, roles.get(default))


def _roles_of(spec: ActionSpec, p: Parse) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(roles, installs first) of action ``spec`` for the objects of ``p`` (see the module docstring, 3)."""
    roles = spec.roles
    installs: tuple[str, ...] = ()
    if isinstance(roles, dict):
        if "install" in roles:  # a failure: by domain
            if _install_failure(p):
                return _install_roles(p)
            roles = _by_key(roles, p.backend, "torch")
        elif "quark" in roles:  # an install: by product
            product = p.products[0] if p.products else "none"
            roles = _by_key(roles, product, "none")
            installs = tuple(_PRODUCT_ROLE[x] for x in p.products[1:])
        else:
            roles = _by_key(roles, p.backend, spec.default_backend)
    if roles is None:
        return (), installs
    return (tuple(roles) if isinstance(roles, list) else (str(roles),)), installs


def _install_failure(p: Parse) -> bool:
    return (
        p.has("install")
        or p.has("setup")
        or "install_log" in p.evidence
        or p.module is not None
        or "modulenotfounderror" in p.text.split()
    )


def _install_roles(p: Parse) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The install role of a failed installation: the module that cannot be imported, else the product named."""
    if p.module:
        for product, role in _PRODUCT_ROLE.items():
            if p.module.startswith(product) or product == "onnxruntime" and p.module.startswith("onnx"):
                return (role,), ()
    products = p.products or ("quark",)
    return (_PRODUCT_ROLE[products[0]],), ()  # the other packages a log names are that install's dependencies


def _named_skill(p: Parse, catalog: list[CatalogSkill]) -> str | None:
    raw = p.goal.lower()
    for skill in sorted(catalog, key=lambda s: -len(s.name)):
        if re.search(rf"(?<![\w-]){re.escape(skill.name)}(?![\w-])", raw):
            return skill.name
    return None


def intent(p: Parse, names: dict[str, str], catalog: list[CatalogSkill]) -> Intent:
    """The route the seed's rules read from parse ``p`` (see the module docstring, 1-4)."""
    active = [a for a in p.active() if not (lexicon_action(a.action).needs_domain and not p.domain)]
    # a bare mention (a scheme name) of an action the goal itself puts off ("before quantizing, decide
    # between int4 and fp8") is what the deferred action is about, not a request of its own
    put_off = {a.action for a in p.off() if not a.weak}
    active = [a for a in active if not (a.weak and a.action in put_off)]
    failing = any(a.action == "failure" for a in active)
    named = None if failing else _named_skill(p, catalog)
    if named:
        role = next((r for r, n in names.items() if n == named), DESCRIBED)
        return Intent((role,), None, f'the goal names the skill "{named}"', skill=named)
    strong = [a for a in active if not a.weak]
    pool = strong or active
    overridden: tuple[str, ...] = ()
    if failing:
        descriptions = {s.name: s.positive for s in catalog}
        kept = [a for a in pool if _keeps_over_failure(a, p, names, descriptions)]
        overridden = tuple(
            r for a in pool if a not in kept for r in _roles_of(lexicon_action(a.action), p)[0]
        )
        pool = kept
    if not pool:
        return Intent((), None, "the goal names no Quark task the router recognises")
    top = max(lexicon_action(a.action).rank for a in pool)
    tops = [a for a in pool if lexicon_action(a.action).rank == top]
    readings = [_roles_of(lexicon_action(a.action), p) for a in tops]
    roles = _agree([r for r, _i in readings])
    act = tops[0]
    spec = lexicon_action(act.action)
    installs = tuple(dict.fromkeys(i for _r, ins in readings for i in ins))
    if not roles:
        return Intent((), act, _why(spec))
    if spec.name == "failure" and _install_failure(p):
        why = "an installation that fails (an install asked for, a pip/build log or an import error)"
        debuggers = ("debug", "onnx_debug")  # the seed sends an install failure to the install skill
        return Intent(roles, act, why, installs=installs, overridden=(*overridden, *debuggers))
    split = _other_backend(p, spec, roles)
    if split:
        why = f"{_why(spec)}, but the goal names both a PyTorch and an ONNX model in different clauses"
        return Intent((*roles, *split), act, why)
    mentioned = _mentioned_elsewhere(p, act, spec, roles)
    if mentioned:
        why = f"{_why(spec)}, but another clause is about more (an L0 skill is the route only when nothing else is)"
        return Intent((*roles, *mentioned), act, why)
    rival = _asked_elsewhere(p, act, roles, tops)
    if rival:
        why = f'{_why(spec)}, but "{act.evidence}" names nothing to act on and another clause asks for more'
        return Intent((*roles, *rival), act, why)
    if len(roles) == 1 and spec.name == "quantize" and p.has("plan") and "plan_only" in p.modes:
        plan = _roles_of(lexicon_action("plan"), p)[0]
        return Intent(plan, act, "a quantization plan without execution (smallest fit)")
    if len(roles) == 1 and roles[0] not in _INSTALL_ORDER and (p.has("install") or p.has("setup")):
        installs = _asked_installs(p)
    return Intent(roles, act, _why(spec), weak=act.weak, installs=installs, overridden=overridden)


def _other_backend(p: Parse, spec: ActionSpec, roles: tuple[str, ...]) -> tuple[str, ...]:
    """The other backend's role, when the role is chosen by backend and the goal names an ONNX model in one
    clause and a PyTorch model in another (see :attr:`Parse.both_backends`)."""
    keyed = spec.roles if isinstance(spec.roles, dict) else {}
    if len(roles) != 1 or not p.both_backends or not {"torch", "onnx"} <= keyed.keys():
        return ()
    other = keyed["torch"] if roles[0] == keyed["onnx"] else keyed["onnx"]
    return (other,) if isinstance(other, str) and other != roles[0] else ()


def _mentioned_elsewhere(p: Parse, act: Act, spec: ActionSpec, roles: tuple[str, ...]) -> tuple[str, ...]:
    """For an L0 route (environment preflight, workspace validation): the role of a higher-ranked action that
    another clause only mentions (a scheme name: "int4 weight-only for llama-2-13b"). The seed routes to an
    L0 skill only when the goal is about nothing else, so the goal asks between the two."""
    if not spec.foundation or len(roles) != 1:
        return ()
    for other in p.active():
        theirs_spec = lexicon_action(other.action)
        if other.clause == act.clause or not other.weak or theirs_spec.rank <= spec.rank:
            continue
        theirs = _roles_of(theirs_spec, p)[0]
        if theirs and not set(theirs) & set(roles):
            return theirs
    return ()


def _asked_elsewhere(p: Parse, act: Act, roles: tuple[str, ...], tops: list[Act]) -> tuple[str, ...]:
    """The roles of another clause's request, when the deciding action's clause is bare (names no model,
    file, scheme or product) and is no question (for quantize: even when it is one, "quantization? meh"): "forget the quantizing, what model type is X?" is then a
    question between the two, never a confident route on the bare verb. The rival is a question asked in
    another clause; for a bare *quantize* (a negation or deferral the lexicon does not know would send a
    user to the PTQ workflow: "la cuantización la dejamos para después, ahora revisa qué GPU hay") it is
    any other request, an L0 one included."""
    from quarkci.router.lexicon import lexicon

    quantize = act.action == "quantize"
    if act.asked and not quantize or lexicon().objects["concrete"].search(p.clauses[act.clause].text):
        return ()
    for other in p.active():
        spec = lexicon_action(other.action)
        if other.clause == act.clause or other.weak or other in tops:
            continue
        if not quantize and (spec.foundation or not other.asked):
            continue  # an L0 question (which GPU?) is a prerequisite of the workflow, never its rival
        theirs = _roles_of(spec, p)[0]
        if theirs and not set(theirs) & set(roles):
            return theirs
    return ()


def _agree(readings: list[tuple[str, ...]]) -> tuple[str, ...]:
    """One role when every top action allows it ("compare accuracy": eval); else all readings, in order."""
    sets = [set(r) for r in readings if r]
    if not sets:
        return ()
    common = set.intersection(*sets)
    if len(common) == 1:
        return tuple(common)
    return tuple(dict.fromkeys(role for r in readings for role in r))


def _asked_installs(p: Parse) -> tuple[str, ...]:
    """Install roles a workflow goal asks for first ("set up torch and Quark, then ..."), in install order."""
    wanted = {_PRODUCT_ROLE[x] for x in p.products} or {"quark_install"}
    return tuple(r for r in _INSTALL_ORDER if r in wanted)


def _keeps_over_failure(a: Act, p: Parse, names: dict[str, str], descriptions: dict[str, str]) -> bool:
    """Whether action ``a`` still counts when an error is reported: the failure itself, anything ranked
    below it (it loses anyway), or a specialised skill whose description covers diagnosing."""
    spec = lexicon_action(a.action)
    if a.action == "failure" or spec.rank <= lexicon_action("failure").rank:
        return True
    roles, _ = _roles_of(spec, p)
    return any(r in names and _COVERS_FAILURES.search(descriptions.get(names[r], "")) for r in roles)


def decide(
    goal: str,
    facts: Facts,
    names: dict[str, str],
    catalog: list[CatalogSkill] | None = None,
    index: LexicalIndex | None = None,
) -> Decision:
    """The routing decision for ``goal`` (non-empty) given ``facts`` and the catalog's role map ``names``.

    ``catalog``/``index`` (the skills and a :class:`LexicalIndex` over their descriptions, same order) give
    the lexical side of the confidence check; without them only the rules count. Deterministic.
    """
    p = parse(goal)
    catalog = catalog or []
    it = intent(p, names, catalog)
    off = _off_note(p)
    if not it.roles:
        if it.act is not None:
            return Decision(None, f'the goal says "{it.act.evidence}": {it.why}{off}', DEFAULT_OPTIONS)
        described = _described_best(p, catalog, index, names)
        if described is None:
            return Decision(None, it.why + off, DEFAULT_OPTIONS)
        why = f"{it.why}; the description of {described[1]} matches its words best"
        options = (described[0], *DEFAULT_OPTIONS[: MAX_OPTIONS - 1])
        return Decision(None, why + off, options)
    said = (f'the goal says "{it.act.evidence}": ' if it.act else "") + it.why + off
    similarity = _similarity(p, it.act, catalog, index)
    if len(it.roles) > 1:
        scores = tuple(
            (r, round(PARSE_WEAK + LEXICAL_WEIGHT * similarity.get(names.get(r, ""), 0.0), 2))
            for r in it.roles
        )
        return Decision(None, said, it.roles, (), scores)
    role = it.roles[0]
    skill = it.skill or names.get(role)
    if skill is None:
        missing = (role, *(r for r in ROLES[role].alternatives if r in names))
        why = f"{said}; the catalog has no skill for the role '{role}' ({ROLES[role].summary})"
        return Decision(None, why, missing)
    skip = {names[r] for r in it.overridden if r in names}  # the failing tool's own skill explains its words
    scores = _scores(skill, it, [s for s in catalog if s.name not in skip], similarity)
    lead = scores[0][1] - max((s for n, s in scores if n != skill), default=0.0)
    if scores[0][0] != skill or lead < MARGIN:
        rivals = [n for n, _s in scores if n != skill][: MAX_OPTIONS - 1]
        options = tuple(dict.fromkeys([_label(skill, names), *(_label(n, names) for n in rivals)]))
        why = (
            f"{said}; but the catalog's descriptions do not confirm {skill} "
            f"(score {_score_of(skill, scores)} vs {rivals[0] if rivals else '-'} "
            f"{_score_of(rivals[0], scores) if rivals else 0.0}, margin {MARGIN})"
        )
        return Decision(None, why, options, (), scores)
    if role == DESCRIBED:
        return Decision(DESCRIBED, said, (), (), scores, skill)
    prereqs = prerequisites(role, p, facts, it.installs)
    return Decision(role, said, (), prereqs, scores, it.skill)


def _described_best(
    p: Parse, catalog: list[CatalogSkill], index: LexicalIndex | None, names: dict[str, str]
) -> tuple[str, str] | None:
    """(option, skill) of the routable skill whose description matches a goal the rules find nothing in,
    when that match is a real one (BM25 at least :data:`SIMILARITY_FLOOR`) and the seed's default question
    does not offer it already; else None. Only ever offered, never routed to."""
    from quarkci.router.roles import routable

    if not catalog or index is None:
        return None
    raw = index.scores(p.text, canonical=True)
    ranked = sorted((-x, s.name) for x, s in zip(raw, catalog, strict=True) if routable(s))
    if not ranked or -ranked[0][0] < SIMILARITY_FLOOR:
        return None
    label = _label(ranked[0][1], names)
    return None if label in DEFAULT_OPTIONS else (label, ranked[0][1])


def _label(skill: str, names: dict[str, str]) -> str:
    """The option a skill stands for: the role it plays, or ``described_skill:<name>``."""
    role = next((r for r, n in names.items() if n == skill), None)
    return role or f"{DESCRIBED}:{skill}"


def _score_of(name: str, scores: tuple[tuple[str, float], ...]) -> float:
    return next((s for n, s in scores if n == name), 0.0)


def _similarity(
    p: Parse, act: Act | None, catalog: list[CatalogSkill], index: LexicalIndex | None
) -> dict[str, float]:
    """Skill -> BM25 similarity of the deciding clause (with the clauses that only name objects) to its
    description, over the best score or :data:`SIMILARITY_FLOOR` (0..1)."""
    if not catalog or index is None:
        return {}
    raw = index.scores(p.active_text(act) or p.text, canonical=True)
    top = max(raw, default=0.0)
    if top <= 0:
        return {}
    scale = max(top, SIMILARITY_FLOOR)
    return {s.name: raw[i] / scale for i, s in enumerate(catalog)}


def _scores(
    skill: str, it: Intent, catalog: list[CatalogSkill], similarity: dict[str, float]
) -> tuple[tuple[str, float], ...]:
    """(skill, parse + lexical score) for every catalog skill that scores, best first (see the module docstring)."""
    from quarkci.router.roles import routable

    out: dict[str, float] = {}
    for s in catalog:
        if s.name != skill and not routable(s):
            continue  # a maintainer skill is a route only when the rules choose it
        base = (PARSE_WEAK if it.weak else PARSE_STRONG) if s.name == skill else 0.0
        score = base + LEXICAL_WEIGHT * similarity.get(s.name, 0.0)
        if score > 0 or s.name == skill:
            out[s.name] = round(score, 2)
    return tuple(sorted(out.items(), key=lambda kv: (-kv[1], kv[0] != skill, kv[0])))


def _off_note(p: Parse) -> str:
    """'; "quantize" is negated' (and deferred / done already) for the reason line."""
    notes = {"negated": "is negated", "deferred": "is for later", "done": "is done already"}
    seen = []
    for a in p.off():
        if not a.weak:
            seen.append(f'"{a.evidence}" {notes[a.polarity]}')
    return "".join(f"; {s}" for s in dict.fromkeys(seen))


def prerequisites(
    role: str, p: Parse, facts: Facts, installs: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    spec = ROLES.get(role)
    if spec is None:
        return ()
    prereq: list[tuple[str, str]] = []
    stated = p.hardware is not None
    unknown = p.mentions("preflight") and not stated
    if spec.needs_hardware and not stated:
        if not facts.env_known:
            said = "; the goal says the hardware is not known" if unknown else ""
            prereq.append(
                ("env_preflight", f"accelerator not known yet (no env_context); CUDA is not assumed{said}")
            )
        elif facts.accelerator in (None, "unknown"):
            prereq.append(("env_preflight", "env_context reports the accelerator as unknown"))
    for install in installs:
        if install != role:
            prereq.append((install, "the goal asks for this installation before the main task"))
    if spec.needs_workspace and not facts.workspace_known:
        prereq.append(
            ("workspace_validate", "model path and output directory not validated yet (no workspace_context)")
        )
    return tuple(prereq)
