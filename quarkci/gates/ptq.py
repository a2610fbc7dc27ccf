"""The PTQ gate: a validation summary -> ``{pass, failure_class, detail, checks}``.

Input: the summary written by ``quarkci ptq validate`` (shape in :mod:`quarkci.ptq.validate`):
``summary_version``, ``source``/``output`` (``exists``, ``bytes``), ``size_ratio``,
``quantization_config.present``, ``layers`` (``quantized`` by precision, ``excluded``,
``unexpected_unquantized``, ``declaration_mismatch``), ``metadata.blocking``, ``reload``
(``checked``, ``ok``, ``error``, ``counts``) and ``run`` (the run result, or null).

Checks, in order, each ``pass`` | ``fail`` | ``skipped`` with its failure class:

=====================  ============================================================== ======================
check                  fails when                                                     class
=====================  ============================================================== ======================
run                    the run result says ``failed`` (class recorded by the runner)   runner's class
output                 the output directory or its ``*.safetensors`` are missing       USER_CONFIG_ERROR
                       a weight file is corrupt or truncated (``output.error``)        CHECKPOINT_NOT_SERVABLE
quantization_config    the export declares no ``quantization_config``, or a malformed  QUANT_COVERAGE_FAILURE
                       one (quant_method not quark, no weight dtype)
coverage               no quantized layer, an unexpected unquantized layer, or a       QUANT_COVERAGE_FAILURE
                       declaration mismatch
scheme                 the claimed scheme's weight dtype / group size is not the one   QUANT_COVERAGE_FAILURE
                       declared, or a stored weight_scale does not fit the qscheme
kv_cache               the KV-cache group names some but not all k/v projections, its  QUANT_COVERAGE_FAILURE
                       config sections and stored output scales disagree, or the k and
                       v output specs differ (vLLM requires one KV-cache scheme)
fused_layers           the shards vLLM fuses into one layer (q/k/v -> qkv_proj,        QUANT_COVERAGE_FAILURE
                       gate/up -> gate_up_proj) resolve to different schemes, e.g. one
                       shard excluded (vLLM refuses: "requires all to use the same
                       scheme"); not run when the summary has no such block
names                  output tensors of no model module, source tensors missing,      QUANT_COVERAGE_FAILURE
                       layer_quant_config patterns matching nothing
unquantized_tensors    a tensor the recipe left unquantized (lm_head, embeddings,      QUANT_COVERAGE_FAILURE
                       norms) differs from the source's
size                   ``size_ratio`` (every weight file) >= ``max_size_ratio``        SIZE_NOT_REDUCED
reload                 the loader raised, or a forward pass after reload raised        MODEL_UNSUPPORTED
                       (QUANT_COVERAGE_FAILURE when a metadata check above failed: a
                       tampered config explains the failed reload)
                       missing / unexpected / mismatched keys, non-finite logits       QUANT_COVERAGE_FAILURE
behaviour              demo-task accuracy dropped more than ``max_accuracy_drop``      BEHAVIOUR_PROBE_FAILED
                       from the source's, else top-1 agreement with the source below
                       ``min_top1_agreement`` (both quarkci's own defaults, no upstream
                       rule; the verdict's ``behaviour`` names the figures and where
                       the threshold comes from)
                       not measured after a clean reload                               QUANT_COVERAGE_FAILURE
metadata               a blocking metadata difference                                  USER_CONFIG_ERROR
=====================  ============================================================== ======================

The two vLLM rules (``kv_cache``'s one scheme for k and v, ``fused_layers``) are facts of vLLM's loader of
Quark exports (``vllm/model_executor/layers/quantization/quark/quark.py`` and ``utils.py``,
vllm-project/vllm), restated in :mod:`quarkci.ptq.export_checks`; an export that breaks them is refused
by vLLM at load time.

An output with no ``quantization_config`` that is not smaller than the source is the source unchanged
(a copy): that is one failure, SIZE_NOT_REDUCED, and the two declaration checks are skipped. Without
``quantization_config`` but smaller (e.g. a dtype cast), the quantization_config check fails.

``failure_class`` is the most actionable class found (:data:`quarkci.gates.failure_class.PRIORITY`),
``detail`` lists every failure. :func:`evaluate` never raises: malformed input is a
USER_CONFIG_ERROR verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeGuard

from quarkci.gates.failure_class import FailureClass, most_actionable
from quarkci.gates.verdict import Behaviour, Check, Verdict, verdict

ID = "ptq"
DEFAULT_MAX_SIZE_RATIO = 1.0
DEFAULT_MAX_ACCURACY_DROP = 0.10  # absolute, on the 0..1 demo-task accuracy
DEFAULT_MIN_TOP1_AGREEMENT = 0.80  # fraction of probe positions whose top-1 token equals the source's
# checks whose failure means the export's metadata is wrong: a reload failure after one of them is not
# MODEL_UNSUPPORTED (the installed stack is fine; the checkpoint is not)
METADATA_CHECKS = ("quantization_config", "coverage", "scheme", "kv_cache", "names")


def _check(name: str, status: str, detail: str, cls: FailureClass | None = None) -> Check:
    return {
        "name": name,
        "status": status,
        "failure_class": cls.value if cls and status == "fail" else None,
        "detail": detail,
    }


def _obj(value: object) -> Mapping[str, object]:
    """A JSON object of the (untrusted) summary; ``{}`` for any other value."""
    return value if isinstance(value, dict) else {}


# What Python raises when a summary field that should be an array is a number or a boolean, by the first
# operation the gate applies to it (the verdict names the error: the wording is kept as it was)
_NOT_AN_ARRAY = {
    "len": "object of type '{}' has no len()",
    "index": "'{}' object is not subscriptable",
    "iter": "'{}' object is not iterable",
    "join": "can only join an iterable",
}


def _seq(value: object, first_use: str) -> Sequence[object] | Mapping[object, object]:
    """``value or []`` for a summary field that should be an array: a list, a string or an object is
    returned as it is (``len``, indexing and iteration apply to each, as they did before the field was
    typed); a number or a boolean raises the ``TypeError`` Python raises for ``first_use`` (a key of
    :data:`_NOT_AN_ARRAY`), which :func:`evaluate` turns into a malformed-summary verdict."""
    if not value:
        return []
    if isinstance(value, list | str | dict):
        return value
    raise TypeError(_NOT_AN_ARRAY[first_use].format(type(value).__name__))


def _texts(values: Iterable[object]) -> list[str]:
    """``values`` when every item is a string; else the ``TypeError`` ``str.join`` raises."""
    out = []
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise TypeError(f"sequence item {i}: expected str instance, {type(value).__name__} found")
        out.append(value)
    return out


def _coverage(layers: Mapping[str, object]) -> Check:
    quantized = _obj(layers.get("quantized"))
    n_quant = sum(v for v in quantized.values() if isinstance(v, int))
    unexpected = _seq(layers.get("unexpected_unquantized"), "len")
    mismatch = _seq(layers.get("declaration_mismatch"), "index")
    problems = []
    if n_quant == 0:
        problems.append("no quantized linear layer")
    if unexpected:
        problems.append(
            f"{len(unexpected)} layer(s) declared quantized but stored unquantized (e.g. {unexpected[0]})"
        )
    if mismatch:
        first = mismatch[0] if isinstance(mismatch[0], dict) else {"layer": str(mismatch[0]), "reason": ""}
        problems.append(
            f"{len(mismatch)} declaration mismatch(es) (e.g. {first.get('layer')}: {first.get('reason')})"
        )
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(quantized.items()))
    excluded = len(_seq(layers.get("excluded"), "len"))
    detail = f"quantized {{{counts}}}, excluded {excluded} of {layers.get('total')}"
    return _check(
        "coverage",
        "fail" if problems else "pass",
        "; ".join(problems) if problems else detail,
        FailureClass.QUANT_COVERAGE_FAILURE,
    )


def _block(name: str, block: object, ok: Callable[[Mapping[str, object]], str]) -> Check:
    """A check over one measured block (``problems`` list); skipped when the block was not measured."""
    if not isinstance(block, dict):
        return _check(name, "skipped", "not measured")
    problems = [str(p) for p in _seq(block.get("problems"), "iter")]
    if problems:
        return _check(
            name,
            "fail",
            "; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""),
            FailureClass.QUANT_COVERAGE_FAILURE,
        )
    return _check(name, "pass", ok(block))


def _scheme_ok(b: Mapping[str, object]) -> str:
    if not b.get("claimed"):
        return (
            f"no claimed scheme; declared {b.get('declared_dtype')} {b.get('declared_qscheme')}: scales fit"
        )
    return f"{b.get('claimed')}: declared {b.get('declared_dtype')} {b.get('declared_qscheme')}, scales fit"


def _kv_ok(b: Mapping[str, object]) -> str:
    group = _seq(b.get("group"), "iter")
    return (
        f"KV-cache group {', '.join(map(str, group))} names all {b.get('layers_named')} k/v projections"
        if group
        else "no KV-cache group, no k/v output scales"
    )


def _fused_ok(b: Mapping[str, object]) -> str:
    n = b.get("checked")
    return (
        f"the shards of each of the {n} fused layer(s) vLLM builds (qkv_proj, gate_up_proj) share one scheme"
        if n
        else "no q/k/v or gate/up shards to fuse"
    )


def _names_ok(b: Mapping[str, object]) -> str:
    return "every exported tensor belongs to a model module; no source tensor missing"


def _tensors_ok(b: Mapping[str, object]) -> str:
    return f"{b.get('checked')} unquantized tensor(s) equal the source's"


def threshold_source(name: str, value: float, default: float) -> str:
    """Where a behaviour threshold comes from, for the verdict and the reports: quarkci's own default
    (no upstream rule sets it) or the caller's value (``ptq gate --<name>``)."""
    flag = "--" + name.replace("_", "-")
    if abs(value - default) <= 1e-12:
        return (
            f"quarkci's default DEFAULT_{name.upper()} = {default:g} (quarkci.gates.ptq; quarkci's own "
            f"choice, not an upstream rule; `ptq gate {flag}` overrides it)"
        )
    return f"{name} = {value:g} given by the caller (`ptq gate {flag}`; quarkci's default is {default:g})"


