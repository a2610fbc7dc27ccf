"""The day-0 decision and triage (``quarkci.day0.decision``): pure functions of the gate that stopped the
chain, one case per row of the module's table."""

from __future__ import annotations

import pytest

from quarkci.day0.decision import INDETERMINATE_ACTION, REGRESSION_ACTION, decision_for, triage
from quarkci.day0.state import GateFailed
from quarkci.gates.failure_class import ACTIONS, FailureClass

C = FailureClass


@pytest.mark.parametrize(
    ("failed", "decision"),
    [
        (None, "ACCEPT"),
        (GateFailed(None, "drop 0.1 > 0.01", "REGRESSION"), "REGRESSION"),
        (GateFailed(C.USER_CONFIG_ERROR, "config parity", "ANOMALOUS"), "ANOMALOUS"),
        (GateFailed(None, "stderr too large", "INDETERMINATE"), "INDETERMINATE"),
        (GateFailed(C.VERBOSITY_EXCEEDED, "over", "REGRESSION"), "REGRESSION"),
        (GateFailed(C.INFRA_TRANSIENT, "timeout"), "SYSTEMIC"),
        (GateFailed(C.SYSTEMIC, "disk"), "SYSTEMIC"),
        (GateFailed(C.MODEL_UNSUPPORTED, "export failed"), "INFEASIBLE"),
        (GateFailed(C.QUANT_COVERAGE_FAILURE, "unquantized"), "INFEASIBLE"),
        (GateFailed(C.SIZE_NOT_REDUCED, "copy"), "INFEASIBLE"),
        (GateFailed(C.BEHAVIOUR_PROBE_FAILED, "top-1 agreement 73% (min 80%)"), "REGRESSION"),
        (GateFailed(C.CHECKPOINT_NOT_SERVABLE, "answered 'x'"), "INFEASIBLE"),
        (GateFailed(C.DEPLOYMENT_HEALTH_FAILED, "no /health"), "INFEASIBLE"),
        (GateFailed(C.SAMPLE_ACCOUNTING_FAILED, "counts"), "ANOMALOUS"),
        (GateFailed(C.UNKNOWN, "?"), "ANOMALOUS"),
        (GateFailed(None, "no class, no decision"), "ANOMALOUS"),
    ],
)
def test_decision(failed, decision):
    assert decision_for(failed) == decision


def test_a_gates_own_decision_wins_over_its_class():
    """Compare's config-parity failure is USER_CONFIG_ERROR but its decision ANOMALOUS; a SYSTEMIC
    class under another decision keeps the gate's."""
    assert decision_for(GateFailed(C.SYSTEMIC, "x", "REGRESSION")) == "REGRESSION"


def test_triage():
    assert triage(None) == []
    assert triage(GateFailed(None, "x", "INDETERMINATE")) == [INDETERMINATE_ACTION]
    assert "add independent runs" in INDETERMINATE_ACTION
    assert triage(GateFailed(None, "x", "REGRESSION")) == [REGRESSION_ACTION]
    assert triage(GateFailed(C.VERBOSITY_EXCEEDED, "x", "REGRESSION")) == [ACTIONS[C.VERBOSITY_EXCEEDED]]
    assert triage(GateFailed(C.CHECKPOINT_NOT_SERVABLE, "x")) == ["fix the export; do not evaluate"]
    assert triage(GateFailed(C.BEHAVIOUR_PROBE_FAILED, "x")) == [ACTIONS[C.BEHAVIOUR_PROBE_FAILED]]
    assert triage(GateFailed(None, "x", "ANOMALOUS")) == []
