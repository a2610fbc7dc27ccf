"""Version statements about a named package, in any phrasing, read clause by clause.

A clause (a sentence, a list item, a table row, a code line) may name packages and state a version range
after each: ``onnx 1.18–1.22``, ``onnxruntime 1.20.1 to 1.22.1``, ``onnx >= 1.16, <= 1.19``, ``<= 2.1.3``,
``transformers 4.50 or newer``, ``at least 1.20``, ``up to 1.22``, ``1.20, 1.21 or 1.22``, a table row
``onnxruntime | 1.18 – 1.22``, and a negative single version ("Python 3.13 is not supported"). Which words
are package names is not decided here: the caller passes the names (the release vocabulary's dependency
names), so a new package needs no new pattern. The range must start within a few words of the package name
and before the next package name; what follows a lone version without a negation ("tested with 1.20.1") is
no range (precision over recall).

Ranges are :class:`packaging.specifiers.SpecifierSet` strings read literally: "A to B", "A–B" and "up to B"
are ``<=B`` (Quark pins its own caps the same way: ``onnx<=1.22.0``), a list of versions becomes the range
it spans.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from packaging.utils import canonicalize_name

from quarkci.skills.claims.phrases import leading_range, supported_single

_WORD = re.compile(r"(?<![\w./-])[A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9](?![\w])")
_CLAUSE_END = re.compile(
    r"(?<=[^\d\s])[.;!?](?=\s|$)|(?<=\d)[.;!?](?=\s+[A-Z]|\s*$)|\?(?:\*\*|__|\*|_)(?=\s|$)|;|\n\s*\n"
)
_NEGATIVE = re.compile(
    r"\b(?:not (?:(?:currently|yet|officially|presently)\s+)?supported|unsupported|not compatible"
    r"|incompatible|is not available|isn't supported|(?:is|are|falls?) outside (?:the |its )?supported"
    r"|are not (?:(?:currently|yet|officially|presently)\s+)?supported|does not support|doesn't support"
    # "NumPy 2.2 and newer are excluded by `numpy<=2.1.3`": the versions named are the ones left out
    r"|(?:is|are) (?:excluded|disallowed|not allowed|ruled out|rejected|refused|blocked))\b",
    re.IGNORECASE,
)
_NEGATED_BEFORE = re.compile(
    r"(?:not (?:(?:currently|yet|officially|presently)\s+)?supported|unsupported|does not support"
    r"|doesn't support|no support for)\s*(?:on|for|:)?\s*$",
    re.IGNORECASE,
)


_SECOND_WORD = re.compile(r" ([A-Za-z][a-z]+)\b")


@dataclass(frozen=True)
class Statement:
    """A version range stated for ``package`` (canonical name): ``spec`` (SpecifierSet string), ``text``
    (the words that carry it), ``start`` (offset of the package name in the clause's text), ``negative``
    (the clause says the versions are not supported: ``spec`` is then the versions said unsupported)."""

    package: str
    spec: str
    text: str
    start: int
    negative: bool
    supported: bool = False  # a lone version said supported ("Python 3.13 is supported"): spec ``==A.*``


def clauses(text: str) -> Iterator[tuple[int, str]]:
    """(offset, clause) pairs of ``text``: split at sentence ends and semicolons (not inside versions)."""
    start = 0
    for match in _CLAUSE_END.finditer(text):
        yield start, text[start : match.end()]
        start = match.end()
    if start < len(text):
        yield start, text[start:]


def statements(
    text: str, packages: Iterable[str], aliases: dict[str, str] | None = None
) -> Iterator[Statement]:
    """Every version statement of ``text`` about one of ``packages`` (canonical names; ``aliases`` maps
    another spelling to one, e.g. ``pytorch`` -> ``torch``), in text order."""
    known = _canonical_names(frozenset(packages))
    aliases = {_canonical(k): v for k, v in (aliases or {}).items()}
    asked: str | None = None  # the one package a question just named ("Which onnx does it pull?")
    for offset, clause in clauses(text):
        mentions: list[tuple[int, int, str]] = []
        for match in _WORD.finditer(clause):
            if mentions and match.start() < mentions[-1][1]:
                continue  # the second word of a name written in two ("ONNX Runtime")
            canonical = _canonical(match.group(0))
            name = aliases.get(canonical, canonical)
            joined = _SECOND_WORD.match(clause, match.end())
            if joined is not None and _canonical(match.group(0) + joined.group(1)) in known:
                # "ONNX Runtime must satisfy ...": onnxruntime, not onnx
                mentions.append((match.start(), joined.end(), _canonical(match.group(0) + joined.group(1))))
            elif name in known:
                mentions.append((match.start(), match.end(), name))
        if not mentions and asked is not None and (answer := _ANSWER.match(clause)) is not None:
            # "A: Anything from 1.19.0 up to 1.22.0.": the question's package, stated on the answer's line
            mentions = [(answer.end(), answer.end(), asked)]
        names = {m[2] for m in mentions}
        asked = next(iter(names)) if len(names) == 1 and clause.rstrip("*_ \n").endswith("?") else None
        negative = bool(_NEGATIVE.search(clause))
        if _TESTED.search(clause):
            continue  # "3.11 and 3.12 are what we test": the versions someone runs, not the release's range
        for n, (start, end, name) in enumerate(mentions):
            stop = mentions[n + 1][0] if n + 1 < len(mentions) else len(clause)
            negated_before = _negated_before(clause, start)
            if _USERS_OWN.match(clause[end:stop]):
                continue  # "Downgrade onnx if you have 1.20 or newer": the reader's version, not a range
            found = leading_range(clause[end:stop], negative, negated_before)
            if found is not None:
                spec, words = found
                yield Statement(name, spec, words, offset + start, negative)
            elif not negative and (single := supported_single(clause[end:stop])) is not None:
                yield Statement(name, single[0], single[1], offset + start, False, supported=True)


_TESTED = re.compile(
    r"\b(?:what|which|those|the ones?)\s+(?:we|i|our (?:ci|team))\s+"
    r"(?:test|run|use|tried|validated|verified)\b"
    r"|\b(?:we|i)\s+(?:only\s+)?(?:test|tested|validated|verified)\s+(?:on|with|against)\b"
    # "the classifiers name Python 3.10, 3.11 and 3.12": trove classifiers are labels, not the range
    r"|\bclassifiers?\b",
    re.IGNORECASE,
)
_USERS_OWN = re.compile(
    r"\W*(?:if|when|in case|should)\s+(?:you|your\s+(?:env(?:ironment)?|venv|install(?:ation)?))\b",
    re.IGNORECASE,
)
_ANSWER = re.compile(r"^\W*(?:A\s*[:.]|\*\*A\b)", re.IGNORECASE)
# How far before a package name its negation is looked for: a fixed window, so a clause with many names
# costs linear time (the negation ends right before the name: "Not supported: Python 3.13").
_NEGATION_WINDOW = 400


def _negated_before(clause: str, start: int) -> bool:
    """True when the words right before ``clause[start]`` (markup ``*`` and backticks ignored) say
    "not supported"/"no support for"/...; only the last :data:`_NEGATION_WINDOW` characters are read."""
    before = clause[max(0, start - _NEGATION_WINDOW) : start]
    return bool(_NEGATED_BEFORE.search(before.replace("*", "").replace("`", "")))


@lru_cache(maxsize=8192)
def _canonical(word: str) -> str:
    """``canonicalize_name(word)``, remembered (a skill repeats its words)."""
    return str(canonicalize_name(word))


@lru_cache(maxsize=16)
def _canonical_names(packages: frozenset[str]) -> frozenset[str]:
    return frozenset(_canonical(p) for p in packages)
