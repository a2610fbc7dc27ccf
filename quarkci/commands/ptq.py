"""``quarkci ptq``: the PTQ workflow on real amd-quark (intake, plan, manifest, run, validate, gate).

* ``ptq intake --model DIR|HF_ID [--allow-hub] [--output F]`` -> ``model_analysis.json`` (static: config.json
  and safetensors headers; no weights loaded; offline unless ``--allow-hub``). Exit 0 (also for a partial
  analysis), 2 bad input.
* ``ptq plan --analysis F --scheme S [--algo A] [--kv-cache fp8] [--exclude PATTERN ...] [--output F]``
  -> ``quant_plan.json`` (scheme checked against the installed Quark's facts, read statically; a
  warning on stderr when the test suite saw the scheme fail on the device). Exit 0, 2 bad input.
* ``ptq manifest --plan F --out DIR [--checkpoint DIR]`` -> ``DIR/run_manifest.yaml`` (the export
  directory must lie inside ``DIR`` and not overlap the source model). Exit 0, 2 bad input.
* ``ptq run --manifest F --yes [--overwrite]``: runs PTQ in-process; refuses without ``--yes``, into a
  non-empty output directory without ``--overwrite``, with outputs outside the manifest's directory or
  inside the source model, or without tokenizer files (all exit 2, before Quark is imported). Writes
  the export, ``run_result.json`` and the manifest's status. Exit 0 succeeded, 1 upstream failure
  (failure class and upstream message on stderr and in ``run_result.json``), 2 bad input/blocked.
* ``ptq validate --source DIR --checkpoint DIR [--run-result F] [--no-reload] [--output F]`` -> validation
  summary JSON. Exit 0 (the verdict is the gate's), 2 unreadable source or run result, or a checkpoint
  that is not a directory (a missing one is accepted only when the run result records a failed run).
* ``ptq gate --summary F [--max-size-ratio R] [--max-accuracy-drop D] [--min-top1-agreement A]
  [--markdown FILE] [--report-dir DIR] [--github-output]``: the summary is read through the
  ``validation_summary`` contract; the verdict JSON on stdout (and a sticky-comment Markdown body; with
  ``--report-dir``, ``DIR/validation_report.{md,json}`` of kind ``ptq``: the PTQ stages and the gate,
  rendered by :mod:`quarkci.report.ptq`; with ``--github-output``, the step outputs ``pass`` and
  ``failure-class``). Exit 0 pass, 1 gate failed, 2 unreadable input (a USER_CONFIG_ERROR verdict is
  still printed, and its outputs written).

Every command that writes a file prints its path on stdout, or the document with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.errors import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK, BadInputError
from quarkci.core.step_outputs import write_outputs
from quarkci.gates import ptq as ptq_gate
from quarkci.gates.verdict import Verdict
from quarkci.ptq.doc_types import RunResultDoc
from quarkci.ptq.summary_types import ValidationSummary

_SUBCOMMANDS = ("intake", "plan", "manifest", "run", "validate", "gate")


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``ptq`` and its subcommands on the top-level subparsers."""
    parser = subparsers.add_parser(
        "ptq",
        help="PTQ workflow: intake, plan, manifest, run, validate, gate",
        description=__doc__.splitlines()[0],
    )
    sub = parser.add_subparsers(dest="ptq_command", metavar="SUBCOMMAND", parser_class=type(parser))
    sub.required = True

    p = sub.add_parser("intake", help="model directory or HF id -> model_analysis.json (static)")
    p.add_argument(
        "--model",
        type=_args.path_name,
        required=True,
        metavar="DIR|HF_ID",
        help="the model to analyse: a local Hugging Face model directory, or a Hub id found in the "
        "local Hugging Face cache",
    )
    p.add_argument(
        "--allow-hub",
        action="store_true",
        help="allow fetching config.json of a Hugging Face id from the Hub (default: offline)",
    )
    p.add_argument(
        "--output",
        dest="out",
        default="model_analysis.json",
        metavar="FILE",
        type=_args.output_file,
        help="where to write the model analysis JSON",
    )
    p.deprecate("--out", "--output")
    p.add_argument("--json", action="store_true", help="print the analysis on stdout")
    p.set_defaults(func=run_intake)

    p = sub.add_parser("plan", help="model_analysis.json + scheme -> quant_plan.json")
    p.add_argument(
        "--analysis",
        required=True,
        metavar="FILE",
        type=_args.input_file,
        help="model_analysis.json written by ptq intake",
    )
    p.add_argument(
        "--scheme", required=True, metavar="SCHEME", help="an LLMTemplate scheme, e.g. fp8, int4_wo_128"
    )
    p.add_argument(
        "--algo",
        metavar="A[,B]",
        help="quantization algorithm(s), comma-separated, e.g. awq, gptq (default: none)",
    )
    p.add_argument("--kv-cache", metavar="SCHEME", help="KV-cache scheme, e.g. fp8 (default: not quantized)")
    p.add_argument(
        "--exclude",
        nargs="+",
        default=[],
        metavar="PATTERN",
        help="extra layer name patterns to exclude, e.g. '*lm_head' (default: the template's)",
    )
    p.add_argument(
        "--layer-scheme",
        nargs=2,
        action="append",
        default=[],
        metavar=("PATTERN", "SCHEME"),
        help="per-pattern scheme override (repeatable; default: none)",
    )
    p.add_argument(
        "--calib-dataset",
        metavar="NAME|FILE",
        type=calib_dataset,
        help="calibration data: pileval, wikitext, cnn_dailymail or an existing text file, one sample "
        "per line (default: Quark's)",
    )
    p.add_argument(
        "--num-calib-data",
        type=_args.positive_int,
        metavar="N",
        help="number of calibration samples (default: Quark's)",
    )
    p.add_argument(
        "--seq-len",
        type=_args.positive_int,
        metavar="N",
        help="calibration sequence length in tokens (default: Quark's)",
    )
    p.add_argument(
        "--batch-size",
        type=_args.positive_int,
        metavar="N",
        help="calibration batch size in samples (default: Quark's)",
    )
    p.add_argument(
        "--dtype",
        default="auto",
        metavar="DTYPE",
        help="model load dtype: auto, float32, bfloat16 or float16 (default: auto)",
    )
    p.add_argument(
        "--device",
        default="auto",
        metavar="DEVICE",
        help="auto (cuda when available), cpu or cuda (default: auto)",
    )
    p.add_argument(
        "--output",
        dest="out",
        default="quant_plan.json",
        metavar="FILE",
        type=_args.output_file,
        help="where to write the quantization plan JSON",
    )
    p.deprecate("--out", "--output")
    p.add_argument("--json", action="store_true", help="print the plan on stdout")
    p.set_defaults(func=run_plan)

    p = sub.add_parser("manifest", help="quant_plan.json -> run_manifest.yaml with exact commands")
    p.add_argument(
        "--plan",
        required=True,
        metavar="FILE",
        type=_args.input_file,
        help="quant_plan.json written by ptq plan",
    )
    p.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        type=_args.output_dir,
        help="directory for run_manifest.yaml and the run records",
    )
    p.add_argument(
        "--checkpoint",
        dest="output_dir",
        metavar="DIR",
        type=_args.output_dir,
        help="where ptq run will write the quantized model (default: OUT/model)",
    )
    p.deprecate("--output-dir", "--checkpoint")
    p.add_argument("--json", action="store_true", help="print the manifest as JSON on stdout")
    p.set_defaults(func=run_manifest)

    p = sub.add_parser("run", help="execute a manifest with amd-quark (needs --yes)")
    p.add_argument(
        "--manifest",
        required=True,
        metavar="FILE",
        type=_args.input_file,
        help="run_manifest.yaml written by ptq manifest",
    )
    p.add_argument("--yes", action="store_true", help="explicit approval to execute the recorded plan")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a non-empty output directory (default: refuse before any work)",
    )
    p.add_argument("--json", action="store_true", help="print the run result on stdout")
    p.set_defaults(func=run_run)

    p = sub.add_parser("validate", help="source + quantized checkpoint -> validation summary JSON")
    p.add_argument(
        "--source",
        required=True,
        metavar="DIR",
        type=_args.input_dir,
        help="the original (unquantized) model directory",
    )
    p.add_argument(
        "--checkpoint",
        type=_args.path_name,
        required=True,
        metavar="DIR",
        help="the quantized model directory written by ptq run; must exist, unless --run-result "
        "records a failed run (then its absence is recorded in the summary for the gate)",
    )
    p.hard_break(
        "--output",
        "--checkpoint",
        "--output no longer names the quantized model: pass it as --checkpoint DIR "
        "(--output FILE is now where the summary is written)",
    )
    p.add_argument(
        "--run-result",
        metavar="FILE",
        type=_args.input_file,
        help="run_result.json written by ptq run (default: none)",
    )
    p.add_argument("--no-reload", action="store_true", help="skip the transformers reload check")
    p.add_argument(
        "--output",
        dest="out",
        default="validation_summary.json",
        metavar="FILE",
        type=_args.output_file,
        help="where to write the validation summary JSON",
    )
    p.deprecate("--out", "--output")
    p.add_argument("--json", action="store_true", help="print the summary on stdout")
    p.set_defaults(func=run_validate)

    p = sub.add_parser("gate", help="validation summary -> {pass, failure_class, detail, checks}")
    p.add_argument(
        "--summary",
        type=_args.path_name,
        required=True,
        metavar="FILE",
        help="validation summary JSON written by ptq validate",
    )
    p.add_argument(
        "--max-size-ratio",
        type=float,
        default=ptq_gate.DEFAULT_MAX_SIZE_RATIO,
        metavar="R",
        help="fail with SIZE_NOT_REDUCED when output size / source size >= R, a positive number "
        f"(default: {ptq_gate.DEFAULT_MAX_SIZE_RATIO})",
    )
    p.add_argument(
        "--max-accuracy-drop",
        type=float,
        default=ptq_gate.DEFAULT_MAX_ACCURACY_DROP,
        metavar="D",
        help="fail when the demo-task accuracy drops more than D (a fraction 0..1) below the source's "
        f"(default: {ptq_gate.DEFAULT_MAX_ACCURACY_DROP:.2f})",
    )
    p.add_argument(
        "--min-top1-agreement",
        type=float,
        default=ptq_gate.DEFAULT_MIN_TOP1_AGREEMENT,
        metavar="A",
        help="without a demo task: fail when top-1 agreement with the source is below A (a fraction "
        f"0..1; default: {ptq_gate.DEFAULT_MIN_TOP1_AGREEMENT:.2f})",
    )
    p.add_argument(
        "--markdown",
        metavar="FILE",
        type=_args.output_file,
        help="also write the verdict as a sticky-comment Markdown body to FILE (default: not written)",
    )
    p.add_argument(
        "--report-dir",
        metavar="DIR",
        type=_args.output_dir,
        help="also write DIR/validation_report.md and .json (kind ptq: the PTQ stages and the gate), "
        "the report ptq.yml uploads and publish-ptq.yml posts (default: not written)",
    )
    p.add_argument(
        "--github-output",
        action="store_true",
        help="also write the step outputs pass (true|false) and failure-class (empty on pass) to "
        "$GITHUB_OUTPUT, for a refused input too (default: not written)",
    )
    p.set_defaults(func=run_gate)


