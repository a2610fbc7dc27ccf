"""Static checks of a quantized export against its source model (no model is loaded).

Each function takes the two checkpoints read by :mod:`quarkci.ptq.headers` (and the export's
``quantization_config``) and returns a JSON block of the validation summary; the PTQ gate
(:mod:`quarkci.gates.ptq`) turns non-empty ``problems`` into failures. Facts about Quark 0.13 exports
these rules rely on (seen in the real exports of the ML test tier):

* ``quantization_config.quant_method`` is ``"quark"`` and ``global_quant_config.weight`` holds the
  weight spec (``dtype``, ``qscheme`` per_tensor|per_channel|per_group, ``group_size``);
* a quantized linear layer stores ``<layer>.weight_scale`` with ``1`` element (per_tensor),
  ``out_features`` elements (per_channel) or ``out_features * in_features / group_size`` elements
  (per_group; packed int4 stores the transpose, so only the element count is compared);
* the KV-cache group is ``export.kv_cache_group`` (patterns such as ``*k_proj``), mirrored by the
  keys of ``kv_cache_quant_config`` and by an ``output_tensors`` spec in ``layer_quant_config``; each
  layer it names stores ``<layer>.output_scale``;
* an ``--exclude`` of single layers is exported as those names in ``exclude`` (e.g.
  ``["model.layers.0.self_attn.q_proj", "model.layers.1.mlp.gate_proj", "lm_head"]``).

Two rules come from vLLM's loader of Quark exports (``vllm/model_executor/layers/quantization/quark/``
``quark.py`` and ``utils.py``, read in vllm-project/vllm; facts, restated here), so that an export vLLM
refuses fails the PTQ gate, not a serving canary minutes later:

* **fused layers** (:func:`fused_layers_check`): vLLM fuses the shards of a Llama-family layer --
  ``q_proj``/``k_proj``/``v_proj`` into ``qkv_proj``, ``gate_proj``/``up_proj`` into ``gate_up_proj``
  (the models' ``packed_modules_mapping``) -- and refuses to load ("vLLM requires all to use the same
  scheme") when the shards are not all excluded or all kept (``should_ignore_layer``: an ``exclude``
  entry equal to the shard's name, or a ``re:`` regex), or when their resolved configs differ
  (``_find_matched_config``: the first ``layer_quant_config`` pattern that matches the shard, else
  ``global_quant_config``; with a KV-cache group, the ``output_tensors`` of the group's entries and of
  ``*q_proj`` are cleared before the comparison);
* **one KV-cache scheme** (in :func:`kv_cache_check`): the ``output_tensors`` specs of every
  ``layer_quant_config`` entry the KV-cache group matches must be equal, else vLLM refuses ("The
  quantization method used for kv_cache should be the same").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from quarkci.ptq.headers import Checkpoint
from quarkci.ptq.summary_types import FusedLayers, KvCache, Names, SchemeCheck, TensorDiff, UnquantizedTensors

MAX_LIST = 50
# tensors a Quark export adds next to a module's own: scales and zero points of weight/input/output/bias,
# with a stage number for two-stage schemes (amdfp4_global16 stores weight_scale_2 and input_scale_2 in 0.13)
QUANT_PARAMETER = re.compile(r"^(?:(?:weight|input|output|bias)_(?:scale|zero_point)(?:_\d+)?|[kv]_scale)$")
FLOAT_DTYPES = frozenset({"F64", "F32", "F16", "BF16"})
# a scheme's weight dtype as Quark's export declares it (global_quant_config.weight.dtype), by scheme-name
# family; first match wins. Evidence: fp8 -> fp8_e4m3, int8 -> int8, int4_wo_128 -> int4, mxfp4 -> fp4 in the
# real exports of tests/ptq/test_workflow_ml.py (amd-quark 0.13); the other families follow the scheme classes
# in quark/torch/quantization/config/template.py.
SCHEME_WEIGHT_DTYPE: tuple[tuple[str, str], ...] = (
    ("uint4_", "uint4"),
    ("int4_", "int4"),
    ("int8", "int8"),
    ("ptpc_fp8", "fp8_e4m3"),
    ("fp8", "fp8_e4m3"),
    ("mxfp6_e3m2", "fp6_e3m2"),
    ("mxfp6_e2m3", "fp6_e2m3"),
    ("mxfp4", "fp4"),
    ("amdfp4", "fp4"),
    ("nvfp4", "fp4"),
    ("fp4_", "fp4"),
    ("mx6", "mx6"),
    ("mx9", "mx9"),
    ("bfp16", "bfp16"),
)
DEFAULT_KV_LAYERS = ("*k_proj", "*v_proj")  # Quark's llama-family template kv_layers_name


def matches(name: str, patterns: list[str] | tuple[str, ...]) -> str | None:
    """The first of ``patterns`` (fnmatch, or exact) that ``name`` matches, else ``None``."""
    return next((p for p in patterns if fnmatchcase(name, p) or name == p), None)


def scheme_weight_dtype(scheme: str) -> str | None:
    """The weight dtype Quark declares for ``scheme`` (see :data:`SCHEME_WEIGHT_DTYPE`), else ``None``."""
    return next((dtype for prefix, dtype in SCHEME_WEIGHT_DTYPE if scheme.startswith(prefix)), None)


def json_items(value: object) -> list[object]:
    """What iterating a JSON value of the export's open ``quantization_config`` yields, as a list: an
    array's items, an object's keys, a string's characters, nothing for a falsy value (``null``, ``0``,
    ``""``). Raises ``TypeError`` for a number or boolean, as iterating it does."""
    if not value:
        return []
    if isinstance(value, str | list | dict):
        return list(value)
    raise TypeError(f"'{type(value).__name__}' object is not iterable")


def _spec(layer_config: object) -> Mapping[str, object]:
    """The weight spec (the first, when ``weight`` is a list) of a layer config; ``{}`` when absent."""
    weight = layer_config.get("weight") if isinstance(layer_config, dict) else None
    if isinstance(weight, list):
        weight = weight[0] if weight else None
    return weight if isinstance(weight, dict) else {}


def config_problems(qconfig: object) -> list[str]:
    """Structural problems of an export's ``quantization_config`` (``[]`` when it is absent: the
    coverage and size checks judge that)."""
    if qconfig is None:
        return []
    if not isinstance(qconfig, dict):
        return [f"quantization_config is a {type(qconfig).__name__}, not an object"]
    problems = []
    if qconfig.get("quant_method") != "quark":
        problems.append(f"quant_method {qconfig.get('quant_method')!r} is not 'quark'")
    if not _spec(qconfig.get("global_quant_config")).get("dtype"):
        problems.append("global_quant_config.weight.dtype missing")
    for key in ("exclude",):
        if key in qconfig and not isinstance(qconfig[key], list):
            problems.append(f"{key} is not a list")
    for key in ("layer_quant_config", "kv_cache_quant_config"):
        if key in qconfig and not isinstance(qconfig[key], dict):
            problems.append(f"{key} is not an object")
    return problems


def scheme_check(
    scheme: str | None,
    qconfig: Mapping[str, object] | None,
    source: Checkpoint,
    output: Checkpoint,
    quantized_layers: list[str],
    group_sizes: dict[str, int | None],
) -> SchemeCheck:
    """Claimed scheme vs declared dtype/group size, and stored scale element counts vs the declared qscheme.

    ``quantized_layers``: layers observed quantized. ``group_sizes``: scheme -> weight group size
    (the installed Quark's, :mod:`quarkci.ptq.quark_static`). Returns ``{"claimed", "expected_dtype",
    "declared_dtype", "declared_qscheme", "declared_group_size", "problems"}``.
    """
    spec = _spec((qconfig or {}).get("global_quant_config"))
    declared = spec.get("dtype")
    problems: list[str] = []
    block: SchemeCheck = {
        "claimed": scheme,
        "expected_dtype": None,
        "declared_dtype": declared,
        "declared_qscheme": spec.get("qscheme"),
        "declared_group_size": spec.get("group_size"),
        "problems": problems,
    }
    if scheme and declared:
        expected = scheme_weight_dtype(scheme)
        block["expected_dtype"] = expected
        if expected and expected != declared:
            problems.append(
                f"run claims scheme {scheme} (weight {expected}) but the export declares {declared}"
            )
        size = group_sizes.get(scheme)
        if (
            expected == declared
            and size
            and spec.get("qscheme") == "per_group"
            and spec.get("group_size") != size
        ):
            problems.append(
                f"scheme {scheme} uses group size {size}, the export declares {spec.get('group_size')}"
            )
    overrides = (qconfig or {}).get("layer_quant_config") or {}
    table: Mapping[str, object] = overrides if isinstance(overrides, dict) else {}
    for layer in quantized_layers:
        scale = output.tensors.get(f"{layer}.weight_scale")
        src = source.tensors.get(f"{layer}.weight")
        if scale is None or src is None or len(src.shape) != 2:
            continue
        pattern = matches(layer, list(table))
        lspec = _spec(table[pattern]) if pattern else spec
        out_f, in_f = src.shape
        qscheme, group = lspec.get("qscheme"), lspec.get("group_size")
        want = {"per_tensor": 1, "per_channel": out_f}.get(str(qscheme))
        if qscheme == "per_group" and isinstance(group, int) and group > 0:
            want = out_f * -(-in_f // group)
        if want is not None and scale.numel != want:
            problems.append(
                f"{layer}.weight_scale has {scale.numel} element(s); {qscheme}"
                f"{f' group {group}' if qscheme == 'per_group' else ''} over {out_f}x{in_f} needs {want}"
            )
    block["problems"] = problems[:MAX_LIST]
    return block


def kv_cache_check(
    qconfig: Mapping[str, object] | None,
    source: Checkpoint,
    output: Checkpoint,
    kv_layers: tuple[str, ...] | list[str] = DEFAULT_KV_LAYERS,
) -> KvCache:
    """The KV-cache group names every layer's k/v projections or none (see module docstring).

    ``kv_layers``: the template's k/v projection patterns (Quark's ``kv_layers_name``). Problems: a
    group that covers some k/v projections but not all; a group pattern matching no module; group,
    ``kv_cache_quant_config`` keys and ``layer_quant_config`` output specs that disagree; k and v output
    specs that differ (vLLM's one-scheme rule, module docstring), in ``layer_quant_config`` or in
    ``kv_cache_quant_config``; a named layer without a stored ``output_scale``, or an ``output_scale``
    on a k/v projection outside the group.
    Returns ``{"group", "layers_named", "kv_layers", "problems"}``.
    """
    qconfig = qconfig or {}
    export_ = qconfig.get("export")
    export: Mapping[str, object] = export_ if isinstance(export_, dict) else {}
    group_ = export.get("kv_cache_group") or []
    group = [str(g) for g in group_] if isinstance(group_, list) else [str(group_)]
    kv_config = qconfig.get("kv_cache_quant_config") or {}
    layer_config = qconfig.get("layer_quant_config") or {}
    modules = list(source.linear_layers())
    kv_all = [m for m in modules if matches(m, list(kv_layers))]
    named = [m for m in modules if matches(m, group)]
    problems: list[str] = []
    for pattern in group:
        if not any(fnmatchcase(m, pattern) or m == pattern for m in modules):
            problems.append(f"kv_cache_group pattern {pattern!r} matches no module of the model")
    if named:
        missing = [m for m in kv_all if m not in named]
        if missing:
            problems.append(
                f"kv_cache_group names {len(named)} of {len(kv_all)} k/v projections "
                f"(missing e.g. {missing[0]})"
            )
        extra = [m for m in named if m not in kv_all]
        if extra:
            problems.append(f"kv_cache_group names {extra[0]}, not a k/v projection")
    if isinstance(kv_config, dict) and sorted(kv_config) != sorted(group):
        problems.append(
            f"kv_cache_quant_config keys {sorted(kv_config)} differ from kv_cache_group {sorted(group)}"
        )
    for pattern in group:
        spec = layer_config.get(pattern) if isinstance(layer_config, dict) else None
        if not (isinstance(spec, dict) and spec.get("output_tensors")):
            problems.append(
                f"layer_quant_config has no output_tensors spec for kv_cache_group pattern {pattern!r}"
            )
    problems += _kv_scheme_problems(group, layer_config, kv_config)
    for m in named:
        if f"{m}.output_scale" not in output.tensors:
            problems.append(f"{m} is in the KV-cache group but stores no output_scale")
            break
    stray = [m for m in kv_all if m not in named and f"{m}.output_scale" in output.tensors]
    if stray:
        problems.append(
            f"{stray[0]} stores an output_scale but is not in kv_cache_group ({len(stray)} such layer(s))"
        )
    return {
        "group": group,
        "layers_named": len(named),
        "kv_layers": len(kv_all),
        "problems": problems[:MAX_LIST],
    }


def _describe(spec: object) -> str:
    """``fp8_e4m3 per_tensor`` for a tensor spec, ``none`` for a missing one."""
    if not isinstance(spec, dict):
        return "none"
    return " ".join(str(spec.get(k)) for k in ("dtype", "qscheme") if spec.get(k) is not None) or "set"


def _spec_differences(a: object, b: object) -> str:
    """How two specs differ, in a few words (``dtype fp8_e4m3 vs fp8_e5m2``)."""
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return f"{_describe(a)} vs {_describe(b)}"
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return "; ".join(f"{k} {a.get(k)!r} vs {b.get(k)!r}" for k in keys[:3])


def _kv_scheme_problems(group: list[str], layer_config: object, kv_config: object) -> list[str]:
    """vLLM's one-KV-cache-scheme rule (module docstring) over both config sections."""
    problems: list[str] = []
    sections = (("layer_quant_config", layer_config), ("kv_cache_quant_config", kv_config))
    for section, entries in sections:
        if not isinstance(entries, dict):
            continue
        specs = {
            str(name): spec.get("output_tensors") if isinstance(spec, dict) else None
            for name, spec in entries.items()
            if any(fnmatchcase(str(name), pattern) for pattern in group)
        }
        names = sorted(specs)
        for other in names[1:]:
            if specs[other] != specs[names[0]]:
                problems.append(
                    f"{section}: the KV-cache output specs of {names[0]!r} "
                    f"({_describe(specs[names[0]])}) and {other!r} ({_describe(specs[other])}) differ "
                    f"({_spec_differences(specs[names[0]], specs[other])});"
                    " vLLM requires one KV-cache scheme for k and v"
                )
                break
    return problems


# vLLM's packed_modules_mapping of the Llama-family models: fused layer -> the shards stored in the export
FUSED_SHARDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("qkv_proj", ("q_proj", "k_proj", "v_proj")),
    ("gate_up_proj", ("gate_proj", "up_proj")),
)
EXCLUDED = "excluded"


