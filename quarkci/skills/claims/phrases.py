"""Version statements in skills ("Python 3.11 to 3.13", "PyTorch 2.2 or newer", "transformers<5.16").

A statement becomes a :class:`Stated` range: the bounds the sentence actually states (a lower
bound only for "2.2 or newer", both for "3.11 to 3.13"), the exact text that carries them, and its
style, so a fix can rewrite it the way the author wrote it. Comparison uses
:mod:`packaging.specifiers`; the small regular expressions here only locate version tokens in prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

_V = r"\d+(?:\.\d+)+"
_RANGE = re.compile(rf"(?P<lo>{_V})\s*(?P<sep>\s(?:to|through)\s|-|–|—)\s*(?P<hi>{_V})")
_LIST = re.compile(rf"(?P<text>{_V}(?:\s*,\s*{_V})*,?\s+(?:or|and)\s+{_V})")
_OPEN = re.compile(
    rf"(?P<lo>{_V})(?P<suffix>\+|\s+or\s+(?:newer|later|higher|above)|\s+and\s+(?:newer|later|above))"
)
_SPEC = re.compile(r"(?P<text>(?:(?:>=|<=|==|~=|!=|<|>)\s*\d+(?:\.\d+)*(?:\.\*)?\s*,?\s*)+)")
_V1 = r"\d+(?:\.\d+)*"
_OP = r"(?:===|==|>=|<=|!=|~=|<|>)"
# leading_range: forms tried in order on the text after a package name (backticks removed)
_LEAD_SPEC = re.compile(rf"^(?P<spec>{_OP}\s*{_V1}(?:\.\*)?(?:\s*,\s*{_OP}\s*{_V1}(?:\.\*)?)*)(?![\d.]*\d)")
_LEAD_RANGE = re.compile(
    rf"^(?:between\s+(?P<lo_b>{_V})\s+and\s+(?P<hi_b>{_V})"
    rf"|(?:from\s+)?(?P<lo>{_V})\s*(?:\s(?:to|through|until|up to)\s|–|—|-|\.\.)\s*(?P<hi>{_V}))(?![\d.]*\d)"
)
_LEAD_LIST = re.compile(rf"^(?P<items>{_V}(?:\s*,\s*{_V})*,?\s+(?:or|and)\s+{_V})(?![\d.]*\d)")
_FLOOR = re.compile(
    rf"^(?:at least\s+|version\s+)?(?P<lo>{_V})(?:\s*\+|\s+or\s+(?:newer|later|higher|above|greater)"
    rf"|\s+and\s+(?:newer|later|above))"
)
_AT_LEAST = re.compile(rf"^(?:at least|minimum(?: version)?|>=)\s*(?P<lo>{_V})")
_CEILING = re.compile(
    rf"^(?:up to|at most|no newer than)\s+(?P<hi>{_V})|^(?P<hi2>{_V})\s+or\s+(?:older|earlier|lower)"
)
_SINGLE = re.compile(rf"^(?P<v>{_V})(?![\d.]*\d)")
# Bounds said in words, each with its operator: a floor ("1.2 or newer", "at least 1.2", "newer than 5",
# "above 1.2") and a ceiling ("below 0.6", "older than 5.17", "under 2", "up to 1.9", "at most 1.9"); a
# version after "than"/"below"/"above"/"under" may be a bare major ("newer than 5"), being named a bound.
_LOWER = (
    rf"(?:(?P<lo_ge>{_V})\s+or\s+(?:newer|later|higher|above|greater)|at\s+least\s+(?P<lo_ge2>{_V1})"
    rf"|(?:newer|later|higher|greater)\s+than\s+(?P<lo_gt>{_V1})|above\s+(?P<lo_gt2>{_V1})"
    rf"|>=\s*(?P<lo_ge3>{_V1})|>\s*(?P<lo_gt3>{_V1}))"
)
_UPPER = (
    rf"(?:(?:older|earlier|lower|less)\s+than\s+(?P<hi_lt>{_V1})|(?:below|under|before)\s+(?P<hi_lt2>{_V1})"
    rf"|(?:up\s+to|at\s+most)\s+(?P<hi_le>{_V1})|<=\s*(?P<hi_le2>{_V1})|<\s*(?P<hi_lt3>{_V1}))"
)
_BETWEEN_BOUNDS = r"\s*(?:,\s*)?(?:(?:and|but)\s+)?(?:(?:is\s+)?(?:also\s+)?)"
_LEAD_BOUNDS = re.compile(rf"^{_LOWER}{_BETWEEN_BOUNDS}{_UPPER}(?![\d.]*\d)", re.IGNORECASE)
_LEAD_LOWER = re.compile(rf"^{_LOWER}(?![\d.]*\d)", re.IGNORECASE)
_LEAD_UPPER = re.compile(rf"^{_UPPER}(?![\d.]*\d)", re.IGNORECASE)


def _bounds(m: re.Match[str]) -> str:
    """The specifier of a :data:`_LEAD_BOUNDS`/:data:`_LEAD_LOWER`/:data:`_LEAD_UPPER` match."""
    found = {k: v for k, v in m.groupdict().items() if v}
    out = []
    for key, version in found.items():
        op = {"lo_ge": ">=", "lo_gt": ">", "hi_lt": "<", "hi_le": "<="}[key.rstrip("0123456789")]
        out.append(f"{op}{version}")
    return ",".join(out)


# words allowed between the package name and its range ("needs onnx 1.18", "onnx version 1.18", "onnx: 1.18")
_NEGATED_AFTER = re.compile(
    r"^\s*[(,]?\s*(?:is\s+|are\s+)?"
    r"(?:not (?:(?:currently|yet|officially|presently)\s+)?supported|unsupported|not compatible"
    r"|not available|isn't supported)",
    re.IGNORECASE,
)
# (an "=" that starts "==" is the range's operator, never a separator: "onnxsim pinned at ==0.4.35")
_GAP = re.compile(r"^(?:[\s:|`\"'(]|=(?!=))*")
# A word between a package name and its range, in any phrasing ("needs onnx 1.18", "onnx version 1.18",
# "onnxruntime between 1.22 and 1.25", "the onnx pin | >=1.16"): letters only, never a number.
_GAP_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*(?:[\s:|`\"'()]|=(?!=))+")
# How many such words may come first, and how far the range may start from the name.
MAX_GAP_WORDS = 4
MAX_GAP_CHARS = 40


@dataclass(frozen=True)
class Stated:
    """A version range as a skill states it.

    ``spec`` holds only the stated bounds; ``lower``/``upper`` say which bounds were stated;
    ``text`` is the exact substring of the statement that carries the range; ``style`` is one of
    ``range`` (with ``sep``), ``list``, ``open`` (with ``suffix``) or ``spec``.
    """

    spec: SpecifierSet
    lower: bool
    upper: bool
    text: str
    style: str
    sep: str = " to "
    suffix: str = " or newer"


def parse_statement(text: str) -> Stated | None:
    """Parse the first version range in ``text``; None when it states no range (a lone version)."""
    if m := _SPEC.search(text):
        raw = m.group("text").strip().rstrip(",").strip()
        try:
            spec = SpecifierSet(raw.replace(" ", ""))
        except InvalidSpecifier:
            spec = None
        if spec is not None and len(spec):
            ops = {s.operator for s in spec}
            lower = bool(ops & {">=", ">", "==", "~="})
            upper = bool(ops & {"<=", "<", "==", "~="})
            return Stated(spec, lower, upper, raw, "spec")
    if m := _RANGE.search(text):
        lo, hi = m.group("lo"), m.group("hi")
        return Stated(
            SpecifierSet(f">={lo},<={_widen(hi)}"), True, True, m.group(0), "range", sep=m.group("sep")
        )
    if m := _LIST.search(text):
        versions = re.findall(_V, m.group("text"))
        if len(versions) >= 2:
            lo, hi = min(versions, key=Version), max(versions, key=Version)
            return Stated(SpecifierSet(f">={lo},<={_widen(hi)}"), True, True, m.group("text"), "list")
    if m := _OPEN.search(text):
        return Stated(
            SpecifierSet(f">={m.group('lo')}"), True, False, m.group(0), "open", suffix=m.group("suffix")
        )
    return None


def _widen(version: str) -> str:
    """``3.13`` -> ``3.13.99999``: "up to 3.13" includes every 3.13.x patch release."""
    return version + ".99999" if version.count(".") == 1 else version


def minors(spec: SpecifierSet, majors: int | tuple[int, ...], top: int = 100) -> list[str]:
    """The ``M.N`` releases (M in ``majors``, N < ``top``) that ``spec`` admits, in version order."""
    return list(_minors(str(spec), majors, top))


@lru_cache(maxsize=1024)
def _minors(spec_text: str, majors: int | tuple[int, ...], top: int) -> tuple[str, ...]:
    spec = SpecifierSet(spec_text)
    out = []
    for major in (majors,) if isinstance(majors, int) else majors:
        for n in range(top):
            try:
                if Version(f"{major}.{n}") in spec:
                    out.append(f"{major}.{n}")
            except ValueError:  # pragma: no cover - f-string versions are always valid
                continue
    return tuple(out)


def render(stated: Stated, versions: list[str], upstream: SpecifierSet | None = None) -> str:
    """Rewrite ``stated`` in its own style to cover exactly ``versions`` (sorted minors).

    A specifier-style statement takes the upstream clauses for the bounds it states, lower bound
    first, joined the way the statement joined its own (``", "`` or ``","``).
    """
    lo, hi = versions[0], versions[-1]
    if stated.style == "spec" and upstream is not None:
        lower = sorted(str(s) for s in upstream if s.operator in (">", ">=", "==", "~="))
        upper = sorted(str(s) for s in upstream if s.operator in ("<", "<="))
        clauses = (lower if stated.lower else []) + (upper if stated.upper else [])
        if clauses:
            return (", " if ", " in stated.text else ",").join(clauses)
    if stated.style == "range":
        return f"{lo}{stated.sep}{hi}"
    if stated.style == "list":
        if len(versions) == 1:
            return lo
        joiner = " and " if " and " in stated.text else " or "
        return ", ".join(versions[:-1]) + ("," if "," in stated.text else "") + joiner + hi
    if stated.style == "open":
        return f"{lo}{stated.suffix}"
    parts = []
    if stated.lower:
        parts.append(f">={lo}")
    if stated.upper:
        major, minor = hi.split(".")
        parts.append(f"<{major}.{int(minor) + 1}")
    return ",".join(parts)


# "1.17.0 up to (but not including) 1.21.0" is "1.17.0 ... below 1.21.0": an exclusive cap said in words
_EXCLUSIVE = re.compile(
    r"\s+up\s+to\s*[(,]?\s*but\s+(?:not|excluding)\s+including\s*[),]?\s*|\s+up\s+to\s*[(,]?\s*(?:exclusive|excluding)\s*[),]?\s*",
    re.IGNORECASE,
)


def leading_range(after: str, negative: bool = False, negated_before: bool = False) -> tuple[str, str] | None:
    """The version range stated at the start of ``after`` (the words after a package name), as
    ``(SpecifierSet string, the words that carry it)``, else None. Forms: a specifier (``>= 1.16, <= 1.19``),
    "A to B" / "A–B" / "A..B" (``<=B``, read literally, as Quark caps its own pins), a list of consecutive
    minors, a floor ("A or newer", "A+", "at least A"), a ceiling ("up to B", "B or older"), and, when the
    clause is ``negative`` and the negation is attached to it (``negated_before`` or right after), a lone
    version (``==A.*``: the versions said unsupported). Up to :data:`MAX_GAP_WORDS` words (letters only)
    may come first, in any phrasing ("onnx version 1.18", "onnxruntime | 1.18", "onnxruntime expects
    between 1.22 and 1.25"); a range further away, or after a number, is none."""
    plain = _EXCLUSIVE.sub(" or newer, below ", after.replace("`", " ").replace("*", " "))
    gap = _GAP.match(plain)
    at = gap.end() if gap else 0
    for _ in range(MAX_GAP_WORDS + 1):
        if at > MAX_GAP_CHARS:  # the range must follow the name closely
            return None
        found = _range_at(plain[at:], negative, negated_before) or _bound_at(plain[:at], plain[at:])
        if found is not None:
            return found
        word = _GAP_WORD.match(plain, at)
        if word is None:
            return None
        at = word.end()
    return None


# A lone version named as a bound: "the Python floor is 3.8", "3.9 is the minimum", "maximum 3.12".
_FLOOR_WORD = re.compile(r"\b(?:floor|minimum|lowest|oldest|earliest)\b", re.IGNORECASE)
_CEILING_WORD = re.compile(r"\b(?:ceiling|maximum|newest|highest|latest)\b", re.IGNORECASE)
_BOUND_AFTER = re.compile(
    r"^\s*(?:is|as)\s+the\s+(?P<word>minimum|floor|lowest|maximum|ceiling|highest|newest)\b", re.I
)
# A lone version said to be supported: "Python 3.13 is supported", "3.13 works".
_SUPPORTED_AFTER = re.compile(
    r"^\s*(?:is|are)\s+(?:(?:fully|officially|now|also)\s+)?(?:supported|fine|tested)\b|^\s*works\b", re.I
)


def _bound_at(gap: str, rest: str) -> tuple[str, str] | None:
    """``(>=A or <=A, words)`` for a lone version ``rest`` starts with that the words before it (``gap``)
    or right after it name as a floor or a ceiling, else None."""
    m = _SINGLE.match(rest)
    if m is None:
        return None
    after = _BOUND_AFTER.match(rest[m.end() :])
    word = after.group("word") if after else ""
    if _FLOOR_WORD.search(gap) or _FLOOR_WORD.fullmatch(word):
        return f">={m.group('v')}", m.group(0)
    if _CEILING_WORD.search(gap) or _CEILING_WORD.fullmatch(word):
        return f"<={m.group('v')}", m.group(0)
    return None


def supported_single(after: str) -> tuple[str, str] | None:
    """``("==A.*", words)`` when the words after a package name state that one version A is supported
    ("Python 3.13 is supported", "3.12 works"), else None: a statement false where the release excludes A."""
    plain = after.replace("`", " ").replace("*", " ")
    gap = _GAP.match(plain)
    rest = plain[gap.end() if gap else 0 :]
    m = _SINGLE.match(rest)
    if m is None or not _SUPPORTED_AFTER.match(rest[m.end() :]):
        return None
    return f"=={m.group('v')}.*", m.group(0)


def _range_at(rest: str, negative: bool, negated_before: bool) -> tuple[str, str] | None:
    """The range of :func:`leading_range` when it starts right at ``rest[0]``, else None."""
    try:
        if m := _LEAD_SPEC.match(rest):
            return str(SpecifierSet(re.sub(r"\s+", "", m.group("spec")))), m.group(0)
        if m := _LEAD_RANGE.match(rest):
            lo, hi = m.group("lo") or m.group("lo_b"), m.group("hi") or m.group("hi_b")
            return str(SpecifierSet(f">={lo},<={hi}")), m.group(0)
        if (m := _LEAD_LIST.match(rest)) and _contiguous(versions := re.findall(_V, m.group("items"))):
            lo, hi = min(versions, key=Version), max(versions, key=Version)
            return str(SpecifierSet(f">={lo},<={hi}")), m.group(0)
        if m := _LEAD_BOUNDS.match(rest):  # "0.4.12 or newer, below 0.6", "newer than 5 and older than 5.17"
            return str(SpecifierSet(_bounds(m))), m.group(0)
        if (m := _LEAD_LOWER.match(rest)) and (m.group("lo_gt") or m.group("lo_gt2") or m.group("lo_gt3")):
            return str(SpecifierSet(_bounds(m))), m.group(0)  # "newer than 5": exclusive
        if (m := _LEAD_UPPER.match(rest)) and (m.group("hi_lt") or m.group("hi_lt2") or m.group("hi_lt3")):
            return str(SpecifierSet(_bounds(m))), m.group(0)  # "below 0.6", "older than 5.17"
        if (m := _FLOOR.match(rest)) or (m := _AT_LEAST.match(rest)):
            return str(SpecifierSet(f">={m.group('lo')}")), m.group(0)
        if m := _CEILING.match(rest):
            return str(SpecifierSet(f"<={m.group('hi') or m.group('hi2')}")), m.group(0)
        # a lone version is a statement only when the negation is attached to it: "Python 3.13 is not
        # supported", "Not supported: Python 3.13" (not "Unsupported Python: use a fresh Python 3.13")
        if (
            negative
            and (m := _SINGLE.match(rest))
            and (negated_before or _NEGATED_AFTER.match(rest[m.end() :]))
        ):
            return str(SpecifierSet(f"=={m.group('v')}.*")), m.group(0)
    except (InvalidSpecifier, InvalidVersion):
        return None
    return None


def _contiguous(versions: list[str]) -> bool:
    """True when ``versions`` are consecutive minors of one major (``3.10, 3.11, 3.12``): only such a list
    states a range ("3.9, 3.11 and 3.13 only" names three releases, not the range between them)."""
    parts = sorted((Version(v).release for v in versions), key=lambda r: r[:2])
    if any(len(p) != 2 for p in parts) or len({p[0] for p in parts}) != 1:
        return False
    minors = [p[1] for p in parts]
    return minors == list(range(minors[0], minors[0] + len(minors)))
