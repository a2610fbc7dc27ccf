"""The shapes of the PTQ chain's documents before the validation summary: ``model_analysis``
(:mod:`quarkci.ptq.intake`), ``quant_plan`` (:mod:`quarkci.ptq.plan`), ``run_manifest``
(:mod:`quarkci.ptq.manifest`, a YAML document) and ``run_result`` (:mod:`quarkci.ptq.runner`).

Conventions: :mod:`quarkci.core.shapes`. Values intake copies from the model's ``config.json`` (already
type-checked by :data:`quarkci.ptq.headers.CONFIG_SCHEMA`) keep that schema's types. Sizes in bytes
(``estimated_size_gb``: 10^9 bytes), times in seconds.
"""

from typing import Literal, NotRequired, TypedDict

from quarkci.core.shapes.marks import Extension

# --- model_analysis --------------------------------------------------------------------------------


class Risk(TypedDict):
    """One item of ``model_analysis.risks``: ``severity`` low|medium|high, a kebab-case ``code``."""

    severity: str
    message: str
    recovery_hint: NotRequired[str]
    code: NotRequired[str]


class AnalysisModel(TypedDict):
    """``model_analysis.model`` (open object): where the model is, the facts intake reads from its
    ``config.json`` (each optional one absent when the config lacks it), and what intake adds."""

    model_path: str
    model_source: NotRequired[str]  # local | huggingface_id
    model_type: str
    architectures: NotRequired[list[str]]
    loading_class: NotRequired[str]
    trust_remote_code: NotRequired[bool]
    transformers_version: NotRequired[str]
    transformers_version_required: NotRequired[str]
    is_moe: NotRequired[bool]
    num_hidden_layers: NotRequired[int]
    hidden_size: NotRequired[int]
    estimated_size_gb: NotRequired[float]
    intermediate_size: NotRequired[Extension[int]]
    num_attention_heads: NotRequired[Extension[int]]
    num_key_value_heads: NotRequired[Extension[int]]
    vocab_size: NotRequired[Extension[int]]
    max_position_embeddings: NotRequired[Extension[int]]
    tie_word_embeddings: NotRequired[Extension[bool]]
    dtype: NotRequired[Extension[str]]
    num_experts: NotRequired[Extension[int]]


class LinearShape(TypedDict):
    """One linear layer's weight: ``[out_features, in_features]`` and its safetensors dtype."""

    out_features: int
    in_features: int
    dtype: str


class SensitiveComponent(TypedDict):
    """Linear layers of one quantization-sensitive kind (lm_head, router gates, vision towers)."""

    kind: str
    count: int
    examples: list[str]


class QuantizationTargets(TypedDict):
    """``model_analysis.quantization_targets`` (open object): what PTQ would quantize, the linear layers
    and the default exclusions (``*_source``: where a figure comes from)."""

    linear_layer_count: int
    has_non_linear_experts: NotRequired[bool]
    needs_moe_preparation: NotRequired[bool]
    exclude_defaults: list[str]
    exclude_defaults_source: NotRequired[Extension[str]]
    linear_layer_count_source: NotRequired[Extension[str]]
    linear_layers: NotRequired[Extension[dict[str, LinearShape]]]
    sensitive_components: NotRequired[Extension[list[SensitiveComponent]]]


class QuarkFacts(TypedDict):
    """The amd-quark the analysis was made against."""

    version: str
    template_available: bool


class DtypeCount(TypedDict):
    """Elements and bytes of one dtype."""

    count: int
    bytes: int


class Parameters(TypedDict):
    """Parameter counts from the safetensors headers (a local model only)."""

    count: int
    bytes: int
    by_dtype: dict[str, DtypeCount]
    safetensors_files: int
    safetensors_bytes: int


class ModelAnalysis(TypedDict):
    """``model_analysis`` (open object; a ``partial`` analysis has risks)."""

    analysis_status: Literal["complete", "partial"]
    model: AnalysisModel
    quantization_targets: QuantizationTargets
    risks: list[Risk]
    quark: NotRequired[Extension[QuarkFacts | None]]
    parameters: NotRequired[Extension[Parameters]]


# --- quant_plan ------------------------------------------------------------------------------------


class PlanModel(TypedDict):
    """``quant_plan.model`` (open object): the model a plan is for, and the analysis it was built from."""

    model_type: str
    analysis_ref: str
    model_path: NotRequired[str]