def _vllm_excluded(name: str, exclude: list[str]) -> bool:
    """Excluded as the export declares it (Quark's patterns: equal or fnmatch) or as vLLM reads it (equal,
    or a ``re:`` regex matched at the start)."""
    for target in exclude:
        if target.startswith("re:"):
            try:
                if re.match(target[3:], name):
                    return True
            except re.error:
                continue
        elif name == target or fnmatchcase(name, target):
            return True
    return False


def _shard_config(name: str, qconfig: Mapping[str, object], cleared: set[str]) -> tuple[str, object]:
    """``(source, config)`` vLLM resolves for one shard: ``("excluded", None)``, the first
    ``layer_quant_config`` pattern that matches it (``*`` patterns by fnmatch, others by containment,
    as vLLM does), else ``global_quant_config``; ``output_tensors`` cleared for the ``cleared``
    patterns."""
    exclude = [e for e in json_items(qconfig.get("exclude")) if isinstance(e, str)]
    if _vllm_excluded(name, exclude):
        return EXCLUDED, None
    overrides = qconfig.get("layer_quant_config")
    for pattern, config in overrides.items() if isinstance(overrides, dict) else ():
        hit = fnmatchcase(name, pattern) if "*" in pattern else name in pattern
        if hit:
            if pattern in cleared and isinstance(config, dict):
                config = {**config, "output_tensors": None}
            return f"layer_quant_config[{pattern!r}]", config
    return "global_quant_config", qconfig.get("global_quant_config")


