"""Clause-level intent parse: a goal -> its clauses, and per clause the actions asked for, their objects,
their polarity and whether the clause asks a question.

Everything language-specific comes from ``lexicon.yaml`` (:mod:`quarkci.router.lexicon`); this module only
applies it:

1. the goal becomes canonical text and clauses (:mod:`quarkci.router.text`);
2. per clause, every action pattern is matched (``questions`` patterns only in a clause that asks); a match
   inside the span of a lower-ranked action's match is that phrase's object, not a request ("a PTQ plan",
   "the best scheme for accuracy"), and is dropped;
3. polarity per action, from the marker tokens of its clause (their effect and scope are data): *negated*
   by a negation before it (the first action within :data:`WINDOW` words and those coordinated with it,
   never past the next marker; with nothing after it, the action just before: German "quantisiere nicht")
   or a verb-final negation just after it (Japanese/Korean); *deferred* by "later", "before I quantize it",
   "量化之前", "antes de cuantizar"; *done* after "after quantization", "once it is quantized", and for a
   stateful action (quantize, install, export) in a clause saying "already" / "torch works" ("already"
   before a state word only describes it: "the already quantized model"); else *active*. Errors
   (``evidence`` actions) are facts and always active. A clause with "only" is the *focus*: when it holds an
   active action, active actions outside focus clauses become context. A clause with no action that defers
   something says it of the bare topic before it ("La quantification, ce sera pour plus tard");
4. objects: the products named where they are asked about (not done, deferred, right after a negation or
   "not involved"), the
   backend (an ONNX model or graph, else a PyTorch model, else only the ONNX stack), pasted-log evidence
   (a pip/build log, a traceback) and the module of a ``No module named`` error.

Pure and deterministic; no model, no network.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from quarkci.router.lexicon import ActionSpec, lexicon
from quarkci.router.text import MARKER_TOKEN, Piece, clauses, normalise

WINDOW = 6  # a negation cue reaches this many words ahead
ACTIVE, NEGATED, DEFERRED, DONE, CONTEXT = "active", "negated", "deferred", "done", "context"
_MODULE = re.compile(r"no module named\W{0,3}([a-z_][\w.]*)")


@dataclass(frozen=True)
class Act:
    """One action found in a clause: ``evidence`` is the canonical text that matched; ``weak`` a mention
    only (a scheme name without a verb); ``polarity`` one of active / negated / deferred / done / context."""

    action: str
    evidence: str
    polarity: str
    clause: int
    weak: bool = False
    asked: bool = False

    @property
    def active(self) -> bool:
        """True when the goal asks for this action now."""
        return self.polarity == ACTIVE


@dataclass(frozen=True)
class Clause:
    """One clause of the canonical goal and what colours it."""

    text: str
    asked: bool
    negated: bool
    deferred: bool
    done: bool
    focus: bool
    objects: tuple[
        str, ...
    ] = ()  # what it is about: quark / onnxruntime / torch (products), onnx_model, torch_model, scheme


@dataclass(frozen=True)
class Parse:
    """The parse of one goal (see the module docstring)."""

    goal: str
    text: str
    clauses: tuple[Clause, ...]
    acts: tuple[Act, ...]
    products: tuple[str, ...] = ()  # products an install is about, in the lexicon's order of preference
    backend: str | None = None  # "onnx", "torch", or None when the goal names neither
    evidence: frozenset[str] = field(default_factory=frozenset)  # "install_log", "traceback"
    module: str | None = None  # the module of a "No module named X" error
    domain: bool = False  # the goal uses a word of Quark's domain
    modes: frozenset[str] = field(
        default_factory=frozenset
    )  # plan_only / batch_execute / interactive_execute
    hardware: str | None = None  # the accelerator the goal states (as stated: preflight confirms it)
    both_backends: bool = False  # one clause names an ONNX model, another a PyTorch one (which is meant?)

    def active(self) -> list[Act]:
        """The active actions, in goal order."""
        return [a for a in self.acts if a.active]

    def has(self, action: str) -> bool:
        """True when ``action`` is active."""
        return any(a.active and a.action == action for a in self.acts)

    def mentions(self, action: str) -> bool:
        """True when ``action`` was found, whatever its polarity."""
        return any(a.action == action for a in self.acts)

    def off(self) -> list[Act]:
        """The actions the goal mentions but does not ask for now (negated, deferred, done)."""
        return [a for a in self.acts if a.polarity in (NEGATED, DEFERRED, DONE)]

    def active_text(self, act: Act | None = None) -> str:
        """The canonical text lexical scoring reads: the clause of ``act`` (the action the rules chose; else
        of
        every active action) and the clauses that hold no action and are not negated, deferred or done."""
        keep = [
            c.text
            for i, c in enumerate(self.clauses)
            if (i == act.clause if act else any(a.clause == i and a.active for a in self.acts))
            or not any(a.clause == i and not a.weak for a in self.acts)
            and not (c.negated or c.deferred or c.done)
        ]
        return " ".join(keep)


@dataclass
class _Match:
    spec: ActionSpec
    start: int
    end: int
    text: str
    weak: bool


def _matches(piece: Piece, asked: bool) -> list[_Match]:
    found: list[_Match] = []
    for spec in lexicon().actions:
        unless = spec.unless is not None and spec.unless.search(piece.text) is not None
        if unless and not (spec.unless_not and spec.unless_not.search(piece.text)):
            continue  # e.g. "inspect" of the machine, not of a model
        groups = [(p, False) for p in spec.patterns] + [(p, True) for p in spec.weak]
        if asked:
            groups += [(p, False) for p in spec.questions]
        for rx, weak in groups:
            for hit in rx.finditer(piece.text):
                if hit.end() > hit.start():
                    found.append(_Match(spec, hit.start(), hit.end(), hit.group(0), weak))
    # a match inside a lower-ranked action's span is that phrase's object ("a ptq plan"): drop it
    kept = [
        m
        for m in found
        if not any(
            o.spec.name != m.spec.name
            and o.spec.rank <= m.spec.rank
            and o.start <= m.start
            and m.end <= o.end
            and (o.end - o.start) > (m.end - m.start)
            for o in found
        )
    ]
    # one match per action: the first strong one, else the first weak one
    best: dict[str, _Match] = {}
    for m in sorted(kept, key=lambda m: (m.weak, m.start)):
        best.setdefault(m.spec.name, m)
    return sorted(best.values(), key=lambda m: m.start)


_STRENGTH = {
    NEGATED: 3,
    DEFERRED: 2,
    DONE: 1,
    ACTIVE: 0,
}  # when two markers colour one action, the stronger wins


def _polarities(piece: Piece, matches: list[_Match]) -> dict[str, str]:
    """Action -> polarity in one clause, from the clause's marker tokens (effect, scope, reach:
    lexicon.yaml)."""
    by_token = lexicon().by_token
    words = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"\S+", piece.text)]
    out = {m.spec.name: ACTIVE for m in matches}

    def mark(m: _Match, effect: str) -> None:
        polarity = {"negated": NEGATED, "deferred": DEFERRED, "context": DONE, "done": DONE}[effect]
        if effect == "done" and not m.spec.stateful or m.spec.evidence:
            return  # "already" states a fact about a stateful action only; an error is always a fact
        if _STRENGTH[polarity] > _STRENGTH[out[m.spec.name]]:
            out[m.spec.name] = polarity

    def gap(start: int, end: int) -> int:
        """Words strictly between text offsets ``start`` and ``end``."""
        return sum(1 for s, e, _w in words if s >= start and e <= end)

    states = lexicon().states
    for k, (start, end, word) in enumerate(words):
        marker = by_token.get(word)
        if marker is None or marker.effect in ("none", "focus"):
            continue
        if marker.effect == "done" and k + 1 < len(words) and words[k + 1][2] in states:
            continue  # "the already quantized model": the marker describes the state word after it
        if marker.scope == "clause":
            chosen = matches
        elif marker.scope == "next":  # the first action within WINDOW words, and those coordinated with it
            barrier = next(  # a negative object reinforces a negation: "sans rien quantifier"
                (
                    s
                    for s, _e, w in words
                    if s >= end and w in by_token and by_token[w].effect != marker.effect
                ),
                len(piece.text),
            )
            ahead = [m for m in matches if end <= m.start < barrier and gap(end, m.start) < WINDOW]
            chosen = _coordinated(ahead, piece.text)
            if not chosen and marker.effect == "negated":  # "quantisiere das Modell nicht"
                chosen = [m for m in matches if m.end <= start and gap(m.end, start) <= 2][-1:]
        else:  # previous: the verb just before ("量子化はしないで"); a scheme mention of the same phrase too
            before = [m for m in matches if m.end <= start and gap(m.end, start) <= marker.reach]
            chosen = [m for m in before if m is before[-1] or m.weak] if before else []
        for m in chosen:
            mark(m, marker.effect)
    return out


def _coordinated(ahead: list[_Match], text: str) -> list[_Match]:
    """The first of ``ahead`` (matches in text order), a scheme mention overlapping it, and each further
    match joined to the one before by coordinators only ("quantize or export", "量化和导出")."""
    if not ahead:
        return []
    coordinators = lexicon().coordinators
    chosen = [ahead[0]]
    for m in ahead[1:]:
        between = text[chosen[-1].end : m.start].split()
        if (
            m.start < chosen[-1].end
            or m.weak
            and m.start <= chosen[0].end + 1
            or all(w in coordinators for w in between)
        ):
            chosen.append(m)
    return chosen


def _asked(piece: Piece) -> bool:
    return piece.asked or any(rx.search(piece.text) for rx in lexicon().question)


@lru_cache(maxsize=256)
def parse(goal: str) -> Parse:
    """The clause-level parse of ``goal`` (raw text, non-empty). Deterministic (cached: a Parse is frozen)."""
    lex = lexicon()
    text = normalise(goal)
    pieces = clauses(text) or [Piece(text, False)]
    acts: list[Act] = []
    shape: list[Clause] = []
    for i, piece in enumerate(pieces):
        asked = _asked(piece)
        matches = _matches(piece, asked)
        polarity = _polarities(piece, matches)
        words = piece.text.split()
        effects = {
            lex.by_token[w].effect
            for k, w in enumerate(words)
            if w in lex.by_token
            and not (lex.by_token[w].effect == "done" and k + 1 < len(words) and words[k + 1] in lex.states)
        }
        shape.append(
            Clause(
                piece.text,
                asked,
                negated="negated" in effects,
                deferred="deferred" in effects,
                done=bool(effects & {"done", "context"}),
                focus="focus" in effects,
                objects=_objects(piece.text),
            )
        )
        acts.extend(Act(m.spec.name, m.text, polarity[m.spec.name], i, m.weak, asked) for m in matches)
    acts = _topic(acts, shape)
    acts = _focus(acts, shape)
    raw = goal.lower()
    module = _MODULE.search(raw)
    hardware = lex.objects["hardware_stated"].search(text)
    return Parse(
        goal=goal,
        text=text,
        clauses=tuple(shape),
        acts=tuple(acts),
        products=_products(shape, acts),
        backend=_backend(shape, acts),
        both_backends=_both_backends(shape),
        evidence=frozenset(k for k, rx in lex.evidence.items() if rx.search(raw)),
        module=module.group(1) if module else None,
        domain=bool(lex.domain.search(text)),
        modes=frozenset(k for k, rx in lex.modes.items() if rx.search(text.replace(" | ", " "))),
        hardware=hardware.group(1) if hardware else None,
    )


TOPIC_WORDS = 3  # a clause of at most this many words (marker tokens aside) can be a topic


def _topic(acts: list[Act], shape: list[Clause]) -> list[Act]:
    """ "La quantification, ce sera pour plus tard": a clause that holds no action of its own but a deferral
    says it of the bare topic just before it (a clause of at most :data:`TOPIC_WORDS` words)."""
    out = list(acts)
    for i in range(1, len(shape)):
        said = "deferred" if shape[i].deferred else None  # a negating clause has a verb of its own
        if said is None or any(a.clause == i and not a.weak for a in acts):
            continue
        words = [w for w in shape[i - 1].text.split() if not MARKER_TOKEN.fullmatch(w)]
        if len(words) > TOPIC_WORDS:
            continue
        out = [
            Act(a.action, a.evidence, said, a.clause, a.weak, a.asked)
            if a.clause == i - 1 and a.active and not lexicon_action(a.action).evidence
            else a
            for a in out
        ]
    return out


def _focus(acts: list[Act], shape: list[Clause]) -> list[Act]:
    """With an active action in a focus ("only") clause, other clauses' active actions become context."""
    focused = {a.clause for a in acts if a.active and shape[a.clause].focus}
    if not focused:
        return acts
    return [
        a
        if not a.active or a.clause in focused or lexicon_action(a.action).evidence
        else Act(a.action, a.evidence, CONTEXT, a.clause, a.weak, a.asked)
        for a in acts
    ]


