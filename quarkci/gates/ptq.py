"""The PTQ gate: a validation summary -> ``{pass, failure_class, detail, checks}``.

Input: the summary written by ``quarkci ptq validate`` (shape in :mod:`quarkci.ptq.validate`):
``summary_version``, ``source``/``output`` (``exists``, ``bytes``), ``size_ratio``,
``quantization_config.present``, ``layers`` (``quantized`` by precision, ``excluded``,
``unexpected_unquantized``, ``declaration_mismatch``), ``metadata.blocking``, ``reload``
(``checked``, ``ok``, ``error``, ``counts``) and ``run`` (the run result, or null).

Checks, in order, each ``pass`` | ``fail`` | ``skipped`` with its failure class:

=====================  ==============================================================  ======================
check                  fails when                                                      class
=====================  ==============================================================  ======================
run                    the run result says ``failed`` (class recorded by the runner)    runner's class
output                 the output directory or its ``*.safetensors`` are missing        USER_CONFIG_ERROR
quantization_config    the export declares no ``quantization_config``                   QUANT_COVERAGE_FAILURE
coverage               no quantized layer, an unexpected unquantized layer, or a        QUANT_COVERAGE_FAILURE
                       declaration mismatch
size                   ``size_ratio`` >= ``max_size_ratio`` (default 1.0: not smaller)  SIZE_NOT_REDUCED
reload                 the loader raised, or a forward pass after reload raised         MODEL_UNSUPPORTED
                       missing / unexpected / mismatched keys, non-finite logits        QUANT_COVERAGE_FAILURE
metadata               a blocking metadata difference                                   USER_CONFIG_ERROR
=====================  ==============================================================  ======================

An output with no ``quantization_config`` that is not smaller than the source is the source unchanged
(a copy): that is one failure, SIZE_NOT_REDUCED, and the two declaration checks are skipped. Without
``quantization_config`` but smaller (e.g. a dtype cast), the quantization_config check fails.

``failure_class`` is the most actionable class found (:data:`quarkci.gates.failure_class.PRIORITY`),
``detail`` lists every failure. :func:`evaluate` never raises: malformed input is a
USER_CONFIG_ERROR verdict.
"""

from __future__ import annotations

import math
from typing import Any, TypedDict

from quarkci.core.failure_class import FailureClass, most_actionable

ID = "ptq"
DEFAULT_MAX_SIZE_RATIO = 1.0


class Check(TypedDict):
    """One check of the gate: ``status`` pass|fail|skipped, ``failure_class`` when failed."""

    name: str
    status: str
    failure_class: str | None
    detail: str


GateResult = TypedDict(
    "GateResult",
    {"gate": str, "pass": bool, "failure_class": str | None, "detail": str, "checks": list[Check]},
)


def _check(name: str, status: str, detail: str, cls: FailureClass | None = None) -> Check:
    return {"name": name, "status": status, "failure_class": cls.value if cls and status == "fail" else None,
            "detail": detail}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _coverage(layers: dict[str, Any]) -> Check:
    quantized = _dict(layers.get("quantized"))
    n_quant = sum(v for v in quantized.values() if isinstance(v, int))
    unexpected = layers.get("unexpected_unquantized") or []
    mismatch = layers.get("declaration_mismatch") or []
    problems = []
    if n_quant == 0:
        problems.append("no quantized linear layer")
    if unexpected:
        problems.append(f"{len(unexpected)} layer(s) declared quantized but stored unquantized (e.g. {unexpected[0]})")
    if mismatch:
        first = mismatch[0] if isinstance(mismatch[0], dict) else {"layer": str(mismatch[0]), "reason": ""}
        problems.append(f"{len(mismatch)} declaration mismatch(es) (e.g. {first.get('layer')}: {first.get('reason')})")
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(quantized.items()))
    detail = f"quantized {{{counts}}}, excluded {len(layers.get('excluded') or [])} of {layers.get('total')}"
    return _check("coverage", "fail" if problems else "pass", "; ".join(problems) if problems else detail,
                  FailureClass.QUANT_COVERAGE_FAILURE)


