"""The closed set of failure classes shared by every quarkci gate (PTQ, day-0 canary/eval/compare/verbosity).

A gate reports at most one ``failure_class`` (the most actionable of the failures it found, by
:data:`PRIORITY`) and lists every failure in ``detail``. Classes are assigned where a failure is
detected (the PTQ runner classifies by stage; the validator records structured facts), never by
keyword-matching messages.

Triage
======

=========================  ===========================================  =====================================
failure_class              typical cause                                 action
=========================  ===========================================  =====================================
MODEL_UNSUPPORTED          the installed Quark cannot quantize, export   pick another scheme (or Quark
                           or reload this model/scheme/device: no        release); report upstream with the
                           template, an exception in quantize/freeze/    recorded message; do not retry
                           export (bfp16, mx6, mx9 at export in 0.13),   unchanged
                           a reload that raises (amdfp4_global16)
QUANT_COVERAGE_FAILURE     the export does not hold what its             inspect ``layers`` and ``reload`` in
                           quantization_config declares: layers left     the validation summary; fix the
                           unquantized, excluded layers quantized,       exclusions/overrides in the plan;
                           no quantization_config, or a reload with      a reload with missing/unexpected keys
                           missing/unexpected keys (nvfp4, int4_fp8)     means the checkpoint is unusable
SIZE_NOT_REDUCED           the output is not smaller than the source     check that the run exported the
                           (sum of ``*.safetensors``), e.g. the output   quantized model (real_quantized),
                           is a copy of the source                       not a copy or a fake-quantized one
BEHAVIOUR_PROBE_FAILED     the export is complete and reloads cleanly,   a quality loss of the scheme on this
                           but its outputs drift from the source's       model (day-0 REGRESSION): try
                           beyond the probe's threshold (demo-task       another scheme or algorithm, or
                           accuracy drop, else top-1 agreement)          exclude the sensitive layers
USER_CONFIG_ERROR          unreadable or incomplete input, a plan the    fix the input or the plan; rerun
                           Quark template rejects, calibration data      from the failed step
                           that cannot be loaded, missing output,
                           blocking metadata differences (tokenizer,
                           chat template, architecture fields)
=========================  ===========================================  =====================================

The other classes (SYSTEMIC, INFRA_TRANSIENT, CHECKPOINT_NOT_SERVABLE, DEPLOYMENT_HEALTH_FAILED,
EVAL_JUDGE_FAILED, SAMPLE_ACCOUNTING_FAILED, VERBOSITY_EXCEEDED, UNKNOWN) belong to the day-0 stages
(setup, canary, eval, compare, verbosity); their actions are in :data:`ACTIONS`.
"""

from __future__ import annotations

from enum import StrEnum


class FailureClass(StrEnum):
    """Why a gate failed; the value is the wire spelling (the reference day-0 design's class names)."""

    SYSTEMIC = "SYSTEMIC"
    INFRA_TRANSIENT = "INFRA_TRANSIENT"
    MODEL_UNSUPPORTED = "MODEL_UNSUPPORTED"
    QUANT_COVERAGE_FAILURE = "QUANT_COVERAGE_FAILURE"
    SIZE_NOT_REDUCED = "SIZE_NOT_REDUCED"
    BEHAVIOUR_PROBE_FAILED = "BEHAVIOUR_PROBE_FAILED"
    CHECKPOINT_NOT_SERVABLE = "CHECKPOINT_NOT_SERVABLE"
    DEPLOYMENT_HEALTH_FAILED = "DEPLOYMENT_HEALTH_FAILED"
    EVAL_JUDGE_FAILED = "EVAL_JUDGE_FAILED"
    SAMPLE_ACCOUNTING_FAILED = "SAMPLE_ACCOUNTING_FAILED"
    VERBOSITY_EXCEEDED = "VERBOSITY_EXCEEDED"
    USER_CONFIG_ERROR = "USER_CONFIG_ERROR"
    UNKNOWN = "UNKNOWN"


# Triage action per class (DAY0_NOTES' table), for reports and the day-0 closeout.
ACTIONS: dict[FailureClass, str] = {
    FailureClass.SYSTEMIC: (
        "infrastructure down (runner, accelerator, disk, dataset): abort; retry when it is back"
    ),
    FailureClass.INFRA_TRANSIENT: "retry once; recurring -> SYSTEMIC",
    FailureClass.MODEL_UNSUPPORTED: "patch the recipe or add support; else INFEASIBLE",
    FailureClass.QUANT_COVERAGE_FAILURE: "fix the recipe's layer patterns or the export metadata, re-run PTQ",
    FailureClass.SIZE_NOT_REDUCED: "declare the source precision; else a real compression failure",
    FailureClass.BEHAVIOUR_PROBE_FAILED: (
        "the export is complete but its outputs drift from the source's beyond the behaviour probe's "
        "threshold: try another scheme or algorithm (e.g. awq/gptq), or exclude the sensitive layers"
    ),
    FailureClass.CHECKPOINT_NOT_SERVABLE: "fix the export; do not evaluate",
    FailureClass.DEPLOYMENT_HEALTH_FAILED: "debug serving alone; else INFEASIBLE",
    FailureClass.EVAL_JUDGE_FAILED: "usually transient (auth, rate limit): wait, retry",
    FailureClass.SAMPLE_ACCOUNTING_FAILED: "investigate dropped samples",
    FailureClass.VERBOSITY_EXCEEDED: "check run hygiene first, then treat as a behaviour change",
    FailureClass.USER_CONFIG_ERROR: "fix the invocation; irrecoverable -> ANOMALOUS",
    FailureClass.UNKNOWN: "investigate; unresolved -> ANOMALOUS with evidence",
}


# Most actionable first: the reported failure_class is the first of these that occurred.
PRIORITY: tuple[FailureClass, ...] = (
    FailureClass.SYSTEMIC,
    FailureClass.INFRA_TRANSIENT,
    FailureClass.MODEL_UNSUPPORTED,
    FailureClass.QUANT_COVERAGE_FAILURE,
    FailureClass.SIZE_NOT_REDUCED,
    FailureClass.BEHAVIOUR_PROBE_FAILED,  # after the coverage classes: a broken export explains drift
    FailureClass.CHECKPOINT_NOT_SERVABLE,
    FailureClass.DEPLOYMENT_HEALTH_FAILED,
    FailureClass.EVAL_JUDGE_FAILED,
    FailureClass.SAMPLE_ACCOUNTING_FAILED,
    FailureClass.VERBOSITY_EXCEEDED,
    FailureClass.USER_CONFIG_ERROR,
    FailureClass.UNKNOWN,
)


def most_actionable(classes: list[FailureClass]) -> FailureClass | None:
    """The class of ``classes`` that comes first in :data:`PRIORITY`, or ``None`` when empty."""
    present = set(classes)
    return next((c for c in PRIORITY if c in present), None)
