"""Markdown rendering of a validation summary and its gate verdict, for a sticky PR comment.

The first line is the sticky-comment marker ``<!-- quarkci:report:ptq -->`` (docs/architecture.md
"Conventions").
Untrusted text (paths, upstream messages, layer names) is only ever emitted inside code spans made by the
one Markdown escaper (:mod:`quarkci.core.escape`), so it cannot render as markup or mention anyone.
"""

from __future__ import annotations

from collections.abc import Mapping

from quarkci.core.escape import cell, shorten
from quarkci.core.escape import code as _span
from quarkci.gates.verdict import Verdict
from quarkci.ptq.summary_types import ValidationSummary

MARKER = "<!-- quarkci:report:ptq -->"
_MAX_CELL = 200


def code(value: object) -> str:
    """``value`` as a single-line code span, capped at ``_MAX_CELL`` characters, safe in a table cell."""
    return cell(_span(shorten(" ".join(str(value).split()), _MAX_CELL)))


def _mib(n: object) -> str:
    return f"{n / 2**20:.2f} MiB" if isinstance(n, int | float) else "n/a"


def render(summary: ValidationSummary, verdict: Verdict) -> str:
    """The comment body: verdict line, key figures, then one row per gate check. ``summary`` may be one
    read back through its contract (a block's optional keys absent, ``layers`` null)."""
    ok = verdict.get("pass") is True
    head = "PASS" if ok else f"FAIL ({verdict.get('failure_class')})"
    source, output, reload = summary["source"], summary["output"], summary["reload"]  # the contract's
    layers: Mapping[str, object] = summary.get("layers") or {}
    ratio = summary.get("size_ratio")
    counts = layers.get("quantized") or {}
    pairs = sorted(counts.items()) if isinstance(counts, dict) else []
    quantized = ", ".join(f"{k}: {v}" for k, v in pairs) or "none"
    excluded = layers.get("excluded") or []
    n_excluded = len(excluded) if isinstance(excluded, list) else 0
    if output.get("error"):
        size = f"- size: {_mib(source.get('bytes'))} -> no readable output (weights unreadable)"
    elif not output.get("exists") or not output.get("files"):
        size = f"- size: {_mib(source.get('bytes'))} -> no output (nothing was exported)"
    else:
        size = f"- size: {_mib(source.get('bytes'))} -> {_mib(output.get('bytes'))}" + (
            f" (ratio {ratio:.3f})" if isinstance(ratio, int | float) else ""
        )
    lines = [
        MARKER,
        f"### quarkci PTQ gate: {head}",
        "",
        f"- scheme: {code(summary.get('scheme') or 'unknown')}",
        size,
        f"- quantized linear layers: {code(quantized)}; excluded {n_excluded}"
        f" of {layers.get('total', 'n/a')}",
    ]
    if isinstance(accuracy := reload.get("task_accuracy"), int | float):
        src = reload.get("source_task_accuracy")
        lines.append(
            f"- demo task accuracy after reload: {accuracy:.0%}"
            + (f" (source {src:.0%})" if isinstance(src, int | float) else "")
        )
    if isinstance(agreement := reload.get("top1_agreement"), int | float):
        lines.append(f"- top-1 agreement with the source: {agreement:.0%}")
    lines += ["", "| check | status | class | detail |", "| --- | --- | --- | --- |"]
    for check in verdict.get("checks") or []:
        cls = check.get("failure_class") or ""
        lines.append(
            f"| {check.get('name')} | {check.get('status')} | {cls} | {code(check.get('detail', ''))} |"
        )
    return "\n".join(lines) + "\n"
