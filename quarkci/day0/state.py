"""The day-0 chain's types: its inputs (:class:`Day0Config`), one stage's record (:class:`Stage`), the stop
signal a stage raises (:class:`GateFailed`), what a stage works on (:class:`Context`) and a stage's shape
(:data:`StageFn`) and a finished chain (:class:`ChainRecord`). Types only: the stages are in
:mod:`quarkci.day0.stages`, the loop in :mod:`quarkci.day0.conductor`, the decision in
:mod:`quarkci.day0.decision`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from quarkci.day0.canary import DEFAULT_HEALTH_TIMEOUT
from quarkci.day0.shapes import CanaryVerdict, DatasetCheck, Serving
from quarkci.day0.suite import Suite
from quarkci.day0.vllm_env import VllmEnv
from quarkci.gates import compare, verbosity
from quarkci.gates.failure_class import FailureClass
from quarkci.gates.verdict import Behaviour, Verdict

if TYPE_CHECKING:
    from quarkci.ptq.chain import PtqOutcome


@dataclass(frozen=True)
class Day0Config:
    """Resolved inputs of one day-0 run (all checked before any work by the command). ``threshold`` and
    ``verbosity_threshold`` are fractions (the compare and verbosity gates'); ``health_timeout`` seconds;
    ``checkpoint``: evaluate this export instead of running PTQ."""

    model: Path
    scheme: str
    out: Path
    suite: Suite
    threshold: float = compare.DEFAULT_THRESHOLD
    verbosity_threshold: float = verbosity.DEFAULT_THRESHOLD
    accelerator: str = "cpu"
    server: str = "hf"
    backend: str = "hf"
    require_token: bool = False
    resume: bool = False
    checkpoint: Path | None = None
    cache_dir: Path | None = None
    health_timeout: float = DEFAULT_HEALTH_TIMEOUT
    source_note: str | None = None
    kv_cache: str | None = None
    vllm: VllmEnv | None = None  # the vLLM environment (server == "vllm")


class StageOutputs(TypedDict, total=False):
    """What a stage records as its outputs: paths (absolute, under the run directory or the cache) of
    the files it wrote, and the setup stage's facts (bytes, the accelerator, the amd-quark version, the
    dataset check)."""

    source_bytes: int
    disk_free_bytes: int
    accelerator: str
    amd_quark: str | None
    datasets: DatasetCheck
    manifest: str
    run_result: str
    checkpoint: str
    summary: str
    verdict: str
    server_log: str
    results: str
    gate_run: str
    cache: str


class StageRecord(TypedDict):
    """A stage's record in ``day0_state.json`` and ``day0_result.json`` (seconds rounded to 1 ms)."""

    name: str
    status: str
    seconds: float
    detail: str
    failure_class: str | None
    outputs: StageOutputs
    resumed: bool


class PtqSizes(TypedDict):
    """The validation summary's sizes (bytes) and demo-task accuracies, for the closeout."""

    source_bytes: int
    output_bytes: int
    size_ratio: float | None
    task_accuracy: float | None
    source_task_accuracy: float | None


class BaselineCache(TypedDict):
    """The baseline cache entry looked up: its key, its path, and whether it was a hit."""

    key: str
    path: str
    hit: bool


class ChainData(TypedDict, total=False):
    """The stages' persisted data (``day0_state.json``'s ``data``), each key set by the stage named:
    ``checkpoint`` and ``run_result`` (ptq; a given checkpoint), ``ptq_summary``, ``behaviour_probe`` and
    ``checkpoint_sha256`` (gate_ptq), ``canary`` and ``serving`` (canary), ``source_sha256`` and
    ``baseline_cache`` (baseline_eval), ``compare`` and ``verbosity`` (their gates' verdicts)."""

    checkpoint: str
    run_result: str
    ptq_summary: PtqSizes
    behaviour_probe: Behaviour | None
    checkpoint_sha256: str
    canary: CanaryVerdict
    serving: Serving
    source_sha256: str
    baseline_cache: BaselineCache
    compare: Verdict
    verbosity: Verdict


@dataclass
class Stage:
    """One stage's record in the state file."""

    name: str
    status: str = "not_run"  # not_run | running | passed | failed | skipped
    seconds: float = 0.0
    detail: str = ""
    failure_class: str | None = None
    outputs: StageOutputs = field(default_factory=lambda: StageOutputs())
    resumed: bool = False

    def to_json(self) -> StageRecord:
        """The record as written to ``day0_state.json`` and ``day0_result.json``."""
        return {
            "name": self.name,
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "detail": self.detail,
            "failure_class": self.failure_class,
            "outputs": self.outputs,
            "resumed": self.resumed,
        }


class GateFailed(Exception):
    """Raised inside a stage to stop the chain with a class, a detail and (when the gate decides it) the
    decision."""

    def __init__(self, cls: FailureClass | None, detail: str, decision: str | None = None):
        super().__init__(detail)
        self.cls = cls
        self.detail = detail
        self.decision = decision


@dataclass
class Context:
    """What a stage works on: the config, the run directory ``out`` (absolute), progress output, the
    persisted ``data`` (the JSON object saved in ``day0_state.json`` after each stage, read back on
    ``--resume``) and the PTQ chain's outcome of this process (``ptq``; not persisted)."""

    config: Day0Config
    out: Path
    say: Callable[[str], None]
    data: ChainData = field(default_factory=lambda: ChainData())
    ptq: PtqOutcome | None = None


StageFn = Callable[[Context, Stage], None]


@dataclass(frozen=True)
class ChainRecord:
    """A finished (or stopped) chain, what the closeout is built from: the config, the run directory, the
    stage records in chain order, the persisted data, the gate failure that stopped it (``None``: every
    gate passed) and the wall time in seconds."""

    config: Day0Config
    out: Path
    stages: tuple[Stage, ...]
    data: ChainData
    failed: GateFailed | None
    seconds: float
