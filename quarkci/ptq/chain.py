"""The PTQ stages as one library call with typed inputs and outputs, for callers such as the day-0 conductor.

:func:`run_ptq` does in one process what the ``quarkci ptq`` commands do one by one (intake -> plan ->
manifest -> run -> validate -> gate), writing the same artifacts in ``request.out`` through their
producers, so ``quark.torch`` is imported once. Every precondition (output locations, data safety,
tokenizer, scheme) is checked before Quark is imported; a bad input raises
:class:`~quarkci.core.errors.BadInputError`, an upstream failure is a value in the outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from quarkci.core.paths import check_output_dir
from quarkci.gates.ptq import GateResult, evaluate
from quarkci.ptq import manifest as manifest_mod
from quarkci.ptq.intake import ANALYSIS_FILE, analyze, write_analysis
from quarkci.ptq.plan import PLAN_FILE, build_plan, write_plan


@dataclass(frozen=True)
class PtqRequest:
    """One PTQ run: source ``model`` directory, Quark ``scheme``, run directory ``out`` (all artifacts and
    the exported ``out/model``, which must be new or empty), optional KV-cache scheme, algorithm(s),
    extra exclusions, device, and whether the export is reloaded by ``validate``."""

    model: Path
    scheme: str
    out: Path
    kv_cache: str | None = None
    algorithm: str | None = None
    exclude: tuple[str, ...] = ()
    device: str = "auto"
    reload: bool = True


@dataclass(frozen=True)
class PtqOutcome:
    """Paths of the artifacts written, the run status (``succeeded`` | ``failed``), the plan-time
    warnings and the PTQ gate's verdict."""

    analysis: Path
    plan: Path
    manifest: Path
    run_result: Path
    summary: Path
    export: Path
    run_status: str
    verdict: GateResult
    warnings: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        """True when the PTQ gate passed."""
        return self.verdict["pass"]


def run_ptq(request: PtqRequest, say: Callable[[str], None] | None = None) -> PtqOutcome:
    """Run intake, plan, manifest, run, validate and the gate for ``request`` (see module docstring).

    Raises :class:`~quarkci.core.errors.BadInputError` for bad input (before any slow work) and
    :class:`quarkci.ptq.quark_api.QuarkUnavailable` when the ML stack cannot be imported.
    """
    from quarkci.ptq.evidence import plan_warnings

    out = check_output_dir(request.out, "out")
    analysis_path = out / ANALYSIS_FILE
    analysis = analyze(str(request.model))
    write_analysis(analysis, analysis_path)
    plan = build_plan(
        analysis,
        str(analysis_path.resolve()),
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
    from quarkci.ptq.validate import summarize, write_summary

    export = Path(manifest["outputs"]["output_dir"])
    result = run_plan(plan, export, say=say).to_json()
    run_result_path = write_run_result(result, manifest["outputs"]["run_result"])
    manifest_mod.record_run(manifest_path, result)
    summary = summarize(request.model, export, run_result=result, reload=request.reload)
    summary_path = write_summary(summary, manifest["outputs"]["validation_summary"])
    return PtqOutcome(
        analysis=analysis_path,
        plan=plan_path,
        manifest=manifest_path,
        run_result=run_result_path,
        summary=summary_path,
        export=export,
        run_status=result["status"],
        verdict=evaluate(summary),
        warnings=warnings,
    )
