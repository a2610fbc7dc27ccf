"""The failure fallback of each artifact: the smallest schema-valid document a producer writes
when it cannot finish, so the next step reads a clear "what is missing" instead of nothing.

Facts from the Quark 0.13 skills' "Recovery" sections: a partial session context with
open_questions; ``analysis_status: "partial"`` with the unresolved risks; a draft plan with
``requires_confirmation: true``; a manual-only manifest with ``blocked_by``; install results with
``status: "failed"`` and the exact failing verification command; a diagnostic report even when
execution never started. Every builder returns a plain dict (JSON-serialisable) typed by its
artifact's TypedDict (:mod:`quarkci.core.shapes`); the tests validate each one against its schema.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from quarkci.core.shapes.day0 import Day0Result
from quarkci.core.shapes.proof import VerifyProof
from quarkci.core.shapes.ptq import ManifestInputs, ModelAnalysis, QuantPlan, RunManifest, RunResult
from quarkci.core.shapes.report import ValidationReport
from quarkci.core.shapes.session import (
    EnvContext,
    PytorchInstallResult,
    QuarkInstallResult,
    SessionContext,
    WorkspaceContext,
)
from quarkci.core.shapes.summary import ValidationSummary


def session_context(user_goal: str, open_questions: Sequence[str]) -> SessionContext:
    """No route yet: ``workflow: "undecided"`` and at least one open question (required)."""
    if not open_questions:
        raise ValueError("a fallback session context needs at least one open question")
    return {
        "user_goal": user_goal,
        "workflow": "undecided",
        "constraints": {},
        "env_context_ref": None,
        "workspace_context_ref": None,
        "pytorch_install_result_ref": None,
        "quark_install_result_ref": None,
        "open_questions": list(open_questions),
    }


def env_context(os_name: str, python: str, containerized: bool = False) -> EnvContext:
    """Hardware could not be detected: accelerator ``unknown`` (never an assumed CUDA)."""
    return {
        "environment": {"os": os_name, "python": python, "containerized": containerized},
        "hardware": {"accelerator": "unknown"},
    }


def workspace_context(model_path: str, output_dir: str, tested: Sequence[str] = ()) -> WorkspaceContext:
    """The model reference could not be resolved: ``model_source: "ambiguous"``; every tested path
    is listed with ``exists: false``."""
    return {
        "model_path": model_path,
        "model_source": "ambiguous",
        "output_dir": output_dir,
        "required_paths": [{"input": p, "resolved_path": p, "exists": False, "kind": None} for p in tested],
    }


def pytorch_install_result(failed_command: str, error: str) -> PytorchInstallResult:
    """``status: "failed"``; ``failure_reason`` holds the exact failing verification command and error."""
    return {
        "status": "failed",
        "pytorch_version": None,
        "accelerator_tag": None,
        "verification": {"import_ok": False},
        "failure_reason": f"`{failed_command}` failed: {error}",
        "failed_command": failed_command,
    }


def quark_install_result(failed_command: str, error: str) -> QuarkInstallResult:
    """``status: "failed"``; ``failure_reason`` holds the exact failing verification command and error."""
    return {
        "status": "failed",
        "quark_version": None,
        "verification": {"import_ok": False},
        "commands": [failed_command],
        "failure_reason": f"`{failed_command}` failed: {error}",
        "failed_command": failed_command,
    }


def model_analysis(model_path: str, unresolved: Sequence[str], model_type: str = "unknown") -> ModelAnalysis:
    """``analysis_status: "partial"``: one high-severity risk per unresolved fact (at least one)."""
    if not unresolved:
        raise ValueError("a partial model analysis needs at least one unresolved fact")
    return {
        "analysis_status": "partial",
        "model": {"model_path": model_path, "model_type": model_type},
        "quantization_targets": {"linear_layer_count": 0, "exclude_defaults": []},
        "risks": [
            {"severity": "high", "message": fact, "recovery_hint": "confirm this fact before planning"}
            for fact in unresolved
        ],
    }


def quant_plan(
    model_type: str, analysis_ref: str, missing_facts: Sequence[str], global_scheme: str = "undecided"
) -> QuantPlan:
    """A draft plan: ``requires_confirmation: true`` and the missing facts listed."""
    return {
        "model": {"model_type": model_type, "analysis_ref": analysis_ref},
        "global_scheme": global_scheme,
        "exclude_layers": [],
        "layer_quant_config": {},
        "requires_confirmation": True,
        "missing_facts": list(missing_facts),
    }


def run_manifest(
    workflow: str, inputs: ManifestInputs, blocked_by: Sequence[str], commands: Sequence[str] = ()
) -> RunManifest:
    """A manual-only manifest: ``status: "manual_only"``, ``inputs`` (a copy) what the run would have
    read, non-empty ``blocked_by``, each command a pending run step a human can execute."""
    if not blocked_by:
        raise ValueError("a manual-only manifest needs at least one blocked_by reason")
    return {
        "workflow": workflow,
        "status": "manual_only",
        "inputs": {**inputs},
        "outputs": {},
        "blocked_by": list(blocked_by),
        "steps": [
            {"name": f"manual-{i}", "kind": "run", "command": cmd, "status": "pending"}
            for i, cmd in enumerate(commands, start=1)
        ],
    }


def validation_report(summary: str, evidence: Sequence[str], next_actions: Sequence[str]) -> ValidationReport:
    """A diagnostic report with ``status: "failed"``, written even when execution never started."""
    return {
        "status": "failed",
        "summary": summary,
        "evidence": list(evidence),
        "next_actions": list(next_actions),
    }


def verify_proof(feature: str, family: str, step: str, reason: str) -> VerifyProof:
    """A proof that stopped before its drive: ``INCONCLUSIVE`` naming the step and the reason."""
    if not reason:
        raise ValueError("a fallback proof needs the reason it stopped")
    return {
        "result": "INCONCLUSIVE",
        "feature": feature,
        "family": family,
        "skill": "",
        "library": "",
        "failed_step": step,
        "reason": reason,
        "steps": [{"step": step, "status": "inconclusive", "detail": reason}],
        "rows": [],
        "unverified": [],
        "draft": True,
        "harness": {},
        "evidence": [],
        "at": "",
    }


def run_result(scheme: str, output_dir: str, stage: str, failure_class: str, message: str) -> RunResult:
    """A failed ``run_result``: the stage, its failure class and the upstream message (exit code 1)."""
    return {
        "status": "failed",
        "scheme": scheme,
        "output_dir": output_dir,
        "device": "unknown",
        "model_dtype": "unknown",
        "stage": stage,
        "failure_class": failure_class,
        "message": message,
        "exit_code": 1,
        "timings": {},
        "versions": {},
        "exclude_applied": [],
    }


def validation_summary(source: str, output: str, reason: str) -> ValidationSummary:
    """A ``validation_summary`` with no output measured (``output.exists`` false, ``output.error`` the
    reason): every measured block null, so the PTQ gate fails it."""
    return {
        "summary_version": 1,
        "scheme": None,
        "source": {"exists": False, "bytes": 0, "files": 0, "error": None, "path": source},
        "output": {"exists": False, "bytes": 0, "files": 0, "error": reason, "path": output},
        "size_ratio": None,
        "quantization_config": {"present": False},
        "layers": None,
        "metadata": {"expected": [], "blocking": []},
        "reload": {"checked": False, "ok": None},
        "run": None,
    }


def day0_result(model: str, scheme: str, failure_class: str, detail: str, action: str) -> Day0Result:
    """A day-0 result that never got past its failed stage: nothing evaluated, nothing to publish.
    ``failure_class`` SYSTEMIC gives decision SYSTEMIC, any other class ANOMALOUS."""
    decision = "SYSTEMIC" if failure_class == "SYSTEMIC" else "ANOMALOUS"
    return {
        "result_version": 1,
        "decision": decision,
        "failure_classes": [failure_class],
        "triage": [action],
        "publish": {
            "recommended": False,
            "checkpoint": None,
            "checkpoint_sha256": None,
            "reason": f"not publishable: {decision} ({detail})",
        },
        "model": {"source": model, "source_sha256": None, "scheme": scheme, "note": None},
        "threshold": 0.01,
        "suite": {"name": "unknown", "tasks": [], "config_hash": ""},
        "sizes": {"source_bytes": None, "candidate_bytes": None, "ratio": None},
        "stages": [],
        "tasks": [],
        "behaviour_probe": None,
        "canary": None,
        "verbosity": None,
        "baseline_cache": None,
        "seconds": 0,
    }


# artifact name -> builder; keys match quarkci.core.artifacts.ARTIFACTS exactly (tested).
FALLBACKS: dict[str, Callable[..., Mapping[str, object]]] = {
    "session_context": session_context,
    "env_context": env_context,
    "workspace_context": workspace_context,
    "pytorch_install_result": pytorch_install_result,
    "quark_install_result": quark_install_result,
    "model_analysis": model_analysis,
    "quant_plan": quant_plan,
    "run_manifest": run_manifest,
    "validation_report": validation_report,
    "verify_proof": verify_proof,
    "run_result": run_result,
    "validation_summary": validation_summary,
    "day0_result": day0_result,
}
