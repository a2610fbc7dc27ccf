"""``ptq validate``: source model + quantized export -> validation summary (the PTQ gate's input).

Summary shape (``summary_version`` 1; every key always present; contract: the ``validation_summary``
artifact, ``quarkci/core/schemas/validation_summary.schema.json``)::

    {
      "summary_version": 1,
      "scheme": "fp8" | null,                  # from the run result, else null
      "source": {"path", "exists", "bytes", "files", "safetensors_bytes", "other_weight_files", "error"},
      "output": {...same; bytes counts EVERY weight file; error: unreadable/truncated safetensors},
      "size_ratio": float | null,              # output bytes / source bytes (all weight files)
      "quantization_config": {"present": bool, "quant_method": str | null, "global_weight_dtypes": [..],
                              "exclude": [..], "layer_quant_config": [patterns], "problems": [..]},
      "layers": {"total": int, "quantized": {"fp8_e4m3": 14, ...}, "excluded": [names],
                 "unexpected_unquantized": [names], "declaration_mismatch": [{"layer", "reason"}]},
      "scheme_check" | "kv_cache" | "fused_layers" | "names" | "unquantized_tensors":
                {..., "problems": [..]} | null, # quarkci.ptq.export_checks (fused_layers, the k/v
                                               # scheme: vLLM's load rules)
      "metadata": {"expected": [{"field", "source", "output", "reason"}], "blocking": [...]},
      "reload": {"checked": bool, "ok": bool | null, "error": str | null, "forward_error": str | null,
                 "logits_finite": bool | null, "missing_keys": [..],
                 "unexpected_keys": [..], "mismatched_keys": [..], "task_accuracy": float | null,
                 "source_task_accuracy": float | null, "top1_agreement": float | null,
                 "behaviour_error": str | null},
      "run": run_result.json contents | null
    }

Layer precision is read statically: the safetensors headers of both directories and the exported
``quantization_config`` (``config.json``). A linear layer (see :mod:`quarkci.ptq.headers`) is
*declared* quantized unless a pattern of ``exclude`` matches it; its declared weight dtype(s) come
from the first matching ``layer_quant_config`` pattern, else ``global_quant_config``. It is
*observed* quantized when the export stores a ``<layer>.weight_scale`` or a weight dtype that is not
a float dtype (:data:`FLOAT_DTYPES`; an fp32 -> bf16 cast of an excluded layer is not quantization).
Declared and observed are compared, and the stored dtype must be one the
declared dtype can be stored as (:data:`STORAGE_DTYPES`, from Quark 0.13 exports: fp8 as F8_E4M3,
int8 as I8, int4 packed into I32, fp4/fp6/mx packed into U8).

The reload check loads the export with transformers (``output_loading_info=True``): a Quark export
that transformers reloads "successfully" with missing or unexpected keys (nvfp4, int4_fp8,
fp4_block16_scale_e4m3 in amd-quark 0.13) is exposed here. Behaviour is measured after the reload:
the demo task's accuracy (demo model) and the top-1 agreement with the source model over probe
prompts (any model), so corrupted scales or weights that reload cleanly are still caught by the gate.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Literal

from quarkci.core.documents import parse_document, read_artifact, read_capped, write_artifact
from quarkci.core.errors import BadInputError
from quarkci.core.progress import Say, heartbeat
from quarkci.ptq import export_checks
from quarkci.ptq.doc_types import RunResultDoc
from quarkci.ptq.headers import Checkpoint, read_checkpoint
from quarkci.ptq.quark_api import QuarkInfo, QuarkUnavailable
from quarkci.ptq.quark_static import installed_quark_static
from quarkci.ptq.summary_types import (
    LayerMismatch,
    Layers,
    Metadata,
    MetadataDiff,
    Reload,
    Side,
    ValidationSummary,
)

SUMMARY_VERSION: Literal[1] = 1
MAX_KEYS = 50  # key lists in the summary are capped; counts are exact
STORAGE_DTYPES: dict[str, set[str]] = {
    "fp8_e4m3": {"F8_E4M3"},
    "fp8_e5m2": {"F8_E5M2"},
    "int8": {"I8"},
    "uint8": {"U8"},
    "int4": {"I32", "I8", "U8"},
    "uint4": {"I32", "I8", "U8"},
    "fp4": {"U8"},
    "fp6_e2m3": {"U8"},
    "fp6_e3m2": {"U8"},
    "mx6": {"U8"},
    "mx9": {"U8"},
    "bfp16": {"U8"},
}
# unquantized storage: a cast between these (fp32 -> bf16 at load) is not quantization
FLOAT_DTYPES = frozenset({"F64", "F32", "F16", "BF16"})
# config.json fields whose change breaks serving: architecture and special tokens
ARCH_FIELDS = (
    "architectures",
    "model_type",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "vocab_size",
    "max_position_embeddings",
    "rope_theta",
    "rope_scaling",
    "tie_word_embeddings",
    "hidden_act",
    "rms_norm_eps",
)
TOKEN_ID_FIELDS = ("bos_token_id", "eos_token_id", "pad_token_id", "decoder_start_token_id")
SPECIAL_TOKENS = (
    "bos_token",
    "eos_token",
    "pad_token",
    "unk_token",
    "sep_token",
    "cls_token",
    "mask_token",
    "additional_special_tokens",
)
EXPECTED_CONFIG_CHANGES = {
    "quantization_config": "added by the quantized export",
    "dtype": "storage dtype recorded by the export",
    "torch_dtype": "storage dtype recorded by the export",
    "transformers_version": "written by the exporting transformers",
}


TOKENIZER_FILE_BYTES = 64 * 2**20  # tokenizer.json of a 150k-token vocabulary is 7-17 MB


def _json(path: Path) -> dict[str, Any] | None:
    """A tokenizer file of a model directory as a JSON object, or ``None`` when it is absent, over
    :data:`TOKENIZER_FILE_BYTES`, or not a JSON object (read by the one document reader's JSON parser:
    huge integers and deep nesting are refused, never raised)."""
    if not path.is_file():
        return None
    try:
        text = read_capped(path, TOKENIZER_FILE_BYTES, str(path)).decode("utf-8")
        data = parse_document(text, str(path), fmt="json")
    except (BadInputError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _side(ckpt: Checkpoint | None, path: Path, error: str | None = None) -> Side:
    """``bytes`` counts every weight file (safetensors and the others, e.g. a ``pytorch_model.bin`` left
    beside them); ``files`` counts the safetensors; ``error`` says why the weights could not be read."""
    if ckpt is None:
        return {
            "path": str(path),
            "exists": path.is_dir(),
            "bytes": 0,
            "files": 0,
            "safetensors_bytes": 0,
            "other_weight_files": {},
            "error": error,
        }
    return {
        "path": str(path),
        "exists": True,
        "bytes": ckpt.weight_bytes,
        "files": len(ckpt.files),
        "safetensors_bytes": ckpt.safetensors_bytes,
        "other_weight_files": dict(ckpt.other_weight_files),
        "error": error,
    }


def _weight_dtypes(layer_config: object) -> list[str]:
    """The weight dtypes a layer config of the export's ``quantization_config`` declares (``weight``: one
    spec or a list). Raises ``AttributeError`` for a config that is not an object (a hand-edited
    ``quantization_config`` of the wrong shape), as ``.get`` on it would."""
    if not layer_config:
        return []
    if not isinstance(layer_config, dict):
        raise AttributeError(f"'{type(layer_config).__name__}' object has no attribute 'get'")
    weight = layer_config.get("weight")
    specs = weight if isinstance(weight, list) else [weight]
    return [str(s["dtype"]) for s in specs if isinstance(s, dict) and s.get("dtype")]


def _matches(name: str, patterns: list[str] | list[object]) -> str | None:
    """The first pattern (fnmatch, or exact) ``name`` matches; ``TypeError`` on reaching one that is not a
    string (a hand-edited ``layer_quant_config`` list)."""
    for pattern in patterns:
        if not isinstance(pattern, str):
            raise TypeError(f"layer pattern {pattern!r} is not a string")
        if fnmatchcase(name, pattern) or name == pattern:
            return pattern
    return None


def _override(overrides: object, pattern: str) -> object:
    """The ``layer_quant_config`` entry of ``pattern``; ``TypeError`` when the section is not an object
    (a list or string indexed by a name)."""
    if isinstance(overrides, dict):
        return overrides[pattern]
    if isinstance(overrides, str):
        raise TypeError("string indices must be integers, not 'str'")
    raise TypeError(f"{type(overrides).__name__} indices must be integers or slices, not str")


def layer_precision(source: Checkpoint, output: Checkpoint, qconfig: Mapping[str, object] | None) -> Layers:
    """Compare declared and observed precision of every source linear layer (see module docstring).

    Returns the ``layers`` block of the summary. With no ``qconfig`` every layer is declared
    unquantized. Raises ``TypeError``/``AttributeError``/``KeyError`` for a ``qconfig`` of the wrong
    shape (:func:`summarize` records that as a mismatch).
    """
    qconfig = qconfig or {}
    exclude = [str(p) for p in export_checks.json_items(qconfig.get("exclude"))]
    overrides = qconfig.get("layer_quant_config") or {}
    global_dtypes = _weight_dtypes(qconfig.get("global_quant_config")) if qconfig else []
    quantized: dict[str, int] = {}
    excluded: list[str] = []
    unexpected: list[str] = []
    mismatch: list[LayerMismatch] = []
    src_layers = source.linear_layers()
    for name in src_layers:
        out_weight = output.tensors.get(f"{name}.weight")
        if out_weight is None:
            mismatch.append({"layer": name, "reason": "weight missing in the output"})
            continue
        override = _matches(name, export_checks.json_items(overrides))
        declared = _weight_dtypes(_override(overrides, override)) if override else global_dtypes
        declared_excluded = bool(_matches(name, exclude)) or not declared
        observed = f"{name}.weight_scale" in output.tensors or out_weight.dtype not in FLOAT_DTYPES
        if observed and declared_excluded:
            why = f"excluded by {_matches(name, exclude)!r}" if _matches(name, exclude) else "not declared"
            mismatch.append({"layer": name, "reason": f"{why} but stored quantized ({out_weight.dtype})"})
        elif observed:
            allowed = set().union(*(STORAGE_DTYPES.get(d, set()) for d in declared))
            unknown = any(d not in STORAGE_DTYPES for d in declared)
            if out_weight.dtype in allowed or (unknown and out_weight.dtype not in FLOAT_DTYPES):
                label = "+".join(declared)
                quantized[label] = quantized.get(label, 0) + 1
            else:
                mismatch.append(
                    {
                        "layer": name,
                        "reason": f"declared {'+'.join(declared)} but stored as {out_weight.dtype}",
                    }
                )
        elif declared_excluded:
            excluded.append(name)
        else:
            unexpected.append(name)
    return {
        "total": len(src_layers),
        "quantized": dict(sorted(quantized.items())),
        "excluded": excluded,
        "unexpected_unquantized": unexpected,
        "declaration_mismatch": mismatch,
    }


@dataclass(frozen=True)
class _TokenizerFacts:
    """What :func:`_tokenizer_diffs` compares: the ``tokenizer*`` file names, the special tokens (name ->
    content), the chat template, and JSON digests of the vocabulary and the added tokens (``None``
    without a ``tokenizer.json``)."""

    files: list[str]
    special_tokens: dict[str, object]
    chat_template: object
    vocab: str | None = None
    added_tokens: str | None = None


def _tokenizer_facts(model_dir: Path) -> _TokenizerFacts:
    """Special tokens, chat template and vocabulary digest of a model directory's tokenizer files."""
    files = sorted(p.name for p in model_dir.glob("tokenizer*"))
    config = _json(model_dir / "tokenizer_config.json") or {}
    special = dict(_json(model_dir / "special_tokens_map.json") or {})
    for key in SPECIAL_TOKENS:
        if key in config and config[key] is not None:
            special.setdefault(key, config[key])
    norm = {
        k: (v.get("content") if isinstance(v, dict) else v) for k, v in special.items() if k in SPECIAL_TOKENS
    }
    template = config.get("chat_template")
    jinja = model_dir / "chat_template.jinja"
    if template is None and jinja.is_file():
        template = jinja.read_text(encoding="utf-8")
    tok = _json(model_dir / "tokenizer.json")
    if tok is None:
        return _TokenizerFacts(files, dict(sorted(norm.items())), template)
    model = tok.get("model") or {}
    vocab = json.dumps([model.get("type"), model.get("vocab"), model.get("merges")], sort_keys=True)
    added = json.dumps(sorted((t.get("id"), t.get("content")) for t in tok.get("added_tokens", [])))
    return _TokenizerFacts(files, dict(sorted(norm.items())), template, vocab, added)


