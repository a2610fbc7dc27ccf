"""One lm-eval run -> an eval result document (the ``run``/``compare``/``verbosity`` gates' input).

``lm_eval.simple_evaluate`` (lm-eval 0.4.x API, called by :mod:`quarkci.day0.lm_eval_driver`) with backend
``hf`` in this process (``pretrained=DIR,device=cpu,dtype=float32``; lm-eval loads the tokenizer from the
directory, since ``add_bos_token`` is not applied to a tokenizer object passed in), or ``local-completions``
against the vLLM server that serves the model (``--server vllm``), run in the vLLM environment, which has
``lm-eval[api]`` (a subprocess: ``EvalSpec.python``). The endpoint requests are tokenized here with the
model's own tokenizer and the same ``add_bos_token=True`` as the hf backend, sent as token ids, so both
backends score the same token sequences; both sides of a comparison use the same backend and parameters.
Local tasks load through ``TaskManager(include_path=...)``; everything offline (``HF_*_OFFLINE=1``).

Result shape (see :mod:`quarkci.gates.run`)::

    {"tasks": {task: {"metric", "score", "stderr", "samples", "expected_samples", "failed_requests",
                      "version", "n_shot", "output_type", "generation_kwargs"}},
     "verbosity": {generate_task: [{"samples", "mean_completion_tokens"}]},
     "config": {result_format, backend, model_path, tasks, task_config_hash, lm_eval_version, sampling,
                batch_size, dtype},
     "seconds": float, "error": null | {"failure_class", "message"}}

``score``/``stderr`` are the primary metric's mean and standard error ``sqrt(var / n)`` (sample
variance; lm-eval's ``mean_stderr``), recomputed from the logged per-sample values so that they do not
depend on lm-eval's bootstrap settings; ``expected_samples`` is the task's document count.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quarkci.core.documents import load_document
from quarkci.core.errors import BadInputError
from quarkci.day0 import lm_eval_driver
from quarkci.day0.shapes import EvalConfig, EvalError, EvalResult, EvalTask, ServerFacts, VerbosityRun
from quarkci.day0.suite import Suite
from quarkci.gates.failure_class import FailureClass

# 2: tasks carry version, n_shot, output_type and generation_kwargs (the compare gate's parity fields); a
# baseline cached in format 1 misses the cache (the format is part of the hashed config)
RESULT_FORMAT = 2
OFFLINE_ENV = lm_eval_driver.OFFLINE_ENV
BATCH_SIZE = 64
PROGRESS_EVERY = 15.0


@dataclass(frozen=True)
class EvalSpec:
    """What to evaluate and how: the same spec (bar the model path) on both sides is config parity.

    ``backend``: ``hf`` or ``local-completions`` (then ``base_url`` is the server's
    ``/v1/completions`` URL, ``served_name`` the model name it serves, ``max_length`` its
    ``--max-model-len``, ``python`` the interpreter of the vLLM environment lm-eval runs in, ``server``
    the server's facts recorded in the config and ``client_lm_eval`` that environment's lm-eval
    version).
    """

    backend: str = "hf"
    device: str = "cpu"
    dtype: str = "float32"
    batch_size: int = BATCH_SIZE
    num_fewshot: int | None = None
    seed: int = 0
    base_url: str | None = None
    served_name: str | None = None
    max_length: int | None = None
    python: str | None = None
    server: ServerFacts | None = None
    client_lm_eval: str | None = None


def lm_eval_version() -> str:
    """The installed lm-eval version (``importlib.metadata``), or ``"missing"``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lm_eval")
    except PackageNotFoundError:
        return "missing"


def eval_config(model_path: str, suite: Suite, spec: EvalSpec) -> EvalConfig:
    """The eval configuration recorded in the result (and hashed into the baseline cache key); an
    endpoint eval adds ``server`` (the serving stack and its parameters) and ``max_length``."""
    config: EvalConfig = {
        "result_format": RESULT_FORMAT,
        "backend": spec.backend,
        "model_path": model_path,
        "served_name": spec.served_name,
        "tasks": list(suite.tasks),
        "task_config_hash": suite.config_hash,
        "lm_eval_version": spec.client_lm_eval or lm_eval_version(),
        "sampling": {
            "num_fewshot": spec.num_fewshot,
            "seed": spec.seed,
            "generation": "task defaults (greedy)",
        },
        "batch_size": spec.batch_size,
        "dtype": spec.dtype,
        "device": spec.device,
    }
    if spec.backend != "hf":
        config["server"] = spec.server
        config["max_length"] = spec.max_length
    return config


