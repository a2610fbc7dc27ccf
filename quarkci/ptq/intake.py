"""``ptq intake``: a model directory (or Hugging Face id) -> ``model_analysis.json``.

Static only (Quark's intake rule: "do not load model weights during intake"): ``config.json`` plus
the safetensors headers (:mod:`quarkci.ptq.headers`), and the installed Quark's template list
(``LLMTemplate.list_available()``). Anything that cannot be resolved -- an HF id with no network, no
safetensors, Quark not importable -- gives ``analysis_status: "partial"`` with one risk per
unresolved fact, never a crash. The document is valid against the ``model_analysis`` contract.

Risk codes (kebab-case, stable): ``config-unavailable``, ``no-safetensors``, ``quark-unavailable``,
``no-quark-template``, ``moe-model``, ``fused-experts``, ``vision-language-model``, ``remote-code``,
``pre-quantized``, ``tokenizer-missing``, ``transformers-version``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal

from quarkci.core.documents import check_document, write_artifact
from quarkci.core.errors import ML_EXTRA_HINT, BadInputError
from quarkci.ptq import quark_api, quark_static
from quarkci.ptq.doc_types import AnalysisModel, ModelAnalysis, QuantizationTargets, Risk
from quarkci.ptq.headers import EXPERT_KEYS, Checkpoint, read_checkpoint, read_config

ANALYSIS_FILE = "model_analysis.json"
_HF_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_MODALITY_KEYS = ("vision_config", "audio_config", "image_config", "video_config")
TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model", "vocab.json", "tiktoken.model")
# components that are sensitive to quantization: (kind, predicate on the linear module name)
_SENSITIVE: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("lm_head", lambda m: m.rsplit(".", 1)[-1] == "lm_head"),
    ("router_gate", lambda m: m.endswith((".mlp.gate", ".router", ".gate.wg")) or ".router." in m),
    (
        "vision_tower",
        lambda m: any(t in m for t in ("vision_tower", "visual", "vision_model", "multi_modal_projector")),
    ),
)


def _risk(severity: str, code: str, message: str, hint: str | None = None) -> Risk:
    risk: Risk = {"severity": severity, "code": code, "message": message}
    if hint:
        risk["recovery_hint"] = hint
    return risk


def _sensitive_kind(module: str) -> str | None:
    return next((kind for kind, matches in _SENSITIVE if matches(module)), None)


def _fetch_remote_config(model_id: str) -> tuple[Mapping[str, object] | None, str | None]:
    """``config.json`` of a Hub model (no weights), or ``(None, reason)``; honours HF_HUB_OFFLINE."""
    try:
        from huggingface_hub import hf_hub_download

        path = hf_hub_download(model_id, "config.json")
        return read_config(Path(path).parent), None
    except Exception as exc:  # offline, unknown repo, gated repo, no huggingface_hub
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return None, f"{type(exc).__name__}: {first}"[:300]


_COUNTS: tuple[
    Literal[
        "num_hidden_layers",
        "hidden_size",
        "intermediate_size",
        "num_attention_heads",
        "num_key_value_heads",
        "vocab_size",
        "max_position_embeddings",
    ],
    ...,
] = (
    "num_hidden_layers",
    "hidden_size",
    "intermediate_size",
    "num_attention_heads",
    "num_key_value_heads",
    "vocab_size",
    "max_position_embeddings",
)


def _config_facts(config: Mapping[str, object], model_path: str, source: str) -> AnalysisModel:
    """The analysis' ``model`` block: ``model_path``, ``source``, and the facts of a ``config.json`` already
    checked by :data:`~quarkci.ptq.headers.CONFIG_SCHEMA` (integers, a boolean and a string, or null; a
    text model's fields may sit under ``text_config``): ``model_type`` (else the first architecture, else
    ``unknown``) and every other field that is set."""
    text_config = config.get("text_config")
    text: Mapping[str, object] = text_config if isinstance(text_config, dict) else {}

    def get(key: str) -> object:
        return config.get(key, text.get(key))

    listed = config.get("architectures")
    architectures = [str(a) for a in listed] if isinstance(listed, list) else []
    facts: AnalysisModel = {
        "model_path": model_path,
        "model_source": source,
        "trust_remote_code": False,
        "model_type": str(config.get("model_type") or (architectures[0] if architectures else "unknown")),
        "architectures": architectures,
    }
    for key in _COUNTS:
        value = get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            facts[key] = value
    if isinstance(tie := get("tie_word_embeddings"), bool):
        facts["tie_word_embeddings"] = tie
    if isinstance(dtype := get("dtype") or get("torch_dtype"), str):
        facts["dtype"] = dtype
    return facts


def cached_snapshot(model_id: str) -> Path | None:
    """The local Hugging Face cache directory holding ``model_id``'s ``config.json``, or ``None``.
    Reads the cache only (``try_to_load_from_cache``): never the network."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    try:
        found = try_to_load_from_cache(model_id, "config.json")
    except Exception:  # a malformed id: not in the cache
        return None
    return Path(found).parent if isinstance(found, str) else None


