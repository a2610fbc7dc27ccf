"""``scheme`` and ``scheme_count`` claims: Quark quantization scheme names where a skill names schemes.

A word is a scheme claim only in one of these places (precision over recall):

* a table column headed ``Scheme`` (or ``Quant scheme``/``quant_scheme``) — code spans in the cell,
  or the whole cell when it is one identifier; ``uint4_wo_32/64/128/per_channel`` expands to the
  four names it abbreviates;
* a list item under a heading about schemes that starts with a code span (```fp8` — ...``);
* the value of ``--quant_scheme`` and the scheme (second value) of ``--layer_quant_scheme``.

``context["enumerates"]`` says whether the surrounding heading presents the list as complete and
``context["count_claimed"]``/``"count_line"`` carry the heading's claimed total. A heading about
schemes stating a count (``Available Quantization Schemes (21 total)``) is a ``scheme_count`` claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import quarkci.skills.claims.commands as sh
from quarkci.skills.claims.context import partial_list, selection
from quarkci.skills.claims.quantities import CARDINAL, NOUNS, number, stated
from quarkci.skills.claims.sections import clean_cell, heading_count, list_section
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

TOPIC = re.compile(r"\bschemes?\b", re.IGNORECASE)
SCHEME_HEADERS = frozenset(
    {"scheme", "schemes", "quant scheme", "quant_scheme", "quantization scheme", "scheme name"}
)
SCHEME_NAME = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
# "The scheme collection registers 27 names", "the scheme registry holds 28 entries": the count after a
# collection of schemes as subject
_SUBJECT_COUNT = re.compile(
    r"\bscheme (?:collection|registry|list|table|catalogue|catalog|set)\s+(?:registers|holds|has|contains"
    r"|lists|defines|knows|offers)\s+(\d+|" + CARDINAL + r")\s+(?:names|entries|schemes|items)\b",
    re.IGNORECASE,
)
_LEADING_SPANS = re.compile(r"^\s*`[^`]+`(?:\s*(?:,|/|\band\b|\bor\b)\s*`[^`]+`)*")


def extract(unit: Unit) -> Iterator[Found]:
    """``scheme`` and ``scheme_count`` claims of ``unit`` (see the module docstring)."""
    for text in unit.texts():
        if text.kind == "heading":
            yield from _count(text)
        elif text.kind == "table":
            yield from _table(text)
            yield from _paragraph_count(text)  # "| `scheme` | one of the 18 built-in schemes |"
        elif text.kind == "paragraph":
            yield from _list_item(text)
            yield from _paragraph_count(text)
            yield from _examples(text)
    yield from _flag_values(unit)


def expand(name: str) -> list[str]:
    """``uint4_wo_32/64/128/per_channel`` -> the four names; a plain name -> ``[name]``."""
    parts = name.split("/")
    if len(parts) == 1:
        return [name]
    first = parts[0]
    stem, sep, _ = first.rpartition("_")
    if not sep:
        return parts
    return [first, *(f"{stem}_{p}" for p in parts[1:])]


def _names(raw: str) -> list[str]:
    # a parameter name (`quant_scheme`, `layer_quant_scheme`, `quant_config`) is no scheme name
    return [n for n in expand(raw.strip()) if SCHEME_NAME.match(n) and not _PARAMETER.search(n)]


_PARAMETER = re.compile(r"(?:^|_)quant_scheme$|^schemes?$|_config$|^config$")


_EXAMPLE_INTRO = re.compile(r"\b(?:e\.g\.|for example|such as|like)[,:]?", re.IGNORECASE)
_MENTIONS_SCHEME = re.compile(r"quant_scheme|\bschemes?\b", re.IGNORECASE)
# the kinds whose examples a sentence may give: the examples belong to the last one named before them
_KIND_NOUN = re.compile(
    r"\b(schemes?|model types?|templates?|models?|architectures?|algorithms?|flags?|options?|formats?"
    r"|presets?|configs?|configurations?|extras?|dependencies|packages?)\b",
    re.IGNORECASE,
)


def _examples(text: Text) -> Iterator[Found]:
    """Schemes given as examples of a scheme value: ```quant_scheme` — quantization scheme (e.g.,
    `w_fp8_a_fp8`, `w_int4_a_bf16`)``: code spans after "e.g."/"such as"/"for example" in a text that
    speaks of schemes (``context["where"] = "example"``; never an enumeration)."""
    if text.in_list and list_section(text.headings, TOPIC) is not None:
        return  # the list-item reader owns lists under a schemes heading
    for intro in _EXAMPLE_INTRO.finditer(text.text):
        before = text.text[max(0, intro.start() - 120) : intro.start()]
        if not _MENTIONS_SCHEME.search(before):
            continue
        nouns = _KIND_NOUN.findall(before)
        if nouns and not nouns[-1].lower().startswith("scheme"):
            continue  # "knows 18 scheme names and 35 model types (for example `kimi_k25`, ...)": model types
        end = min(
            [
                i
                for i in (
                    text.text.find(")", intro.end()),
                    text.text.find(". ", intro.end()),
                    text.text.find("\n\n", intro.end()),
                )
                if i >= 0
            ]
            or [len(text.text)]
        )
        for span in re.finditer(r"`([^`]+)`", text.text[intro.end() : end]):
            for name in _names(span.group(1)):
                if "_" in name:
                    yield Found(
                        "scheme",
                        name,
                        text.line_at(intro.end() + span.start()),
                        {**_context(text, "example"), "enumerates": False},
                    )


def _context(text: Text, where: str) -> dict[str, object]:
    section = list_section(text.headings, TOPIC)
    partial = partial_list(text.lead, section.heading if section else "")
    return {
        "where": where,
        "section": heading_path(text.headings),
        "enumerates": bool(section and section.enumerates) and not partial,
        "selection": None if partial or not section else selection(section.heading, text.lead),
        "count_claimed": section.count if section else None,
        "count_line": section.line if section and section.count is not None else None,
    }


def _table(text: Text) -> Iterator[Found]:
    cell = text.cell
    if cell is None or cell.is_header or clean_cell(cell.header) not in SCHEME_HEADERS:
        return
    spans = list(text.code_spans())
    candidates = [(s, line) for s, line in spans] or [(text.text, text.line)]
    for raw, line in candidates:
        for name in _names(raw):
            yield Found(
                "scheme",
                name,
                line,
                {**_context(text, "table"), "headers": list(cell.headers), "column": cell.column},
            )


def _list_item(text: Text) -> Iterator[Found]:
    if not text.in_list or list_section(text.headings, TOPIC) is None:
        return
    match = _LEADING_SPANS.match(text.text)
    if not match:
        return
    first = _first_spans(text.text, match.end())
    for span in re.findall(r"`([^`]+)`", match.group(0)):
        for name in _names(span):
            yield Found("scheme", name, text.line_at(first[span]), _context(text, "list"))


def _first_spans(text: str, end: int) -> dict[str, int]:
    """``{content: offset}`` of the first ```content``` written in ``text[:end]``:
    ``text.find(f"`{content}`")``
    for every content at once (such a string starts at a backtick and ends at the next one), so a long
    run of spans costs linear time."""
    first: dict[str, int] = {}
    ticks = [m.start() for m in re.finditer("`", text, 0) if m.start() < end]
    for opening, closing in zip(ticks, ticks[1:], strict=False):
        if closing > opening + 1:
            first.setdefault(text[opening + 1 : closing], opening)
    return first


def _count(text: Text) -> Iterator[Found]:
    if TOPIC.search(text.text):
        count = heading_count(text.text)
        if count is not None:
            yield Found("scheme_count", str(count), text.line, {"section": text.text, "where": "heading"})


def _paragraph_count(text: Text) -> Iterator[Found]:
    for match in _SUBJECT_COUNT.finditer(text.text):
        yield Found(
            "scheme_count",
            str(number(match.group(1))),
            text.line_at(match.start(1)),
            {"section": heading_path(text.headings), "where": "paragraph"},
        )
    for count in stated(text.text, NOUNS["scheme"]):  # "27 schemes", "ships twenty-one schemes"
        yield Found(
            "scheme_count",
            str(count.n),
            text.line_at(count.offset),
            {"section": heading_path(text.headings), "where": "paragraph", "text": count.written},
        )


def _flag_values(unit: Unit) -> Iterator[Found]:
    for located in unit.commands:
        command = located.command.name or unit.infer_command(located.headings).command
        for flag in sh.flags(located.command):
            if flag.name == "--quant_scheme" and flag.values:
                value = flag.values[0]
            elif flag.name == "--layer_quant_scheme" and len(flag.values) >= 2:
                value = flag.values[1]
            else:
                continue
            if SCHEME_NAME.match(value):
                yield Found(
                    "scheme",
                    value,
                    flag.line,
                    {
                        "where": "flag",
                        "flag": flag.name,
                        "command": command,
                        "enumerates": False,
                        "section": heading_path(located.headings),
                        "count_claimed": None,
                        "count_line": None,
                    },
                )
