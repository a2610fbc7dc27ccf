"""Version claims: ``python_version``, ``torch_version`` and ``transformers_version``.

Values are :class:`packaging.specifiers.SpecifierSet` strings (``">=3.11,<3.14"``) whenever the
statement is a constraint; ``context["text"]`` keeps the words as written. Recognised forms (in
prose, list items, table cells and code spans, never in JSON/YAML examples):

* a requirement: ``torch>=2.2``, ``transformers < 5.16``, ``"transformers<5.16"`` (parsed with
  :class:`packaging.requirements.Requirement`);
* a package word followed by a bare specifier: ``Transformers to `>5,<5.16```;
* ranges and floors: ``Python 3.11 to 3.13``, ``PyTorch 2.2 or newer``, ``Python 3.11, 3.12, or 3.13``
  (a contiguous list becomes a range), ``Python 3.14+`` (``<3.14`` after "not supported");
* PyTorch wheel-index accelerator tags (``torch_version`` with ``context["aspect"] = "accelerator_tag"``):
  ``https://download.pytorch.org/whl/rocm6.4`` and code spans such as ``rocm7.1`` or ``cu126``.

A statement next to a model type (```llama4` → transformers >= 4.51.0``) records it in
``context["model_types"]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

import quarkci.skills.claims.ranges as ranges
from quarkci.skills.claims.context import release_readings
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

KIND_BY_PACKAGE = {
    "python": "python_version",
    "torch": "torch_version",
    "pytorch": "torch_version",
    "transformers": "transformers_version",
}
_PKG = r"(?P<pkg>python|pytorch|torch|transformers)"
_V = r"\d+(?:\.\d+)+"
_OP = r"(?:===|==|>=|<=|!=|~=|<|>)"
_V1 = r"\d+(?:\.\d+)*"  # inside an explicit specifier a bare major ("transformers>5") is a version
_SPEC = rf"{_OP}\s*{_V1}(?:\.\*)?(?:\s*,\s*{_OP}\s*{_V1}(?:\.\*)?)*(?!\d|\.\d)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("spec", re.compile(rf"(?<![\w-]){_PKG}\s*(?:version\s*)?(?P<spec>{_SPEC})", re.IGNORECASE)),
    (
        "range",
        re.compile(
            rf"(?<![\w-]){_PKG}\s+(?P<lo>{_V})\s*(?:to|through|-|–)\s*(?P<hi>{_V})(?!\d|\.\d)", re.IGNORECASE
        ),
    ),
    (
        "floor",
        re.compile(
            rf"(?<![\w-]){_PKG}\s+(?P<lo>{_V})\s+or\s+(?:newer|later|higher|above|greater)", re.IGNORECASE
        ),
    ),
    ("plus", re.compile(rf"(?<![\w-]){_PKG}\s+(?P<lo>{_V})\+", re.IGNORECASE)),
    (
        "list",
        re.compile(
            rf"(?<![\w-]){_PKG}\s+(?P<items>{_V}(?:\s*,\s*{_V})+(?:\s*,?\s*(?:or|and)\s+{_V})?|{_V}\s+(?:or|and)\s+{_V})",
            re.IGNORECASE,
        ),
    ),
    ("bare", re.compile(rf"(?<![\w-]){_PKG}\b[^.`\n]{{0,40}}?`(?P<spec>{_SPEC})`", re.IGNORECASE)),
]
# other spellings of a package the statements name: the pyproject / setup.py keys that state Python's range
_ALIASES = {"pytorch": "torch", "requires-python": "python", "python-requires": "python", "cpython": "python"}
_NEGATION = re.compile(
    r"\b(?:not (?:(?:currently|yet|officially|presently)\s+)?supported|unsupported|not compatible)\b",
    re.IGNORECASE,
)
_INDEX_TAG = re.compile(r"download\.pytorch\.org/whl/(?:nightly/)?(?P<tag>cpu|cu\d{3}|rocm\d+(?:\.\d+)*)\b")
_TAG_SPAN = re.compile(r"^(?:cu\d{3}|rocm\d+(?:\.\d+)+)$")
_MODEL_ARROW = re.compile(r"^\s*((?:`[^`]+`\s*,?\s*)+)(?:→|->|:)")
_SKIPPED_CODE = frozenset({"json", "yaml", "yml", "toml", "python", "py", "text", "txt"})


def extract(unit: Unit) -> Iterator[Found]:
    """Python / PyTorch / transformers version claims of ``unit`` (see the module docstring)."""
    for text in unit.texts():
        yield from _prose(text)
        for span, line in text.code_spans():
            yield from _requirement(span, line, "inline", heading_path(text.headings))
            if _TAG_SPAN.match(span):
                yield Found(
                    "torch_version",
                    span,
                    line,
                    {
                        "aspect": "accelerator_tag",
                        "text": span,
                        "where": "inline",
                        "section": heading_path(text.headings),
                    },
                )
    for located in unit.commands:
        for word in located.command.args:
            yield from _requirement(word.text, word.line, located.where, heading_path(located.headings))
    for code in unit.codes():
        if _requirements_file(code.text):
            # a block that is a requirements file ("transformers>5,<5.17" then "accelerate"): each line pins
            for offset, source_line in enumerate(code.text.split("\n")):
                yield from _requirement(
                    source_line, code.first_line + offset, "code", heading_path(code.headings)
                )
        if code.info in _SKIPPED_CODE:
            continue
        for offset, source_line in enumerate(code.text.split("\n")):
            for match in _INDEX_TAG.finditer(source_line):
                yield Found(
                    "torch_version",
                    match.group("tag"),
                    code.first_line + offset,
                    {
                        "aspect": "accelerator_tag",
                        "text": match.group(0),
                        "where": "code",
                        "section": heading_path(code.headings),
                    },
                )


def _requirements_file(text: str) -> bool:
    """True when every line of a code block that is neither blank nor a comment is a requirement
    :class:`~packaging.requirements.Requirement` parses (a pasted requirements file); the scan stops at the
    first line that is not."""
    lines = [line.strip() for line in text.split("\n")]
    wanted = [line for line in lines if line and not line.startswith("#")]
    if not wanted:
        return False
    for line in wanted:
        try:
            Requirement(line)
        except InvalidRequirement:
            return False
    return True


# Every form above and every statement of :mod:`.ranges` names one of these (as the patterns match it):
# a text naming none states no version of them (read nothing more).
_ANY_PACKAGE = re.compile(r"python|torch|transformers", re.IGNORECASE)


def _prose(text: Text) -> Iterator[Found]:
    readings = release_readings(text.cell) if text.kind == "table" and text.cell is not None else []
    if not any(_ANY_PACKAGE.search(t) for t in (text.text, _clause_text(text), *(r for r, _ in readings))):
        return
    section = heading_path(text.headings)
    models = _model_types(text.text)
    taken = _Taken()
    for form, pattern in _PATTERNS:
        taken.rewind()
        added: list[tuple[int, int]] = []
        for match in pattern.finditer(text.text):
            if taken.covers(match.start()):
                continue
            spec = _spec(form, match, text.text)
            if spec is None:
                continue
            added.append((match.start(), match.end()))
            package = match.group("pkg").lower()
            context = {
                "aspect": "package",
                "package": "torch" if package == "pytorch" else package,
                "text": match.group(0),
                "where": text.kind,
                "section": section,
            }
            if models:
                context["model_types"] = models
            if form == "plus" and _NEGATION.search(text.text[max(0, match.start() - 40) : match.start()]):
                context["negative"] = True
            if package == "python" and _names_classifiers(text.text, match.start()):
                context["source"] = "classifier"
            yield Found(KIND_BY_PACKAGE[package], spec, text.line_at(match.start()), context)
        taken.add(added)
    taken.rewind()
    if readings:  # a release matrix: each release's cell, read after its row or column label, scoped
        for reading, scope in readings:
            for found in _statements(reading, text, section, taken=None):
                yield Found(found.kind, found.value, found.line, {**found.context, "releases": scope})
    else:
        yield from _statements(_clause_text(text), text, section, taken)
    for match in _INDEX_TAG.finditer(text.text):
        yield Found(
            "torch_version",
            match.group("tag"),
            text.line_at(match.start()),
            {"aspect": "accelerator_tag", "text": match.group(0), "where": text.kind, "section": section},
        )


def _statements(clause: str, text: Text, section: str, taken: _Taken | None) -> Iterator[Found]:
    """The Python, torch and transformers ranges :func:`quarkci.skills.claims.ranges.statements` reads
    in ``clause`` (the text of ``text``, or a reading of one of its cells), less those ``taken`` covers."""
    for stated in ranges.statements(clause, KIND_BY_PACKAGE, _ALIASES):
        # the phrasings the patterns above do not read ("requires transformers 4.50 or newer" is read
        # there; "Python 3.13 is not supported", "transformers at least 4.50" here)
        if taken is not None and taken.covers(stated.start):
            continue
        single = stated.spec.startswith("==") and stated.spec.endswith(".*")
        if stated.negative and not single:
            continue  # a negated range is read by the patterns ("Not supported: Python 3.14+") or not at all
        if stated.supported and stated.package != "python":
            continue  # one version said supported is checked for Python's own range only
        context: dict[str, object] = {
            "aspect": "package",
            "package": stated.package,
            "text": stated.text.strip(),
            "where": text.kind,
            "section": section,
        }
        if stated.package == "python" and _names_classifiers(clause, stated.start):
            context["source"] = "classifier"
        if stated.negative:
            context.update(negative=True, unsupported=stated.spec[2:-2])
        elif stated.supported:
            context.update(supported=stated.spec[2:-2])
        line = text.line if text.kind == "table" else text.line_at(stated.start)
        yield Found(KIND_BY_PACKAGE[stated.package], stated.spec, line, context)


# "the classifiers name Python 3.10, 3.11 and 3.12": a statement of the trove classifiers, not of
# Requires-Python (0.11's METADATA admits 3.9 yet lists 3.10 to 3.12)
_CLASSIFIERS = re.compile(r"\bclassifiers?\b|Programming Language ::", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|\n\s*\n")
_CLAUSE_WINDOW = 300  # characters either side of the statement: bounded work per statement


def _names_classifiers(text: str, offset: int) -> bool:
    """True when the sentence or ``;`` clause of ``text`` holding ``offset`` names the classifiers."""
    start = max(0, offset - _CLAUSE_WINDOW)
    for stop_before in _CLAUSE_END.finditer(text, start, offset):
        start = stop_before.end()
    stop = _CLAUSE_END.search(text, offset, offset + _CLAUSE_WINDOW)
    end = stop.start() if stop else min(len(text), offset + _CLAUSE_WINDOW)
    return _CLASSIFIERS.search(text, start, end) is not None


class _Taken:
    """The offsets of a text already read by an earlier pattern: the union of ``[start, end)`` spans,
    kept sorted and merged, asked about offsets in increasing order (:meth:`rewind` before each pass), so
    one pass over a text costs linear time, not a scan of every earlier span per match."""

    def __init__(self) -> None:
        self._spans: list[tuple[int, int]] = []  # disjoint, sorted
        self._cursor = 0

    def rewind(self) -> None:
        self._cursor = 0

    def covers(self, offset: int) -> bool:
        """True when ``offset`` lies in a span; offsets asked since the last rewind must not decrease."""
        spans = self._spans
        while self._cursor < len(spans) and spans[self._cursor][1] <= offset:
            self._cursor += 1
        return self._cursor < len(spans) and spans[self._cursor][0] <= offset

    def add(self, spans: list[tuple[int, int]]) -> None:
        """Add ``spans`` (sorted by start) to the union."""
        merged: list[tuple[int, int]] = []
        for start, end in sorted([*self._spans, *spans]):
            if end <= start:
                continue  # an empty span covers nothing
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        self._spans = merged


def _clause_text(text: Text) -> str:
    """A table row is read once, on its first cell, as its cells joined (``Python | 3.10 – 3.12``), after
    the first column's header when that names the package (``Python 3.9 – 3.12 | supported``); other cells
    read nothing; any other block reads its own text."""
    if text.kind != "table" or text.cell is None:
        return text.text
    if text.cell.column != 0 or text.cell.is_header:
        return ""
    joined = " | ".join(text.cell.row)
    header = re.sub(r"[*`]", "", text.cell.headers[0]).strip() if text.cell.headers else ""
    if _ANY_PACKAGE.fullmatch(header.split(" ", 1)[0]) and not _ANY_PACKAGE.search(text.cell.row[0]):
        # "| Python | Status |" over "| 3.9 – 3.12 | supported |": the column's header names the package
        return f"{header} {joined}"
    return joined


def _spec(form: str, match: re.Match[str], whole: str) -> str | None:
    try:
        if form in ("spec", "bare"):
            return str(SpecifierSet(re.sub(r"\s+", "", match.group("spec"))))
        if form == "range":
            return str(SpecifierSet(f">={match.group('lo')},<{_next_release(match.group('hi'))}"))
        if form == "floor":
            return str(SpecifierSet(f">={match.group('lo')}"))
        if form == "plus":
            negated = _NEGATION.search(whole[max(0, match.start() - 40) : match.start()])
            return str(SpecifierSet(f"<{match.group('lo')}" if negated else f">={match.group('lo')}"))
        if form == "list":
            return _contiguous(re.findall(_V, match.group("items")))
    except (InvalidSpecifier, InvalidVersion):
        return None
    return None


def _next_release(version: str) -> str:
    """``3.13`` -> ``3.14``: the first release after every ``3.13.x`` (inclusive upper bound)."""
    parts = Version(version).release
    return ".".join(map(str, (*parts[:-1], parts[-1] + 1)))


def _contiguous(versions: list[str]) -> str | None:
    """``3.11, 3.12, 3.13`` -> ``>=3.11,<3.14``; None for a list with gaps or mixed majors."""
    parsed = sorted(Version(v) for v in versions)
    majors = {v.release[0] for v in parsed}
    if len(majors) != 1 or any(len(v.release) != 2 for v in parsed):
        return None
    minors = [v.release[1] for v in parsed]
    if minors != list(range(minors[0], minors[0] + len(minors))):
        return None
    return str(SpecifierSet(f">={parsed[0]},<{_next_release(str(parsed[-1]))}"))


def _requirement(word: str, line: int, where: str, section: str) -> Iterator[Found]:
    candidate = word.strip().strip("\"'")
    if not re.match(r"^(?:torch|transformers)\s*[<>=!~]", candidate, re.IGNORECASE):
        return
    try:
        requirement = Requirement(candidate)
    except InvalidRequirement:
        return
    if not requirement.specifier:
        return
    package = requirement.name.lower()
    yield Found(
        KIND_BY_PACKAGE[package],
        str(requirement.specifier),
        line,
        {"aspect": "package", "package": package, "text": candidate, "where": where, "section": section},
    )


def _model_types(text: str) -> list[str]:
    match = _MODEL_ARROW.match(text)
    return re.findall(r"`([^`]+)`", match.group(1)) if match else []