def lexicon_action(name: str) -> ActionSpec:
    """The :class:`ActionSpec` named ``name``. Raises :class:`KeyError` for an unknown action."""
    for spec in lexicon().actions:
        if spec.name == name:
            return spec
    raise KeyError(name)


def _products(shape: list[Clause], acts: list[Act]) -> tuple[str, ...]:
    """Products named where they are asked about: not in a done or deferred clause without an active
    action, not right after a negation ("no torch", "ohne Quark"), nor said to be "not involved"; ordered
    by the lexicon's preference (Quark first)."""
    lex = lexicon()
    named: set[str] = set()
    for i, clause in enumerate(shape):
        asks = any(a.clause == i and a.active for a in acts)
        if lex.not_needed.search(clause.text) or (clause.done or clause.deferred) and not asks:
            continue
        for name, rx in lex.products:
            for m in rx.finditer(clause.text):
                if "_neg_" not in clause.text[: m.start()].split()[-2:]:
                    named.add(name)
    return tuple(name for name, _rx in lex.products if name in named)


def _objects(text: str) -> tuple[str, ...]:
    """What one clause names: the products, an ONNX model or graph, a PyTorch model, a scheme."""
    lex = lexicon()
    found = [name for name, rx in lex.products if rx.search(text)]
    bare = lex.objects["onnx_target"].sub(" ", text)
    if lex.objects["onnx_strong"].search(bare):
        found.append("onnx_model")
    if lex.objects["torch"].search(bare):
        found.append("torch_model")
    if lex.objects["schemes"].search(text):
        found.append("scheme")
    return tuple(found)