def analyze(
    model: str, quark_info: quark_api.QuarkInfo | None | str = "auto", allow_hub: bool = False
) -> ModelAnalysis:
    """Build the model analysis of ``model`` (a local directory or an ``org/name`` Hub id).

    ``quark_info``: ``"auto"`` reads the installed Quark statically
    (:func:`quark_static.installed_quark_static`); ``None`` means Quark is unavailable (partial
    analysis). Returns a ``model_analysis`` document.
    Offline by default: an HF id is resolved in the local Hugging Face cache; only with
    ``allow_hub`` is its ``config.json`` fetched from the Hub (weights never are).
    Raises :class:`BadInputError` when ``model`` is neither an existing directory nor an HF id, when
    an HF id is neither cached nor allowed to be fetched, or when a local directory has no readable
    ``config.json``.
    """
    risks: list[Risk] = []
    partial = False
    config: Mapping[str, object]
    local = Path(model).expanduser()
    ckpt: Checkpoint | None = None
    if not local.is_dir() and _HF_ID.match(model) and not local.exists():
        cached = cached_snapshot(model)
        if cached is not None:
            local = cached
        elif not allow_hub:
            raise BadInputError(
                f"--model {model}: not a local directory nor in the local Hugging Face cache; "
                "intake is offline (pass --allow-hub to fetch its config.json from the Hub)"
            )
    if local.is_dir():
        ckpt = read_checkpoint(local)
        config, source, model_path = ckpt.config, "local", str(local.resolve())
    elif _HF_ID.match(model) and not local.exists():
        source, model_path = "huggingface_id", model
        fetched, reason = _fetch_remote_config(model)
        config = fetched or {}
        if fetched is None:
            partial = True
            risks.append(
                _risk(
                    "high",
                    "config-unavailable",
                    f"config.json of {model} could not be fetched: {reason}",
                    "run intake where the Hub is reachable, or pass a local model directory",
                )
            )
        partial = True  # weights are never fetched: parameter counts and linear layers stay unknown
        risks.append(
            _risk(
                "medium",
                "no-safetensors",
                f"{model} is remote: safetensors headers were not read",
                "download the model and run intake on the local directory for exact counts",
            )
        )
    else:
        raise BadInputError(f"--model {model}: neither a model directory nor a Hugging Face id (org/name)")

    facts = _config_facts(config, model_path, source)
    model_type = facts["model_type"]

    if quark_info == "auto":
        try:
            quark_info = quark_static.installed_quark_static()
        except quark_api.QuarkUnavailable as exc:
            quark_info = None
            risks.append(
                _risk("high", "quark-unavailable", str(exc), f"install the ML extra: {ML_EXTRA_HINT}")
            )
    elif quark_info is None:
        risks.append(_risk("high", "quark-unavailable", "amd-quark not available to this analysis"))
    if quark_info is None:
        partial = True

    template = None
    excludes: list[str] = []
    if isinstance(quark_info, quark_api.QuarkInfo):
        template = model_type in quark_info.templates
        if template:
            excludes = list(quark_info.template_excludes.get(model_type, []))
        elif config:
            risks.append(
                _risk(
                    "high",
                    "no-quark-template",
                    f"amd-quark {quark_info.version} has no LLMTemplate for model_type {model_type!r}",
                    "register a custom template (quark-cli torch-llm-ptq --template_file) or pick "
                    "another model",
                )
            )
    if not excludes:
        excludes = ["lm_head"]  # Quark's own default for decoder LLMs when the template is unknown

    found = next((facts_val for k in EXPERT_KEYS if (facts_val := config.get(k)) is not None), None)
    experts = found if isinstance(found, int) else None  # CONFIG_SCHEMA: an integer or null
    is_moe = bool(experts)
    if is_moe:
        risks.append(
            _risk(
                "medium",
                "moe-model",
                f"MoE model ({experts} experts): router gates stay unquantized "
                "and expert layers dominate size; memory planning may need multi-device",
            )
        )
    modalities = [k for k in _MODALITY_KEYS if k in config]
    if modalities:
        risks.append(
            _risk(
                "medium",
                "vision-language-model",
                f"multimodal config ({', '.join(modalities)}): exclude the non-text towers",
            )
        )
    if config.get("auto_map"):
        risks.append(
            _risk(
                "high",
                "remote-code",
                "config.json has auto_map: loading runs code from the model "
                "repository; trust_remote_code stays false unless explicitly approved",
            )
        )
    if isinstance(qconfig := config.get("quantization_config"), dict):
        method = qconfig.get("quant_method", "unknown")
        risks.append(
            _risk("high", "pre-quantized", f"the model is already quantized (quant_method {method})")
        )

    facts["is_moe"] = is_moe
    targets: QuantizationTargets = {
        "linear_layer_count": 0,  # counted below
        "exclude_defaults": excludes,
        "exclude_defaults_source": "LLMTemplate" if template else "fallback (no template)",
    }
    analysis: ModelAnalysis = {
        "analysis_status": "partial" if partial else "complete",
        "model": facts,
        "quark": None
        if not isinstance(quark_info, quark_api.QuarkInfo)
        else {
            "version": quark_info.version,
            "template_available": bool(template),
        },
        "quantization_targets": targets,
        "risks": risks,
    }
    if "transformers_version" in config:
        facts["transformers_version"] = str(config["transformers_version"])
    if experts:
        facts["num_experts"] = experts

    if ckpt is not None:
        _local_facts(ckpt, analysis, targets, risks)
        if not ckpt.files:
            analysis["analysis_status"] = "partial"
    else:
        targets["linear_layer_count"] = _estimate_linears(facts)
        targets["linear_layer_count_source"] = (
            "estimate from config.json (dense decoder: 7 per layer + lm_head)"
        )
    if analysis["analysis_status"] == "partial" and not risks:  # the contract needs a reason
        risks.append(_risk("medium", "config-unavailable", "analysis incomplete"))
    return analysis


