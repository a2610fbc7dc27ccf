"""The day-0 decision and triage of a finished chain: pure functions of the gate that stopped it.

=====================================================  ===========
stop                                                   decision
=====================================================  ===========
none (every gate passed)                               ACCEPT
a gate that decided (compare: REGRESSION, ANOMALOUS,   its own
INDETERMINATE; verbosity: REGRESSION; setup: SYSTEMIC)
SYSTEMIC, INFRA_TRANSIENT                              SYSTEMIC
BEHAVIOUR_PROBE_FAILED (gate_ptq: the export is        REGRESSION
complete, its outputs drift from the source's)
MODEL_UNSUPPORTED, QUANT_COVERAGE_FAILURE,             INFEASIBLE
SIZE_NOT_REDUCED, CHECKPOINT_NOT_SERVABLE,
DEPLOYMENT_HEALTH_FAILED
any other class                                        ANOMALOUS
=====================================================  ===========

The decisions and the classes are the reference day-0 design's (NVIDIA Model-Optimizer's public
``day0-release``, facts in ``DAY0_NOTES``); the triage action of a class is
:data:`quarkci.gates.failure_class.ACTIONS`.
"""

from __future__ import annotations

from quarkci.day0.state import GateFailed
from quarkci.gates.failure_class import ACTIONS, FailureClass

INFEASIBLE = frozenset(
    {
        FailureClass.MODEL_UNSUPPORTED,
        FailureClass.QUANT_COVERAGE_FAILURE,
        FailureClass.SIZE_NOT_REDUCED,
        FailureClass.CHECKPOINT_NOT_SERVABLE,
        FailureClass.DEPLOYMENT_HEALTH_FAILED,
    }
)
SYSTEMIC = frozenset({FailureClass.SYSTEMIC, FailureClass.INFRA_TRANSIENT})
# a measured quality loss, not an impossibility: the export is what it declares and serves
REGRESSION = frozenset({FailureClass.BEHAVIOUR_PROBE_FAILED})
INDETERMINATE_ACTION = (
    "add independent runs (more items or repeated evals) until the task's stderr is below the threshold"
)
REGRESSION_ACTION = (
    "the candidate regressed beyond the threshold: try another scheme or algorithm (e.g. awq/gptq), "
    "or exclude the sensitive layers"
)


def decision_for(failed: GateFailed | None) -> str:
    """The decision for a stopped chain (``None``: every gate passed -> ACCEPT); see the module table."""
    if failed is None:
        return "ACCEPT"
    if failed.decision:
        return failed.decision
    if failed.cls in SYSTEMIC:
        return "SYSTEMIC"
    if failed.cls in REGRESSION:
        return "REGRESSION"
    if failed.cls in INFEASIBLE:
        return "INFEASIBLE"
    return "ANOMALOUS"


def triage(failed: GateFailed | None) -> list[str]:
    """The triage actions for a stopped chain: none for ACCEPT, "add independent runs" for INDETERMINATE,
    the regression advice for a classless REGRESSION, else the stopping class's action."""
    if failed is None:
        return []
    if failed.decision == "INDETERMINATE":
        return [INDETERMINATE_ACTION]
    if failed.decision == "REGRESSION" and failed.cls is None:
        return [REGRESSION_ACTION]
    return [ACTIONS[failed.cls]] if failed.cls else []