def _checks(summary: dict[str, Any], max_size_ratio: float) -> list[Check]:
    checks: list[Check] = []
    run = summary.get("run")
    if isinstance(run, dict):
        if run.get("status") == "succeeded":
            checks.append(_check("run", "pass", "ptq run succeeded"))
        else:
            try:
                cls = FailureClass(run.get("failure_class"))
            except ValueError:
                cls = FailureClass.MODEL_UNSUPPORTED
            checks.append(_check("run", "fail", f"ptq run failed at {run.get('stage')}: {run.get('message')}", cls))
    else:
        checks.append(_check("run", "skipped", "no run result given"))

    output = _dict(summary.get("output"))
    if not output.get("exists") or not output.get("files"):
        what = "does not exist" if not output.get("exists") else "has no *.safetensors"
        checks.append(_check("output", "fail", f"output {output.get('path')} {what}",
                             FailureClass.USER_CONFIG_ERROR))
        return checks  # nothing else can be judged
    checks.append(_check("output", "pass", f"{output.get('files')} safetensors file(s), {output.get('bytes')} bytes"))

    ratio = summary.get("size_ratio")
    if not isinstance(ratio, int | float) or isinstance(ratio, bool) or not math.isfinite(ratio) or ratio <= 0:
        # NaN compares False with everything: without this, a NaN ratio would pass the size check
        size = _check("size", "fail", f"size_ratio not a positive finite number: {ratio!r}",
                      FailureClass.SIZE_NOT_REDUCED)
    elif ratio >= max_size_ratio:
        size = _check("size", "fail", f"output/source size ratio {ratio:.4f} >= {max_size_ratio}",
                      FailureClass.SIZE_NOT_REDUCED)
    else:
        size = _check("size", "pass", f"output/source size ratio {ratio:.4f}")

    qc = _dict(summary.get("quantization_config"))
    if not qc.get("present") and size["status"] == "fail":
        # the source unchanged (e.g. a copy): one failure, reported by the size check
        checks.append(_check("quantization_config", "skipped", "no quantization_config: not a quantized export"))
        checks.append(_check("coverage", "skipped", "nothing declared quantized"))
        checks.append(size)
    else:
        if qc.get("present"):
            checks.append(_check("quantization_config", "pass", f"quant_method {qc.get('quant_method')}, weight "
                                                                f"{'+'.join(qc.get('global_weight_dtypes') or [])}"))
        else:
            checks.append(_check("quantization_config", "fail", "config.json has no quantization_config",
                                 FailureClass.QUANT_COVERAGE_FAILURE))
        checks.append(_coverage(_dict(summary.get("layers"))))
        checks.append(size)

    reload = _dict(summary.get("reload"))
    if not reload.get("checked"):
        checks.append(_check("reload", "skipped", "reload not checked"))
    elif reload.get("error") or reload.get("forward_error"):
        what = f"reload raised: {reload['error']}" if reload.get("error") else str(reload["forward_error"])
        checks.append(_check("reload", "fail", what, FailureClass.MODEL_UNSUPPORTED))
    else:
        counts_ = _dict(reload.get("counts"))
        bad = {k: v for k, v in counts_.items() if v}
        if bad or reload.get("ok") is not True:
            example = (reload.get("missing_keys") or reload.get("unexpected_keys") or ["?"])[0]
            what = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in sorted(bad.items())) or "not ok"
            if reload.get("logits_finite") is False:
                what += ", non-finite logits"
            checks.append(_check("reload", "fail", f"reload reported {what} (e.g. {example})",
                                 FailureClass.QUANT_COVERAGE_FAILURE))
        else:
            acc = reload.get("task_accuracy")
            extra = f", task accuracy {acc:.0%}" if isinstance(acc, int | float) else ""
            checks.append(_check("reload", "pass", f"reloaded without missing/unexpected keys{extra}"))

    blocking = _dict(summary.get("metadata")).get("blocking") or []
    if blocking:
        fields = ", ".join(str(_dict(b).get("field")) for b in blocking)
        checks.append(_check("metadata", "fail", f"blocking metadata differences: {fields}",
                             FailureClass.USER_CONFIG_ERROR))
    else:
        n_expected = len(_dict(summary.get("metadata")).get("expected") or [])
        checks.append(_check("metadata", "pass", f"no blocking differences ({n_expected} expected)"))
    return checks


def evaluate(summary: Any, max_size_ratio: float = DEFAULT_MAX_SIZE_RATIO) -> GateResult:
    """Judge a validation summary (see module docstring). Never raises."""
    if not isinstance(summary, dict) or summary.get("summary_version") != 1:
        checks = [_check("input", "fail", "not a version-1 validation summary", FailureClass.USER_CONFIG_ERROR)]
    else:
        try:
            checks = _checks(summary, max_size_ratio)
        except Exception as exc:  # malformed field types deep inside: a verdict, not a crash
            checks = [_check("input", "fail", f"malformed validation summary: {type(exc).__name__}: {exc}",
                             FailureClass.USER_CONFIG_ERROR)]
    failed = [c for c in checks if c["status"] == "fail"]
    cls = most_actionable([FailureClass(c["failure_class"]) for c in failed if c["failure_class"]])
    detail = "; ".join(f"[{c['failure_class']}] {c['name']}: {c['detail']}" for c in failed) or "all checks passed"
    return {"gate": ID, "pass": not failed, "failure_class": cls.value if cls else None, "detail": detail,
            "checks": checks}