def _estimate_linears(facts: AnalysisModel) -> int:
    layers = facts.get("num_hidden_layers")
    return int(layers) * 7 + 1 if isinstance(layers, int) else 0


def _local_facts(
    ckpt: Checkpoint, analysis: ModelAnalysis, targets: QuantizationTargets, risks: list[Risk]
) -> None:
    linears = ckpt.linear_layers()
    by_dtype = ckpt.parameters_by_dtype()
    analysis["parameters"] = {
        "count": sum(v["count"] for v in by_dtype.values()),
        "bytes": sum(v["bytes"] for v in by_dtype.values()),
        "by_dtype": by_dtype,
        "safetensors_files": len(ckpt.files),
        "safetensors_bytes": ckpt.safetensors_bytes,
    }
    analysis["model"]["estimated_size_gb"] = round(ckpt.safetensors_bytes / 1e9, 6)
    targets["linear_layer_count"] = len(linears)
    targets["linear_layer_count_source"] = "safetensors headers (2-D *.weight, embeddings excluded)"
    # in_features per linear layer: what group-wise schemes need to divide
    targets["linear_layers"] = {
        name: {"out_features": t.shape[0], "in_features": t.shape[1], "dtype": t.dtype}
        for name, t in linears.items()
    }
    fused = sorted(n for n, t in ckpt.tensors.items() if "expert" in n and len(t.shape) == 3)
    targets["has_non_linear_experts"] = bool(fused)
    if fused:
        risks.append(
            _risk("medium", "fused-experts", f"{len(fused)} fused 3-D expert tensors (e.g. {fused[0]})")
        )
    sensitive: dict[str, list[str]] = {}
    for name in linears:
        kind = _sensitive_kind(name)
        if kind:
            sensitive.setdefault(kind, []).append(name)
    targets["sensitive_components"] = [
        {"kind": k, "count": len(v), "examples": v[:3]} for k, v in sorted(sensitive.items())
    ]
    if not ckpt.files:
        what = f"only {', '.join(ckpt.other_weight_files)}" if ckpt.other_weight_files else "no weight files"
        risks.append(
            _risk(
                "high",
                "no-safetensors",
                f"{ckpt.path}: no *.safetensors ({what})",
                "convert the checkpoint to safetensors",
            )
        )
    if not any((ckpt.path / f).exists() for f in TOKENIZER_FILES):
        risks.append(
            _risk(
                "high",
                "tokenizer-missing",
                f"{ckpt.path}: no tokenizer files",
                "calibration and the exported model both need the tokenizer",
            )
        )


def write_analysis(analysis: ModelAnalysis, out: str | os.PathLike[str]) -> Path:
    """Validate ``analysis`` against the ``model_analysis`` contract and write it atomically (sorted
    JSON). Raises :class:`BadInputError` if it is not valid (a quarkci bug, reported as one line)."""
    check_document(analysis, "model_analysis", str(out))
    path = Path(out)
    if path.name != ANALYSIS_FILE and path.suffix != ".json":
        path = path / ANALYSIS_FILE
    return write_artifact("model_analysis", path, analysis)
