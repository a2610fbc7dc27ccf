"""``ptq manifest``: ``quant_plan.json`` -> ``run_manifest.yaml``, and the run's status afterwards.

The manifest is the reproducible record of one PTQ run (Quark's quark-torch-ptq skill, Step 3): the
inputs, the outputs, the four checkpoints, and ordered steps with exact commands -- the in-process
``quarkci ptq run`` and the equivalent public ``quark-cli torch-llm-ptq`` command line for GPU
runners (flag names from ``quark/experimental/cli/torch_llm_ptq.py`` in amd-quark 0.13). Anything
that prevents execution goes to ``blocked_by`` and the status becomes ``manual_only``.

This module is the one producer of ``run_manifest.yaml``: :func:`record_run` rewrites the status
fields after ``ptq run`` without touching the recorded commands.
"""

from __future__ import annotations

import hashlib
import os
import shlex
from collections.abc import Mapping
from pathlib import Path

from quarkci.core.documents import check_document, read_artifact, write_artifact
from quarkci.core.errors import BadInputError
from quarkci.ptq.doc_types import Calibration, ManifestStep, QuantPlan, RunManifest, RunResultDoc
from quarkci.ptq.plan import CLI_DATASETS, DEFAULT_CALIBRATION

MANIFEST_FILE = "run_manifest.yaml"
RUN_RESULT_FILE = "run_result.json"
SUMMARY_FILE = "validation_summary.json"
WORKFLOW = "quark-torch-ptq"


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def quark_cli_argv(
    plan: QuantPlan, output_dir: str, cli_flags: Mapping[str, Mapping[str, object]] | None = None
) -> tuple[list[str], list[str]]:
    """The ``quark-cli torch-llm-ptq`` argument array equivalent to ``plan``, and notes on where it
    cannot be exactly equivalent. Only confirmed options are added (Quark's skill, Step 3).

    Every value comes from the plan: scheme, calibration dataset, sample count, sequence length, batch
    size, device, KV-cache scheme, per-layer schemes, algorithm and exclusions. ``cli_flags`` (option ->
    ``add_argument`` attributes; default: the installed amd-quark's, read statically by
    :func:`quarkci.ptq.quark_static.installed_cli_flags`) decides what the CLI can spell: an option it
    does not define, or a value outside its ``choices``, is left out with a note. ``device: auto`` leaves
    ``--device`` out (quark-cli then picks cuda when available, else cpu, as the plan's ``auto`` does).
    A local calibration file has no CLI spelling: ``--dataset`` is left out and the note names the CLI's
    default dataset. ``--exclude_layers`` is emitted with the full plan list (it replaces the template
    defaults in the CLI), never empty.
    """
    if cli_flags is None:
        from quarkci.ptq.quark_static import installed_cli_flags

        cli_flags = installed_cli_flags()
    calib: Calibration = plan.get("calibration") or {}
    notes: list[str] = []
    if not cli_flags:
        notes.append("amd-quark's quark-cli options could not be read: the line is not checked against them")

    def known(flag: str, value: object = None) -> bool:
        if not cli_flags:
            return True
        attrs = cli_flags.get(flag)
        if attrs is None:
            notes.append(f"{flag} is not a quark-cli torch-llm-ptq option of this amd-quark: left out")
            return False
        choices = attrs.get("choices")
        if value is not None and isinstance(choices, list) and value not in choices:
            notes.append(
                f"{flag} {value}: not one of quark-cli's choices ({', '.join(map(str, choices))}): left out"
            )
            return False
        return True

    argv = [
        "quark-cli",
        "torch-llm-ptq",
        "--model_dir",
        plan["model"]["model_path"],
        "--output_dir",
        output_dir,
        "--quant_scheme",
        plan["global_scheme"],
    ]
    dataset = str(calib.get("dataset", DEFAULT_CALIBRATION["dataset"]))
    if dataset not in CLI_DATASETS and Path(dataset).is_file():
        default = (cli_flags.get("--dataset") or {}).get("default", "pileval")
        notes.append(
            f"calibration file {dataset} has no quark-cli spelling: --dataset left out, so quark-cli "
            f"calibrates on its default dataset ({default}) instead"
        )
    elif known("--dataset", dataset):
        argv += ["--dataset", dataset]
    for flag, value in (
        ("--num_calib_data", calib.get("num_calib_data", DEFAULT_CALIBRATION["num_calib_data"])),
        ("--seq_len", calib.get("seq_len", DEFAULT_CALIBRATION["seq_len"])),
        ("--batch_size", calib.get("batch_size", DEFAULT_CALIBRATION["batch_size"])),
    ):
        if known(flag):
            argv += [flag, str(value)]
    device = str(plan.get("device") or "auto")
    if device == "auto":
        notes.append("device auto: --device left out, so quark-cli picks cuda when available, else cpu")
    elif known("--device", device):
        argv += ["--device", device]
    for flag in ("--no_trust_remote_code", "--skip_evaluation"):
        if known(flag):
            argv.append(flag)
    kv_cache = plan.get("kv_cache_scheme")
    if kv_cache and known("--kv_cache_dtype", kv_cache):
        argv += ["--kv_cache_dtype", kv_cache]
    layer_schemes = sorted((plan.get("layer_quant_config") or {}).items())
    if layer_schemes and known("--layer_quant_scheme"):
        for pattern, scheme in layer_schemes:
            argv += ["--layer_quant_scheme", pattern, scheme]
    algorithm = plan.get("algorithm")
    if algorithm and known("--quant_algo"):
        argv += ["--quant_algo", algorithm]
    if plan.get("exclude_layers") and known("--exclude_layers"):
        argv += ["--exclude_layers", *plan["exclude_layers"]]
    if plan.get("model_dtype", "auto") != "auto":
        notes.append(f"model dtype {plan['model_dtype']}: quark-cli loads the checkpoint dtype ('auto')")
    notes.append(
        "quantize_quark.py (Quark's examples/) takes the same flag names but is not in the PyPI "
        "wheel, so it is not recorded here"
    )
    return argv, notes


