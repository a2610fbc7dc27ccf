"""Mermaid charts for Markdown reports (GitHub renders ```mermaid blocks): the one chart builder.

Labels can come from skills or forks, so every label passes through :func:`label` (quotes, angle
brackets, backticks, brackets and line breaks are neutralised; length bounded) before it is placed in
a chart. Charts are plain text: same data, same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_MAX_LABEL = 40
_UNSAFE = re.compile(r"[\"'`<>\[\]{}();|#&\\]")


def label(text: str) -> str:
    """A Mermaid-safe label: control characters and markup-significant characters replaced by ``_``,
    at most 40 characters (an ellipsis marks a cut)."""
    clean = _UNSAFE.sub("_", re.sub(r"[\x00-\x1f\x7f]+", " ", str(text))).strip()
    return clean if len(clean) <= _MAX_LABEL else clean[: _MAX_LABEL - 1] + "…"


def bar_chart(
    title: str, x_labels: Sequence[str], series: dict[str, Sequence[float]], y_label: str = ""
) -> str:
    """A fenced ``xychart-beta`` bar chart: one bar series per entry of ``series`` (name -> one value
    per x label, same length as ``x_labels``). Raises ``ValueError`` on a length mismatch.

    Returns the fenced block (ending with a newline), or ``""`` when there is nothing to chart.
    """
    if not x_labels or not series:
        return ""
    xs = ", ".join(f'"{label(x)}"' for x in x_labels)
    lines = ["```mermaid", "xychart-beta", f'  title "{label(title)}"', f"  x-axis [{xs}]"]
    if y_label:
        lines.append(f'  y-axis "{label(y_label)}"')
    for name, values in series.items():
        if len(values) != len(x_labels):
            raise ValueError(f"series {name!r}: {len(values)} values for {len(x_labels)} labels")
        lines.append(f"  bar [{', '.join(_number(v) for v in values)}]")
    lines.append("```")
    return "\n".join(lines) + "\n"


def line_chart(
    title: str, x_labels: Sequence[str], series: dict[str, Sequence[float]], y_label: str = ""
) -> str:
    """Like :func:`bar_chart` with ``line`` series (e.g. a drift timeline: release x finding count)."""
    chart = bar_chart(title, x_labels, series, y_label)
    return chart.replace("  bar [", "  line [")


def _number(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):  # NaN / infinite cannot be drawn
        return "0"
    return f"{value:g}"
