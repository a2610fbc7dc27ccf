"""The day-0 stages, one function each: ``(context, stage) -> None``, raising
:class:`~quarkci.day0.state.GateFailed` to stop the chain.

:func:`default_stages` returns them in chain order as ``(name, callable)`` pairs, bound to the upstream
work they call: the one PTQ chain (:func:`quarkci.ptq.chain.run_ptq`), the canary
(:func:`quarkci.day0.canary.run_canary`) and the eval (:func:`quarkci.day0.evaluate.run_eval`). A test
passes its own in their place, or replaces a pair by name.

* ``setup`` (SYSTEMIC): disk, the ML stack (the amd-quark version it runs on is recorded), the declared
  accelerator, the token when posting, and every dataset the suite's tasks load available to the offline
  eval (:mod:`quarkci.day0.availability`).
* ``ptq``: the PTQ chain on the source (``out/ptq``: intake, plan, manifest, run, validate, gate); a failed
  run stops here with the runner's class. Skipped with a given checkpoint.
* ``gate_ptq``: the chain's PTQ-gate verdict; the chain is called for validate and the gate only when this
  process holds no outcome for the checkpoint (a given checkpoint, a resumed run). The behaviour probe's
  figures go to ``data["behaviour_probe"]``; its failure (BEHAVIOUR_PROBE_FAILED) decides REGRESSION.
* ``canary`` (CHECKPOINT_NOT_SERVABLE), ``baseline_eval`` (cached per source hash and eval config),
  ``candidate_eval`` (each with the run gate; INFRA_TRANSIENT retried once, twice is SYSTEMIC),
  ``compare`` and ``verbosity``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import dump_json, load_document
from quarkci.core.errors import BadInputError
from quarkci.day0.canary import known_probe, run_canary
from quarkci.day0.evaluate import EvalSpec, eval_config, run_eval
from quarkci.day0.hashing import baseline_key, directory_sha256
from quarkci.day0.shapes import CanaryVerdict, EvalResult, ServerFacts, Serving
from quarkci.day0.state import Context, GateFailed, Stage, StageFn
from quarkci.day0.suite import Suite
from quarkci.gates import compare as compare_gate
from quarkci.gates import run as run_gate
from quarkci.gates import verbosity as verbosity_gate
from quarkci.gates.failure_class import FailureClass
from quarkci.gates.records import load_record
from quarkci.gates.verdict import Verdict, verdict
from quarkci.ptq.chain import PtqOutcome, PtqRequest, run_ptq
from quarkci.ptq.quark_api import QuarkUnavailable

DISK_MARGIN = 512 * 2**20
PTQ_DIR = "ptq"
GATE_PTQ_FILE = "gate_ptq.json"

ChainFn = Callable[[PtqRequest, Callable[[str], None] | None], PtqOutcome]
CanaryFn = Callable[..., CanaryVerdict]
EvalFn = Callable[[str, Suite, EvalSpec, Callable[[str], None] | None], EvalResult]


def default_stages(
    chain: ChainFn = run_ptq, canary: CanaryFn = run_canary, evaluate: EvalFn = run_eval
) -> list[tuple[str, StageFn]]:
    """The chain's stages in order, bound to ``chain`` (PTQ), ``canary`` and ``evaluate``."""
    return [
        ("setup", setup),
        ("ptq", partial(ptq, chain=chain)),
        ("gate_ptq", partial(gate_ptq, chain=chain)),
        ("canary", partial(serve, canary=canary)),
        ("baseline_eval", partial(baseline_eval, evaluate=evaluate)),
        ("candidate_eval", partial(candidate_eval, evaluate=evaluate)),
        ("compare", compare),
        ("verbosity", verbosity),
    ]