def build_manifest(
    plan: QuantPlan,
    plan_path: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    output_dir: str | os.PathLike[str] | None = None,
) -> RunManifest:
    """Build the ``run_manifest`` document for ``plan`` (read from ``plan_path``).

    ``out_dir`` holds the manifest, ``run_result.json`` and ``validation_summary.json``;
    ``output_dir`` (default ``out_dir/model``) receives the quantized model. All paths are absolute.
    """
    out = Path(out_dir).resolve()
    export = Path(output_dir).resolve() if output_dir else out / "model"
    plan_file = Path(plan_path).resolve()
    manifest_path = out / MANIFEST_FILE
    model_path = plan["model"]["model_path"]  # ptq plan always records it
    analysis_ref = plan["model"]["analysis_ref"]

    blocked: list[str] = []
    if export != out and out not in export.parents:
        raise BadInputError(
            f"--checkpoint {export}: must lie inside --out {out} (every output of a run stays in "
            "its output directory)"
        )
    source = Path(model_path).resolve()
    if out == source or source in out.parents:  # a run directory that holds the source beside it is fine
        raise BadInputError(
            f"--out {out}: inside the source model {source}; PTQ never writes into the source model"
        )
    if _overlaps(export, source):
        raise BadInputError(
            f"output directory {export}: overlaps the source model {source}; PTQ never writes "
            "into the source model"
        )
    if not Path(model_path).is_dir():
        blocked.append(
            f"model {model_path} is not a local directory: download it first (the run never fetches weights)"
        )
    blocked += [f"missing fact: {fact}" for fact in plan.get("missing_facts", [])]
    calib: Calibration = plan.get("calibration") or {}
    if calib.get("dataset") not in CLI_DATASETS and not Path(str(calib.get("dataset"))).is_file():
        blocked.append(
            f"calibration dataset {calib.get('dataset')!r} is neither a quark-cli dataset nor a file"
        )
    if export.exists() and any(export.iterdir()):
        blocked.append(f"output directory {export} exists and is not empty")

    run_argv = ["quarkci", "ptq", "run", "--manifest", str(manifest_path), "--yes"]
    cli_argv, cli_notes = quark_cli_argv(plan, str(export))
    summary = out / SUMMARY_FILE
    validate_argv = [
        "quarkci",
        "ptq",
        "validate",
        "--source",
        model_path,
        "--checkpoint",
        str(export),
        "--run-result",
        str(out / RUN_RESULT_FILE),
        "--output",
        str(summary),
    ]
    gate_argv = ["quarkci", "ptq", "gate", "--summary", str(summary)]
    intake_argv = ["quarkci", "ptq", "intake", "--model", model_path, "--output", analysis_ref]
    plan_argv = plan.get("command") or [
        "quarkci",
        "ptq",
        "plan",
        "--analysis",
        analysis_ref,
        "--scheme",
        plan["global_scheme"],
        "--output",
        str(plan_file),
    ]
    manifest_argv = ["quarkci", "ptq", "manifest", "--plan", str(plan_file), "--out", str(out)]

    def step(name: str, kind: str, argv: list[str], produces: list[str], status: str) -> ManifestStep:
        return {
            "name": name,
            "kind": kind,
            "command": shlex.join(argv),
            "argv": argv,
            "produces": produces,
            "status": status,
        }

    run_step = step("ptq", "run", run_argv, [str(export), str(out / RUN_RESULT_FILE)], "pending")
    run_step["equivalent_command"] = {"quark_cli": shlex.join(cli_argv), "argv": cli_argv, "notes": cli_notes}
    run_step["expected_artifacts"] = [
        str(export / "config.json"),
        str(export / "*.safetensors"),
        str(export / "tokenizer_config.json"),
    ]
    manifest: RunManifest = {
        "workflow": WORKFLOW,
        "status": "manual_only" if blocked else "planned",
        "inputs": {
            "model_path": model_path,
            "model_is_local": Path(model_path).is_dir(),
            "analysis": analysis_ref,
            "plan": str(plan_file),
            "plan_sha256": file_sha256(plan_file),
            "scheme": plan["global_scheme"],
            "algorithm": plan.get("algorithm"),
            "kv_cache_scheme": plan.get("kv_cache_scheme"),
            "calibration": calib,
            "model_dtype": plan.get("model_dtype", "auto"),
            "device": plan.get("device", "auto"),
            "quark_version": plan.get("quark_version"),
        },
        "outputs": {
            "output_dir": str(export),
            "manifest": str(manifest_path),
            "run_result": str(out / RUN_RESULT_FILE),
            "validation_summary": str(summary),
        },
        "checkpoints": [
            {
                "id": "model-analysis",
                "reason": "confirm the model facts and risks before planning",
                "confirmed": False,
            },
            {
                "id": "quant-plan",
                "reason": "confirm scheme, exclusions, algorithm and calibration",
                "confirmed": False,
            },
            {
                "id": "execution",
                "reason": "ptq run executes only with --yes (explicit approval)",
                "confirmed": False,
            },
            {
                "id": "result",
                "reason": "accept the result only after validate and gate pass",
                "confirmed": False,
            },
        ],
        "steps": [
            step("intake", "analyze", intake_argv, [analysis_ref], "succeeded"),
            step("plan", "plan", plan_argv, [str(plan_file)], "succeeded"),
            step("manifest", "generate", manifest_argv, [str(manifest_path)], "succeeded"),
            run_step,
            step("validate", "validate", validate_argv, [str(summary)], "pending"),
            step("gate", "summarize", gate_argv, [], "pending"),
        ],
    }
    if blocked:
        manifest["blocked_by"] = blocked
    return manifest


