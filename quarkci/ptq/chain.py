"""The PTQ chain as one library call with typed inputs and outputs: what the day-0 conductor runs.

:func:`run_ptq` does in one process what the ``quarkci ptq`` commands do one by one (intake -> plan ->
manifest -> run -> validate -> gate), writing the same artifacts in ``request.out`` through their
producers, so ``quark.torch`` is imported once. Every precondition (output locations, data safety,
tokenizer, scheme) is checked before Quark is imported; a bad input raises
:class:`~quarkci.core.errors.BadInputError`, an upstream failure is a value in the outcome.

With ``request.checkpoint`` (a quantized model made earlier, or given by the user) the chain skips
intake to run and validates and gates that checkpoint only. ``request.gate_output`` is where the
gate's verdict JSON goes (default: not written). Outside :mod:`quarkci.ptq`, only the ``quarkci ptq``
commands call a stage function (each subcommand its one stage); everything else calls :func:`run_ptq`
(``tests/test_architecture.py``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import dump_json
from quarkci.core.paths import check_output_dir
from quarkci.gates.ptq import evaluate
from quarkci.gates.verdict import Verdict
from quarkci.ptq import manifest as manifest_mod
from quarkci.ptq.doc_types import RunResultDoc
from quarkci.ptq.intake import ANALYSIS_FILE, analyze, write_analysis
from quarkci.ptq.plan import PLAN_FILE, build_plan, write_plan
from quarkci.ptq.summary_types import ValidationSummary

if TYPE_CHECKING:
    from quarkci.ptq.runner import RunResult


@dataclass(frozen=True)
class PtqRequest:
    """One PTQ run: source ``model`` directory, Quark ``scheme``, run directory ``out`` (all artifacts and
    the exported ``out/model``, which must be new or empty), optional KV-cache scheme, algorithm(s),
    extra exclusions, device, and whether the export is reloaded by ``validate``.

    ``checkpoint``: validate and gate this quantized model instead of running PTQ; ``run_result`` is the
    ``run_result.json`` of the run that made it, when known (without it the summary records ``scheme``).
    ``gate_output``: where the gate's verdict JSON is written (default: not written).
    """

    model: Path
    scheme: str
    out: Path
    kv_cache: str | None = None
    algorithm: str | None = None
    exclude: tuple[str, ...] = ()
    device: str = "auto"
    reload: bool = True
    checkpoint: Path | None = None
    run_result: Path | None = None
    gate_output: Path | None = None


@dataclass(frozen=True)
class PtqOutcome:
    """What one chain call produced: the quantized model judged (``checkpoint``), the validation summary
    (its path and document), the PTQ gate's verdict (and its file, with ``gate_output``), and -- when
    the call ran PTQ -- the run (``run``: status, stage, failure class, message, timings in seconds), the
    paths of the intake, plan, manifest and run-result artifacts, and the plan-time warnings."""

    checkpoint: Path
    summary: Path
    validation: ValidationSummary
    verdict: Verdict
    verdict_file: Path | None = None
    run: RunResult | None = None
    analysis: Path | None = None
    plan: Path | None = None
    manifest: Path | None = None
    run_result: Path | None = None
    warnings: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        """True when the PTQ gate passed."""
        return self.verdict["pass"]

    @property
    def run_status(self) -> str | None:
        """``succeeded`` | ``failed`` for the run of this call; ``None`` when a checkpoint was given."""
        return self.run.status if self.run else None


def check_source(model: str | os.PathLike[str]) -> None:
    """The chain's precondition on the source model that needs no artifact, for a caller that checks
    its input before any work: the model directory has tokenizer files (calibration and the export need
    them). Raises :class:`~quarkci.core.errors.BadInputError`."""
    manifest_mod.require_tokenizer(model)


def run_ptq(request: PtqRequest, say: Callable[[str], None] | None = None) -> PtqOutcome:
    """Run intake, plan, manifest, run, validate and the gate for ``request`` (see module docstring); with
    ``request.checkpoint``, validate and the gate only.

    Raises :class:`~quarkci.core.errors.BadInputError` for bad input (before any slow work) and
    :class:`quarkci.ptq.quark_api.QuarkUnavailable` when the ML stack cannot be imported.
    """
    from quarkci.ptq.validate import load_run_result

    out = check_output_dir(request.out, "out").resolve()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # local models only (HF_HUB_OFFLINE=0 overrides)
    if request.checkpoint is not None:
        recorded = load_run_result(request.run_result) if request.run_result else None
        return replace(_judge(request, out, request.checkpoint, recorded, say), run_result=request.run_result)
    from quarkci.ptq.evidence import plan_warnings

    analysis_path = out / ANALYSIS_FILE
    analysis = analyze(str(request.model))
    write_analysis(analysis, analysis_path)
    plan = build_plan(
        analysis,
        str(analysis_path),
        request.scheme,
        algorithm=request.algorithm,
        kv_cache=request.kv_cache,
        exclude=list(request.exclude),
        device=request.device,
    )
    plan_path = write_plan(plan, out / PLAN_FILE)
    warnings = tuple(plan_warnings(request.scheme, request.device, plan["quark_version"]))
    manifest = manifest_mod.build_manifest(plan, plan_path, out)
    manifest_path = manifest_mod.write_manifest(manifest, out / manifest_mod.MANIFEST_FILE)
    manifest_mod.require_runnable(manifest, str(manifest_path))
    manifest_mod.require_safe_outputs(manifest, str(manifest_path))
    manifest_mod.require_tokenizer(plan["model"]["model_path"])

    from quarkci.ptq.runner import run_plan, write_run_result

    export = Path(manifest["outputs"]["output_dir"])
    run = run_plan(plan, export, say=say)
    result = run.to_json()
    run_result_path = write_run_result(result, manifest["outputs"]["run_result"])
    manifest_mod.record_run(manifest_path, result)
    return replace(
        _judge(request, out, export, result, say),
        run=run,
        analysis=analysis_path,
        plan=plan_path,
        manifest=manifest_path,
        run_result=run_result_path,
        warnings=warnings,
    )


def _judge(
    request: PtqRequest,
    out: Path,
    checkpoint: Path,
    run_result: RunResultDoc | None,
    say: Callable[[str], None] | None = None,
) -> PtqOutcome:
    """Validate ``checkpoint`` against the source (``run_result``: the run that made it, when known;
    progress to ``say``), gate the summary, and write the verdict when ``request.gate_output`` asks for it."""
    from quarkci.ptq.validate import summarize, write_summary

    summary = summarize(request.model, checkpoint, run_result=run_result, reload=request.reload, say=say)
    if run_result is None:
        summary["scheme"] = request.scheme
    summary_path = write_summary(summary, out / manifest_mod.SUMMARY_FILE)
    verdict = evaluate(summary)
    verdict_file = None
    if request.gate_output is not None:
        verdict_file = atomic_write_text(request.gate_output, dump_json(verdict))
    return PtqOutcome(
        checkpoint=checkpoint,
        summary=summary_path,
        validation=summary,
        verdict=verdict,
        verdict_file=verdict_file,
    )