def _model_args(model_path: str, spec: EvalSpec) -> str:
    if spec.backend == "hf":
        return f"pretrained={model_path},device={spec.device},dtype={spec.dtype},add_bos_token=True"
    args = (
        f"model={spec.served_name or model_path},base_url={spec.base_url},tokenizer={model_path},"
        "tokenizer_backend=huggingface,tokenized_requests=True,add_bos_token=True,num_concurrent=1,max_retries=3"
    )
    return args + (f",max_length={spec.max_length}" if spec.max_length else "")


def _stderr(values: list[float]) -> float | None:
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _metric_of(task_results: Mapping[str, object], preferred: str | None) -> str | None:
    names = [k.split(",")[0] for k in task_results if "," in k and "_stderr" not in k]
    if preferred in names:
        return preferred
    for common in ("acc", "exact_match", "acc_norm"):
        if common in names:
            return common
    return names[0] if names else None


def _token_counter(model_path: str) -> Callable[[str], int]:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_path)
    return lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])


def summarize(
    raw: dict[str, Any], suite: Suite, count_tokens: Callable[[str], int]
) -> tuple[dict[str, EvalTask], dict[str, list[VerbosityRun]]]:
    """``(tasks, verbosity)`` sections from ``simple_evaluate``'s return value (``log_samples=True``):
    ``raw`` is lm-eval's own results dict as it returns it (open-shaped: ``results``, ``samples``,
    ``n-samples``, ``versions``, ``n-shot``, ``configs`` per task)."""
    tasks: dict[str, EvalTask] = {}
    verbosity: dict[str, list[VerbosityRun]] = {}
    samples = raw.get("samples") or {}
    n_samples = raw.get("n-samples") or {}
    versions, n_shot, configs = raw.get("versions") or {}, raw.get("n-shot") or {}, raw.get("configs") or {}
    for task, results in (raw.get("results") or {}).items():
        task_config: Mapping[str, object] = configs[task] if isinstance(configs.get(task), dict) else {}
        metric = _metric_of(results, suite.metrics.get(task))
        logged = samples.get(task) or []
        values = [float(s[metric]) for s in logged if metric and isinstance(s.get(metric), int | float)]
        score = sum(values) / len(values) if values else results.get(f"{metric},none")
        expected = (n_samples.get(task) or {}).get("original", len(logged))
        tasks[task] = {
            "metric": metric,
            "score": score,
            "stderr": _stderr(values),
            "samples": len(logged),
            "expected_samples": expected,
            "failed_requests": 0,
            "version": versions.get(task),
            "n_shot": n_shot.get(task, task_config.get("num_fewshot")),
            "output_type": task_config.get("output_type"),
            "generation_kwargs": task_config.get("generation_kwargs"),
        }
        is_generate = task in suite.generate_tasks or any(
            s.get("arguments")
            and isinstance(s["arguments"][0][-1], dict)
            and "until" in s["arguments"][0][-1]
            for s in logged[:1]
        )
        if is_generate and logged:
            counts = [count_tokens(str(s["resps"][0][0])) for s in logged if s.get("resps")]
            verbosity[task] = [{"samples": len(counts), "mean_completion_tokens": sum(counts) / len(counts)}]
    return tasks, verbosity


def _request(model_path: str, suite: Suite, spec: EvalSpec) -> lm_eval_driver.EvalRequest:
    return {
        "model": spec.backend,
        "model_args": _model_args(model_path, spec),
        "tasks": list(suite.tasks),
        "num_fewshot": spec.num_fewshot,
        "batch_size": spec.batch_size,
        "include_path": str(suite.include_path) if suite.include_path else None,
        "seed": spec.seed,
    }


