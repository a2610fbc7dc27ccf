"""``dependency`` claims: a version range a skill states for a package other than Python, PyTorch,
transformers and amd-quark itself (``onnxruntime>=1.20``, ``onnx<=1.19``, ``"numpy<2"``).

Explicit requirement specifiers count in prose, code spans and code blocks (any language); in prose,
list items and table rows, so does a range stated in words after the name of a package some release pins
(the release vocabulary's ``dependency`` names; :mod:`quarkci.skills.claims.ranges`: "onnx 1.18–1.22",
"onnxruntime 1.20.1 to 1.22.1", "`onnx >= 1.16, <= 1.19`", a row ``onnxruntime | 1.18 – 1.22``);
the value is the normalised :class:`~packaging.specifiers.SpecifierSet` string,
``context["package"]`` the canonical package name and ``context["extra"]`` the extra its clause names
("the `lint` extra pins ...", ``amd-quark[cli]``), else None. The release decides which of them it can check
(``dependency-range-mismatch`` compares only packages its ``Requires-Dist`` pins).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

import quarkci.skills.claims.ranges as ranges
from quarkci.skills.claims.context import release_readings
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

_OP = r"(?:===|==|>=|<=|!=|~=|<|>)"
_VER = r"\d+(?:\.\d+)*(?:\.\*)?(?:(?:a|b|rc|\.post|\.dev)\d+)?"
_REQ = re.compile(
    rf"(?<![\w./-])(?P<pkg>[A-Za-z][A-Za-z0-9._-]*[A-Za-z0-9])(?:\[[\w,\s-]+\])?"
    rf"(?P<spec>{_OP}\s*{_VER}(?:\s*,\s*{_OP}\s*{_VER})*)(?![\w.]*\w)"
)
# Python, PyTorch, transformers and Quark itself: their ranges are python_version / torch_version /
# transformers_version claims, never a `dependency` or a `requirement` (claims/extras.py)
OWN_PACKAGES = frozenset({"python", "torch", "pytorch", "transformers", "amd-quark", "quark", "python3"})


_OPERATOR_CHAR = re.compile(r"[<>=!~]")
# The extra a clause speaks of: "the `cli` extra", "extra `lint`", "amd-quark[cli]", 'extra == "cli"', a
# table cell "onnxruntime (cli)" or "1.22.2 – 1.25.1 (`[cli]`)" (a word in parentheses counts only when that
# extra pins the package).
_EXTRA = re.compile(
    r"(?<![\w-])`?\[?(?P<a>[a-z][\w-]*)\]?`?\s+extra\b|\bextra\s+`(?P<b>[a-z][\w-]*)`"
    r"|amd[-_]quark\[(?P<c>[a-z][\w-]*)\]|\bextra\s*==\s*[\"'](?P<d>[\w-]+)[\"']"
    r"|\(\s*`?\[?(?P<e>[a-z][\w-]*)\]?`?\s*\)",
    re.IGNORECASE,
)
_NOT_EXTRAS = frozenset({"the", "an", "a", "each", "every", "any", "that", "this", "optional", "one"})


def extra_of(clause: str) -> str | None:
    """The extra ``clause`` names (canonical), else None: "the `cli` extra pins ...", "amd-quark[cli]"."""
    for match in _EXTRA.finditer(clause):
        name = next(g for g in match.groups() if g)
        if name.lower() not in _NOT_EXTRAS:
            return str(canonicalize_name(name))
    return None


def _extras(text: str) -> list[tuple[int, int, str | None]]:
    """``(start, end, extra)`` per clause of ``text`` (:func:`ranges.clauses`); the clauses answering a
    question that names an extra speak of it ("**Q: What does the `cli` extra pull in?** A: ... onnxruntime
    between 1.22.2 and 1.28.0")."""
    out: list[tuple[int, int, str | None]] = []
    asked: str | None = None
    for start, clause in ranges.clauses(text):
        extra = extra_of(clause)
        if clause.rstrip("*_ \n").endswith("?"):
            asked = extra
        elif extra is None:
            extra = asked
        out.append((start, start + len(clause), extra))
    return out


def _extra_at(extras: list[tuple[int, int, str | None]], offset: int) -> str | None:
    return next((e for start, end, e in extras if start <= offset < end), None)


def _lead_extra(block: Text, known: frozenset[str]) -> str | None:
    """The extra a list item is about: the one extra some release has that its lead names ("What the
    `cli` extra brings in:" then "- `onnxruntime>=1.22.2,<=1.28.0`"); else None."""
    if not block.in_list or not block.lead:
        return None
    named = {e for _, _, e in _extras(block.lead) if e is not None and e in known}
    return next(iter(named)) if len(named) == 1 else None


_ITEM_HEAD = re.compile(r"^[\s*_]*`?\[?([A-Za-z][\w-]*)\]?`?[\s*_]*(?:—|–|-|:)")


def _item_extra(block: Text, known: frozenset[str]) -> str | None:
    """The extra a list item is headed with ("- **`cli`** — the heavyweight one: `onnxruntime>=...`"), when
    some release has it; else None."""
    if not block.in_list or (match := _ITEM_HEAD.match(block.text)) is None:
        return None
    name = str(canonicalize_name(match.group(1)))
    return name if name in known else None


def _row_extra(block: Text, known: frozenset[str]) -> str | None:
    """The extra a table row is about: its first cell names an extra some release has, in a table whose
    first column is headed "Extra" ("| `cli` | `onnxruntime >=1.22.2, <=1.28.0` |"); else None."""
    cell = block.cell
    if block.kind != "table" or cell is None or not cell.headers or not cell.row:
        return None
    if not re.sub(r"[*`]", "", cell.headers[0]).strip().lower().startswith("extra"):
        return None
    first = canonicalize_name(re.sub(r"[*`\[\]]", "", cell.row[0]).strip() or "-")
    return first if first in known else None


def _found(
    text: str,
    offset: int,
    line: int,
    where: str,
    section: str,
    row_extra: str | None = None,
    extras: list[tuple[int, int, str | None]] | None = None,
) -> Iterator[Found]:
    """The explicit requirement specifiers of one line ``text``, which starts at ``offset`` of the block
    whose clauses' extras are ``extras`` (None: the line's own clauses)."""
    if not _OPERATOR_CHAR.search(text):
        return  # a requirement needs an operator
    if extras is None:
        extras, offset = _extras(text), 0
    for match in _REQ.finditer(text):
        package = canonicalize_name(match.group("pkg"))
        if package in OWN_PACKAGES or package.startswith(("cuda", "rocm", "cu1", "sm")):
            continue
        raw = re.sub(r"\s+", "", match.group("spec"))
        try:
            spec = str(SpecifierSet(raw))
        except InvalidSpecifier:
            continue
        yield Found(
            "dependency",
            spec,
            line,
            {
                "package": package,
                "text": match.group("spec").strip(),
                "where": where,
                "section": section,
                "extra": _extra_at(extras, offset + match.start()) or row_extra,
            },
        )


def extract(unit: Unit) -> Iterator[Found]:
    """``dependency`` claims of ``unit`` (see the module docstring)."""
    packages = _packages(unit)
    known = unit.lexicon.names("extra") if unit.lexicon is not None else frozenset()
    for block in unit.texts():
        section = heading_path(block.headings)
        row_extra = _row_extra(block, known) or _lead_extra(block, known) or _item_extra(block, known)
        # "... the `lint` extra, which pins\nmypy==1.17.0": a clause's extra holds over its line breaks
        extras = _extras(block.text) if _OPERATOR_CHAR.search(block.text) else []
        start = 0
        for number, raw in enumerate(block.text.split("\n")):
            yield from _found(raw, start, block.line + number, block.kind, section, row_extra, extras)
            start += len(raw) + 1
        if packages:
            yield from _phrased(block, packages, section, row_extra)
    for code in unit.codes():
        section = heading_path(code.headings)
        for number, raw in enumerate(code.text.split("\n")):
            yield from _found(raw, 0, code.first_line + number, "code", section)


def _packages(unit: Unit) -> frozenset[str]:
    """The dependency names any release pins (the vocabulary's), less Python, PyTorch, transformers."""
    if unit.lexicon is None:
        return frozenset()
    return frozenset(n for n in unit.lexicon.names("dependency") if n not in OWN_PACKAGES)


def _phrased(
    block: Text, packages: frozenset[str], section: str, row_extra: str | None = None
) -> Iterator[Found]:
    """Ranges stated in words after a package name (:func:`quarkci.skills.claims.ranges.statements`): a
    table row is read once, as its cells joined, on its first cell; a negative statement is left out
    (what it says is unsupported is not a range to compare)."""
    if block.kind == "table":
        if block.cell is None or block.cell.column != 0 or block.cell.is_header:
            return
        readings = release_readings(block.cell)
        if readings:  # a release per column ("| | 0.11 | 0.13 |") or per row: each cell states its release
            yield from _per_release(block, packages, section, readings)
            return
        text = " | ".join(block.cell.row)
    else:
        text = block.text
    extras = _extras(text)
    read = text
    if block.kind == "table":
        # "| onnxruntime (`[cli]` extra) | 1.22.2 – 1.28.0 |": the aside names the extra, the range follows it
        read = _ASIDE.sub(lambda m: " " * len(m.group(0)), text)
    for stated in ranges.statements(read, packages):
        if stated.negative or stated.supported:
            continue  # one version said (un)supported is no range to compare with a pin
        yield Found(
            "dependency",
            stated.spec,
            # the line of the range itself ("`onnxruntime` to\n`>=1.22.2,<=1.28.0`": the second)
            block.line_at(max(text.find(stated.text, stated.start), stated.start))
            if block.kind != "table"
            else block.line,
            {
                "package": stated.package,
                "text": stated.text.strip(),
                "where": block.kind,
                "section": section,
                "extra": _extra_at(extras, stated.start) or row_extra,
            },
        )


_ASIDE = re.compile(r"\([^()|]{0,80}\)")


def _per_release(
    block: Text, packages: frozenset[str], section: str, readings: list[tuple[str, str]]
) -> Iterator[Found]:
    """The range each release's cell of a release matrix states (:func:`~quarkci.skills.claims.context.
    release_readings`), scoped to that release (``context["releases"]``): checked only against it, as a
    release scope is."""
    for text, scope in readings:
        extra = extra_of(text)  # "| 0.13 | ... | 1.22.2 – 1.25.1 (`[cli]`) |": that extra's pin
        for stated in ranges.statements(text, packages):
            if stated.negative or stated.supported:
                continue
            yield Found(
                "dependency",
                stated.spec,
                block.line,
                {
                    "package": stated.package,
                    "text": stated.text.strip(),
                    "where": block.kind,
                    "section": section,
                    "extra": extra,
                    "releases": scope,
                },
            )
