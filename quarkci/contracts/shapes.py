"""The shape of each artifact document, as a TypedDict that follows its contract in ``core/schemas/``.

One TypedDict per artifact (the names are the artifact's in CamelCase); a nested object the contract
defines gets its own. A key the contract requires is a plain key, an optional one is ``NotRequired``;
a nested object the contract leaves open (``additionalProperties`` true) is ``total=False`` over the
keys it defines. Enum-valued keys are ``str`` (the contract holds the values and is checked when the
document is written). A JSON ``null`` is ``None``. What a TypedDict cannot say (patterns, minimum
lengths, ``if``/``then``) stays the contract's: these types say which keys exist with which JSON
types, the contract says which values are valid.

A few keys are left wider here, each where the contract itself leaves the value open
or where the value is another registered document: ``run_manifest.inputs``/``outputs`` (any object),
``verify_proof.doctor`` (the skill's doctor output, any object), ``validation_summary.run`` (the
``run_result`` read by ``ptq validate``, checked against its own contract), the checked blocks of
``validation_summary`` and ``day0_result``'s gate verdicts (``canary``, ``verbosity``: a verdict,
``quarkci.gates.verdict``, which ``contracts`` may not import). They are ``Mapping[str, object]``.
"""

# No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from the evaluated
# annotations, so ``__required_keys__`` (tests/contracts/test_shapes.py) is only right without it.
from collections.abc import Mapping
from typing import NotRequired, TypedDict

# --- session_context -------------------------------------------------------------------------------


class SessionConstraints(TypedDict, total=False):
    """``session_context.constraints``: what the goal states (open object)."""

    offline: bool
    execution_mode: str  # plan_only | interactive_execute | batch_execute


class RoutePrerequisite(TypedDict):
    """One item of ``session_context.route.prerequisites``."""

    role: str
    skill: str | None
    reason: str


class RouteInterpretation(TypedDict):
    """One item of ``session_context.route.interpretations``."""

    role: str
    skill: str | None


class Route(TypedDict):
    """``session_context.route``: the router's decision (closed object)."""

    role: str | None
    next_skill: str | None
    reason: str
    prerequisites: NotRequired[list[RoutePrerequisite]]
    interpretations: NotRequired[list[RouteInterpretation]]
    catalog: NotRequired[str]


class SessionContext(TypedDict):
    """``session_context``. The untyped keys Quark 0.13 also accepts (``hardware``, ``model_path``, ...)
    are never written by quarkci and are not listed."""

    user_goal: str
    workflow: str
    constraints: SessionConstraints
    env_context_ref: NotRequired[str | None]
    workspace_context_ref: NotRequired[str | None]
    pytorch_install_result_ref: NotRequired[str | None]
    quark_install_result_ref: NotRequired[str | None]
    open_questions: list[str]
    route: NotRequired[Route]


# --- env_context / workspace_context ---------------------------------------------------------------


class Environment(TypedDict):
    """``env_context.environment`` (open object)."""

    os: str
    python: str
    containerized: bool
    container_runtime: NotRequired[str | None]


class Hardware(TypedDict):
    """``env_context.hardware`` (open object); ``memory_gb`` in GB."""

    accelerator: str  # amd-rocm | nvidia-cuda | cpu | unknown
    cuda_version: NotRequired[str | None]
    rocm_version: NotRequired[str | None]
    gpu_count: NotRequired[int]
    gpu_model: NotRequired[str | None]
    gpu_arch: NotRequired[str | None]
    memory_gb: NotRequired[float]


class EnvContext(TypedDict):
    """``env_context`` (closed object)."""

    environment: Environment
    hardware: Hardware


class RequiredPath(TypedDict):
    """One item of ``workspace_context.required_paths``."""

    input: str
    resolved_path: str
    exists: bool
    kind: NotRequired[str | None]  # file | directory | null


class WorkspaceContext(TypedDict):
    """``workspace_context``; ``disk_space_gb_free`` in GB."""

    model_path: str
    model_source: str  # local | huggingface_id | ambiguous
    trust_remote_code_required: NotRequired[bool]
    output_dir: str
    output_dir_exists: NotRequired[bool]
    output_dir_parent_writable: NotRequired[bool]
    disk_space_gb_free: NotRequired[float | None]
    quark_script_path: NotRequired[str | None]
    required_paths: NotRequired[list[RequiredPath]]