def fused_layers_check(qconfig: Mapping[str, object] | None, modules: list[str]) -> FusedLayers:
    """The shards vLLM fuses into one layer resolve to one scheme (vLLM's rule, module docstring).

    ``modules``: the model's linear layer names (e.g. ``model.layers.0.self_attn.q_proj``). A fused
    layer is checked when every one of its shards is a module of the model. Returns ``{"checked": n
    fused layers, "problems": [...]}`` (one problem per fused layer whose shards differ, naming each
    shard's scheme).
    """
    qconfig = qconfig or {}
    export_ = qconfig.get("export")
    export: Mapping[str, object] = export_ if isinstance(export_, dict) else {}
    group = [g for g in json_items(export.get("kv_cache_group")) if isinstance(g, str)]
    overrides = qconfig.get("layer_quant_config")
    cleared: set[str] = set()
    if group and isinstance(overrides, dict):  # vLLM clears these output specs once it has the KV scheme
        cleared = {p for p in overrides if any(fnmatchcase(p, g) for g in group)} | {"*q_proj"}
    present = set(modules)
    checked = 0
    problems: list[str] = []
    for name in modules:
        for fused, shards in FUSED_SHARDS:
            prefix, _, leaf = name.rpartition(".")
            if leaf != shards[0]:
                continue
            names = [f"{prefix}.{shard}" for shard in shards]
            if not all(n in present for n in names):
                continue
            checked += 1
            resolved = [_shard_config(n, qconfig, cleared) for n in names]
            if all(
                config == resolved[0][1] and (source == EXCLUDED) == (resolved[0][0] == EXCLUDED)
                for source, config in resolved
            ):
                continue
            what = ", ".join(
                f"{shard} {source if source == EXCLUDED else f'{_describe(_spec(config))} ({source})'}"
                for shard, (source, config) in zip(shards, resolved, strict=True)
            )
            problems.append(
                f"{prefix}.{fused}: its shards have different schemes ({what}); vLLM fuses "
                f"{'/'.join(shards)} into {fused} and refuses an export whose shards differ: exclude "
                "all of them or none"
            )
    return {"checked": checked, "problems": problems[:MAX_LIST]}