def _behaviour(
    reload: Mapping[str, object], reload_check: Check, max_drop: float, min_agreement: float
) -> tuple[Check, Behaviour | None]:
    """The behaviour check and the probe's figures (``None`` when nothing was measured): ``measure``
    (``task_accuracy`` on the demo model, else ``top1_agreement``), ``value``, ``source_value`` (the
    source's task accuracy), ``threshold`` and ``rule``, ``top1_agreement``, ``threshold_source``, ``pass``.
    A measured drift is BEHAVIOUR_PROBE_FAILED; no measurement after a clean reload QUANT_COVERAGE_FAILURE."""
    if not reload.get("checked"):
        return _check("behaviour", "skipped", "reload not checked"), None
    if reload_check["status"] == "fail" and (reload.get("error") or reload.get("forward_error")):
        return _check("behaviour", "skipped", "the export did not reload"), None
    acc, src_acc = reload.get("task_accuracy"), reload.get("source_task_accuracy")
    agreement = reload.get("top1_agreement")
    cls = FailureClass.BEHAVIOUR_PROBE_FAILED
    probe: Behaviour = {"top1_agreement": agreement if _number(agreement) else None}
    if _number(acc) and _number(src_acc):
        failed = src_acc - acc > max_drop + 1e-9
        detail = f"demo-task accuracy {acc:.0%} vs {src_acc:.0%} for the source (max drop {max_drop:.0%})"
        if _number(agreement):
            detail += f"; top-1 agreement {agreement:.0%}"
        probe["measure"], probe["value"], probe["source_value"] = "task_accuracy", acc, src_acc
        probe["threshold"], probe["rule"] = max_drop, "source_value - value <= threshold"
        probe["threshold_source"] = threshold_source("max_accuracy_drop", max_drop, DEFAULT_MAX_ACCURACY_DROP)
    elif _number(agreement):
        failed = agreement < min_agreement
        detail = f"top-1 agreement with the source {agreement:.0%} (min {min_agreement:.0%})"
        probe["measure"], probe["value"], probe["source_value"] = "top1_agreement", agreement, None
        probe["threshold"], probe["rule"] = min_agreement, "value >= threshold"
        probe["threshold_source"] = threshold_source(
            "min_top1_agreement", min_agreement, DEFAULT_MIN_TOP1_AGREEMENT
        )
    else:
        why = reload.get("behaviour_error") or reload.get("task_error") or "no probe result in the summary"
        return (
            _check(
                "behaviour",
                "fail",
                f"behaviour not measured after reload: {why}",
                FailureClass.QUANT_COVERAGE_FAILURE,
            ),
            None,
        )
    probe["pass"] = not failed
    return _check("behaviour", "fail" if failed else "pass", detail, cls), probe


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _run_check(run: object) -> Check:
    if not isinstance(run, dict):
        return _check("run", "skipped", "no run result given")
    if run.get("status") == "succeeded":
        return _check("run", "pass", "ptq run succeeded")
    try:
        cls = FailureClass(str(run.get("failure_class")))
    except ValueError:
        cls = FailureClass.MODEL_UNSUPPORTED
    return _check("run", "fail", f"ptq run failed at {run.get('stage')}: {run.get('message')}", cls)