def metadata_diffs(source: Path, output: Path) -> Metadata:
    """Differences between source and output metadata, classified ``expected`` or ``blocking``.

    Blocking: architecture fields and special-token ids in ``config.json``; tokenizer vocabulary,
    added tokens, special tokens and chat template; generation-config token ids; tokenizer or
    generation config present in the source but absent from the output. Expected: the
    ``quantization_config``/dtype/version fields the export writes, any other config change
    (reported), and re-serialised tokenizer files with identical content.
    """
    d = _Diffs()
    _config_diffs(d, source, output)
    _generation_diffs(d, source, output)
    _tokenizer_diffs(d, source, output)
    return {"expected": d.expected, "blocking": d.blocking}


@dataclass
class _Diffs:
    """The two buckets of :func:`metadata_diffs`."""

    expected: list[MetadataDiff] = field(default_factory=list)
    blocking: list[MetadataDiff] = field(default_factory=list)

    def add(self, bucket: list[MetadataDiff], name: str, src: object, out: object, reason: str) -> None:
        """Append one difference (``src``/``out``: the two values, copied from the open JSON files)."""
        bucket.append({"field": name, "source": src, "output": out, "reason": reason})


def _config_diffs(d: _Diffs, source: Path, output: Path) -> None:
    src_cfg, out_cfg = _json(source / "config.json") or {}, _json(output / "config.json") or {}
    for key in sorted(set(src_cfg) | set(out_cfg)):
        a, b = src_cfg.get(key), out_cfg.get(key)
        if a == b:
            continue
        if key in ARCH_FIELDS:
            d.add(d.blocking, f"config.{key}", a, b, "architecture field changed")
        elif key in TOKEN_ID_FIELDS:
            d.add(d.blocking, f"config.{key}", a, b, "special token id changed")
        elif key in EXPECTED_CONFIG_CHANGES:
            d.add(
                d.expected,
                f"config.{key}",
                a if key != "quantization_config" else None,
                b if key != "quantization_config" else "present",
                EXPECTED_CONFIG_CHANGES[key],
            )
        else:
            d.add(d.expected, f"config.{key}", a, b, "other config field changed")


