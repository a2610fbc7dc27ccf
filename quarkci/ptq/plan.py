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

from dataclasses import dataclass
from pathlib import Path

from quarkci.core.documents import check_document, read_artifact, write_artifact
from quarkci.core.errors import BadInputError
from quarkci.ptq import quark_api, quark_static
from quarkci.ptq.doc_types import Calibration, ModelAnalysis, QuantPlan

PLAN_FILE = "quant_plan.json"
LOCAL_CALIBRATION_FILE = "calibration.txt"
CLI_DATASETS = ("pileval", "wikitext", "cnn_dailymail")  # datasets the in-process run can load by name
DEFAULT_CALIBRATION: Calibration = {
    "dataset": "pileval",
    "num_calib_data": 512,
    "seq_len": 512,
    "batch_size": 1,
}
DTYPES = ("auto", "float32", "bfloat16", "float16")
DEVICES = ("auto", "cpu", "cuda")


@dataclass(frozen=True)
class CalibrationChoice:
    """The user's calibration choices (``ptq plan --calib-dataset`` etc.); ``None``: the default.
    ``dataset``: a quark-cli dataset name or a text file; ``seq_len`` in tokens, ``batch_size`` in samples."""

    dataset: str | None = None
    num_calib_data: int | None = None
    seq_len: int | None = None
    batch_size: int | None = None


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
    analysis: ModelAnalysis,
    analysis_ref: str,
    scheme: str,
    algorithm: str | None = None,
    kv_cache: str | None = None,
    exclude: list[str] | None = None,
    layer_quant_config: dict[str, str] | None = None,
    calibration: CalibrationChoice | None = None,
    dtype: str = "auto",
    device: str = "auto",
    quark_info: quark_api.QuarkInfo | None = None,
) -> QuantPlan:
    """Build a ``quant_plan`` document. ``algorithm`` is one name or a comma-separated list.

    ``quark_info`` defaults to the installed Quark (its ``group_sizes`` drive the per-scheme
    exclusions). Raises :class:`BadInputError` for an unknown
    scheme, algorithm, KV-cache scheme, dtype or device, or an analysis without a model.
    """
    info = quark_info or quark_static.installed_quark_static()
    model = analysis.get("model")
    if not isinstance(model, dict) or "model_type" not in model or "model_path" not in model:
        raise BadInputError(f"{analysis_ref}: analysis has no model.model_type/model_path")
    algos = [a.strip().lower() for a in algorithm.split(",")] if algorithm else []
    _check_choices(info, scheme, algos, kv_cache, layer_quant_config or {}, dtype, device)

    targets = analysis["quantization_targets"]  # required by the model_analysis contract
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

    calib = _calibration(model["model_path"], model.get("model_source"), calibration or CalibrationChoice())
    plan: QuantPlan = {
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


def _calibration(model_path: str, model_source: str | None, choice: CalibrationChoice) -> Calibration:
    """Quark's calibration defaults, the model directory's ``calibration.txt`` when a local model ships
    one (one sample per line, at most 512 samples, 32 tokens each), then the user's choices."""
    calib = DEFAULT_CALIBRATION.copy()
    local_calib = Path(model_path) / LOCAL_CALIBRATION_FILE
    if model_source == "local" and local_calib.is_file():
        lines = [ln for ln in local_calib.read_text(encoding="utf-8").splitlines() if ln.strip()]
        calib["dataset"] = str(local_calib)
        calib["num_calib_data"] = max(1, min(len(lines), 512))
        calib["seq_len"] = 32
    if choice.dataset is not None:
        calib["dataset"] = choice.dataset
    if choice.num_calib_data is not None:
        calib["num_calib_data"] = choice.num_calib_data
    if choice.seq_len is not None:
        calib["seq_len"] = choice.seq_len
    if choice.batch_size is not None:
        calib["batch_size"] = choice.batch_size
    return calib


def load_analysis(path: str | Path) -> ModelAnalysis:
    """Read ``model_analysis.json`` through its contract (:func:`quarkci.core.documents.read_artifact`:
    bounded, duplicate keys and schema violations refused). Raises :class:`BadInputError`."""
    document: ModelAnalysis = read_artifact("model_analysis", path)
    return document


def load_plan(path: str | Path) -> QuantPlan:
    """Read ``quant_plan.json`` through its contract (as :func:`load_analysis`). Raises
    :class:`BadInputError`."""
    document: QuantPlan = read_artifact("quant_plan", path)
    return document


def write_plan(plan: QuantPlan, out: str | Path) -> Path:
    """Write ``plan`` as the ``quant_plan`` artifact (schema-checked, atomic, sorted JSON).
    Raises :class:`BadInputError` when it violates the contract (a quarkci bug, one line)."""
    check_document(plan, "quant_plan", str(out))
    return write_artifact("quant_plan", out, plan)