def _module(tensor: str) -> tuple[str, str]:
    module, _, leaf = tensor.rpartition(".")
    return module, leaf


def names_check(qconfig: Mapping[str, object] | None, source: Checkpoint, output: Checkpoint) -> Names:
    """Exported tensor and layer names match the source model's modules.

    Problems: an output tensor whose module is not a source module (or a quantization suffix the
    export does not write), a source tensor missing from the output, a ``layer_quant_config``
    pattern matching no module. Returns ``{"unknown_in_output", "missing_in_output",
    "unmatched_patterns", "problems"}``.
    """
    src_modules = {_module(n)[0] for n in source.tensors}
    unknown = sorted(
        n
        for n in output.tensors
        if n not in source.tensors
        and not (_module(n)[0] in src_modules and QUANT_PARAMETER.match(_module(n)[1]))
    )
    missing = sorted(n for n in source.tensors if n not in output.tensors)
    patterns = (qconfig or {}).get("layer_quant_config") or {}
    modules = list(source.linear_layers())
    unmatched = sorted(
        p
        for p in (patterns if isinstance(patterns, dict) else {})
        if not any(fnmatchcase(m, p) or m == p for m in modules)
    )
    problems = []
    if unknown:
        problems.append(
            f"{len(unknown)} output tensor(s) belong to no module of the model (e.g. {unknown[0]})"
        )
    if missing:
        problems.append(f"{len(missing)} source tensor(s) missing in the output (e.g. {missing[0]})")
    if unmatched:
        problems.append(f"layer_quant_config pattern(s) matching no module: {', '.join(unmatched[:5])}")
    return {
        "unknown_in_output": unknown[:MAX_LIST],
        "missing_in_output": missing[:MAX_LIST],
        "unmatched_patterns": unmatched[:MAX_LIST],
        "problems": problems,
    }