def setup(ctx: Context, stage: Stage) -> None:
    """The setup gate (SYSTEMIC): every problem found, in one detail."""
    cfg = ctx.config
    problems = []
    source_bytes = sum(p.stat().st_size for p in cfg.model.rglob("*") if p.is_file())
    need = 3 * source_bytes + DISK_MARGIN
    free = shutil.disk_usage(ctx.out).free
    if free < need:
        problems.append(
            f"disk: {free / 2**30:.1f} GiB free under {ctx.out}, need {need / 2**30:.1f} GiB "
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
    elif cfg.accelerator != "cpu":
        problems += _accelerator_problems(cfg.accelerator)
    if cfg.require_token and not (os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")):
        problems.append("token: posting was asked but neither GITHUB_TOKEN nor GH_TOKEN is set")
    stage.outputs = {
        "source_bytes": source_bytes,
        "disk_free_bytes": free,
        "accelerator": cfg.accelerator,
        # the release the chain runs on (the workflow may have installed a new one over the locked one)
        "amd_quark": installed_version("amd-quark"),
    }
    datasets_note = ""
    if not missing and importlib.util.find_spec("datasets") is not None:
        datasets_note = _datasets(ctx, stage, problems)
    if problems:
        raise GateFailed(FailureClass.SYSTEMIC, "; ".join(problems), "SYSTEMIC")
    stage.detail = f"{cfg.accelerator}, {free / 2**30:.1f} GiB free{datasets_note}"


def installed_version(distribution: str) -> str | None:
    """The version of ``distribution`` this interpreter would import (``importlib.metadata``, first match on
    ``sys.path``), or None when it is not installed. Reads metadata only; nothing is imported."""
    import importlib.metadata

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def gpu_backend() -> str:
    """The GPU backend the installed torch was built for: ``"rocm"`` for a HIP build, else ``"cuda"``
    (``day0 run --accelerator gpu``; whether a device is visible is the setup gate's check). Imports torch;
    without it, ``"cuda"`` (the setup gate then reports the missing ML stack, SYSTEMIC)."""
    try:
        import torch
    except ImportError:
        return "cuda"
    return "rocm" if torch.version.hip else "cuda"


def _accelerator_problems(accelerator: str) -> list[str]:
    import torch

    visible = torch.cuda.is_available() and (torch.version.hip is not None) == (accelerator == "rocm")
    if visible:
        return []
    return [
        f"accelerator: the runner declares {accelerator} but torch sees none "
        f"(torch {torch.__version__}, hip {torch.version.hip})"
    ]


def _datasets(ctx: Context, stage: Stage, problems: list[str]) -> str:
    """Check the suite's datasets; append a problem when one is unavailable; return the detail's note."""
    from quarkci.day0.availability import check_suite

    suite = ctx.config.suite
    ctx.say(f"setup: checking the datasets of {', '.join(suite.tasks)} ...")
    availability = check_suite(suite)
    stage.outputs["datasets"] = availability.to_json()
    if availability.unavailable:
        what = "; ".join(f"{r.task}: {r} ({why})" for r, why in availability.unavailable[:5])
        more = len(availability.unavailable) - 5
        problems.append(
            f"dataset: {len(availability.unavailable)} of {availability.checked} unavailable to the "
            f"offline eval: {what}{f' (+{more} more)' if more > 0 else ''}; fill the datasets cache "
            "first (the evals run with HF_DATASETS_OFFLINE=1 unless the runner sets it)"
        )
    not_checkable = (
        f" ({len(availability.not_checked)} task(s) not checkable: {', '.join(availability.not_checked[:5])})"
        if availability.not_checked
        else ""
    )
    return f", {availability.checked} dataset(s) available{not_checkable}"


def _run_chain(ctx: Context, chain: ChainFn, request: PtqRequest) -> PtqOutcome:
    """``chain(request)``; an ML stack that cannot be imported is SYSTEMIC."""
    try:
        return chain(request, ctx.say)
    except QuarkUnavailable as exc:
        raise GateFailed(FailureClass.SYSTEMIC, f"{exc} (install the ML extra)", "SYSTEMIC") from None


def ptq(ctx: Context, stage: Stage, *, chain: ChainFn = run_ptq) -> None:
    """The PTQ chain on the source model (skipped with a given checkpoint); a failed run stops the chain
    with the runner's class."""
    cfg = ctx.config
    if cfg.checkpoint is not None:
        stage.status, stage.detail = "skipped", f"evaluating the given checkpoint {cfg.checkpoint}"
        ctx.data["checkpoint"] = str(cfg.checkpoint.resolve())
        return
    root = ctx.out / PTQ_DIR
    export = root / "model"
    if export.exists():  # a run killed mid-PTQ: its partial export is not a result
        shutil.rmtree(export)
    request = PtqRequest(
        model=cfg.model, scheme=cfg.scheme, out=root, kv_cache=cfg.kv_cache, gate_output=root / GATE_PTQ_FILE
    )
    outcome = ctx.ptq = _run_chain(ctx, chain, request)
    for warning in outcome.warnings:
        ctx.say(f"ptq: warning: {warning}")
    ctx.data["checkpoint"] = str(outcome.checkpoint)
    ctx.data["run_result"] = str(outcome.run_result)
    stage.outputs = {
        "manifest": str(outcome.manifest),
        "run_result": str(outcome.run_result),
        "checkpoint": str(outcome.checkpoint),
    }
    run = outcome.run
    assert run is not None  # a chain call without a checkpoint runs PTQ
    if run.status != "succeeded":
        cls = FailureClass(run.failure_class or FailureClass.MODEL_UNSUPPORTED.value)
        raise GateFailed(cls, f"ptq run failed at {run.stage}: {run.message}")
    stage.detail = f"{cfg.scheme} exported in {run.timings.get('total', 0):.1f}s"


def gate_ptq(ctx: Context, stage: Stage, *, chain: ChainFn = run_ptq) -> None:
    """The PTQ gate's verdict on the checkpoint (validate and gate through the chain when this process
    has no outcome for it); records the sizes and, on a pass, the checkpoint's content hash."""
    cfg = ctx.config
    checkpoint = Path(ctx.data["checkpoint"])
    outcome = ctx.ptq
    if outcome is None or outcome.checkpoint != checkpoint:
        root = ctx.out / PTQ_DIR
        recorded = ctx.data.get("run_result")
        request = PtqRequest(
            model=cfg.model,
            scheme=cfg.scheme,
            out=root,
            kv_cache=cfg.kv_cache,
            checkpoint=checkpoint,
            run_result=Path(recorded) if recorded else None,
            gate_output=root / GATE_PTQ_FILE,
        )
        outcome = ctx.ptq = _run_chain(ctx, chain, request)
    summary, verdict = outcome.validation, outcome.verdict
    ctx.data["ptq_summary"] = {
        "source_bytes": summary["source"]["bytes"],
        "output_bytes": summary["output"]["bytes"],
        "size_ratio": summary["size_ratio"],
        "task_accuracy": summary["reload"].get("task_accuracy"),
        "source_task_accuracy": _accuracy(summary["reload"].get("source_task_accuracy")),
    }
    ctx.data["behaviour_probe"] = verdict.get("behaviour")
    stage.outputs = {"summary": str(outcome.summary), "verdict": str(outcome.verdict_file)}
    if not verdict["pass"]:
        raise GateFailed(
            FailureClass(verdict["failure_class"] or FailureClass.UNKNOWN.value), verdict["detail"]
        )
    ctx.data["checkpoint_sha256"] = directory_sha256(checkpoint)
    stage.detail = verdict["detail"]


def serve(ctx: Context, stage: Stage, *, canary: CanaryFn = run_canary) -> None:
    """The serving canary on the checkpoint as exported, asked the source's known question; with
    ``server="vllm"`` served by vLLM from its own environment (``data["serving"]`` records which server
    judged, the eval backend that follows and any fallback to the transformers server)."""
    cfg = ctx.config
    verdict = canary(
        ctx.data["checkpoint"],
        ctx.out / "canary",
        server=cfg.server,
        health_timeout=cfg.health_timeout,
        probe=known_probe(cfg.model),
        say=ctx.say,
        vllm=cfg.vllm,
    )
    path = atomic_write_text(ctx.out / "canary" / "canary.json", dump_json(verdict))
    ctx.data["canary"] = verdict
    endpoint = verdict["server"] == "vllm"
    ctx.data["serving"] = Serving(
        requested=cfg.server,
        canary=verdict["server"],
        eval_backend="local-completions" if endpoint else cfg.backend,
        fallback=verdict.get("fallback"),
        vllm=cfg.vllm.to_json() if cfg.vllm is not None and endpoint else None,
    )
    stage.outputs = {"verdict": str(path), "server_log": verdict["log"]}
    if not verdict["pass"]:
        raise GateFailed(FailureClass.CHECKPOINT_NOT_SERVABLE, verdict["detail"])
    stage.detail = verdict["detail"]


def _spec(ctx: Context, model_path: str) -> EvalSpec:
    """The eval spec of both sides (the endpoint's URL and served name are set per server)."""
    from quarkci.day0.vllm_env import max_model_len

    device = "cpu" if ctx.config.accelerator == "cpu" else "cuda"
    serving = ctx.data.get("serving")
    env = ctx.config.vllm
    if (serving.get("eval_backend") if serving else None) != "local-completions" or env is None:
        return EvalSpec(backend=ctx.config.backend, device=device)
    length = max_model_len(model_path)
    server: ServerFacts = {
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


def _run_one(ctx: Context, side: str, model_path: str, evaluate: EvalFn) -> EvalResult:
    """One eval of ``model_path``: in this process (hf), or against a vLLM server started on it for the
    eval alone (its log ``eval/server-<side>.log``). A server that never becomes healthy is
    DEPLOYMENT_HEALTH_FAILED."""
    from dataclasses import replace

    from quarkci.day0 import serving

    spec = _spec(ctx, model_path)
    if spec.backend != "local-completions":
        return evaluate(model_path, ctx.config.suite, spec, ctx.say)
    log = ctx.out / "eval" / f"server-{side}.log"
    try:
        with serving.serving(
            "vllm",
            model_path,
            log,
            ctx.config.health_timeout,
            ctx.say,
            vllm=ctx.config.vllm,
            what=f"{side} eval",
            served_name=side,
        ) as running:
            spec = replace(spec, base_url=f"{running.base}/v1/completions", served_name=side)
            return run_eval(
                model_path, ctx.config.suite, spec, say=ctx.say, log=ctx.out / "eval" / f"lm_eval-{side}.log"
            )
    except serving.ServeFailed as failed:
        raise GateFailed(
            FailureClass.DEPLOYMENT_HEALTH_FAILED,
            f"{side} eval: the vLLM server on {model_path} did not come up: {failed.detail} (log {log})",
        ) from None


def _eval(ctx: Context, stage: Stage, side: str, model_path: str, evaluate: EvalFn) -> EvalResult:
    """One side's eval and its run gate (INFRA_TRANSIENT retried once; twice is SYSTEMIC)."""
    for attempt in (1, 2):
        result = _run_one(ctx, side, model_path, evaluate)
        verdict = run_gate.evaluate(result)
        if verdict["failure_class"] != FailureClass.INFRA_TRANSIENT.value or attempt == 2:
            break
        ctx.say(f"{side} eval: INFRA_TRANSIENT ({verdict['detail']}); retrying once")
    eval_path = atomic_write_text(ctx.out / "eval" / f"{side}.json", dump_json(result))
    verdict_path = atomic_write_text(ctx.out / "eval" / f"gate_run_{side}.json", dump_json(verdict))
    stage.outputs.update({"results": str(eval_path), "gate_run": str(verdict_path)})
    if not verdict["pass"]:
        cls = FailureClass(verdict["failure_class"] or FailureClass.UNKNOWN.value)
        if cls is FailureClass.INFRA_TRANSIENT:
            raise GateFailed(FailureClass.SYSTEMIC, f"INFRA_TRANSIENT twice: {verdict['detail']}", "SYSTEMIC")
        raise GateFailed(cls, f"{side} eval: {verdict['detail']}")
    return result


def _cached_result(cache: Path) -> Mapping[str, object] | None:
    """A cached baseline eval, or ``None`` when there is none or it is unreadable (a corrupt or foreign
    file in the cache is a miss: the baseline is evaluated again and the entry rewritten). Not trusted as
    an :class:`~quarkci.day0.shapes.EvalResult`: the run gate judges it before it is used."""
    if not cache.is_file():
        return None
    try:
        result = load_document(cache)
    except BadInputError:
        return None
    return result if isinstance(result, dict) else None


def _cache_path(ctx: Context, key: str) -> Path:
    root = ctx.config.cache_dir or Path(os.environ.get("QUARKCI_CACHE", Path.home() / ".cache" / "quarkci"))
    return Path(root) / "day0-baselines" / f"{key}.json"


def baseline_eval(ctx: Context, stage: Stage, *, evaluate: EvalFn = run_eval) -> None:
    """The source's eval, from the baseline cache when a complete one is there (keyed by the source's
    content hash and the eval config), else run and cached."""
    cfg = ctx.config
    source = str(cfg.model.resolve())
    source_sha = directory_sha256(source)
    key = baseline_key(source_sha, eval_config(source, cfg.suite, _spec(ctx, source)))
    cache = _cache_path(ctx, key)
    ctx.data["source_sha256"] = source_sha
    ctx.data["baseline_cache"] = {"key": key, "path": str(cache), "hit": False}
    result = _cached_result(cache)
    if result is not None and run_gate.evaluate(result)["pass"]:
        ctx.data["baseline_cache"]["hit"] = True
        path = atomic_write_text(ctx.out / "eval" / "baseline.json", dump_json(result))
        stage.outputs = {"results": str(path), "cache": str(cache)}
        stage.detail = f"baseline cache hit ({key[:12]}): baseline eval skipped"
        ctx.say(stage.detail)
        return
    result = _eval(ctx, stage, "baseline", source, evaluate)
    cache.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(cache, dump_json(result))
    stage.outputs["cache"] = str(cache)
    stage.detail = f"{len(result['tasks'])} task(s) in {result['seconds']:.1f}s; cached as {key[:12]}"


def candidate_eval(ctx: Context, stage: Stage, *, evaluate: EvalFn = run_eval) -> None:
    """The checkpoint's eval, run the same way as the baseline's."""
    result = _eval(ctx, stage, "candidate", ctx.data["checkpoint"], evaluate)
    stage.detail = f"{len(result['tasks'])} task(s) in {result['seconds']:.1f}s"


def compare(ctx: Context, stage: Stage) -> None:
    """The compare gate on the two evals' records; a failure carries the gate's decision."""
    (_, baseline), (_, candidate) = (
        load_record(ctx.out / "eval" / f"{side}.json") for side in ("baseline", "candidate")
    )
    verdict = compare_gate.evaluate(baseline, candidate, threshold=ctx.config.threshold)
    path = atomic_write_text(ctx.out / "gates" / "compare.json", dump_json(verdict))
    stage.outputs = {"verdict": str(path)}
    ctx.data["compare"] = verdict
    if not verdict["pass"]:
        cls = FailureClass(verdict["failure_class"]) if verdict["failure_class"] else None
        raise GateFailed(cls, verdict["detail"], verdict.get("decision"))
    stage.detail = verdict["detail"]


def verbosity(ctx: Context, stage: Stage) -> None:
    """The verbosity gate; a suite without a generate task passes as "not measured"."""
    cfg = ctx.config
    baseline, candidate = (
        load_document(ctx.out / "eval" / f"{side}.json") for side in ("baseline", "candidate")
    )
    judged: Verdict = verbosity_gate.evaluate(baseline, candidate, threshold=cfg.verbosity_threshold)
    if judged.get("input_error") and not cfg.suite.generate_tasks and not baseline.get("verbosity"):
        judged = verdict(
            verbosity_gate.ID,
            True,
            None,
            "not measured: the suite has no generate task",
            not_measured=[],
            tasks=[],
            threshold=cfg.verbosity_threshold,
        )
    path = atomic_write_text(ctx.out / "gates" / "verbosity.json", dump_json(judged))
    stage.outputs = {"verdict": str(path)}
    ctx.data["verbosity"] = judged
    if not judged["pass"]:
        cls = FailureClass(judged["failure_class"] or FailureClass.UNKNOWN.value)
        raise GateFailed(
            cls, judged["detail"], "REGRESSION" if cls is FailureClass.VERBOSITY_EXCEEDED else None
        )
    stage.detail = judged["detail"]


def _accuracy(value: object) -> float | None:
    """A demo-task accuracy copied from the task file: the number as written, else None."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None
