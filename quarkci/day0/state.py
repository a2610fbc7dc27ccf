"""The day-0 chain's types: its inputs (:class:`Day0Config`), one stage's record (:class:`Stage`), the stop
signal a stage raises (:class:`GateFailed`), what a stage works on (:class:`Context`) and a stage's shape
(:data:`StageFn`) and a finished chain (:class:`ChainRecord`). Types only: the stages are in
:mod:`quarkci.day0.stages`, the loop in :mod:`quarkci.day0.conductor`, the decision in
:mod:`quarkci.day0.decision`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quarkci.day0.canary import DEFAULT_HEALTH_TIMEOUT
from quarkci.day0.suite import Suite
from quarkci.day0.vllm_env import VllmEnv
from quarkci.gates import compare, verbosity
from quarkci.gates.failure_class import FailureClass

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


@dataclass
class Stage:
    """One stage's record in the state file."""

    name: str
    status: str = "not_run"  # not_run | running | passed | failed | skipped
    seconds: float = 0.0
    detail: str = ""
    failure_class: str | None = None
    outputs: dict[str, Any] = field(default_factory=dict)
    resumed: bool = False

    def to_json(self) -> dict[str, Any]:
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
    data: dict[str, Any] = field(default_factory=dict)
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
    data: dict[str, Any]
    failed: GateFailed | None
    seconds: float