def _size_check(ratio: object, max_size_ratio: float, extra: str) -> Check:
    if (
        not isinstance(ratio, int | float)
        or isinstance(ratio, bool)
        or not math.isfinite(ratio)
        or ratio <= 0
    ):
        # NaN compares False with everything: without this, a NaN ratio would pass the size check
        return _check(
            "size",
            "fail",
            f"size_ratio not a positive finite number: {ratio!r}",
            FailureClass.SIZE_NOT_REDUCED,
        )
    if ratio >= max_size_ratio:
        return _check(
            "size",
            "fail",
            f"output/source size ratio {ratio:.4f} >= {max_size_ratio} (every weight file counted{extra})",
            FailureClass.SIZE_NOT_REDUCED,
        )
    return _check("size", "pass", f"output/source size ratio {ratio:.4f}")


def _reload_check(reload: Mapping[str, object], checks: list[Check]) -> Check:
    """The reload check; a failed reload after a failed metadata check among ``checks`` is the
    metadata's fault (QUANT_COVERAGE_FAILURE), not MODEL_UNSUPPORTED."""
    if not reload.get("checked"):
        return _check("reload", "skipped", "reload not checked")
    if reload.get("error") or reload.get("forward_error"):
        what = f"reload raised: {reload['error']}" if reload.get("error") else str(reload["forward_error"])
        explained = [c["name"] for c in checks if c["name"] in METADATA_CHECKS and c["status"] == "fail"]
        if explained:
            return _check(
                "reload",
                "fail",
                f"{what} (the export's metadata is wrong: {', '.join(explained)})",
                FailureClass.QUANT_COVERAGE_FAILURE,
            )
        return _check("reload", "fail", what, FailureClass.MODEL_UNSUPPORTED)
    counts_ = _obj(reload.get("counts"))
    bad = {k: v for k, v in counts_.items() if v}
    if bad or reload.get("ok") is not True:
        keys = _seq(reload.get("missing_keys"), "index") or _seq(reload.get("unexpected_keys"), "index")
        example = (keys or ["?"])[0]
        what = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in sorted(bad.items())) or "not ok"
        if reload.get("logits_finite") is False:
            what += ", non-finite logits"
        return _check(
            "reload",
            "fail",
            f"reload reported {what} (e.g. {example})",
            FailureClass.QUANT_COVERAGE_FAILURE,
        )
    acc = reload.get("task_accuracy")
    acc_note = f", task accuracy {acc:.0%}" if isinstance(acc, int | float) else ""
    return _check("reload", "pass", f"reloaded without missing/unexpected keys{acc_note}")