def _run_elsewhere(
    python: str, request: lm_eval_driver.EvalRequest, log: Path | None, emit: Callable[[str], None]
) -> Mapping[str, object]:
    """The driver under ``python`` (isolated: ``-I``, no ``PYTHONPATH``), its output to ``log``; a
    progress line every :data:`PROGRESS_EVERY` seconds. Returns the driver's result document
    (:class:`~quarkci.day0.lm_eval_driver.DriverResult`, read back from another interpreter: narrowed
    by the caller). Raises ``RuntimeError`` when the driver failed or wrote no JSON object."""
    with tempfile.TemporaryDirectory(prefix="quarkci-eval-") as tmp:
        req, res = Path(tmp) / "request.json", Path(tmp) / "result.json"
        req.write_text(json.dumps(request), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env.update(OFFLINE_ENV)
        out_path = log or Path(tmp) / "driver.log"
        out_path.parent.mkdir(parents=True, exist_ok=True)
        started = last = time.perf_counter()
        with open(out_path, "wb") as out:
            proc = subprocess.Popen(
                [python, "-I", str(Path(lm_eval_driver.__file__)), str(req), str(res)],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
            )
            while proc.poll() is None:
                time.sleep(0.5)
                if time.perf_counter() - last > PROGRESS_EVERY:
                    emit(f"eval: lm-eval running ({time.perf_counter() - started:.0f}s, log {out_path})")
                    last = time.perf_counter()
        if proc.returncode != 0 or not res.is_file():
            tail = out_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"lm-eval exited with code {proc.returncode}: {' | '.join(tail)[:500]}")
        try:  # the one document reader: bounded, huge integers refused
            result = load_document(res)
        except BadInputError as exc:
            raise RuntimeError(f"lm-eval results unreadable: {exc}") from None
        if not isinstance(result, dict):
            raise RuntimeError(f"{res}: lm-eval wrote no JSON object")
        return result


def run_eval(
    model_path: str,
    suite: Suite,
    spec: EvalSpec,
    say: Callable[[str], None] | None = None,
    log: Path | None = None,
) -> EvalResult:
    """Evaluate ``model_path`` on ``suite`` with lm-eval; returns an eval result document.

    In this process, or (``spec.python``) in that interpreter through :mod:`quarkci.day0.lm_eval_driver`,
    its output to ``log``. Upstream failures are values: a connection error is ``INFRA_TRANSIENT``,
    anything else raised by lm-eval ``UNKNOWN``, recorded in ``error`` (the run gate fails on it).
    Raises ``ImportError`` only when lm-eval is not installed here.
    """
    emit = say or (lambda msg: print(f"quarkci: {msg}", file=sys.stderr, flush=True))
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    config = eval_config(model_path, suite, spec)
    document: EvalResult = {"tasks": {}, "verbosity": {}, "config": config, "seconds": 0.0, "error": None}
    started = time.perf_counter()
    where = f" at {spec.base_url}" if spec.base_url else ""
    emit(f"eval: {spec.backend}{where} on {model_path}: {', '.join(suite.tasks)} ...")
    request = _request(model_path, suite, spec)
    if not spec.python:
        import lm_eval  # noqa: F401 - ImportError here when lm-eval is missing (the caller's setup gate)
    try:
        if spec.python:
            outcome = _run_elsewhere(spec.python, request, log, emit)
            error = outcome.get("error")
            if isinstance(error, dict) and error:
                cls = FailureClass.INFRA_TRANSIENT if error.get("transient") else FailureClass.UNKNOWN
                document["error"] = EvalError(
                    failure_class=cls.value, message=str(error.get("message"))[:1000]
                )
                emit(f"eval: failed [{cls.value}]: {str(error.get('message'))[:200]}")
            raw: object = outcome.get("raw")
        else:
            raw = lm_eval_driver.evaluate(request)
        if document["error"] is None:
            if not isinstance(raw, dict):
                raise RuntimeError("lm-eval returned no results")
            tasks, verbosity = summarize(raw, suite, _token_counter(model_path))
            document["tasks"], document["verbosity"] = tasks, verbosity
    except Exception as exc:  # an upstream failure is a value for the run gate, not a crash
        cls = FailureClass.INFRA_TRANSIENT if lm_eval_driver.is_transient(exc) else FailureClass.UNKNOWN
        document["error"] = EvalError(failure_class=cls.value, message=f"{type(exc).__name__}: {exc}"[:1000])
        emit(f"eval: failed [{cls.value}]: {type(exc).__name__}: {str(exc)[:200]}")
    document["seconds"] = round(time.perf_counter() - started, 3)
    emit(f"eval: done in {document['seconds']:.1f}s")
    return document