def write_manifest(manifest: RunManifest, path: str | Path) -> Path:
    """Validate against the ``run_manifest`` contract and write YAML atomically (key order kept)."""
    check_document(manifest, "run_manifest", str(path))
    return write_artifact("run_manifest", path, manifest)


def load_manifest(path: str | Path) -> RunManifest:
    """Read and validate a ``run_manifest.yaml``. Raises :class:`BadInputError`."""
    document: RunManifest = read_artifact("run_manifest", path)
    return document


def record_run(manifest_path: str | Path, result: RunResultDoc) -> Path:
    """Record the outcome of ``ptq run`` (a run result: ``status`` succeeded|failed, ``exit_code``)
    in the manifest's ``status``, the run step's ``status``/``exit_code`` and the execution
    checkpoint. The recorded commands are left unchanged."""
    manifest = load_manifest(manifest_path)
    manifest["status"] = "succeeded" if result["status"] == "succeeded" else "failed"
    for step in manifest["steps"]:
        if step.get("kind") == "run":
            step["status"] = manifest["status"]
            step["exit_code"] = result.get("exit_code")
    for checkpoint in manifest.get("checkpoints", []):
        if checkpoint["id"] in ("model-analysis", "quant-plan", "execution"):
            checkpoint["confirmed"] = True  # `ptq run --yes` is the explicit approval of the recorded plan
    return write_manifest(manifest, manifest_path)


