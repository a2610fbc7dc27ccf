"""``model_type`` and ``model_type_count`` claims: the model families a skill says Quark supports.

Only a table column headed ``Models``/``Model type``/``Architectures`` (cells split on commas) under
a heading about models, architectures or templates counts; prose mentions of models do not.
A count in such a section (``built-in templates for 36 model families``, ``Supported Models (36)``)
is a ``model_type_count`` claim, and list items carry it as ``context["count_claimed"]``; so is one
anywhere that names the kind ("ships 51 built-in model templates", "returns 29 model types") or
``LLMTemplate``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.context import partial_list, release_matrix, selection
from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.quantities import COMPLETE, NOUNS, stated
from quarkci.skills.claims.sections import clean_cell, heading_count, list_section
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

TOPIC = re.compile(r"\b(models?|architectures?|templates?|model famil(?:y|ies))\b", re.IGNORECASE)
MODEL_HEADERS = frozenset(
    {
        "model",
        "models",
        "model type",
        "model types",
        "model_type",
        "architecture",
        "architectures",
        "model family",
        "model families",
        "template",
        "templates",
    }
)
MODEL_TYPE = re.compile(r"^[a-z0-9][a-z0-9_.\-]*$")
# A count outside a section about models is one when it names the kind ("51 model templates", "29 model
# types") or the registry it counts (LLMTemplate); "12 templates" alone may be chat templates.
_ALL_OF = re.compile(
    r"\ball (?:of )?(?:them|these|\d+)\b|\b(?:the )?(?:full|complete|whole|entire) (?:list|set|table)\b", re.I
)
_NAMES_THE_KIND = re.compile(r"\bmodel (?:types|templates|families)\b|\bLLMTemplate\b")


def extract(unit: Unit) -> Iterator[Found]:
    """``model_type`` and ``model_type_count`` claims of ``unit`` (see the module docstring)."""
    counts: dict[str, tuple[int, int]] = {}  # section path -> (count, line) of a table's introducing sentence
    totals: dict[str, int] = {}  # section path -> a total its prose states anywhere before
    for text in unit.texts():
        section = list_section(text.headings, TOPIC)
        if text.kind == "heading" and TOPIC.search(text.text) and heading_count(text.text) is not None:
            yield Found(
                "model_type_count",
                str(heading_count(text.text)),
                text.line,
                {"section": text.text, "where": "heading"},
            )
        elif text.kind == "paragraph":
            last = sentences(text.text)[-1][0] if text.text.strip() else 0
            for count in stated(text.text, NOUNS["model_type"], describing=COMPLETE):
                if section is None and not _NAMES_THE_KIND.search(text.text):
                    continue  # outside a section about models: only "N model templates/types", LLMTemplate
                line = text.line_at(count.offset)
                totals[heading_path(text.headings)] = count.n
                if count.offset >= last or _ALL_OF.search(text.text[last:]):
                    # the sentence that introduces a table after it ("... 35 templates:", "... All of them:")
                    counts[heading_path(text.headings)] = (count.n, line)
                yield Found(
                    "model_type_count",
                    str(count.n),
                    line,
                    {"section": heading_path(text.headings), "where": "paragraph", "text": count.written},
                )
        elif text.kind == "table" and section is None:
            yield from _template_cell(text, unit)
        elif text.kind == "table" and section is not None:
            partial = partial_list(text.lead, section.heading)
            chosen = None if partial else selection(section.heading, text.lead)
            yield from _cell(
                text,
                (section.enumerates or section.count is not None) and not partial,
                section.count,
                section.line,
                counts.get(heading_path(text.headings)),
                partial,
                chosen,
                # a lead saying the table holds them all ("All of them:") makes a shorter table incomplete
                None if _ALL_OF.search(text.lead) else totals.get(heading_path(text.headings)),
            )


_TEMPLATE_HEADERS = frozenset({"template", "templates", "model_type", "model type", "model types"})


def _template_cell(text: Text, unit: Unit) -> Iterator[Found]:
    """A cell of a column headed "template" or "model_type" outside a section about models (a serving
    table's `gemma4`): a ``model_type`` claim when it is one code span naming some release's template, never
    part of a complete list."""
    cell = text.cell
    if (
        cell is None
        or cell.is_header
        or clean_cell(cell.header) not in _TEMPLATE_HEADERS
        or unit.lexicon is None
    ):
        return
    match = re.fullmatch(r"\s*`([a-z0-9][a-z0-9_.\-]*)`\s*", text.text)
    if match and match.group(1) in unit.lexicon.names("model_template"):
        yield Found(
            "model_type",
            match.group(1),
            text.line,
            {"where": "table", "section": heading_path(text.headings), "enumerates": False, "resolved": True},
        )


def _cell(
    text: Text,
    enumerates: bool,
    heading_total: int | None,
    heading_line: int,
    paragraph_total: tuple[int, int] | None,
    partial: bool = False,
    chosen: str | None = None,
    section_total: int | None = None,
) -> Iterator[Found]:
    cell = text.cell
    if cell is None or cell.is_header or clean_cell(cell.header) not in MODEL_HEADERS:
        return
    if heading_total is not None:
        total, total_line = heading_total, heading_line
    elif paragraph_total is not None:
        total, total_line = paragraph_total
    else:
        total, total_line = None, None
    context = {
        "where": "table",
        "section": heading_path(text.headings),
        "enumerates": (enumerates or total is not None) and not partial and not release_matrix(cell.headers),
        "selection": chosen,
        "count_claimed": total,
        "count_line": total_line,
        "section_total": section_total,
        "headers": list(cell.headers),
        "column": cell.column,
    }
    for item in text.text.split(","):
        name = re.sub(r"[*`]", "", item).strip()
        if MODEL_TYPE.match(name):
            yield Found("model_type", name, text.line, dict(context))
