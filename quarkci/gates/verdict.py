"""The one verdict type of every gate, and the helpers the gates build it with.

A verdict is a JSON object: ``gate`` (the gate's id), ``pass``, ``failure_class`` (a
:class:`~quarkci.gates.failure_class.FailureClass` value, or ``None``) and ``detail`` (every failure, one
line), then what the gate adds: ``checks`` (ptq: one row per check), ``decision`` (compare: ACCEPT |
REGRESSION | ANOMALOUS | INDETERMINATE), ``tasks`` (compare, verbosity, run: one row per task),
``input_error`` (true when the gate could not judge its input at all; the gate's command exits 2), the
settings used (``threshold``, ``mode``, ``format``), ``differences`` (compare's config parity),
``not_measured`` (verbosity) and ``behaviour`` (ptq: the behaviour probe's figures and where its threshold
comes from).
"""

from __future__ import annotations

import math
from typing import Any, NotRequired, TypedDict, cast

from quarkci.gates.failure_class import FailureClass

EPS = 1e-9  # float slack for the inclusive boundaries (0.50 - 0.49 is 0.010000000000000009 in binary)


class Check(TypedDict):
    """One check of a gate: ``status`` pass|fail|skipped, ``failure_class`` when failed."""

    name: str
    status: str
    failure_class: str | None
    detail: str


class CompareRow(TypedDict):
    """One task of the compare gate (:mod:`quarkci.gates.compare`): scores as found (``None`` when not a
    finite number), ``scale`` (1 or 100, or the caller's), ``delta`` = candidate - baseline, ``drop`` the
    normalised drop, ``stderr`` the larger side's, ``status`` PASS | REGRESSION | ANOMALOUS |
    INDETERMINATE, ``reason`` why not PASS."""

    task: str
    metric: str
    baseline: float | None
    candidate: float | None
    scale: float
    delta: float | None
    drop: float | None
    stderr: float | None
    samples: int | None
    original_samples: int | None
    within: bool
    status: str
    reason: str | None


class VerbosityRow(TypedDict):
    """One generate task of the verbosity gate: mean completion tokens and samples per side, ``change``
    (a fraction, ``None`` when infinite) and ``within``."""

    task: str
    baseline_tokens: float
    candidate_tokens: float
    baseline_samples: int
    candidate_samples: int
    change: float | None
    within: bool


class RunRow(TypedDict):
    """One task of the run (completeness) gate: the counts as the eval result gave them, the score
    (``None`` when not a finite number) and ``status`` (``complete`` or what is wrong)."""

    task: str
    samples: object
    expected_samples: object
    failed_requests: object
    score: float | None
    status: str


class DifferenceRow(TypedDict):
    """One config-parity difference of the compare gate (values normalised: JSON values)."""

    field: str
    baseline: object
    candidate: object


# The PTQ gate's behaviour probe figures (``pass`` is a keyword: the functional form): ``top1_agreement``,
# then, when a figure was measured, ``measure`` (task_accuracy | top1_agreement), ``value``, ``source_value``
# (the source's task accuracy), ``threshold``, ``rule``, ``threshold_source`` and ``pass``.
Behaviour = TypedDict(
    "Behaviour",
    {
        "top1_agreement": float | None,
        "measure": NotRequired[str],
        "value": NotRequired[float],
        "source_value": NotRequired[float | None],
        "threshold": NotRequired[float],
        "rule": NotRequired[str],
        "threshold_source": NotRequired[str],
        "pass": NotRequired[bool],
    },
)

Verdict = TypedDict(
    "Verdict",
    {
        "gate": str,
        "pass": bool,
        "failure_class": str | None,
        "detail": str,
        "checks": NotRequired[list[Check]],
        "decision": NotRequired[str],
        "tasks": NotRequired[list[CompareRow] | list[VerbosityRow] | list[RunRow]],
        "input_error": NotRequired[bool],
        "threshold": NotRequired[float],
        "mode": NotRequired[str],
        "format": NotRequired[str],
        "differences": NotRequired[list[DifferenceRow]],
        "not_measured": NotRequired[list[str]],
        "behaviour": NotRequired[Behaviour | None],
    },
)


def verdict(gate: str, passed: bool, cls: FailureClass | None, detail: str, **extra: Any) -> Verdict:
    """A verdict of ``gate`` with ``extra`` keys (the names of :data:`Verdict`)."""
    return cast(
        Verdict,
        {
            "gate": gate,
            "pass": passed,
            "failure_class": cls.value if cls else None,
            "detail": detail,
            **extra,
        },
    )


def input_error(gate: str, detail: str, **extra: Any) -> Verdict:
    """A verdict on input the gate cannot judge at all: USER_CONFIG_ERROR with ``input_error: true``."""
    return verdict(gate, False, FailureClass.USER_CONFIG_ERROR, detail, input_error=True, **extra)


def number(value: Any) -> float | None:
    """A real, finite number (booleans are not scores), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None