def _overlaps(path: Path, source: Path) -> bool:
    """True when ``path`` is ``source``, inside it, or contains it (all resolved)."""
    path, source = path.resolve(), source.resolve()
    return path == source or source in path.parents or path in source.parents


def require_safe_outputs(manifest: RunManifest, where: str, overwrite: bool = False) -> None:
    """Refuse, before any work, a manifest whose outputs could damage data.

    Every output path (``outputs.*``) must lie inside the manifest's own directory (the run's output
    directory, :func:`quarkci.core.paths.check_inside`) and never overlap the source model; the model
    output directory must be new or empty unless ``overwrite``. Raises :class:`BadInputError`.
    """
    from quarkci.core.paths import check_inside

    root = Path(where).resolve().parent
    source = Path(str(manifest["inputs"]["model_path"])).resolve()
    for key, value in sorted(manifest["outputs"].items()):
        path = Path(str(value))
        check_inside(path, root, f"{where}: outputs.{key}")
        if _overlaps(path, source):
            raise BadInputError(f"{where}: outputs.{key} {path} overlaps the source model {source}")
    export = Path(str(manifest["outputs"]["output_dir"]))
    if export.exists() and not export.is_dir():
        raise BadInputError(f"{where}: output directory {export} exists and is not a directory")
    if export.is_dir() and any(export.iterdir()) and not overwrite:
        raise BadInputError(
            f"{where}: output directory {export} is not empty; pass --overwrite to replace it"
        )


def require_tokenizer(model_path: str | os.PathLike[str]) -> None:
    """Raise :class:`BadInputError` when the model directory has no tokenizer files: calibration and the
    exported model both need one (a precondition, not an upstream failure)."""
    from quarkci.ptq.intake import TOKENIZER_FILES

    model = Path(model_path)
    if model.is_dir() and not any((model / f).exists() for f in TOKENIZER_FILES):
        raise BadInputError(
            f"model {model} has no tokenizer files ({', '.join(TOKENIZER_FILES)}): calibration "
            "and the export need the tokenizer"
        )


def require_runnable(manifest: RunManifest, where: str) -> None:
    """Raise :class:`BadInputError` when the manifest is blocked or its plan changed since."""
    if manifest.get("blocked_by"):
        raise BadInputError(f"{where}: blocked: {'; '.join(manifest['blocked_by'])}")
    plan = Path(manifest["inputs"]["plan"])
    if not plan.is_file():
        raise BadInputError(f"{where}: plan {plan} not found")
    if file_sha256(plan) != manifest["inputs"].get("plan_sha256"):
        raise BadInputError(f"{where}: {plan} changed since the manifest was written; run ptq manifest again")
