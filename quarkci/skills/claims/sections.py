"""Section vocabulary shared by the list extractors (schemes, model types): which headings name a
list of Quark items, whether the skill presents it as complete, and a claimed total count."""

from __future__ import annotations

import re
from dataclasses import dataclass

from quarkci.skills.claims.walk import Heading

_COMPLETE = re.compile(r"\b(available|supported|all|built-in|builtin|complete|full)\b", re.IGNORECASE)
# A heading that itself says its list is a part ("Built-in schemes worth knowing", "Common templates",
# "Some supported models"): no claim that the list is complete, whatever else it says
_SUBSET = re.compile(
    r"\b(?:worth knowing|notable|common(?:ly used)?|popular|some|selected|a few|key|useful|favou?rite|"
    r"recommended|frequently used|examples?|highlights?|handy|typical)\b"
    # "Built-in templates for MoE models": the ones of one kind of model
    r"|\bfor\s+(?!all\b|every\b|any\b)[\w-]+(?:\s+[\w-]+)?\s+(?:models?|architectures?|families|llms?)\b",
    re.IGNORECASE,
)
_HEADING_COUNT = re.compile(r"\((\d+)(?:\s+(?:total|in total|primary))?\)")


@dataclass(frozen=True)
class ListSection:
    """The heading that introduces a list: its text and line, completeness, claimed count."""

    heading: str
    line: int
    enumerates: bool
    count: int | None


def list_section(headings: tuple[Heading, ...], topic: re.Pattern[str]) -> ListSection | None:
    """Innermost ancestor heading whose text matches ``topic``, with its completeness and count.

    A list is *enumerated as complete* when that heading says available/supported/all/built-in or
    states a count, e.g. ``Available Quantization Schemes (21 total)``, unless it also says the list is a
    part (``Built-in schemes worth knowing``, ``Common templates``: :data:`_SUBSET`).
    """
    for heading in reversed(headings):
        if topic.search(heading.text):
            count = heading_count(heading.text)
            complete = bool(_COMPLETE.search(heading.text)) or count is not None
            return ListSection(
                heading.text, heading.line, complete and not _SUBSET.search(heading.text), count
            )
    return None


def heading_count(text: str) -> int | None:
    """``21`` for ``"... Schemes (21 total)"``; None when the heading states no count."""
    match = _HEADING_COUNT.search(text)
    return int(match.group(1)) if match else None


def clean_cell(text: str) -> str:
    """A table header or cell without Markdown emphasis/backticks, lower-cased and trimmed."""
    return re.sub(r"[*`]", "", text).strip().lower()
