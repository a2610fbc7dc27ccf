"""The day-0 conductor: source model -> publish decision, one stage and its gate at a time.

Chain (never advancing past a failed gate)::

    setup (SYSTEMIC) -> ptq (quarkci.ptq.chain.run_ptq: intake, plan, manifest, run, validate, gate)
    -> gate_ptq (the chain's verdict) -> canary (CHECKPOINT_NOT_SERVABLE) -> baseline_eval (+ run gate;
    cached) -> candidate_eval (+ run gate) -> compare -> verbosity -> closeout

The stages are ``(name, callable)`` pairs (:func:`quarkci.day0.stages.default_stages`, in the order of
:data:`STAGES`); a test passes its own. Everything runs in this process (``quark.torch`` imported once),
except the servers, which are child processes by design (with ``server="vllm"`` the canary serves the
as-exported checkpoint with vLLM and both evals run lm-eval's ``local-completions`` against a vLLM server
on the model evaluated, in the vLLM environment; see :mod:`quarkci.day0.stages`). Each stage persists its
outputs under
``out`` and its record in ``out/day0_state.json`` (status ``running`` while it works, then ``passed`` /
``failed``). With ``resume`` a ``passed`` stage is not redone, provided its recorded outputs are still
there and the candidate checkpoint still has the content hash the PTQ gate saw; compare and verbosity
(pure, cheap) always re-run.

The decision of a stopped chain is :func:`quarkci.day0.decision.decision_for`'s; the closeout document
:mod:`quarkci.day0.result`'s.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypedDict, cast

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import dump_json
from quarkci.day0.hashing import directory_sha256
from quarkci.day0.result import RESULT_FILE, Day0Result, closeout
from quarkci.day0.stages import default_stages
from quarkci.day0.state import (
    ChainData,
    ChainRecord,
    Context,
    Day0Config,
    GateFailed,
    Stage,
    StageFn,
    StageOutputs,
)

STATE_FILE = "day0_state.json"
STAGES = ("setup", "ptq", "gate_ptq", "canary", "baseline_eval", "candidate_eval", "compare", "verbosity")
ALWAYS_RERUN = frozenset({"compare", "verbosity"})
REDO_ON_NEW_CHECKPOINT = STAGES[STAGES.index("gate_ptq") :]


class ChainInputs(TypedDict):
    """The inputs a run is resumed against (``day0_state.json``'s ``inputs``): another value starts over."""

    model: str
    scheme: str
    suite: str
    tasks: list[str]
    checkpoint: str | None
    kv_cache: str | None
    server: str


class Conductor:
    """Runs the chain for one :class:`~quarkci.day0.state.Day0Config`; :meth:`run` returns the closeout
    document. ``stages``: the ``(name, callable)`` pairs to run, named as :data:`STAGES` in that order
    (default :func:`~quarkci.day0.stages.default_stages`); raises ``ValueError`` for another order."""

    def __init__(
        self,
        config: Day0Config,
        say: Callable[[str], None] | None = None,
        stages: Sequence[tuple[str, StageFn]] | None = None,
    ):
        self.steps = list(stages if stages is not None else default_stages())
        if tuple(name for name, _ in self.steps) != STAGES:
            raise ValueError(f"stages must be named {', '.join(STAGES)} in that order")
        self.cfg = config
        self.say = say or (lambda msg: print(f"quarkci: day0: {msg}", file=sys.stderr, flush=True))
        self.out = config.out.resolve()
        self.stages: dict[str, Stage] = {name: Stage(name) for name in STAGES}
        self.context = Context(config=config, out=self.out, say=self.say)

    # --- state ------------------------------------------------------------------------------------
    @property
    def state_path(self) -> Path:
        """``out/day0_state.json``."""
        return self.out / STATE_FILE

    @property
    def data(self) -> ChainData:
        """The persisted data of the stages (:attr:`quarkci.day0.state.Context.data`)."""
        return self.context.data

    def _inputs(self) -> ChainInputs:
        return {
            "model": str(self.cfg.model.resolve()),
            "scheme": self.cfg.scheme,
            "suite": self.cfg.suite.name,
            "tasks": list(self.cfg.suite.tasks),
            "checkpoint": str(self.cfg.checkpoint) if self.cfg.checkpoint else None,
            "kv_cache": self.cfg.kv_cache,
            "server": self.cfg.server,
        }

    def _save(self) -> None:
        state = {
            "inputs": self._inputs(),
            "stages": [s.to_json() for s in self.stages.values()],
            "data": self.data,
        }
        atomic_write_text(self.state_path, dump_json(state))

    def _load_previous(self) -> None:
        if not (self.cfg.resume and self.state_path.is_file()):
            return
        state = json.loads(self.state_path.read_text(encoding="utf-8"))
        if state.get("inputs") != self._inputs():
            self.say("resume: inputs differ from the recorded run; starting over")
            return
        # our own state file, written by _save from these types (not a user's document)
        self.context.data = cast(ChainData, state.get("data") or {})
        for record in state.get("stages") or []:
            if record.get("name") in self.stages and record.get("status") == "passed":
                stage = self.stages[record["name"]]
                stage.status, stage.detail, stage.outputs = (
                    "passed",
                    record["detail"],
                    cast(StageOutputs, record.get("outputs") or {}),
                )
                stage.failure_class, stage.seconds = None, float(record.get("seconds") or 0)
        sha = self.data.get("checkpoint_sha256")
        ckpt = self.data.get("checkpoint")
        if sha and ckpt and (not Path(ckpt).is_dir() or directory_sha256(ckpt) != sha):
            self.say("resume: the candidate checkpoint changed since it was gated; redoing from gate_ptq")
            for name in REDO_ON_NEW_CHECKPOINT:
                self.stages[name] = Stage(name)

    def _done(self, name: str) -> bool:
        stage = self.stages[name]
        if name in ALWAYS_RERUN or stage.status != "passed":
            return False
        files = [v for v in stage.outputs.values() if isinstance(v, str) and v.startswith(str(self.out))]
        return all(Path(f).exists() for f in files)

    # --- the chain --------------------------------------------------------------------------------
    def run(self) -> Day0Result:
        """Run (or resume) the chain; write the closeout; return the ``day0_result`` document."""
        self.out.mkdir(parents=True, exist_ok=True)
        self._load_previous()
        started = time.perf_counter()
        stop: GateFailed | None = None
        for number, (name, step) in enumerate(self.steps, 1):
            where = f"[{number}/{len(STAGES)}] {name}"
            stage = self.stages[name]
            if self._done(name):
                stage.resumed = True
                self.say(f"{where}: passed earlier, not redone (resume)")
                continue
            self.say(f"{where} ...")
            stop = self._run_stage(stage, step)
            self.say(
                f"{where}: {stage.status} in {stage.seconds:.1f}s"
                + (f" [{stage.failure_class}] {stage.detail}" if stage.status == "failed" else "")
            )
            if stop:
                break
        record = ChainRecord(
            config=self.cfg,
            out=self.out,
            stages=tuple(self.stages.values()),
            data=self.data,
            failed=stop,
            seconds=time.perf_counter() - started,
        )
        document = closeout(record)
        self.say(f"closeout: {document['decision']} -> {self.out / RESULT_FILE}")
        self._save()
        return document

    def _run_stage(self, stage: Stage, step: StageFn) -> GateFailed | None:
        """Run one stage, saving the state before and after; the gate failure that stops the chain."""
        stage.status, stage.detail, stage.failure_class, stage.resumed = "running", "", None, False
        self._save()
        failed = None
        t0 = time.perf_counter()
        try:
            step(self.context, stage)
            stage.status = stage.status if stage.status == "skipped" else "passed"
        except GateFailed as exc:
            stage.status, stage.detail = "failed", exc.detail
            stage.failure_class = exc.cls.value if exc.cls else None
            failed = exc
        stage.seconds = time.perf_counter() - t0
        self._save()
        return failed