class Calibration(TypedDict, total=False):
    """``quant_plan.calibration`` (open object; also the manifest's ``inputs.calibration``): a quark-cli
    dataset name or a text file, sample count, sequence length in tokens, batch size in samples."""

    dataset: str
    num_calib_data: int
    seq_len: int
    batch_size: int


class QuantPlan(TypedDict):
    """``quant_plan`` (open object); ``layer_quant_config``: layer pattern -> scheme; ``command``: the
    ``quarkci ptq plan`` argv that reproduces it."""

    model: PlanModel
    global_scheme: str
    kv_cache_scheme: NotRequired[str | None]
    exclude_layers: list[str]
    layer_quant_config: dict[str, str]
    algorithm: NotRequired[str | None]
    calibration: NotRequired[Calibration]
    export_format: NotRequired[str]
    evaluation_intent: NotRequired[Literal["none", "smoke", "full"]]
    requires_confirmation: bool
    missing_facts: NotRequired[list[str]]
    exclusion_reasons: NotRequired[Extension[dict[str, str]]]
    model_dtype: NotRequired[Extension[str]]
    device: NotRequired[Extension[str]]
    trust_remote_code: NotRequired[Extension[bool]]
    quark_version: NotRequired[Extension[str]]
    command: NotRequired[Extension[list[str]]]


# --- run_manifest ----------------------------------------------------------------------------------


class ManifestInputs(TypedDict):
    """``run_manifest.inputs`` (an open object the contract does not describe): what the run reads, the
    source model, the analysis and plan (with the plan's sha256), the choices."""

    model_path: NotRequired[Extension[str]]
    model_is_local: NotRequired[Extension[bool]]
    analysis: NotRequired[Extension[str]]
    plan: NotRequired[Extension[str]]
    plan_sha256: NotRequired[Extension[str]]
    scheme: NotRequired[Extension[str]]
    algorithm: NotRequired[Extension[str | None]]
    kv_cache_scheme: NotRequired[Extension[str | None]]
    calibration: NotRequired[Extension[Calibration]]
    model_dtype: NotRequired[Extension[str]]
    device: NotRequired[Extension[str]]
    quark_version: NotRequired[Extension[str | None]]


class ManifestOutputs(TypedDict):
    """``run_manifest.outputs`` (an open object the contract does not describe): where the run writes
    (absolute paths, all inside the manifest's directory)."""

    output_dir: NotRequired[Extension[str]]
    manifest: NotRequired[Extension[str]]
    run_result: NotRequired[Extension[str]]
    validation_summary: NotRequired[Extension[str]]


class ManifestCheckpoint(TypedDict):
    """One item of ``run_manifest.checkpoints``: a human confirmation point of the run."""

    id: str
    reason: str
    confirmed: NotRequired[bool]


class EquivalentCommand(TypedDict):
    """The ``quark-cli torch-llm-ptq`` line equivalent to the run step, and where it cannot be."""

    quark_cli: str
    argv: list[str]
    notes: list[str]


class ManifestStep(TypedDict):
    """One item of ``run_manifest.steps``: an ordered step with its exact command (``argv``: no shell
    quoting)."""

    name: str
    kind: str  # analyze | plan | generate | run | validate | summarize | export | evaluate
    command: NotRequired[str]
    argv: NotRequired[list[str]]
    produces: NotRequired[list[str]]
    status: NotRequired[str]  # pending | skipped | succeeded | failed
    exit_code: NotRequired[int | None]
    equivalent_command: NotRequired[Extension[EquivalentCommand]]
    expected_artifacts: NotRequired[Extension[list[str]]]


class RunManifest(TypedDict):
    """``run_manifest`` (open object; ``status`` manual_only needs a non-empty ``blocked_by``)."""

    workflow: str
    inputs: ManifestInputs
    outputs: ManifestOutputs
    status: NotRequired[str]  # planned | manual_only | running | succeeded | partial | failed
    checkpoints: NotRequired[list[ManifestCheckpoint]]
    blocked_by: NotRequired[list[str]]
    steps: list[ManifestStep]


# --- run_result ------------------------------------------------------------------------------------


class RunResult(TypedDict):
    """``run_result`` (closed object): one ``quarkci ptq run``; a failed run names its stage, failure
    class and upstream message. ``timings``: stage -> seconds; ``versions``: package -> version."""

    status: Literal["succeeded", "failed"]
    scheme: str
    output_dir: str
    device: str
    model_dtype: str
    stage: str | None
    failure_class: str | None
    message: str | None
    exit_code: int
    timings: dict[str, float]
    versions: dict[str, str]
    exclude_applied: NotRequired[list[str]]
