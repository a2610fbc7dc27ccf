"""The validation summary (``validation_summary.json``) as typed dictionaries, one per block.

They follow the ``validation_summary`` contract (``quarkci/core/schemas/validation_summary.schema.json``):
a key the contract requires is a required key here, every other one is ``NotRequired`` (the producer,
:func:`quarkci.ptq.validate.summarize`, writes every key; a summary read back through the contract
holds only what the contract requires). A checked block (``scheme_check``, ``kv_cache``,
``fused_layers``, ``names``, ``unquantized_tensors``) requires only ``problems``. Values copied verbatim
from the export's open ``config.json`` (a declared dtype, a metadata field's two values) are ``object``:
their JSON type is the model's, not quarkci's. Sizes are bytes; ratios and accuracies fractions 0..1.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from quarkci.ptq.doc_types import RunResultDoc


class Side(TypedDict):
    """One model directory: ``bytes`` of every weight file, ``files`` the number of safetensors, ``error``
    why the weights could not be read (``None`` when they could)."""

    path: str
    exists: bool
    bytes: int
    files: int
    safetensors_bytes: NotRequired[int]
    other_weight_files: NotRequired[dict[str, int]]
    error: NotRequired[str | None]


class QuantizationConfigBlock(TypedDict):
    """What the export's ``quantization_config`` declares (``quant_method`` copied from it verbatim)."""

    present: bool
    quant_method: NotRequired[object]
    global_weight_dtypes: NotRequired[list[str]]
    exclude: NotRequired[list[str]]
    layer_quant_config: NotRequired[list[str]]
    problems: NotRequired[list[str]]


class LayerMismatch(TypedDict):
    """A layer whose declared and observed precision disagree."""

    layer: str
    reason: str


class Layers(TypedDict):
    """Declared vs observed precision of every source linear layer (``quantized``: label -> count)."""

    total: int
    quantized: dict[str, int]
    excluded: list[str]
    unexpected_unquantized: list[str]
    declaration_mismatch: list[LayerMismatch]


class SchemeCheck(TypedDict):
    """Claimed scheme vs the declared weight spec (``declared_*`` copied from the export's config)."""

    problems: list[str]
    claimed: NotRequired[str | None]
    expected_dtype: NotRequired[str | None]
    declared_dtype: NotRequired[object]
    declared_qscheme: NotRequired[object]
    declared_group_size: NotRequired[object]


class KvCache(TypedDict):
    """The KV-cache group: its patterns, how many modules it names, how many k/v projections there are."""

    problems: list[str]
    group: NotRequired[list[str]]
    layers_named: NotRequired[int]
    kv_layers: NotRequired[int]


class FusedLayers(TypedDict):
    """vLLM's fused-layer rule: ``checked`` fused layers."""

    problems: list[str]
    checked: NotRequired[int]


class Names(TypedDict):
    """Exported names vs the source model's modules (lists capped, as every list of the summary)."""

    problems: list[str]
    unknown_in_output: NotRequired[list[str]]
    missing_in_output: NotRequired[list[str]]
    unmatched_patterns: NotRequired[list[str]]


class TensorDiff(TypedDict):
    """An unquantized tensor that differs from the source's."""

    tensor: str
    reason: str


class UnquantizedTensors(TypedDict):
    """Tensors left unquantized compared with the source's (``checked`` tensors)."""

    problems: list[str]
    checked: NotRequired[int]
    differ: NotRequired[list[TensorDiff]]


class MetadataDiff(TypedDict):
    """One metadata field that differs (``field`` is the one key the contract requires); ``source`` and
    ``output`` are its two values, copied from the open JSON files."""

    field: str
    source: NotRequired[object]
    output: NotRequired[object]
    reason: NotRequired[str]


class Metadata(TypedDict):
    """Metadata differences between source and output, classified."""

    expected: list[MetadataDiff]
    blocking: list[MetadataDiff]


class Reload(TypedDict):
    """The transformers reload and the behaviour probes (``source_task_accuracy`` copied from the demo
    model's ``quarkci_task.json``)."""

    checked: bool
    ok: bool | None
    error: NotRequired[str | None]
    forward_error: NotRequired[str | None]
    logits_finite: NotRequired[bool | None]
    missing_keys: NotRequired[list[str]]
    unexpected_keys: NotRequired[list[str]]
    mismatched_keys: NotRequired[list[str]]
    counts: NotRequired[dict[str, int]]
    task_accuracy: NotRequired[float | None]
    source_task_accuracy: NotRequired[object]
    top1_agreement: NotRequired[float | None]
    behaviour_error: NotRequired[str | None]
    task_error: NotRequired[str]


class ValidationSummary(TypedDict):
    """The ``validation_summary`` document (``summary_version`` 1): the PTQ gate's one input."""

    summary_version: Literal[1]
    scheme: str | None
    source: Side
    output: Side
    size_ratio: float | None
    quantization_config: QuantizationConfigBlock
    layers: Layers | None
    scheme_check: NotRequired[SchemeCheck | None]
    kv_cache: NotRequired[KvCache | None]
    fused_layers: NotRequired[FusedLayers | None]
    names: NotRequired[Names | None]
    unquantized_tensors: NotRequired[UnquantizedTensors | None]
    metadata: Metadata
    reload: Reload
    run: RunResultDoc | None
