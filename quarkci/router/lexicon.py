"""The router's vocabulary, loaded from ``lexicon.yaml`` (the one data file; see its header for the sections).

:func:`lexicon` returns the compiled :class:`Lexicon` (cached): term substitutions, clause markers, question
patterns, action specs, object and evidence patterns. Nothing here knows a word of any language: the words
are data. Raises :class:`ValueError` when the file does not have the documented shape (a packaging bug,
never user input).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

LANGUAGES = ("en", "de", "fr", "es", "zh", "ja", "ko")
_SPACED = frozenset(
    {"en", "de", "fr", "es"}
)  # scripts with spaces between words: entries get word boundaries
EFFECTS = frozenset({"negated", "deferred", "context", "done", "focus", "none"})
BREAKS = frozenset({"before", "after", "none"})
SCOPES = frozenset({"next", "previous", "clause"})


@dataclass(frozen=True)
class Marker:
    """One marker kind: its ``token`` in the canonical text, its ``effect`` on the actions in its ``scope``
    (next / previous / clause) and where a clause ``break`` falls (before / after / none)."""

    kind: str
    token: str
    effect: str
    scope: str
    brk: str
    reach: int = 2  # scope previous: at most this many words between the action and the marker


@dataclass(frozen=True)
class ActionSpec:
    """One action class: ``roles`` is a role id, a list (an ambiguous reading), a mapping keyed by backend,
    product or failure domain, or None (a request no Quark skill serves); ``rank`` orders actions."""

    name: str
    rank: int
    roles: Any
    patterns: tuple[re.Pattern[str], ...]
    weak: tuple[re.Pattern[str], ...] = ()
    questions: tuple[re.Pattern[str], ...] = ()
    stateful: bool = False
    needs_domain: bool = False
    default_backend: str = "torch"
    evidence: bool = False  # a fact (an error): never negated, deferred or done
    foundation: bool = False  # an L0 skill (preflight, workspace): a workflow's prerequisite, never its rival
    unless: re.Pattern[str] | None = None  # the action does not count in a clause that matches this ...
    unless_not: re.Pattern[str] | None = None  # ... unless the clause also matches this


@dataclass(frozen=True)
class Lexicon:
    """The compiled vocabulary (see ``lexicon.yaml``)."""

    terms: tuple[tuple[re.Pattern[str], str], ...]
    markers: re.Pattern[str]  # one alternation, a named group per entry (g0, g1, ...)
    marker_entries: tuple[tuple[re.Pattern[str], Marker], ...]  # each entry (bounded), longest first
    by_token: dict[str, Marker]  # marker token -> its marker (one effect and scope per token)
    question: tuple[re.Pattern[str], ...]
    actions: tuple[ActionSpec, ...]
    products: tuple[tuple[str, re.Pattern[str]], ...]
    not_needed: re.Pattern[str]
    objects: dict[str, re.Pattern[str]]
    evidence: dict[str, re.Pattern[str]]
    modes: dict[str, re.Pattern[str]]
    domain: re.Pattern[str]
    stopwords: frozenset[str]  # words lexical scoring ignores
    states: frozenset[str]  # state words ("quantized"): a done marker before one describes it
    coordinators: frozenset[str]  # "or", "and", ...: what joins actions a `next` marker reaches together


_HEAD = r"(?<![\w./-])"  # never inside "model.pt", "a/b" or "one-layer" ...
_TAIL = r"(?!\w|[./]\w|-(?!(?:moi|toi|nous|vous|le|la|les|lui|leur)\b)\w)"  # ... "recommande-moi" still ends


def _plain(lang: str, pattern: str) -> bool:
    """Whether a spaced-script entry takes the standard word boundaries (no ``~``, no trailing apostrophe)."""
    return lang in _SPACED and not pattern.startswith("~") and not pattern.endswith("'")


def _bounded(lang: str, pattern: str) -> str:
    """``pattern`` as written for CJK; for spaced scripts wrapped in word boundaries (a leading ``~`` opts
    out)."""
    if lang not in _SPACED:  # a Latin word inside a CJK entry still ends at Latin letters ("skill", "hub")
        head = r"(?<![a-z0-9])" if re.match(r"[a-z]", pattern) else ""
        return head + pattern + (r"(?![a-z0-9])" if re.search(r"[a-z]$", pattern) else "")
    if pattern.startswith("~"):
        return pattern[1:]
    return rf"{_HEAD}(?:{pattern})" + ("" if pattern.endswith("'") else _TAIL)


def _entries(block: dict[str, Any], where: str) -> list[str]:
    """All language entries of ``block`` (bounded), longest first (so "rather than" wins over "rather")."""
    out: list[str] = []
    for lang, items in block.items():
        if lang not in LANGUAGES:
            continue
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise ValueError(f"lexicon.yaml {where}.{lang}: expected a list of strings")
        out.extend(_bounded(lang, i) for i in items)
    return sorted(out, key=len, reverse=True)


def _compile_list(items: Any, where: str) -> tuple[re.Pattern[str], ...]:
    if items is None:
        return ()
    if not isinstance(items, list):
        raise ValueError(f"lexicon.yaml {where}: expected a list of patterns")
    return tuple(re.compile(p) for p in items)


def _markers(
    data: list[dict[str, Any]],
) -> tuple[re.Pattern[str], tuple[tuple[re.Pattern[str], Marker], ...], dict[str, Marker]]:
    """One regex over every marker entry (the word boundaries of spaced scripts factored out: one look-behind
    per position, not one per entry), each entry for :meth:`Lexicon.marker_for`, and token -> marker."""
    entries: list[tuple[str, str, Marker]] = []
    by_token: dict[str, Marker] = {}
    for block in data:
        kind = str(block.get("kind"))
        if (
            block.get("effect") not in EFFECTS
            or block.get("break") not in BREAKS
            or block.get("scope") not in SCOPES
            or not re.fullmatch(r"_[a-z]+_", str(block.get("token")))
        ):
            raise ValueError(f"lexicon.yaml markers: bad token/effect/scope/break in {kind!r}")
        marker = Marker(
            kind, block["token"], block["effect"], block["scope"], block["break"], int(block.get("reach", 2))
        )
        seen = by_token.setdefault(marker.token, marker)
        if (seen.effect, seen.scope, seen.reach) != (marker.effect, marker.scope, marker.reach):
            raise ValueError(f"lexicon.yaml markers: token {marker.token} has two meanings")
        _entries(block, f"markers.{kind}")  # shape check
        entries.extend((lang, p, marker) for lang in LANGUAGES for p in block.get(lang) or [])
    entries.sort(key=lambda e: len(e[1]), reverse=True)  # "rather than" before "rather"
    plain = "|".join(p for lang, p, _m in entries if _plain(lang, p))
    other = "|".join(_bounded(lang, p) for lang, p, _m in entries if not _plain(lang, p))
    pattern = "|".join(x for x in (other, f"{_HEAD}(?:{plain}){_TAIL}" if plain else "") if x)
    each = tuple((re.compile(_bounded(lang, p)), m) for lang, p, m in entries)
    return re.compile(pattern), each, by_token


def _action(name: str, spec: dict[str, Any]) -> ActionSpec:
    if not isinstance(spec.get("rank"), int) or "roles" not in spec:
        raise ValueError(f"lexicon.yaml actions.{name}: needs rank and roles")
    return ActionSpec(
        name=name,
        rank=spec["rank"],
        roles=spec["roles"],
        patterns=_compile_list(spec.get("patterns"), f"actions.{name}.patterns"),
        weak=_compile_list(spec.get("weak"), f"actions.{name}.weak"),
        questions=_compile_list(spec.get("questions"), f"actions.{name}.questions"),
        stateful=bool(spec.get("stateful", False)),
        needs_domain=bool(spec.get("needs_domain", False)),
        default_backend=str(spec.get("default_backend", "torch")),
        evidence=bool(spec.get("evidence", False)),
        foundation=bool(spec.get("foundation", False)),
        unless=re.compile(spec["unless"]) if spec.get("unless") else None,
        unless_not=re.compile(spec["unless_not"]) if spec.get("unless_not") else None,
    )


def build(data: dict[str, Any]) -> Lexicon:
    """Compile a lexicon document (the parsed ``lexicon.yaml``). Raises :class:`ValueError` on a bad shape."""
    terms = []
    for entry in data["terms"]:
        alternatives = _entries(entry, f"terms.{entry.get('to')}")
        terms.append((re.compile("|".join(alternatives)), f" {entry['to']} "))
    markers, marker_entries, by_token = _markers(data["markers"])
    question = tuple(re.compile(p) for p in _entries(data["question"], "question"))
    objects = data["objects"]
    products = tuple((name, re.compile(p)) for name, p in objects["products"].items())
    return Lexicon(
        terms=tuple(terms),
        markers=markers,
        marker_entries=marker_entries,
        by_token=by_token,
        question=question,
        actions=tuple(_action(n, s) for n, s in data["actions"].items()),
        products=products,
        not_needed=re.compile(objects["not_needed"]),
        objects={k: re.compile(v) for k, v in objects.items() if isinstance(v, str) and k != "not_needed"},
        evidence={k: re.compile(v) for k, v in data["evidence"].items()},
        modes={k: re.compile(v) for k, v in data["modes"].items()},
        domain=re.compile(data["domain"]),
        stopwords=frozenset(w for lang in LANGUAGES for w in data["stopwords"].get(lang, [])),
        states=frozenset(data["states"]),
        coordinators=frozenset(str(w) for w in data["coordinators"]),
    )


def marker_for(lex: Lexicon, match: re.Match[str]) -> Marker:
    """The marker of ``match`` (a match of ``lex.markers``): the longest entry that matches the same span in
    its context (entries may look around: "noch(?= nicht)").

    Raises :class:`KeyError` when none does (cannot happen for a match of ``lex.markers``).
    """
    for rx, marker in lex.marker_entries:
        hit = rx.match(match.string, match.start())
        if hit and hit.end() == match.end():
            return marker
    raise KeyError(match.group(0))


@cache
def lexicon() -> Lexicon:
    """The compiled package lexicon (``quarkci/router/lexicon.yaml``), built once per process."""
    text = resources.files("quarkci.router").joinpath("lexicon.yaml").read_text("utf-8")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 25x faster on this file
    return build(yaml.load(text, Loader=loader))  # noqa: S506 - a safe loader, on package data
