"""One normalised eval record per run: what decides whether two evals can be compared, and their scores.

Three input shapes are read into one :class:`EvalRecord` (:func:`to_record`; :func:`load_record` reads the
file through :func:`quarkci.core.documents.load_document`, the one bounded loader):

``lm-eval`` (a results JSON of lm-eval 0.4, recognised by its ``results`` block)
    per task (``results``, ``versions``, ``n-shot``, ``n-samples``, ``configs.<task>``, ``task_hashes``):
    every ``"<metric>,<filter>"`` score with its ``"<metric>_stderr,<filter>"`` (the string ``"N/A"`` when
    bootstrapping was off: no standard error), the task version (``versions``, else
    ``configs.<task>.metadata.version``), the n-shot (``n-shot``, else ``configs.<task>.num_fewshot``),
    ``output_type``, ``generation_kwargs``, the effective and original sample counts and the prompt hash.
    Run settings: ``config.model`` (the backend), ``config.model_args`` (a ``k=v,...`` string or an
    object) without :data:`MODEL_IDENTITY_ARGS`, ``batch_size``, ``device``, ``limit``, ``gen_kwargs``,
    the four seeds, and the top-level ``chat_template_sha`` (or the template, hashed),
    ``fewshot_as_multiturn``, ``system_instruction_sha``, ``max_length`` and ``lm_eval_version``. Not
    compared: what identifies the model (``model_name``, ``config.model_sha``, ``model_revision``,
    ``model_num_parameters``, ``model_dtype``, tokenizer facts: the PTQ gate compares the tokenizers),
    ``bootstrap_iters`` (it decides only whether a standard error exists, judged per task), timing, dates
    and environment dumps.
``quarkci`` (the eval result of :mod:`quarkci.day0.evaluate`, recognised by its ``tasks`` object)
    per task its ``metric``, ``score``, ``stderr``, ``samples``, ``expected_samples`` and, when present,
    ``version``, ``n_shot``, ``output_type``, ``generation_kwargs``; settings: every ``config`` key but
    :data:`QUARKCI_IDENTITY` (nested objects are compared key by key).
``scores`` (a bare ``{task: score}`` map, or ``{task: {"score", "stderr"}}``)
    no settings; a score without a standard error can never pass the compare gate.

Parity (:func:`differences`): two records may differ only in the model. Batch size is compared only where
a task generates (``output_type: generate_until``, or a quarkci result with completion-token counts):
batched greedy generation pads prompts and can change the text, while loglikelihood scores do not depend
on it. The metric compared is one both sides report (:func:`common_metric`), named in the verdict; a
pair with no metric in common is a difference.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT_LM_EVAL = "lm-eval"
FORMAT_QUARKCI = "quarkci"
FORMAT_SCORES = "scores"
# lm-eval model_args keys that name the model itself (path, served name, endpoint, adapter, revision): the
# one thing a baseline and a candidate differ in
MODEL_IDENTITY_ARGS = frozenset(
    {"pretrained", "model", "tokenizer", "base_url", "revision", "peft", "delta", "served_name", "model_path"}
)
# quarkci eval-config keys that name the model (its directory, served name, content hash)
QUARKCI_IDENTITY = frozenset({"model_path", "pretrained", "served_name", "checkpoint_sha256", "model_name"})
# the first metric of this list that both sides report is compared; then any other common metric, sorted
METRIC_PREFERENCE = ("acc_norm", "acc", "exact_match", "f1", "em")
TRUNCATION_TOLERANCE = 0.01  # a run whose effective samples fall more than 1 % below the task's size
GENERATE = "generate_until"
_SEEDS = ("random_seed", "numpy_seed", "torch_seed", "fewshot_seed")


@dataclass(frozen=True)
class Metric:
    """One reported metric: ``score`` as found (judged by the gate), ``stderr`` a finite number or
    ``None`` (``stderr_raw`` keeps what the file said, e.g. ``"N/A"``)."""

    score: Any
    stderr: float | None
    stderr_raw: Any


@dataclass(frozen=True)
class TaskRecord:
    """What one task of one run reports and how it was run (values normalised for comparison)."""

    task: str
    metrics: dict[str, Metric]
    version: Any = None
    n_shot: Any = None
    output_type: str | None = None
    generation_kwargs: Any = None
    samples: int | None = None  # effective
    original_samples: int | None = None  # the task's size
    prompt_hash: str | None = None

    @property
    def truncated(self) -> bool:
        """True when the effective samples fall more than :data:`TRUNCATION_TOLERANCE` below the task's
        size (lm-eval's ``limit`` keeps the first documents, so such a score is not the task's score)."""
        if self.samples is None or not self.original_samples:
            return False
        return self.samples < (1 - TRUNCATION_TOLERANCE) * self.original_samples


@dataclass(frozen=True)
class EvalRecord:
    """One run: its format, its tasks, and the run settings parity compares (flat, dotted keys)."""

    format: str
    tasks: dict[str, TaskRecord]
    settings: dict[str, object]
    generates: bool = False

    @property
    def limit(self) -> object:
        """lm-eval's ``limit`` (documents per task, or a fraction), ``None`` when not set."""
        return self.settings.get("limit")


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _norm(value: object) -> object:
    """A value in a form that compares equal across spellings: numeric strings as numbers (``1`` ==
    ``1.0`` == ``"1.0"``), ``"True"``/``"false"`` as booleans, containers recursively."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        for kind in (int, float):
            try:
                number = kind(text)
            except ValueError:
                continue
            return number if math.isfinite(number) else text
        return text
    if isinstance(value, dict):
        return {str(k): _norm(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_norm(v) for v in value]
    return str(value)


def parse_args_string(value: object) -> dict[str, object]:
    """lm-eval's ``k=v,k2=v2`` argument string (or an object) as a dict; ``None`` or ``""`` -> ``{}``; a
    value of another type -> ``{"": value}`` (compared as is)."""
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    if not isinstance(value, str):
        return {"": value}
    out: dict[str, object] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        key, sep, val = part.partition("=")
        out[key.strip()] = val.strip() if sep else True
    return out


def _flatten(prefix: str, value: object, out: dict[str, object]) -> None:
    if isinstance(value, dict) and value:
        for key, sub in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), sub, out)
    else:
        out[prefix] = _norm(value)


def _sha(text: Any) -> str | None:
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if isinstance(text, str) and text else None


def _dict(value: object) -> Mapping[str, object]:
    """A JSON object of the document read; ``{}`` for any other value."""
    return value if isinstance(value, dict) else {}


# --- readers -------------------------------------------------------------------------------------


def _lm_eval_metrics(results: Mapping[str, object]) -> dict[str, Metric]:
    metrics: dict[str, Metric] = {}
    for key, value in results.items():
        name, sep, filt = str(key).partition(",")
        if not sep or name.endswith("_stderr"):
            continue
        raw = results.get(f"{name}_stderr,{filt}")
        metrics[str(key)] = Metric(value, _finite(raw), raw)
    return metrics


def _lm_eval(document: Mapping[str, object]) -> EvalRecord:
    configs, config = _dict(document.get("configs")), _dict(document.get("config"))
    versions, n_shot = _dict(document.get("versions")), _dict(document.get("n-shot"))
    n_samples, hashes = _dict(document.get("n-samples")), _dict(document.get("task_hashes"))
    tasks: dict[str, TaskRecord] = {}
    for name, results in _dict(document["results"]).items():
        task_cfg = _dict(configs.get(name))
        counts = _dict(n_samples.get(name))
        version = versions.get(name, _dict(task_cfg.get("metadata")).get("version"))
        shots = n_shot.get(name, task_cfg.get("num_fewshot"))
        tasks[str(name)] = TaskRecord(
            task=str(name),
            metrics=_lm_eval_metrics(_dict(results)),
            version=_norm(version),
            n_shot=_norm(shots if shots is not None else 0),
            output_type=str(task_cfg["output_type"]) if task_cfg.get("output_type") else None,
            generation_kwargs=_norm(task_cfg.get("generation_kwargs")),
            samples=_count(counts.get("effective")),
            original_samples=_count(counts.get("original")),
            prompt_hash=str(hashes[name]) if hashes.get(name) else None,
        )
    settings: dict[str, object] = {
        "backend": _norm(config.get("model")),
        "batch_size": _norm(config.get("batch_size")),
        "device": _norm(config.get("device")),
        "limit": _norm(config.get("limit")),
        "chat_template": document.get("chat_template_sha") or _sha(document.get("chat_template")),
        "fewshot_as_multiturn": bool(document.get("fewshot_as_multiturn")),
        "system_instruction": document.get("system_instruction_sha")
        or _sha(document.get("system_instruction")),
        "max_length": _norm(document.get("max_length")),
        "lm_eval_version": _norm(document.get("lm_eval_version")),
    }
    for seed in _SEEDS:
        settings[f"sampling.{seed}"] = _norm(config.get(seed))
    for key, value in sorted(parse_args_string(config.get("gen_kwargs")).items()):
        settings[f"sampling.gen_kwargs.{key}"] = _norm(value)
    for key, value in sorted(parse_args_string(config.get("model_args")).items()):
        if key not in MODEL_IDENTITY_ARGS:
            settings[f"model_args.{key}"] = _norm(value)
    return EvalRecord(
        FORMAT_LM_EVAL, tasks, settings, generates=any(t.output_type == GENERATE for t in tasks.values())
    )


def _quarkci(document: Mapping[str, object]) -> EvalRecord:
    tasks: dict[str, TaskRecord] = {}
    for name, entry_raw in _dict(document["tasks"]).items():
        entry = _dict(entry_raw)
        metric = str(entry.get("metric") or "score")
        tasks[str(name)] = TaskRecord(
            task=str(name),
            metrics={metric: Metric(entry.get("score"), _finite(entry.get("stderr")), entry.get("stderr"))},
            version=_norm(entry.get("version")),
            n_shot=_norm(entry.get("n_shot")),
            output_type=str(entry["output_type"]) if entry.get("output_type") else None,
            generation_kwargs=_norm(entry.get("generation_kwargs")),
            samples=_count(entry.get("samples")),
            original_samples=_count(entry.get("expected_samples")),
        )
    settings: dict[str, object] = {}
    config = _dict(document.get("config"))
    for key, value in config.items():
        if key not in QUARKCI_IDENTITY:
            _flatten(str(key), value, settings)
    generates = bool(_dict(document.get("verbosity"))) or any(
        t.output_type == GENERATE for t in tasks.values()
    )
    return EvalRecord(FORMAT_QUARKCI, tasks, settings, generates=generates)


def _scores(document: Mapping[str, object]) -> EvalRecord:
    tasks: dict[str, TaskRecord] = {}
    for name, entry in document.items():
        if isinstance(entry, dict):
            metric = Metric(entry.get("score"), _finite(entry.get("stderr")), entry.get("stderr"))
        else:
            metric = Metric(entry, None, None)
        tasks[str(name)] = TaskRecord(task=str(name), metrics={"score": metric})
    return EvalRecord(FORMAT_SCORES, tasks, {})


def to_record(document: object) -> EvalRecord | None:
    """The record of an lm-eval results JSON, a quarkci eval result or a bare score map (see the module
    docstring); ``None`` when ``document`` has none of these shapes. Never raises on odd field types:
    a value it cannot use is kept for the gate to judge (a non-numeric score is an anomaly there)."""
    if isinstance(document, EvalRecord):
        return document
    if not isinstance(document, dict):
        return None
    if isinstance(document.get("tasks"), dict):
        return _quarkci(document)
    if isinstance(document.get("results"), dict):
        return _lm_eval(document)
    if "tasks" in document or "results" in document:
        return None  # the wrapper key is there but is not an object: not a score map either
    return _scores(document)


def load_record(path: str | Path) -> tuple[Any, EvalRecord | None]:
    """``(document, record)`` of the eval file ``path``, read through the one bounded loader; raises
    :class:`~quarkci.core.errors.BadInputError` when the file cannot be read or parsed."""
    from quarkci.core.documents import load_document  # here: the record itself is standard library only

    document = load_document(path)
    return document, to_record(document)


# --- parity --------------------------------------------------------------------------------------


def _metric_rank(key: str) -> tuple[int, int, str]:
    name, _, filt = key.partition(",")
    order = METRIC_PREFERENCE.index(name) if name in METRIC_PREFERENCE else len(METRIC_PREFERENCE)
    return (order, 0 if filt in ("", "none") else 1, key)


def common_metric(baseline: TaskRecord, candidate: TaskRecord) -> str | None:
    """The metric both sides report, by :data:`METRIC_PREFERENCE` (filter ``none`` first), else the first
    common one sorted; ``None`` when they share none."""
    shared = set(baseline.metrics) & set(candidate.metrics)
    return min(shared, key=_metric_rank) if shared else None


def metric_name(key: str) -> str:
    """``"acc,none"`` -> ``"acc"``; ``"exact_match,strict-match"`` stays whole (the filter matters)."""
    name, _, filt = key.partition(",")
    return name if filt in ("", "none") else key


@dataclass(frozen=True)
class Difference:
    """One field in which two records differ (``field`` is dotted: ``arc_easy.n_shot``, ``limit``)."""

    field: str
    baseline: Any
    candidate: Any

    def __str__(self) -> str:
        def show(value: Any) -> str:
            text = repr(value)
            return text if len(text) <= 40 else text[:37] + "..."

        return f"{self.field} ({show(self.baseline)} vs {show(self.candidate)})"


def differences(baseline: EvalRecord, candidate: EvalRecord) -> list[Difference]:
    """Every field in which the two records differ, other than the model (see the module docstring),
    for the tasks both report; sample counts are not among them (the gate judges those)."""
    out: list[Difference] = []
    if baseline.format != candidate.format:
        return [Difference("format", baseline.format, candidate.format)]
    generates = baseline.generates or candidate.generates
    for key in sorted(set(baseline.settings) | set(candidate.settings)):
        if key == "batch_size" and not generates:
            continue
        b, c = baseline.settings.get(key), candidate.settings.get(key)
        if b != c:
            out.append(Difference(key, b, c))
    for name in sorted(set(baseline.tasks) & set(candidate.tasks)):
        b_task, c_task = baseline.tasks[name], candidate.tasks[name]
        for attr in ("version", "n_shot", "output_type", "generation_kwargs"):
            b, c = getattr(b_task, attr), getattr(c_task, attr)
            if b != c:
                out.append(Difference(f"{name}.{attr}", b, c))
        if b_task.prompt_hash and c_task.prompt_hash and b_task.prompt_hash != c_task.prompt_hash:
            out.append(Difference(f"{name}.prompts", b_task.prompt_hash[:12], c_task.prompt_hash[:12]))
        if common_metric(b_task, c_task) is None:
            out.append(
                Difference(
                    f"{name}.metric",
                    ", ".join(sorted(map(metric_name, b_task.metrics))) or None,
                    ", ".join(sorted(map(metric_name, c_task.metrics))) or None,
                )
            )
    return out
