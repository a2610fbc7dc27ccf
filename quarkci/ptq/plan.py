"""``ptq plan``: ``model_analysis.json`` + the user's choices -> ``quant_plan.json``.

The scheme, algorithms and KV-cache scheme are checked against the installed Quark
(:mod:`quarkci.ptq.quark_api`); an unknown one is a :class:`BadInputError` naming the supported
ones. Exclusions start from the template defaults recorded in the analysis, add the user's
``--exclude`` patterns, and add the per-scheme defaults: a group-wise scheme needs every
quantized layer's ``in_features`` to be a multiple of its group size, so layers that are not are
excluded (each exclusion carries its reason in ``exclusion_reasons``). The plan is always written
with ``requires_confirmation: true``: confirmation of execution is ``ptq run --yes``.

Calibration defaults follow ``quark-cli torch-llm-ptq`` (pileval, 512 samples, sequence length 512,
batch size 1) unless the model directory ships ``calibration.txt`` (the demo model does), which is
then used as offline calibration data (one sample per line).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quarkci.core.documents import check_document, read_artifact, write_artifact
from quarkci.core.errors import BadInputError
from quarkci.ptq import quark_api, quark_static

PLAN_FILE = "quant_plan.json"
LOCAL_CALIBRATION_FILE = "calibration.txt"
CLI_DATASETS = ("pileval", "wikitext", "cnn_dailymail")  # datasets the in-process run can load by name
DEFAULT_CALIBRATION = {"dataset": "pileval", "num_calib_data": 512, "seq_len": 512, "batch_size": 1}
DTYPES = ("auto", "float32", "bfloat16", "float16")
DEVICES = ("auto", "cpu", "cuda")


def _matches(name: str, patterns: list[str]) -> bool:
    from fnmatch import fnmatchcase

    return any(fnmatchcase(name, p) or name == p for p in patterns)


def _check_choices(
    info: quark_api.QuarkInfo,
    scheme: str,
    algos: list[str],
    kv_cache: str | None,
    layer_quant_config: dict[str, str],
    dtype: str,
    device: str,
) -> None:
    """Raise :class:`BadInputError` for a scheme, algorithm, KV-cache scheme or layer override the
    installed Quark (``info``) does not define, or an unknown dtype or device."""
    if scheme not in info.schemes:
        raise BadInputError(
            f"scheme {scheme!r} is not supported by amd-quark {info.version}; "
            f"supported: {', '.join(info.schemes)}"
        )
    for algo in algos:
        if algo not in info.algorithms:
            raise BadInputError(
                f"algorithm {algo!r} is not supported by amd-quark {info.version}; "
                f"supported: {', '.join(info.algorithms)}"
            )
    if kv_cache is not None and kv_cache not in info.kv_cache_schemes:
        raise BadInputError(
            f"KV-cache scheme {kv_cache!r} is not supported by the LLMTemplate of amd-quark "
            f"{info.version}; supported: {', '.join(info.kv_cache_schemes)}"
        )
    for name, value in layer_quant_config.items():
        if value not in info.schemes:
            raise BadInputError(f"layer override {name!r}: scheme {value!r} is not supported")
    if dtype not in DTYPES:
        raise BadInputError(f"dtype {dtype!r}: expected one of {', '.join(DTYPES)}")
    if device not in DEVICES:
        raise BadInputError(f"device {device!r}: expected one of {', '.join(DEVICES)}")


def build_plan(
    analysis: dict[str, Any],
    analysis_ref: str,
    scheme: str,
    algorithm: str | None = None,
    kv_cache: str | None = None,
    exclude: list[str] | None = None,
    layer_quant_config: dict[str, str] | None = None,
    calibration: dict[str, Any] | None = None,
    dtype: str = "auto",
    device: str = "auto",
    quark_info: quark_api.QuarkInfo | None = None,
) -> dict[str, Any]:
    """Build a ``quant_plan`` document. ``algorithm`` is one name or a comma-separated list.

    ``quark_info`` defaults to the installed Quark (its ``group_sizes`` drive the per-scheme
    exclusions). Raises :class:`BadInputError` for an unknown
    scheme, algorithm, KV-cache scheme, dtype or device, or an analysis without a model.
    """
    info = quark_info or quark_static.installed_quark_static()
    model = analysis.get("model") or {}
    if "model_type" not in model or "model_path" not in model:
        raise BadInputError(f"{analysis_ref}: analysis has no model.model_type/model_path")
    algos = [a.strip().lower() for a in algorithm.split(",")] if algorithm else []
    _check_choices(info, scheme, algos, kv_cache, layer_quant_config or {}, dtype, device)

    targets = analysis.get("quantization_targets") or {}
    reasons: dict[str, str] = {}
    for pattern in targets.get("exclude_defaults") or []:
        reasons[pattern] = f"template default ({targets.get('exclude_defaults_source', 'analysis')})"
    for pattern in exclude or []:
        reasons.setdefault(pattern, "user --exclude")
    size = info.group_sizes.get(scheme)
    if size:
        for name, layer in sorted((targets.get("linear_layers") or {}).items()):
            if layer["in_features"] % size and not _matches(name, list(reasons)):
                reasons[name] = (
                    f"in_features {layer['in_features']} is not a multiple of {scheme}'s group size {size}"
                )

    missing = [
        f"{r.get('code', 'risk')}: {r['message']}"
        for r in analysis.get("risks", [])
        if r.get("severity") == "high"
    ]
    if analysis.get("analysis_status") == "partial" and not missing:
        missing = [f"{r.get('code', 'risk')}: {r['message']}" for r in analysis.get("risks", [])]

    calib = dict(DEFAULT_CALIBRATION)
    local_calib = Path(model["model_path"]) / LOCAL_CALIBRATION_FILE
    if model.get("model_source") == "local" and local_calib.is_file():
        lines = [ln for ln in local_calib.read_text(encoding="utf-8").splitlines() if ln.strip()]
        calib.update(dataset=str(local_calib), num_calib_data=max(1, min(len(lines), 512)), seq_len=32)
    calib.update({k: v for k, v in (calibration or {}).items() if v is not None})

    plan: dict[str, Any] = {
        "model": {
            "model_type": model["model_type"],
            "analysis_ref": analysis_ref,
            "model_path": model["model_path"],
        },
        "global_scheme": scheme,
        "kv_cache_scheme": kv_cache,
        "exclude_layers": list(reasons),
        "exclusion_reasons": reasons,
        "layer_quant_config": dict(layer_quant_config or {}),
        "algorithm": ",".join(algos) if algos else None,
        "calibration": calib,
        "export_format": "hf_format safetensors (export_safetensors, real_quantized, pack_method reorder)",
        "evaluation_intent": "none",
        "model_dtype": dtype,
        "device": device,
        "trust_remote_code": False,
        "quark_version": info.version,
        "requires_confirmation": True,
    }
    if missing:
        plan["missing_facts"] = missing
    return plan


def load_json(path: str | Path, artifact: str) -> dict[str, Any]:
    """Read artifact ``artifact`` through its contract (:func:`quarkci.core.documents.read_artifact`:
    bounded, duplicate keys and schema violations refused). Raises :class:`BadInputError`."""
    document: dict[str, Any] = read_artifact(artifact, path)
    return document


def write_plan(plan: dict[str, Any], out: str | Path) -> Path:
    """Write ``plan`` as the ``quant_plan`` artifact (schema-checked, atomic, sorted JSON).
    Raises :class:`BadInputError` when it violates the contract (a quarkci bug, one line)."""
    check_document(plan, "quant_plan", str(out))
    return write_artifact("quant_plan", out, plan)