def _load(ckpt: Checkpoint, name: str) -> Any:
    """Tensor ``name`` of ``ckpt`` as a float32 numpy array (torch for BF16, which numpy lacks)."""
    from safetensors import safe_open

    info = ckpt.tensors[name]
    path = str(ckpt.path / info.file)
    if info.dtype == "BF16":
        with safe_open(path, framework="pt") as fh:
            return fh.get_tensor(name).float().numpy()
    with safe_open(path, framework="numpy") as fh:
        return fh.get_tensor(name).astype("float32")


def _raw_digest(ckpt: Checkpoint, name: str) -> str:
    """SHA-256 of tensor ``name``'s stored bytes (BF16 read through torch, which numpy cannot hold)."""
    from safetensors import safe_open

    info = ckpt.tensors[name]
    path = str(ckpt.path / info.file)
    if info.dtype == "BF16":
        import torch

        with safe_open(path, framework="pt") as fh:
            data = fh.get_tensor(name).view(torch.int16).numpy().tobytes()
    else:
        with safe_open(path, framework="numpy") as fh:
            data = fh.get_tensor(name).tobytes()
    return hashlib.sha256(data).hexdigest()


def unquantized_tensors(source: Checkpoint, output: Checkpoint) -> UnquantizedTensors:
    """Tensors the recipe left unquantized (lm_head, embeddings, norms, ...) equal the source's.

    Compared: every source tensor present in the output with a float dtype whose module stores no
    ``weight_scale`` (not quantized). Same dtype: SHA-256 of the bytes must be equal. A float cast
    (fp32 -> bf16/f16): ``allclose`` within the narrower dtype's rounding (rtol 2^-7 bf16, 2^-10 f16).
    Returns ``{"checked", "differ": [{"tensor", "reason"}], "problems"}``.
    """
    import numpy as np

    differ: list[TensorDiff] = []
    checked = 0
    for name, src in sorted(source.tensors.items()):
        out = output.tensors.get(name)
        module = _module(name)[0]
        if out is None or out.dtype not in FLOAT_DTYPES or src.dtype not in FLOAT_DTYPES:
            continue
        if f"{module}.weight_scale" in output.tensors:
            continue
        checked += 1
        if out.shape != src.shape:
            differ.append({"tensor": name, "reason": f"shape {list(src.shape)} -> {list(out.shape)}"})
        elif out.dtype == src.dtype:
            if _raw_digest(source, name) != _raw_digest(output, name):
                a, b = _load(source, name), _load(output, name)
                differ.append(
                    {
                        "tensor": name,
                        "reason": f"content differs (sha256), max |diff| "
                        f"{float(np.max(np.abs(a - b))) if a.size else 0.0:.3g}",
                    }
                )
        else:
            a, b = _load(source, name), _load(output, name)
            rtol = {"BF16": 2**-7, "F16": 2**-10}.get(out.dtype, 1e-6)
            if not np.allclose(a, b, rtol=rtol, atol=1e-6):
                differ.append(
                    {
                        "tensor": name,
                        "reason": f"{src.dtype} -> {out.dtype} beyond rounding "
                        f"(rtol {rtol:.2g}), max |diff| "
                        f"{float(np.max(np.abs(a - b))):.3g}",
                    }
                )
    problems = (
        [
            f"{len(differ)} unquantized tensor(s) differ from the source (e.g. {differ[0]['tensor']}: "
            f"{differ[0]['reason']})"
        ]
        if differ
        else []
    )
    return {"checked": checked, "differ": differ[:MAX_LIST], "problems": problems}