# --- the two install results -----------------------------------------------------------------------


class TorchVerification(TypedDict, total=False):
    """``pytorch_install_result.verification`` (open object)."""

    import_ok: bool
    cuda_available: bool
    gpu_count: int


class PytorchInstallResult(TypedDict):
    """``pytorch_install_result``."""

    status: str  # ok | failed | skipped
    pytorch_version: str | None
    accelerator_tag: str | None
    torchvision_version: NotRequired[str | None]
    torchaudio_version: NotRequired[str | None]
    verification: NotRequired[TorchVerification]
    failure_reason: NotRequired[str | None]
    failed_command: NotRequired[str]


class QuarkEnvironment(TypedDict, total=False):
    """``quark_install_result.environment`` (open object)."""

    python_executable: str
    python_version: str
    quark_module_path: str | None
    torch_version: str | None
    torch_backend: str  # cpu | cuda | rocm | unknown
    gpu_available: bool | None
    gpu_name: str | None
    cpu_mode_confirmed: bool


class QuarkExtras(TypedDict, total=False):
    """``quark_install_result.extras_installed`` (open object)."""

    onnxruntime: bool
    llm_ptq_deps: bool


class QuarkVerification(TypedDict, total=False):
    """``quark_install_result.verification`` (open object)."""

    import_ok: bool
    kernel_ok: bool | None
    onnx_ops_ok: bool | None
    torch_gpu_ok: bool | None
    cli_ok: bool | None
    pip_check_ok: bool | None


class QuarkInstallResult(TypedDict):
    """``quark_install_result``."""

    status: str  # ok | failed | skipped
    quark_version: str | None
    install_source: NotRequired[str]  # pypi | source | wheel
    environment: NotRequired[QuarkEnvironment]
    extras_installed: NotRequired[QuarkExtras]
    verification: NotRequired[QuarkVerification]
    commands: NotRequired[list[str]]
    failure_reason: NotRequired[str | None]
    failed_command: NotRequired[str]


# --- model_analysis / quant_plan / run_manifest ----------------------------------------------------


class AnalysedModel(TypedDict):
    """``model_analysis.model`` (open object); ``estimated_size_gb`` in GB."""

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


class QuantizationTargets(TypedDict):
    """``model_analysis.quantization_targets`` (open object)."""

    linear_layer_count: int
    has_non_linear_experts: NotRequired[bool]
    needs_moe_preparation: NotRequired[bool]
    exclude_defaults: list[str]


class Risk(TypedDict):
    """One item of ``model_analysis.risks``."""

    severity: str  # low | medium | high
    message: str
    recovery_hint: NotRequired[str]
    code: NotRequired[str]


class ModelAnalysis(TypedDict):
    """``model_analysis``."""

    analysis_status: str  # complete | partial
    model: AnalysedModel
    quantization_targets: QuantizationTargets
    risks: list[Risk]


class PlanModel(TypedDict):
    """``quant_plan.model`` (open object)."""

    model_type: str
    analysis_ref: str
    model_path: NotRequired[str]


class Calibration(TypedDict, total=False):
    """``quant_plan.calibration`` (open object)."""

    dataset: str
    num_calib_data: int
    seq_len: int
    batch_size: int


class QuantPlan(TypedDict):
    """``quant_plan``; ``layer_quant_config``: layer pattern -> scheme."""

    model: PlanModel
    global_scheme: str
    kv_cache_scheme: NotRequired[str | None]
    exclude_layers: list[str]
    layer_quant_config: dict[str, str]
    algorithm: NotRequired[str | None]
    calibration: NotRequired[Calibration]
    export_format: NotRequired[str]
    evaluation_intent: NotRequired[str]  # none | smoke | full
    requires_confirmation: bool
    missing_facts: NotRequired[list[str]]


class ManifestCheckpoint(TypedDict):
    """One item of ``run_manifest.checkpoints``."""

    id: str
    reason: str
    confirmed: NotRequired[bool]


