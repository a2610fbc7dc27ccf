"""The shape of ``validation_summary`` (:func:`quarkci.ptq.validate.summarize`), one TypedDict per block:
the PTQ gate's one input.

Conventions: :mod:`quarkci.core.shapes`. A checked block (``#/$defs/checked_block``: ``scheme_check``,
``kv_cache``, ``fused_layers``, ``names``, ``unquantized_tensors``) requires only ``problems``; what each
adds is an extension. Values copied verbatim from the export's open ``config.json`` (a declared dtype,
``quant_method``, a metadata field's two values) and the demo model's ``quarkci_task.json``
(``source_task_accuracy``) are ``object``: their JSON type is the file's, not quarkci's (the contract,
checked when the summary is written, holds the types it allows). Sizes are bytes; ratios and
accuracies fractions 0..1.
"""

from typing import Literal, NotRequired, TypedDict

from quarkci.core.shapes.marks import Extension
from quarkci.core.shapes.ptq import RunResult


class Side(TypedDict):
    """``#/$defs/side`` (``source``, ``output``; closed object): one model directory, ``bytes`` of every
    weight file, ``files`` the number of safetensors, ``error`` why the weights could not be read
    (``None`` when they could)."""

    path: str
    exists: bool
    bytes: int
    files: int
    safetensors_bytes: NotRequired[int]
    other_weight_files: NotRequired[dict[str, int]]
    error: NotRequired[str | None]


class QuantizationConfig(TypedDict):
    """``quantization_config`` (open object): what the export's ``quantization_config`` declares."""

    present: bool
    quant_method: NotRequired[object]
    global_weight_dtypes: NotRequired[list[str]]
    exclude: NotRequired[list[str]]
    layer_quant_config: NotRequired[list[str]]
    problems: NotRequired[list[str]]


class LayerMismatch(TypedDict):
    """One item of ``layers.declaration_mismatch``: a layer whose declared and observed precision
    disagree."""

    layer: str
    reason: str


class Layers(TypedDict):
    """``layers`` (open object): declared vs observed precision of every source linear layer
    (``quantized``: label -> count)."""

    total: int
    quantized: dict[str, int]
    excluded: list[str]
    unexpected_unquantized: list[str]
    declaration_mismatch: list[LayerMismatch]


class SchemeCheck(TypedDict):
    """``scheme_check``: the claimed scheme vs the declared weight spec (``declared_*`` copied from the
    export's config)."""

    problems: list[str]
    claimed: NotRequired[Extension[str | None]]
    expected_dtype: NotRequired[Extension[str | None]]
    declared_dtype: NotRequired[Extension[object]]
    declared_qscheme: NotRequired[Extension[object]]
    declared_group_size: NotRequired[Extension[object]]


class KvCache(TypedDict):
    """``kv_cache``: the KV-cache group, its patterns, how many modules it names, how many k/v
    projections there are."""

    problems: list[str]
    group: NotRequired[Extension[list[str]]]
    layers_named: NotRequired[Extension[int]]
    kv_layers: NotRequired[Extension[int]]


class FusedLayers(TypedDict):
    """``fused_layers``: vLLM's fused-layer rule over ``checked`` fused layers."""

    problems: list[str]
    checked: NotRequired[Extension[int]]


class Names(TypedDict):
    """``names``: exported names vs the source model's modules (lists capped, as every list of the
    summary)."""

    problems: list[str]
    unknown_in_output: NotRequired[Extension[list[str]]]
    missing_in_output: NotRequired[Extension[list[str]]]
    unmatched_patterns: NotRequired[Extension[list[str]]]


class TensorDiff(TypedDict):
    """An unquantized tensor that differs from the source's."""

    tensor: str
    reason: str


class UnquantizedTensors(TypedDict):
    """``unquantized_tensors``: tensors left unquantized compared with the source's (``checked``
    tensors)."""

    problems: list[str]
    checked: NotRequired[Extension[int]]
    differ: NotRequired[Extension[list[TensorDiff]]]


class MetadataDiff(TypedDict):
    """One item of ``metadata.expected`` / ``metadata.blocking``: a metadata field that differs;
    ``source`` and ``output`` are its two values, copied from the open JSON files."""

    field: str
    source: NotRequired[Extension[object]]
    output: NotRequired[Extension[object]]
    reason: NotRequired[Extension[str]]


class Metadata(TypedDict):
    """``metadata`` (open object): metadata differences between source and output, classified."""

    expected: list[MetadataDiff]
    blocking: list[MetadataDiff]


class Reload(TypedDict):
    """``reload`` (open object): the transformers reload and the behaviour probes."""

    checked: bool
    ok: bool | None
    error: NotRequired[str | None]
    forward_error: NotRequired[str | None]
    logits_finite: NotRequired[bool | None]
    counts: NotRequired[dict[str, int]]
    task_accuracy: NotRequired[float | None]
    source_task_accuracy: NotRequired[object]
    top1_agreement: NotRequired[float | None]
    behaviour_error: NotRequired[str | None]
    missing_keys: NotRequired[Extension[list[str]]]
    unexpected_keys: NotRequired[Extension[list[str]]]
    mismatched_keys: NotRequired[Extension[list[str]]]
    task_error: NotRequired[Extension[str]]


class ValidationSummary(TypedDict):
    """``validation_summary`` (closed object, ``summary_version`` 1); ``size_ratio``: output bytes /
    source bytes; ``run``: the ``run_result`` read by ``ptq validate`` (its own contract), or null."""

    summary_version: Literal[1]
    scheme: str | None
    source: Side
    output: Side
    size_ratio: float | None
    quantization_config: QuantizationConfig
    layers: Layers | None
    scheme_check: NotRequired[SchemeCheck | None]
    kv_cache: NotRequired[KvCache | None]
    fused_layers: NotRequired[FusedLayers | None]
    names: NotRequired[Names | None]
    unquantized_tensors: NotRequired[UnquantizedTensors | None]
    metadata: Metadata
    reload: Reload
    run: RunResult | None