def _metadata_check(metadata: Mapping[str, object]) -> Check:
    blocking = _seq(metadata.get("blocking"), "iter")
    if blocking:
        fields = ", ".join(str(_obj(b).get("field")) for b in blocking)
        return _check(
            "metadata", "fail", f"blocking metadata differences: {fields}", FailureClass.USER_CONFIG_ERROR
        )
    n_expected = len(_seq(metadata.get("expected"), "len"))
    return _check("metadata", "pass", f"no blocking differences ({n_expected} expected)")


def _checks(
    summary: Mapping[str, object],
    max_size_ratio: float,
    max_accuracy_drop: float = DEFAULT_MAX_ACCURACY_DROP,
    min_top1_agreement: float = DEFAULT_MIN_TOP1_AGREEMENT,
    probes: list[Behaviour] | None = None,
) -> list[Check]:
    """The checks of the module table, in order; the behaviour probe's figures go to ``probes``."""
    probes = probes if probes is not None else []
    checks: list[Check] = [_run_check(summary.get("run"))]

    output = _obj(summary.get("output"))
    if output.get("error"):
        checks.append(
            _check(
                "output",
                "fail",
                f"weights unreadable: {output['error']}",
                FailureClass.CHECKPOINT_NOT_SERVABLE,
            )
        )
        return checks
    if not output.get("exists") or not output.get("files"):
        what = "does not exist" if not output.get("exists") else "has no *.safetensors"
        checks.append(
            _check("output", "fail", f"output {output.get('path')} {what}", FailureClass.USER_CONFIG_ERROR)
        )
        return checks  # nothing else can be judged
    others = _obj(output.get("other_weight_files"))
    extra = f" + {len(others)} other weight file(s) ({', '.join(sorted(others))})" if others else ""
    checks.append(
        _check(
            "output", "pass", f"{output.get('files')} safetensors file(s){extra}, {output.get('bytes')} bytes"
        )
    )

    size = _size_check(summary.get("size_ratio"), max_size_ratio, extra)

    qc = _obj(summary.get("quantization_config"))
    if not qc.get("present") and size["status"] == "fail":
        # the source unchanged (e.g. a copy): one failure, reported by the size check
        checks.append(
            _check("quantization_config", "skipped", "no quantization_config: not a quantized export")
        )
        checks.append(_check("coverage", "skipped", "nothing declared quantized"))
        checks.append(size)
    else:
        if qc.get("present") and qc.get("problems"):
            checks.append(
                _check(
                    "quantization_config",
                    "fail",
                    "; ".join(map(str, _seq(qc["problems"], "iter"))),
                    FailureClass.QUANT_COVERAGE_FAILURE,
                )
            )
        elif qc.get("present"):
            checks.append(
                _check(
                    "quantization_config",
                    "pass",
                    f"quant_method {qc.get('quant_method')}, weight "
                    f"{'+'.join(_texts(_seq(qc.get('global_weight_dtypes'), 'join')))}",
                )
            )
        else:
            checks.append(
                _check(
                    "quantization_config",
                    "fail",
                    "config.json has no quantization_config",
                    FailureClass.QUANT_COVERAGE_FAILURE,
                )
            )
        checks.append(_coverage(_obj(summary.get("layers"))))
        for name, key, ok in (
            ("scheme", "scheme_check", _scheme_ok),
            ("kv_cache", "kv_cache", _kv_ok),
            ("fused_layers", "fused_layers", _fused_ok),
            ("names", "names", _names_ok),
            ("unquantized_tensors", "unquantized_tensors", _tensors_ok),
        ):
            checks.append(_block(name, summary.get(key), ok))
        checks.append(size)

    reload = _obj(summary.get("reload"))
    checks.append(_reload_check(reload, checks))
    behaviour, probe = _behaviour(reload, checks[-1], max_accuracy_drop, min_top1_agreement)
    checks.append(behaviour)
    if probe is not None:
        probes.append(probe)

    checks.append(_metadata_check(_obj(summary.get("metadata"))))
    return checks