def _backend(shape: list[Clause], acts: list[Act]) -> str | None:
    """ "onnx" for an ONNX model or graph, else "torch" for a PyTorch model, else "onnx" when only the ONNX
    stack is named; read from the clauses with an active action first, then from the whole goal."""
    objects = lexicon().objects
    active = " ".join(c.text for i, c in enumerate(shape) if any(a.clause == i and a.active for a in acts))
    for text in (active, " ".join(c.text for c in shape)):
        text = objects["onnx_target"].sub(" ", text)
        if objects["onnx_strong"].search(text):
            return "onnx"
        if objects["torch"].search(text):
            return "torch"
        if objects["onnx_weak"].search(text):
            return "onnx"
    return None


def _both_backends(shape: list[Clause]) -> bool:
    """True when one clause names an ONNX model or graph and another clause a PyTorch model, and no clause
    names both ("quantize llama-3-8b; I also have an .onnx export of it": which of the two is to be
    quantized is the user's answer, not the parse's)."""
    lex = lexicon()
    product = dict(lex.products)["torch"]  # "install torch first" names the library, not a model
    onnx = {i for i, c in enumerate(shape) if "onnx_model" in c.objects}
    torch = {
        i
        for i, c in enumerate(shape)
        if "torch_model" in c.objects and lex.objects["torch"].search(product.sub(" ", c.text))
    }
    return bool(onnx) and bool(torch) and not onnx & torch