def _generation_diffs(d: _Diffs, source: Path, output: Path) -> None:
    src_gen, out_gen = _json(source / "generation_config.json"), _json(output / "generation_config.json")
    if src_gen is not None and out_gen is None:
        d.add(
            d.blocking, "generation_config.json", "present", None, "generation config missing in the output"
        )
    elif src_gen is not None and out_gen is not None:
        for key in sorted(set(src_gen) | set(out_gen)):
            a, b = src_gen.get(key), out_gen.get(key)
            if a != b:
                bucket = d.blocking if key in TOKEN_ID_FIELDS else d.expected
                d.add(
                    bucket,
                    f"generation_config.{key}",
                    a,
                    b,
                    "special token id changed" if bucket is d.blocking else "generation default changed",
                )


def _tokenizer_diffs(d: _Diffs, source: Path, output: Path) -> None:
    src_tok, out_tok = _tokenizer_facts(source), _tokenizer_facts(output)
    if src_tok.files and not out_tok.files:
        d.add(d.blocking, "tokenizer", src_tok.files, [], "tokenizer files missing in the output")
    elif src_tok.files:
        compared: tuple[tuple[str, str, object, object], ...] = (
            ("vocab", "tokenizer vocabulary changed", src_tok.vocab, out_tok.vocab),
            ("added_tokens", "added tokens changed", src_tok.added_tokens, out_tok.added_tokens),
            ("special_tokens", "special tokens changed", src_tok.special_tokens, out_tok.special_tokens),
            ("chat_template", "chat template changed", src_tok.chat_template, out_tok.chat_template),
        )
        for key, reason, a, b in compared:
            if a != b:
                short = key in ("vocab", "added_tokens")
                d.add(d.blocking, f"tokenizer.{key}", "..." if short else a, "..." if short else b, reason)
        if src_tok.files != out_tok.files:
            d.add(
                d.expected,
                "tokenizer.files",
                src_tok.files,
                out_tok.files,
                "tokenizer re-serialised (content compared above)",
            )