class ManifestStep(TypedDict):
    """One item of ``run_manifest.steps``."""

    name: str
    kind: str  # analyze | plan | generate | run | validate | summarize | export | evaluate
    command: NotRequired[str]
    argv: NotRequired[list[str]]
    produces: NotRequired[list[str]]
    status: NotRequired[str]  # pending | skipped | succeeded | failed
    exit_code: NotRequired[int | None]


class RunManifest(TypedDict):
    """``run_manifest``; ``inputs`` and ``outputs`` are open objects in the contract."""

    workflow: str
    inputs: Mapping[str, object]
    outputs: Mapping[str, object]
    status: NotRequired[str]  # planned | manual_only | running | succeeded | partial | failed
    checkpoints: NotRequired[list[ManifestCheckpoint]]
    blocked_by: NotRequired[list[str]]
    steps: list[ManifestStep]


# --- validation_report (Quark's keys) --------------------------------------------------------------


class ValidationReport(TypedDict):
    """``validation_report``: the keys Quark 0.13 defines. The contract is open; the keys of quarkci's
    own report kinds (``report_version``, ``kind``, ``findings``, ...) are written by
    :mod:`quarkci.report` from its own DTO and are not part of this shape."""

    status: str  # success | partial | failed
    summary: str
    evidence: list[str]
    next_actions: list[str]
    applied_fixes: NotRequired[list[str]]


# --- verify_proof ----------------------------------------------------------------------------------


class ProofStep(TypedDict):
    """One item of ``verify_proof.steps``."""

    step: str  # lock | instructions | doctor | harness | drive | negative-control | cleanup | confirm
    status: str  # ok | failed | inconclusive
    detail: str


class VerifyProof(TypedDict):
    """``verify_proof`` (closed object). ``rows``: the ``ROW key=value`` lines of the drive's output;
    ``harness``: file -> sha256; ``doctor``: the skill's doctor output (an open object); ``at``: UTC
    time, ``%Y-%m-%dT%H:%M:%SZ``."""

    result: str  # PROVED | FAILED | INCONCLUSIVE
    feature: str
    family: str
    skill: str
    library: str
    version: NotRequired[str]
    sha: NotRequired[str]
    failed_step: str
    reason: str
    steps: list[ProofStep]
    rows: list[dict[str, str]]
    unverified: list[str]
    doctor: NotRequired[Mapping[str, object]]
    draft: bool
    harness: dict[str, str]
    evidence: list[str]
    at: str


# --- run_result / validation_summary ---------------------------------------------------------------


class RunResult(TypedDict):
    """``run_result`` (closed object); ``timings``: stage -> seconds; ``versions``: package -> version."""

    status: str  # succeeded | failed
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


class Side(TypedDict):
    """``validation_summary``'s ``#/$defs/side`` (``source``, ``output``), closed; sizes in bytes."""

    path: str
    exists: bool
    bytes: int
    files: int
    safetensors_bytes: NotRequired[int]
    other_weight_files: NotRequired[dict[str, int]]
    error: NotRequired[str | None]


class QuantizationConfig(TypedDict):
    """``validation_summary.quantization_config`` (open object)."""

    present: bool
    quant_method: NotRequired[str | None]
    global_weight_dtypes: NotRequired[list[str]]
    exclude: NotRequired[list[str]]
    layer_quant_config: NotRequired[list[str]]
    problems: NotRequired[list[str]]


class LayerCounts(TypedDict):
    """``validation_summary.layers`` (open object); ``quantized``: scheme -> layer count."""

    total: int
    quantized: dict[str, int]
    excluded: list[str]
    unexpected_unquantized: list[str]
    declaration_mismatch: list[Mapping[str, object]]  # each {layer, reason, ...}


class SummaryMetadata(TypedDict):
    """``validation_summary.metadata`` (open object); each item holds at least ``field``."""

    expected: list[Mapping[str, object]]
    blocking: list[Mapping[str, object]]


class Reload(TypedDict):
    """``validation_summary.reload`` (open object)."""

    checked: bool
    ok: bool | None
    error: NotRequired[str | None]
    forward_error: NotRequired[str | None]
    logits_finite: NotRequired[bool | None]
    counts: NotRequired[dict[str, int]]
    task_accuracy: NotRequired[float | None]
    source_task_accuracy: NotRequired[float | None]
    top1_agreement: NotRequired[float | None]
    behaviour_error: NotRequired[str | None]


