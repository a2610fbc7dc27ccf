"""The artifact registry: each artifact's one producer, its consumers, schema and failure fallback.

Quark's skills hand work to each other through files with exactly one producer each (facts from
Quark 0.13, ``quark/_bundled_skills/_legacy_impl/shared/contracts/`` and the skills' "Outputs"
sections). Some artifacts are produced inside quarkci (``producer`` is a quarkci module: only code
in that module or its submodules may write the file, enforced by
:func:`quarkci.contracts.producers.check_producers`); the others are produced by Quark's own skills
(``producer`` is ``external:<skill>``: quarkci reads and validates them and never writes them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from quarkci.core.errors import BadInputError

EXTERNAL = "external:"
OWN = "none (quarkci's own artifact)"


@dataclass(frozen=True)
class Artifact:
    """One artifact.

    ``filename`` is the canonical file name (``quant_plan.json``); ``aliases`` are other file names of
    the same artifact (the Markdown twin of the validation report). ``producer`` is a dotted quarkci
    module (``quarkci.ptq.plan``) or ``external:<upstream skill>``; ``upstream_producer`` is the Quark
    skill that owns it upstream. ``consumers`` are modules or skills that read it. ``fallback`` says
    what the producer writes when it fails (always a schema-valid document; built by
    :data:`quarkci.contracts.fallback.FALLBACKS`).
    """

    name: str
    filename: str
    fmt: Literal["json", "yaml"]
    producer: str
    upstream_producer: str
    consumers: tuple[str, ...]
    fallback: str
    description: str
    aliases: tuple[str, ...] = ()

    @property
    def own(self) -> bool:
        """True for quarkci's own artifacts: no Quark skill defines them (``upstream_producer`` is
        :data:`OWN`), so there is no upstream contract to compare with."""
        return self.upstream_producer == OWN

    @property
    def external(self) -> bool:
        """True when a Quark skill, not quarkci, produces the artifact."""
        return self.producer.startswith(EXTERNAL)

    @property
    def schema_file(self) -> str:
        """File name of the schema inside ``quarkci/core/schemas/``."""
        return f"{self.name}.schema.json"

    @property
    def filenames(self) -> tuple[str, ...]:
        """Every file name of the artifact (canonical first)."""
        return (self.filename, *self.aliases)

    def produced_by(self, module: str) -> bool:
        """True when quarkci module ``module`` (dotted) is this artifact's producer or inside it."""
        return not self.external and (module == self.producer or module.startswith(self.producer + "."))


