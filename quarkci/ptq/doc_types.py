"""The PTQ chain's JSON/YAML documents before the validation summary, as typed dictionaries:
``model_analysis.json`` (:mod:`~quarkci.ptq.intake`), ``quant_plan.json`` (:mod:`~quarkci.ptq.plan`),
``run_manifest.yaml`` (:mod:`~quarkci.ptq.manifest`) and ``run_result.json`` (:mod:`~quarkci.ptq.runner`).

Each follows its contract in ``quarkci/core/schemas/``: a key the contract requires is required here,
the others ``NotRequired`` (the producers write the keys named here; a document read back through its
contract is only guaranteed what the contract requires). Values that intake copies from the model's
``config.json`` (already type-checked by :data:`quarkci.ptq.headers.CONFIG_SCHEMA`) keep that schema's
types. Sizes in bytes (``estimated_size_gb``: 10^9 bytes), times in seconds.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# --- run_result.json ---------------------------------------------------------------------------------


class RunResultDoc(TypedDict):
    """One ``quarkci ptq run``: a failed run names its stage, failure class and upstream message."""

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


# --- model_analysis.json -----------------------------------------------------------------------------


class Risk(TypedDict):
    """One risk of the analysis: ``severity`` low|medium|high, a kebab-case ``code``."""

    severity: str
    message: str
    code: NotRequired[str]
    recovery_hint: NotRequired[str]


class AnalysisModel(TypedDict):
    """The model: where it is, the facts intake reads from its ``config.json`` (each optional one absent
    when the config lacks it), and what intake adds."""

    model_path: str
    model_type: str
    model_source: NotRequired[str]
    trust_remote_code: NotRequired[bool]
    architectures: NotRequired[list[str]]
    num_hidden_layers: NotRequired[int]
    hidden_size: NotRequired[int]
    intermediate_size: NotRequired[int]
    num_attention_heads: NotRequired[int]
    num_key_value_heads: NotRequired[int]
    vocab_size: NotRequired[int]
    max_position_embeddings: NotRequired[int]
    tie_word_embeddings: NotRequired[bool]
    dtype: NotRequired[str]
    is_moe: NotRequired[bool]
    transformers_version: NotRequired[str]
    num_experts: NotRequired[int]
    estimated_size_gb: NotRequired[float]


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
    """What PTQ would quantize: the linear layers and the default exclusions."""

    linear_layer_count: int
    exclude_defaults: list[str]
    exclude_defaults_source: NotRequired[str]
    linear_layer_count_source: NotRequired[str]
    linear_layers: NotRequired[dict[str, LinearShape]]
    has_non_linear_experts: NotRequired[bool]
    sensitive_components: NotRequired[list[SensitiveComponent]]


class ModelAnalysis(TypedDict):
    """The ``model_analysis`` document (``analysis_status`` complete|partial; a partial one has risks)."""

    analysis_status: Literal["complete", "partial"]
    model: AnalysisModel
    quantization_targets: QuantizationTargets
    risks: list[Risk]
    quark: NotRequired[QuarkFacts | None]
    parameters: NotRequired[Parameters]


# --- quant_plan.json ---------------------------------------------------------------------------------


class PlanModel(TypedDict):
    """The model a plan is for, and the analysis it was built from."""

    model_type: str
    analysis_ref: str
    model_path: NotRequired[str]


class Calibration(TypedDict):
    """Calibration data: a quark-cli dataset name or a text file, sample count, sequence length in tokens,
    batch size in samples."""

    dataset: NotRequired[str]
    num_calib_data: NotRequired[int]
    seq_len: NotRequired[int]
    batch_size: NotRequired[int]


class QuantPlan(TypedDict):
    """The ``quant_plan`` document (``command``: the ``quarkci ptq plan`` argv that reproduces it)."""

    model: PlanModel
    global_scheme: str
    exclude_layers: list[str]
    layer_quant_config: dict[str, str]
    requires_confirmation: bool
    kv_cache_scheme: NotRequired[str | None]
    exclusion_reasons: NotRequired[dict[str, str]]
    algorithm: NotRequired[str | None]
    calibration: NotRequired[Calibration]
    export_format: NotRequired[str]
    evaluation_intent: NotRequired[Literal["none", "smoke", "full"]]
    model_dtype: NotRequired[str]
    device: NotRequired[str]
    trust_remote_code: NotRequired[bool]
    quark_version: NotRequired[str]
    missing_facts: NotRequired[list[str]]
    command: NotRequired[list[str]]


# --- run_manifest.yaml -------------------------------------------------------------------------------


class ManifestInputs(TypedDict):
    """What the run reads: the source model, the analysis and plan (with the plan's sha256), the choices."""

    model_path: str
    model_is_local: bool
    analysis: str
    plan: str
    plan_sha256: str
    scheme: str
    algorithm: str | None
    kv_cache_scheme: str | None
    calibration: Calibration
    model_dtype: str
    device: str
    quark_version: str | None


class ManifestOutputs(TypedDict):
    """Where the run writes (absolute paths, all inside the manifest's directory)."""

    output_dir: str
    manifest: str
    run_result: str
    validation_summary: str


class ManifestCheckpoint(TypedDict):
    """A human confirmation point of the run."""

    id: str
    reason: str
    confirmed: NotRequired[bool]


class EquivalentCommand(TypedDict):
    """The ``quark-cli torch-llm-ptq`` line equivalent to the run step, and where it cannot be."""

    quark_cli: str
    argv: list[str]
    notes: list[str]


class ManifestStep(TypedDict):
    """One ordered step with its exact command (``argv``: no shell quoting)."""

    name: str
    kind: str
    command: NotRequired[str]
    argv: NotRequired[list[str]]
    produces: NotRequired[list[str]]
    status: NotRequired[str]
    exit_code: NotRequired[int | None]
    equivalent_command: NotRequired[EquivalentCommand]
    expected_artifacts: NotRequired[list[str]]


class RunManifest(TypedDict):
    """The ``run_manifest`` document (``status`` manual_only needs a non-empty ``blocked_by``)."""

    workflow: str
    inputs: ManifestInputs
    outputs: ManifestOutputs
    steps: list[ManifestStep]
    status: NotRequired[str]
    checkpoints: NotRequired[list[ManifestCheckpoint]]
    blocked_by: NotRequired[list[str]]