class ValidationSummary(TypedDict):
    """``validation_summary`` (closed object); ``size_ratio``: output bytes / source bytes. The checked
    blocks (``#/$defs/checked_block``: an object with ``problems``, or null) and ``run`` (a
    ``run_result`` with its own contract, or null) are ``Mapping[str, object]``."""

    summary_version: int  # const 1
    scheme: str | None
    source: Side
    output: Side
    size_ratio: float | None
    quantization_config: QuantizationConfig
    layers: LayerCounts | None
    scheme_check: NotRequired[Mapping[str, object] | None]
    kv_cache: NotRequired[Mapping[str, object] | None]
    fused_layers: NotRequired[Mapping[str, object] | None]
    names: NotRequired[Mapping[str, object] | None]
    unquantized_tensors: NotRequired[Mapping[str, object] | None]
    metadata: SummaryMetadata
    reload: Reload
    run: Mapping[str, object] | None


# --- day0_result -----------------------------------------------------------------------------------


class Publish(TypedDict):
    """``day0_result.publish`` (closed object)."""

    recommended: bool
    checkpoint: str | None
    checkpoint_sha256: str | None
    reason: str


class Day0Model(TypedDict):
    """``day0_result.model`` (closed object)."""

    source: str
    source_sha256: str | None
    scheme: str
    note: str | None


class Suite(TypedDict):
    """``day0_result.suite`` (closed object)."""

    name: str
    tasks: list[str]
    config_hash: str


class Sizes(TypedDict):
    """``day0_result.sizes`` (closed object), in bytes; ``ratio`` candidate / source."""

    source_bytes: int | None
    candidate_bytes: int | None
    ratio: float | None


class StageRecord(TypedDict):
    """One item of ``day0_result.stages`` (closed object); ``seconds`` wall time."""

    name: str  # setup | ptq | gate_ptq | canary | baseline_eval | candidate_eval | compare | verbosity
    status: str  # not_run | running | passed | failed | skipped
    seconds: float
    detail: str
    failure_class: str | None
    outputs: Mapping[str, object]
    resumed: bool


class TaskRecord(TypedDict):
    """One item of ``day0_result.tasks`` (closed object): one eval task, baseline vs candidate."""

    task: str
    metric: NotRequired[str | None]
    baseline: float | None
    candidate: float | None
    delta: float | None
    stderr: float | None
    baseline_stderr: NotRequired[float | None]
    candidate_stderr: NotRequired[float | None]
    samples: NotRequired[int | None]
    within: bool
    status: str  # PASS | REGRESSION | INDETERMINATE | ANOMALOUS


# ``pass`` is a keyword: the probe is spelt in the functional form.
BehaviourProbe = TypedDict(
    "BehaviourProbe",
    {
        "measure": str,  # task_accuracy | top1_agreement
        "value": float,
        "source_value": float | None,
        "threshold": float,
        "rule": str,
        "threshold_source": str,
        "top1_agreement": float | None,
        "pass": bool,
    },
)
"""``day0_result.behaviour_probe`` (closed object)."""


class BaselineCache(TypedDict):
    """``day0_result.baseline_cache`` (closed object)."""

    key: str
    path: str
    hit: bool


class Day0Result(TypedDict):
    """``day0_result`` (closed object); ``threshold``/``verbosity_threshold`` fractions, ``seconds`` wall
    time. ``canary``/``verbosity`` are gate verdicts (``quarkci.gates.verdict``) or null."""

    result_version: int  # const 1
    decision: str  # ACCEPT | REGRESSION | ANOMALOUS | INFEASIBLE | INDETERMINATE | SYSTEMIC
    failure_classes: list[str]
    triage: list[str]
    publish: Publish
    model: Day0Model
    threshold: float
    verbosity_threshold: NotRequired[float]
    suite: Suite
    sizes: Sizes
    stages: list[StageRecord]
    tasks: list[TaskRecord]
    behaviour_probe: NotRequired[BehaviourProbe | None]
    canary: Mapping[str, object] | None
    verbosity: Mapping[str, object] | None
    baseline_cache: BaselineCache | None
    seconds: float