# The explicit, ordered registry (order = the order work flows through a PTQ session).
ARTIFACTS: dict[str, Artifact] = {
    a.name: a
    for a in (
        Artifact(
            name="session_context",
            filename="session_context.json",
            fmt="json",
            producer="quarkci.router",
            upstream_producer="quark-torch-router",
            consumers=("quark-torch-ptq", "quark-torch-install", "quark-install", "quarkci.ptq"),
            fallback='partial context: workflow "undecided" and the unresolved points in open_questions',
            description="user goal, chosen workflow, constraints, *_ref pointers, open questions",
        ),
        Artifact(
            name="env_context",
            filename="env_context.json",
            fmt="json",
            producer=EXTERNAL + "quark-env-preflight",
            upstream_producer="quark-env-preflight",
            consumers=("quarkci.router", "quark-torch-install", "quark-install", "quark-torch-ptq"),
            fallback='hardware.accelerator "unknown" (never an assumed CUDA) with the facts that were read',
            description="OS, Python, container, accelerator and GPU facts",
        ),
        Artifact(
            name="workspace_context",
            filename="workspace_context.json",
            fmt="json",
            producer=EXTERNAL + "quark-workspace-validate",
            upstream_producer="quark-workspace-validate",
            consumers=("quarkci.router", "quark-torch-model-intake", "quark-torch-ptq"),
            fallback='model_source "ambiguous" and each tested path listed with exists false',
            description="validated model path, model source, output directory",
        ),
        Artifact(
            name="pytorch_install_result",
            filename="pytorch_install_result.json",
            fmt="json",
            producer=EXTERNAL + "quark-torch-install",
            upstream_producer="quark-torch-install",
            consumers=("quarkci.router", "quark-install"),
            fallback='status "failed" with failure_reason holding the exact failing verification command',
            description="installed PyTorch build, accelerator tag, verification",
        ),
        Artifact(
            name="quark_install_result",
            filename="quark_install_result.json",
            fmt="json",
            producer=EXTERNAL + "quark-install",
            upstream_producer="quark-install",
            consumers=("quarkci.router", "quark-torch-ptq"),
            fallback='status "failed" with failure_reason holding the exact failing verification command',
            description="installed amd-quark version, source, extras, verification",
        ),
        Artifact(
            name="model_analysis",
            filename="model_analysis.json",
            fmt="json",
            producer="quarkci.ptq.intake",
            upstream_producer="quark-torch-model-intake",
            consumers=("quarkci.ptq.plan", "quarkci.ptq.manifest"),
            fallback='analysis_status "partial" with one risk per unresolved fact',
            description="model architecture facts, quantization targets, risks",
        ),
        Artifact(
            name="quant_plan",
            filename="quant_plan.json",
            fmt="json",
            producer="quarkci.ptq.plan",
            upstream_producer="quark-torch-quant-plan",
            consumers=("quarkci.ptq.manifest",),
            fallback="draft plan with requires_confirmation true and the missing facts listed",
            description="scheme, KV-cache scheme, exclusions, overrides, algorithm, calibration",
        ),
        Artifact(
            name="run_manifest",
            filename="run_manifest.yaml",
            fmt="yaml",
            producer="quarkci.ptq.manifest",
            upstream_producer="quark-torch-ptq",
            consumers=("quarkci.ptq", "quarkci.gates", "quarkci.report"),
            fallback='manual-only manifest: status "manual_only", blocked_by non-empty, commands recorded',
            description="workflow, inputs, outputs, checkpoints, ordered steps with exact commands",
            aliases=("run_manifest.yml",),
        ),
        Artifact(
            name="validation_report",
            filename="validation_report.json",
            fmt="json",
            producer="quarkci.report",
            upstream_producer="quark-torch-result-validator",
            consumers=("quarkci.github", "actions/publish-report"),
            fallback='diagnostic report with status "failed" even when execution never started',
            description="status, summary, evidence, next actions (JSON twin of validation_report.md)",
            aliases=("validation_report.md",),
        ),
        Artifact(
            name="verify_proof",
            filename="verify_proof.json",
            fmt="json",
            producer="quarkci.verify.prove",
            upstream_producer=OWN,
            consumers=("quarkci.verify", ".github/workflows/verify.yml"),
            fallback='result "INCONCLUSIVE" or "FAILED" naming the step it stopped at and why',
            description="one correctness feature of a verify-<lib> skill run end to end: steps, rows from saved stdout",
        ),
        Artifact(
            name="run_result",
            filename="run_result.json",
            fmt="json",
            producer="quarkci.ptq.runner",
            upstream_producer=OWN,
            consumers=("quarkci.ptq.validate", "quarkci.gates.ptq", "quarkci.day0"),
            fallback='status "failed" with the stage, failure class and upstream message',
            description="outcome of one ptq run: status, stage, failure class, message, timings, versions",
        ),
        Artifact(
            name="validation_summary",
            filename="validation_summary.json",
            fmt="json",
            producer="quarkci.ptq.validate",
            upstream_producer=OWN,
            consumers=("quarkci.gates.ptq", "quarkci.ptq.markdown", "quarkci.day0"),
            fallback="output.exists false (or output.error) with every measured block null: the gate fails it",
            description="what ptq validate measured about an export against its source (the PTQ gate's input)",
        ),
        Artifact(
            name="day0_result",
            filename="day0_result.json",
            fmt="json",
            producer="quarkci.day0.result",
            upstream_producer=OWN,  # the reference day-0 closeout has no file contract
            consumers=("quarkci.report", "quarkci.github", ".github/workflows/day0-release.yml"),
            fallback="decision SYSTEMIC or ANOMALOUS with the failed stage, its class and triage action",
            description="day-0 publish decision: gates, per-task accuracy, canary, verbosity, checkpoint hash",
        ),
    )
}


def get_artifact(name: str) -> Artifact:
    """The registered artifact ``name``. Raises :class:`BadInputError` naming the known ones."""
    try:
        return ARTIFACTS[name]
    except KeyError:
        raise BadInputError(f"unknown artifact {name!r}; known: {', '.join(ARTIFACTS)}") from None


@cache
def _schema_text(name: str) -> str:
    return resources.files("quarkci.core").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """The parsed JSON Schema (Draft 2020-12) of artifact ``name`` (a fresh copy each call)."""
    get_artifact(name)
    schema: dict[str, Any] = json.loads(_schema_text(name))
    return schema
