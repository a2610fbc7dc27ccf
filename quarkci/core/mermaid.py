"""Mermaid charts for Markdown reports (GitHub renders ```mermaid blocks): the one chart builder.

Labels can come from skills or forks, so every label passes through :func:`label` (quotes, angle
brackets, backticks, brackets and line breaks are neutralised; length bounded) before it is placed in
a chart, and appears once on its axis. A chart holds one bar series: Mermaid's ``xychart`` draws bar
series over each other without a legend, so several would hide each other. Charts are plain text: same
data, same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_MAX_LABEL = 40
_MAX_TITLE = 80
_UNSAFE = re.compile(r"[\"'`<>\[\]{}();|#&\\]")


def label(text: str, limit: int = _MAX_LABEL) -> str:
    """A Mermaid-safe label: control characters and markup-significant characters replaced by ``_``,
    at most ``limit`` characters (40; an ellipsis marks a cut)."""
    clean = _UNSAFE.sub("_", re.sub(r"[\x00-\x1f\x7f]+", " ", str(text))).strip()
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def unique_labels(texts: Sequence[str]) -> list[str]:
    """:func:`label` of each text, made unique: a label that would repeat an earlier one (two texts the
    same after neutralising or cutting) gets ``~2``, ``~3``... so every x value appears once on an axis."""
    out: list[str] = []
    seen: set[str] = set()
    for text in texts:
        base = label(text)
        candidate, n = base, 1
        while candidate in seen:
            n += 1
            suffix = f"~{n}"
            candidate = base[: _MAX_LABEL - len(suffix)] + suffix
        seen.add(candidate)
        out.append(candidate)
    return out


def bar_chart(
    title: str,
    x_labels: Sequence[str],
    values: Sequence[float],
    y_label: str = "",
    *,
    line: Sequence[float] | None = None,
) -> str:
    """A fenced ``xychart-beta`` chart of ONE bar series (``values``, one per x label), optionally with
    one ``line`` series drawn over it.

    Mermaid's xychart draws several bar series on top of each other and shows no legend, so a tall bar
    hides the shorter ones drawn before it: there is no multi-series bar chart here. Draw one chart per
    series and name what the bars count in ``title`` (and what the line is, when there is one).

    Returns the fenced block (ending with a newline), or ``""`` when there is nothing to chart. Raises
    ``TypeError`` for a mapping of several series, ``ValueError`` when a series' length differs from
    the labels' or two x labels are the same once made safe (:func:`label`; use :func:`unique_labels`
    to disambiguate).
    """
    if isinstance(values, Mapping) or isinstance(line, Mapping):
        raise TypeError("bar_chart draws one series: pass its values, and draw one chart per series")
    if not x_labels:
        return ""
    xs = [label(x) for x in x_labels]
    if len(set(xs)) != len(xs):
        repeated = sorted({x for x in xs if xs.count(x) > 1})
        raise ValueError(f"x labels repeat on one axis: {repeated}")
    axis = ", ".join(f'"{x}"' for x in xs)
    lines = ["```mermaid", "xychart-beta", f'  title "{label(title, _MAX_TITLE)}"', f"  x-axis [{axis}]"]
    if y_label:
        lines.append(f'  y-axis "{label(y_label)}"')
    for mark, series in (("bar", values), ("line", line)):
        if series is None:
            continue
        if len(series) != len(x_labels):
            raise ValueError(f"{mark} series: {len(series)} values for {len(x_labels)} labels")
        lines.append(f"  {mark} [{', '.join(_number(v) for v in series)}]")
    lines.append("```")
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):  # NaN / infinite cannot be drawn
        return "0"
    return f"{value:g}"