def _keys(values: Any) -> list[str]:
    out = sorted(str(v if not isinstance(v, tuple) else v[0]) for v in (values or []))
    return out


def reload_check(output: Path, source: Path, say: Say | None = None) -> Reload:
    """Reload ``output`` with transformers (CPU, ``output_loading_info=True``).

    ``ok`` is true only when loading raised nothing, reported no missing, unexpected or mismatched
    keys, and one forward pass ran (else ``forward_error``) with finite logits (``logits_finite``).
    For the demo model (``quarkci_task.json`` in ``source``) the reloaded model's
    addition accuracy is measured too. Exceptions become ``error`` (one line), never tracebacks.
    ``say`` gets one line per step and a progress line every ~10 s while one runs
    (:func:`quarkci.core.progress.heartbeat`).
    """
    from quarkci.ptq import quark_api
    from quarkci.ptq.runner import upstream_message

    result = _empty_reload()
    result["checked"] = True
    quark_api.quark_torch()  # transformers' Quark integration imports quark; pay it once here
    from transformers import AutoModelForCausalLM, AutoTokenizer

    def step(what: str) -> Any:
        if say is not None:
            say(f"validate: {what} ...")
        return heartbeat(say, f"validate: {what}")

    try:
        with step(f"reloading {output} with transformers"), contextlib.redirect_stdout(sys.stderr):
            model, info = AutoModelForCausalLM.from_pretrained(
                str(output), output_loading_info=True, device_map="cpu"
            )
    except Exception as exc:  # upstream loader failure: recorded, classified by the gate
        result["ok"], result["error"] = False, upstream_message(exc)
        return result
    counts: dict[str, int] = {}
    for key in _KEY_LISTS:
        keys = _keys(info.get(key))
        counts[key] = len(keys)
        result[key] = keys[:MAX_KEYS]
    result["counts"] = counts
    result["forward_error"], result["logits_finite"] = _forward_smoke(model)
    result["ok"] = not any(counts.values()) and result["logits_finite"] is True
    if result["forward_error"] is None:
        with step("behaviour probe: top-1 agreement with the source"):
            result["top1_agreement"], result["behaviour_error"] = _agreement(model, source, output)
    task = _json(source / "quarkci_task.json")
    if task and task.get("task") == "single-digit-addition" and result["forward_error"] is None:
        from quarkci.ptq.demo import addition_accuracy

        result["source_task_accuracy"] = task.get("accuracy")
        try:
            with step("behaviour probe: demo-task accuracy"):
                tokenizer = AutoTokenizer.from_pretrained(str(output))
                result["task_accuracy"] = addition_accuracy(model, tokenizer)
        except Exception as exc:  # garbage weights can break generation itself
            result["task_accuracy"] = 0.0
            result["task_error"] = upstream_message(exc)
    return result


