"""The shape of ``day0_result`` (:mod:`quarkci.day0.result`), and of the PTQ gate's behaviour probe it
records (the same object as the gate verdict's ``behaviour``, :mod:`quarkci.gates.ptq`).

Conventions: :mod:`quarkci.core.shapes`. ``canary`` (the canary's verdict,
:data:`quarkci.day0.shapes.CanaryVerdict`), ``verbosity`` (a gate verdict,
:data:`quarkci.gates.verdict.Verdict`) and a stage's ``outputs`` (:class:`quarkci.day0.state.StageOutputs`)
have feature packages' shapes, which core may not import: here they are ``Mapping[str, object]``.
"""

from collections.abc import Mapping
from typing import NotRequired, TypedDict


class Publish(TypedDict):
    """``day0_result.publish`` (closed object): whether to publish, which checkpoint (and its content
    sha256), and why."""

    recommended: bool
    checkpoint: str | None
    checkpoint_sha256: str | None
    reason: str


class ModelRecord(TypedDict):
    """``day0_result.model`` (closed object): the source model's directory, its content sha256 (``None``
    before the baseline stage), the scheme and the caller's note."""

    source: str
    source_sha256: str | None
    scheme: str
    note: str | None


class SuiteRecord(TypedDict):
    """``day0_result.suite`` (closed object): the eval suite's name, tasks and task-config hash."""

    name: str
    tasks: list[str]
    config_hash: str


class Sizes(TypedDict):
    """``day0_result.sizes`` (closed object), in bytes; ``ratio`` candidate / source (``None`` before
    the PTQ gate)."""

    source_bytes: int | None
    candidate_bytes: int | None
    ratio: float | None


class StageRecord(TypedDict):
    """One item of ``day0_result.stages`` (closed object), also each stage's record in
    ``day0_state.json``; ``seconds`` wall time rounded to 1 ms."""

    name: str  # setup | ptq | gate_ptq | canary | baseline_eval | candidate_eval | compare | verbosity
    status: str  # not_run | running | passed | failed | skipped
    seconds: float
    detail: str
    failure_class: str | None
    outputs: Mapping[str, object]
    resumed: bool


class TaskRow(TypedDict):
    """One item of ``day0_result.tasks`` (closed object): the compare gate's row of one eval task, with
    each side's standard error and the candidate's sample count from the eval results."""

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
        "top1_agreement": float | None,
        "measure": str,  # task_accuracy | top1_agreement
        "value": float,
        "source_value": float | None,
        "threshold": float,
        "rule": str,
        "threshold_source": str,
        "pass": bool,
    },
)
"""``day0_result.behaviour_probe`` (closed object) and the PTQ gate verdict's ``behaviour``: what was
measured (``value``, 0..1; ``source_value`` the source's task accuracy), against which ``threshold`` by
which ``rule``, where that threshold comes from, the top-1 agreement, and whether it passed."""


class BaselineCache(TypedDict):
    """``day0_result.baseline_cache`` (closed object): the baseline cache entry looked up, its key, its
    path, and whether it was a hit."""

    key: str
    path: str
    hit: bool


class Day0Result(TypedDict):
    """``day0_result`` (closed object, ``result_version`` 1); ``threshold``/``verbosity_threshold``
    fractions, ``seconds`` wall time."""

    result_version: int  # const 1
    decision: str  # ACCEPT | REGRESSION | ANOMALOUS | INFEASIBLE | INDETERMINATE | SYSTEMIC
    failure_classes: list[str]
    triage: list[str]
    publish: Publish
    model: ModelRecord
    threshold: float
    verbosity_threshold: NotRequired[float]
    suite: SuiteRecord
    sizes: Sizes
    stages: list[StageRecord]
    tasks: list[TaskRow]
    behaviour_probe: NotRequired[BehaviourProbe | None]
    canary: Mapping[str, object] | None
    verbosity: Mapping[str, object] | None
    baseline_cache: BaselineCache | None
    seconds: float
