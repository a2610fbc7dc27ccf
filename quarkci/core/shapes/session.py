"""The shapes of a Quark session's setup documents: ``session_context`` (written by
:mod:`quarkci.router`), and ``env_context``, ``workspace_context``, ``pytorch_install_result`` and
``quark_install_result`` (written by Quark's own skills; quarkci reads them and writes only their
failure fallbacks, :mod:`quarkci.contracts.fallback`). Conventions: :mod:`quarkci.core.shapes`.
"""

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