PROBE_TEXTS = (
    "The capital of France is Paris, and the capital of Italy is Rome.",
    "def add(a, b):\n    return a + b\n",
    "One, two, three, four, five, six, seven, eight, nine, ten.",
)
PROBE_TOKENS = 32


def _probe_texts(source: Path) -> list[str]:
    """Probe prompts: the source's ``calibration.txt`` (first 16 lines) when it ships one, else
    :data:`PROBE_TEXTS`."""
    calib = source / "calibration.txt"
    if calib.is_file():
        lines = [ln for ln in calib.read_text(encoding="utf-8").splitlines() if ln.strip()][:16]
        if lines:
            return lines
    return list(PROBE_TEXTS)


def _agreement(model: Any, source: Path, output: Path) -> tuple[float | None, str | None]:
    """Top-1 agreement (fraction of positions, 0..1) of the reloaded export with the source model over
    the probe prompts (each up to :data:`PROBE_TOKENS` tokens), or ``(None, error)``. Loads the source
    model on CPU next to the export."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from quarkci.ptq.runner import upstream_message

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(source))
        with contextlib.redirect_stdout(sys.stderr):
            reference = AutoModelForCausalLM.from_pretrained(str(source), device_map="cpu").eval()
        same = total = 0
        with torch.no_grad():
            for text in _probe_texts(source):
                ids = tokenizer(text, return_tensors="pt")["input_ids"][:, :PROBE_TOKENS]
                a = reference(input_ids=ids).logits.argmax(-1)
                b = model(input_ids=ids.to(model.device)).logits.argmax(-1).to(a.device)
                same += int((a == b).sum())
                total += a.numel()
    except Exception as exc:  # garbage weights or an unusual tokenizer: recorded, judged by the gate
        return None, upstream_message(exc)
    return (round(same / total, 4) if total else None), None


def _forward_smoke(model: Any) -> tuple[str | None, bool | None]:
    """One forward pass of 8 token ids through the reloaded model: ``(error, logits_finite)``;
    ``error`` is one line when the pass raised (then ``logits_finite`` is ``None``)."""
    import torch

    from quarkci.ptq.runner import upstream_message

    vocab = int(getattr(model.config, "vocab_size", 8) or 8)
    ids = torch.arange(min(8, vocab)).unsqueeze(0) % vocab
    try:
        with torch.no_grad():
            logits = model(input_ids=ids).logits
    except Exception as exc:  # upstream kernels that cannot run this export
        return f"forward pass raised: {upstream_message(exc)}", None
    return None, bool(torch.isfinite(logits.float()).all())


_KEY_LISTS: tuple[Literal["missing_keys", "unexpected_keys", "mismatched_keys"], ...] = (
    "missing_keys",
    "unexpected_keys",
    "mismatched_keys",
)


def _empty_reload() -> Reload:
    """The ``reload`` block of a summary whose export was not reloaded (every key, in the written order)."""
    return {
        "checked": False,
        "ok": None,
        "error": None,
        "forward_error": None,
        "logits_finite": None,
        "missing_keys": [],
        "unexpected_keys": [],
        "mismatched_keys": [],
        "counts": {},
        "task_accuracy": None,
        "source_task_accuracy": None,
        "top1_agreement": None,
        "behaviour_error": None,
    }


def summarize(
    source: str | os.PathLike[str],
    output: str | os.PathLike[str],
    run_result: RunResultDoc | None = None,
    reload: bool = True,
    quark_info: QuarkInfo | None = None,
    say: Say | None = None,
) -> ValidationSummary:
    """Build the validation summary (see module docstring).

    Raises :class:`BadInputError` when ``source`` is not a readable model directory. A missing
    ``output`` or one whose weights cannot be read (a corrupt or truncated safetensors file) is
    recorded (``output.exists: false`` / ``output.error``), not raised: the gate reports it.
    ``quark_info`` (default: the installed Quark, read statically) supplies scheme group sizes and the
    template's k/v projection patterns. ``say`` gets the reload's progress (:func:`reload_check`).
    """
    src_path, out_path = Path(source), Path(output)
    src = read_checkpoint(src_path)
    out: Checkpoint | None = None
    out_error = None
    if out_path.is_dir():
        try:
            out = read_checkpoint(out_path, require_config=False)
        except BadInputError as exc:
            out_error = str(exc)
    qconfig_raw = (out.config.get("quantization_config") if out else None) or None
    qconfig = qconfig_raw if isinstance(qconfig_raw, dict) else None
    info = quark_info or _static_info()
    summary: ValidationSummary = {
        "summary_version": SUMMARY_VERSION,
        "scheme": run_result.get("scheme") if run_result else None,
        "source": _side(src, src_path),
        "output": _side(out, out_path, out_error),
        "size_ratio": None,
        "quantization_config": {
            "present": qconfig_raw is not None,
            "quant_method": qconfig.get("quant_method") if qconfig else None,
            "global_weight_dtypes": _weight_dtypes(qconfig.get("global_quant_config")) if qconfig else [],
            "exclude": [str(x) for x in qconfig.get("exclude") or []] if qconfig else [],
            "layer_quant_config": sorted(qconfig.get("layer_quant_config") or {}) if qconfig else [],
            "problems": export_checks.config_problems(qconfig_raw),
        },
        "layers": None,
        "scheme_check": None,
        "kv_cache": None,
        "fused_layers": None,
        "names": None,
        "unquantized_tensors": None,
        "metadata": {"expected": [], "blocking": []},
        "reload": _empty_reload(),
        "run": run_result,
    }
    if out is not None and out.files:
        if src.weight_bytes:
            summary["size_ratio"] = round(out.weight_bytes / src.weight_bytes, 6)
        layers: Layers
        try:
            layers = layer_precision(src, out, qconfig)
        except (TypeError, AttributeError, KeyError) as exc:  # a hand-edited config of the wrong shape
            layers = {
                "total": len(src.linear_layers()),
                "quantized": {},
                "excluded": [],
                "unexpected_unquantized": [],
                "declaration_mismatch": [
                    {"layer": "*", "reason": f"quantization_config unreadable: {type(exc).__name__}: {exc}"}
                ],
            }
        summary["layers"] = layers
        observed = [
            m
            for m in src.linear_layers()
            if f"{m}.weight_scale" in out.tensors
            or (m + ".weight" in out.tensors and out.tensors[m + ".weight"].dtype not in FLOAT_DTYPES)
        ]
        model_type = str(src.config.get("model_type"))
        kv_layers = info.template_kv_layers.get(model_type) if info else None
        summary["scheme_check"] = export_checks.scheme_check(
            summary["scheme"], qconfig, src, out, observed, info.group_sizes if info else {}
        )
        summary["kv_cache"] = export_checks.kv_cache_check(
            qconfig, src, out, kv_layers or export_checks.DEFAULT_KV_LAYERS
        )
        summary["fused_layers"] = export_checks.fused_layers_check(qconfig, list(src.linear_layers()))
        summary["names"] = export_checks.names_check(qconfig, src, out)
        summary["unquantized_tensors"] = export_checks.unquantized_tensors(src, out)
        summary["metadata"] = metadata_diffs(src_path, out_path)
        if reload:
            summary["reload"] = reload_check(out_path, src_path, say)
    return summary


def _static_info() -> QuarkInfo | None:
    try:
        return installed_quark_static()
    except QuarkUnavailable:
        return None


def load_run_result(path: str | os.PathLike[str]) -> RunResultDoc | None:
    """Read ``run_result.json`` written by ``ptq run`` through its contract; ``None`` when the file does
    not exist. Raises :class:`BadInputError` when it exists but violates the ``run_result`` contract."""
    p = Path(path)
    if not p.exists():
        return None
    document: RunResultDoc = read_artifact("run_result", p)
    return document


def write_summary(summary: ValidationSummary, out: str | Path) -> Path:
    """Write the summary as the ``validation_summary`` artifact (schema-checked, atomic)."""
    return write_artifact("validation_summary", out, summary)