def _emit(args: argparse.Namespace, path: Path, document: object) -> None:
    if getattr(args, "json", False):
        print(json.dumps(document, indent=2, sort_keys=True, default=str))
    else:
        print(path)


def _offline_hub() -> None:
    """Local models only: never let transformers reach the Hub (set HF_HUB_OFFLINE=0 to override)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


def run_intake(args: argparse.Namespace) -> int:
    """``ptq intake``."""
    from quarkci.core.paths import check_apart, check_output_file
    from quarkci.ptq.intake import analyze, write_analysis

    check_output_file(args.out, "--output")
    check_apart([(args.out, "--output")], [(args.model, "--model")])
    analysis = analyze(args.model, allow_hub=args.allow_hub)
    path = write_analysis(analysis, args.out)
    if analysis["analysis_status"] == "partial":
        print(
            f"quarkci: analysis partial: {len(analysis['risks'])} risk(s) recorded in {path}", file=sys.stderr
        )
    _emit(args, path, analysis)
    return EXIT_OK


def run_plan(args: argparse.Namespace) -> int:
    """``ptq plan``."""
    from quarkci.core.paths import check_apart, check_output_file
    from quarkci.ptq.evidence import plan_warnings
    from quarkci.ptq.plan import CalibrationChoice, build_plan, load_analysis, write_plan

    check_output_file(args.out, "--output")
    calib_file = args.calib_dataset if args.calib_dataset and Path(args.calib_dataset).exists() else None
    check_apart([(args.out, "--output")], [(args.analysis, "--analysis"), (calib_file, "--calib-dataset")])
    analysis = load_analysis(args.analysis)
    calibration = CalibrationChoice(args.calib_dataset, args.num_calib_data, args.seq_len, args.batch_size)
    plan = build_plan(
        analysis,
        str(Path(args.analysis).resolve()),
        args.scheme,
        algorithm=args.algo,
        kv_cache=args.kv_cache,
        exclude=args.exclude,
        layer_quant_config=dict(args.layer_scheme),
        calibration=calibration,
        dtype=args.dtype,
        device=args.device,
    )
    plan["command"] = _plan_argv(args)
    for warning in plan_warnings(plan["global_scheme"], plan.get("device", "auto"), plan["quark_version"]):
        print(f"quarkci: warning: {warning}", file=sys.stderr)
    path = write_plan(plan, args.out)
    _emit(args, path, plan)
    return EXIT_OK


def _plan_argv(args: argparse.Namespace) -> list[str]:
    """The exact ``quarkci ptq plan`` argument array that reproduces this plan (absolute paths)."""
    argv = [
        "quarkci",
        "ptq",
        "plan",
        "--analysis",
        str(Path(args.analysis).resolve()),
        "--scheme",
        args.scheme,
    ]
    for flag, value in (
        ("--algo", args.algo),
        ("--kv-cache", args.kv_cache),
        ("--calib-dataset", args.calib_dataset),
        ("--num-calib-data", args.num_calib_data),
        ("--seq-len", args.seq_len),
        ("--batch-size", args.batch_size),
    ):
        if value is not None:
            argv += [flag, str(value)]
    if args.exclude:
        argv += ["--exclude", *args.exclude]
    for pattern, scheme in args.layer_scheme:
        argv += ["--layer-scheme", pattern, scheme]
    if args.dtype != "auto":
        argv += ["--dtype", args.dtype]
    if args.device != "auto":
        argv += ["--device", args.device]
    return [*argv, "--output", str(Path(args.out).resolve())]


def run_manifest(args: argparse.Namespace) -> int:
    """``ptq manifest``."""
    from quarkci.core.paths import check_output_dir
    from quarkci.ptq.manifest import MANIFEST_FILE, build_manifest, write_manifest
    from quarkci.ptq.plan import load_plan

    check_output_dir(args.out, "--out")
    if args.output_dir:
        check_output_dir(args.output_dir, "--checkpoint")
    plan = load_plan(args.plan)
    manifest = build_manifest(plan, args.plan, args.out, args.output_dir)
    path = write_manifest(manifest, Path(args.out) / MANIFEST_FILE)
    if manifest.get("blocked_by"):
        print(f"quarkci: manifest is manual_only: {'; '.join(manifest['blocked_by'])}", file=sys.stderr)
    _emit(args, path, manifest)
    return EXIT_OK


def run_run(args: argparse.Namespace) -> int:
    """``ptq run``: refuses without ``--yes``; exit 1 on an upstream failure."""
    from quarkci.ptq.manifest import (
        load_manifest,
        record_run,
        require_runnable,
        require_safe_outputs,
        require_tokenizer,
    )
    from quarkci.ptq.plan import load_plan

    manifest = load_manifest(args.manifest)
    if not args.yes:
        raise BadInputError(
            f"refusing to run PTQ without explicit confirmation: review {args.manifest} and pass --yes"
        )
    require_runnable(manifest, args.manifest)
    plan = load_plan(manifest["inputs"]["plan"])
    require_safe_outputs(manifest, args.manifest, overwrite=args.overwrite)
    require_tokenizer(plan["model"]["model_path"])
    _offline_hub()
    from quarkci.ptq import quark_api
    from quarkci.ptq.runner import run_plan as execute
    from quarkci.ptq.runner import write_run_result

    try:
        result = execute(plan, manifest["outputs"]["output_dir"], overwrite=args.overwrite)
    except quark_api.QuarkUnavailable as exc:
        raise BadInputError(f"{exc} (install the ML extra)") from None
    document = result.to_json()
    path = write_run_result(document, manifest["outputs"]["run_result"])
    record_run(args.manifest, document)
    if result.status != "succeeded":
        print(
            f"quarkci: ptq run failed at {result.stage} [{result.failure_class}]: {result.message}",
            file=sys.stderr,
        )
    _emit(args, path, document)
    return EXIT_OK if result.status == "succeeded" else EXIT_FINDINGS


def run_validate(args: argparse.Namespace) -> int:
    """``ptq validate``."""
    from quarkci.core.paths import check_distinct_file, check_output_file
    from quarkci.ptq.validate import load_run_result, summarize, write_summary

    check_output_file(args.out, "--output")
    if args.run_result:
        check_distinct_file(args.out, "--output", args.run_result, "--run-result")
    run_result = load_run_result(args.run_result) if args.run_result else None
    _check_checkpoint(args.checkpoint, run_result)
    _offline_hub()
    from quarkci.core.progress import stderr

    summary = summarize(
        args.source, args.checkpoint, run_result=run_result, reload=not args.no_reload, say=stderr()
    )
    path = write_summary(summary, args.out)
    _emit(args, path, summary)
    return EXIT_OK


def calib_dataset(value: str) -> str:
    """``--calib-dataset``: a dataset name the run loads by name, or an existing regular file."""
    from quarkci.ptq.plan import CLI_DATASETS

    if value in CLI_DATASETS:
        return value
    path = Path(_args.path_name(value))  # a name the file system can look up, before is_file()
    if path.is_file():
        return value
    what = "not a regular file" if path.exists() else "no such file"
    raise argparse.ArgumentTypeError(f"{value}: {what}, and not a dataset name ({', '.join(CLI_DATASETS)})")


def _check_checkpoint(checkpoint: str, run_result: RunResultDoc | None) -> None:
    """Refuse a ``--checkpoint`` that is not a directory, unless ``run_result`` records a failed run
    (a failed run leaves no checkpoint; the summary records that for the gate)."""
    path = Path(checkpoint)
    if path.is_dir() or (
        not path.exists() and run_result is not None and run_result.get("status") == "failed"
    ):
        return
    what = (
        "not a directory" if path.exists() else "no such directory (and --run-result records no failed run)"
    )
    raise BadInputError(f"--checkpoint {checkpoint}: {what}")


def run_gate(args: argparse.Namespace) -> int:
    """``ptq gate``: verdict JSON on stdout; 0 pass, 1 fail, 2 unreadable input (verdict still printed).

    The summary is read through the ``validation_summary`` contract; the ``--markdown`` and
    ``--report-dir`` locations are checked while parsing, before anything is read. With ``--report-dir``
    the validation report (kind ``ptq``) is written for a pass and a fail alike, not for unreadable input.
    With ``--github-output`` the step outputs ``pass`` and ``failure-class`` are written for every
    verdict printed (:func:`_gate_outputs`).
    """
    from quarkci.core.documents import read_artifact

    problem, target = _gate_flags(args)
    if problem is not None:
        return _refuse(problem, target)
    try:
        summary: ValidationSummary = read_artifact("validation_summary", args.summary)
    except BadInputError as exc:
        return _refuse(f"--summary {exc}", target)
    judged: Verdict = ptq_gate.evaluate(
        summary,
        max_size_ratio=args.max_size_ratio,
        max_accuracy_drop=args.max_accuracy_drop,
        min_top1_agreement=args.min_top1_agreement,
    )
    if args.markdown:
        from quarkci.core.atomic import atomic_write_text
        from quarkci.ptq.markdown import render

        atomic_write_text(args.markdown, render(summary, judged))
    if args.report_dir:
        from quarkci.report import ptq as ptq_report

        ptq_report.write(summary, judged, args.report_dir)
    _gate_outputs(judged, target)
    print(json.dumps(judged, indent=2, sort_keys=True))
    return EXIT_OK if judged["pass"] else EXIT_FINDINGS


def _gate_flags(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """``ptq gate``'s flags checked in order, before the summary is read: ``(the first problem, one line
    naming the flag, or None; the $GITHUB_OUTPUT file with --github-output, else None)``."""
    from quarkci.core.paths import check_distinct_file, check_output_file
    from quarkci.core.step_outputs import require_output_file

    target = None
    if not args.summary:
        return "--summary is required", target
    if args.github_output:
        try:
            target = require_output_file()
        except BadInputError as exc:
            return str(exc), target
    if args.markdown:
        try:
            check_output_file(args.markdown, "--markdown")
            check_distinct_file(args.markdown, "--markdown", args.summary, "--summary")
        except BadInputError as exc:
            return str(exc), target
    if not (math.isfinite(args.max_size_ratio) and args.max_size_ratio > 0):
        return f"--max-size-ratio must be a positive finite number, not {args.max_size_ratio}", target
    for flag, value in (
        ("--max-accuracy-drop", args.max_accuracy_drop),
        ("--min-top1-agreement", args.min_top1_agreement),
    ):
        if not 0.0 <= value <= 1.0:  # NaN fails this too
            return f"{flag} must be a number in [0, 1], not {value}", target
    return None, target


def _refuse(problem: str, target: str | None) -> int:
    """Input ``ptq gate`` cannot judge: print a USER_CONFIG_ERROR verdict (and write its step outputs to
    ``target``), say ``problem`` on stderr, and return exit 2."""
    from quarkci.gates.failure_class import FailureClass
    from quarkci.gates.verdict import verdict

    refused = verdict(ptq_gate.ID, False, FailureClass.USER_CONFIG_ERROR, problem, checks=[])
    _gate_outputs(refused, target)
    print(json.dumps(refused, indent=2, sort_keys=True))
    print(f"quarkci: error: {problem}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _gate_outputs(judged: Verdict, target: str | None) -> None:
    """Append the verdict's step outputs to ``target`` (``$GITHUB_OUTPUT``; nothing when ``None``):
    ``pass`` ``true``|``false`` and ``failure-class`` (a :class:`~quarkci.gates.failure_class.FailureClass`
    value, empty on pass). Raises :class:`BadInputError` when the file cannot be appended to."""
    if target is not None:
        values = {
            "pass": "true" if judged["pass"] else "false",
            "failure-class": judged["failure_class"] or "",
        }
        write_outputs(values, target)


def judge_summary(summary: ValidationSummary) -> Verdict:
    """The PTQ gate's verdict on ``summary`` with the gate's defaults (what ``ptq gate`` without threshold
    flags judges, and so ``ptq.yml``): for a publisher that re-renders a GPU runner's PTQ report from its
    measured summary instead of showing the verdict the runner wrote (``report markdown``). Never raises."""
    return ptq_gate.evaluate(summary)