def evaluate(
    summary: object,
    max_size_ratio: float = DEFAULT_MAX_SIZE_RATIO,
    max_accuracy_drop: float = DEFAULT_MAX_ACCURACY_DROP,
    min_top1_agreement: float = DEFAULT_MIN_TOP1_AGREEMENT,
) -> Verdict:
    """Judge a validation summary (see module docstring): a pure function, it reads no file and never
    raises (malformed input is a USER_CONFIG_ERROR verdict). ``max_accuracy_drop`` is absolute on the
    0..1 demo-task accuracy; ``min_top1_agreement`` a 0..1 fraction of probe positions. The verdict's
    ``behaviour`` holds the probe's figures (see :func:`_behaviour`) when it measured any, else ``None``."""
    probes: list[Behaviour] = []
    if not isinstance(summary, dict) or summary.get("summary_version") != 1:
        checks = [
            _check("input", "fail", "not a version-1 validation summary", FailureClass.USER_CONFIG_ERROR)
        ]
    else:
        try:
            checks = _checks(summary, max_size_ratio, max_accuracy_drop, min_top1_agreement, probes)
        except Exception as exc:  # malformed field types deep inside: a verdict, not a crash
            checks = [
                _check(
                    "input",
                    "fail",
                    f"malformed validation summary: {type(exc).__name__}: {exc}",
                    FailureClass.USER_CONFIG_ERROR,
                )
            ]
    failed = [c for c in checks if c["status"] == "fail"]
    cls = most_actionable([FailureClass(c["failure_class"]) for c in failed if c["failure_class"]])
    detail = (
        "; ".join(f"[{c['failure_class']}] {c['name']}: {c['detail']}" for c in failed) or "all checks passed"
    )
    return verdict(ID, not failed, cls, detail, checks=checks, behaviour=probes[0] if probes else None)
