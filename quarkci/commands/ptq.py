"""``quarkci ptq``: the PTQ workflow on real amd-quark (intake, plan, manifest, run, validate, gate).

* ``ptq intake --model DIR|HF_ID [--out F]`` -> ``model_analysis.json`` (static: config.json and
  safetensors headers; no weights loaded). Exit 0 (also for a partial analysis), 2 bad input.
* ``ptq plan --analysis F --scheme S [--algo A] [--kv-cache fp8] [--exclude PATTERN ...] [--out F]``
  -> ``quant_plan.json`` (scheme checked against the installed Quark). Exit 0, 2 bad input.
* ``ptq manifest --plan F --out DIR [--output-dir DIR]`` -> ``DIR/run_manifest.yaml``. Exit 0.
* ``ptq run --manifest F --yes``: runs PTQ in-process; refuses without ``--yes`` (exit 2). Writes
  the export, ``run_result.json`` and the manifest's status. Exit 0 succeeded, 1 upstream failure
  (failure class and upstream message on stderr and in ``run_result.json``), 2 bad input/blocked.
* ``ptq validate --source DIR --output DIR [--run-result F] [--no-reload] [--out F]`` -> validation
  summary JSON. Exit 0 (the verdict is the gate's), 2 unreadable source.
* ``ptq gate --summary F [--max-size-ratio R] [--markdown FILE]``: the verdict JSON on stdout (and a
  sticky-comment Markdown body). Exit 0 pass, 1 gate failed, 2 unreadable input (a
  USER_CONFIG_ERROR verdict is still printed).

Every command that writes a file prints its path on stdout, or the document with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from quarkci.core.errors import EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK, BadInputError

_SUBCOMMANDS = ("intake", "plan", "manifest", "run", "validate", "gate")


def add_parser(subparsers: Any) -> None:
    """Register ``ptq`` and its subcommands on the top-level subparsers."""
    parser = subparsers.add_parser("ptq", help="PTQ workflow: intake, plan, manifest, run, validate, gate",
                                   description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="ptq_command", metavar="SUBCOMMAND", parser_class=type(parser))
    sub.required = True

    p = sub.add_parser("intake", help="model directory or HF id -> model_analysis.json (static)")
    p.add_argument("--model", required=True, metavar="DIR|HF_ID")
    p.add_argument("--out", default="model_analysis.json", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the analysis on stdout")
    p.set_defaults(func=run_intake)

    p = sub.add_parser("plan", help="model_analysis.json + scheme -> quant_plan.json")
    p.add_argument("--analysis", required=True, metavar="FILE")
    p.add_argument("--scheme", required=True, metavar="SCHEME", help="an LLMTemplate scheme, e.g. fp8, int4_wo_128")
    p.add_argument("--algo", metavar="A[,B]", help="quantization algorithm(s), e.g. awq, gptq")
    p.add_argument("--kv-cache", metavar="SCHEME", help="KV-cache scheme (fp8)")
    p.add_argument("--exclude", nargs="+", default=[], metavar="PATTERN", help="extra layer patterns to exclude")
    p.add_argument("--layer-scheme", nargs=2, action="append", default=[], metavar=("PATTERN", "SCHEME"),
                   help="per-pattern scheme override (repeatable)")
    p.add_argument("--calib-dataset", metavar="NAME|FILE", help="pileval, wikitext, cnn_dailymail or a text file")
    p.add_argument("--num-calib-data", type=int, metavar="N")
    p.add_argument("--seq-len", type=int, metavar="N")
    p.add_argument("--batch-size", type=int, metavar="N")
    p.add_argument("--dtype", default="auto", help="model load dtype: auto, float32, bfloat16, float16")
    p.add_argument("--device", default="auto", help="auto (cuda when available), cpu or cuda")
    p.add_argument("--out", default="quant_plan.json", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the plan on stdout")
    p.set_defaults(func=run_plan)

    p = sub.add_parser("manifest", help="quant_plan.json -> run_manifest.yaml with exact commands")
    p.add_argument("--plan", required=True, metavar="FILE")
    p.add_argument("--out", required=True, metavar="DIR", help="directory for the manifest and run records")
    p.add_argument("--output-dir", metavar="DIR", help="quantized model directory (default: OUT/model)")
    p.add_argument("--json", action="store_true", help="print the manifest as JSON on stdout")
    p.set_defaults(func=run_manifest)

    p = sub.add_parser("run", help="execute a manifest with amd-quark (needs --yes)")
    p.add_argument("--manifest", required=True, metavar="FILE")
    p.add_argument("--yes", action="store_true", help="explicit approval to execute the recorded plan")
    p.add_argument("--json", action="store_true", help="print the run result on stdout")
    p.set_defaults(func=run_run)

    p = sub.add_parser("validate", help="source + quantized output -> validation summary JSON")
    p.add_argument("--source", required=True, metavar="DIR")
    p.add_argument("--output", required=True, metavar="DIR")
    p.add_argument("--run-result", metavar="FILE", help="run_result.json written by ptq run")
    p.add_argument("--no-reload", action="store_true", help="skip the transformers reload check")
    p.add_argument("--out", default="validation_summary.json", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the summary on stdout")
    p.set_defaults(func=run_validate)

    p = sub.add_parser("gate", help="validation summary -> {pass, failure_class, detail, checks}")
    p.add_argument("--summary", metavar="FILE", help="validation summary JSON")
    p.add_argument("--max-size-ratio", type=float, default=1.0, metavar="R",
                   help="fail with SIZE_NOT_REDUCED when output/source >= R (default 1.0)")
    p.add_argument("--markdown", metavar="FILE", help="also write the verdict as a sticky-comment Markdown body")
    p.set_defaults(func=run_gate)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the chosen subcommand."""
    return {"intake": run_intake, "plan": run_plan, "manifest": run_manifest, "run": run_run,
            "validate": run_validate, "gate": run_gate}[args.ptq_command](args)


def _emit(args: argparse.Namespace, path: Path, document: Any) -> None:
    if getattr(args, "json", False):
        print(json.dumps(document, indent=2, sort_keys=True, default=str))
    else:
        print(path)


def _offline_hub() -> None:
    """Local models only: never let transformers reach the Hub (set HF_HUB_OFFLINE=0 to override)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


def run_intake(args: argparse.Namespace) -> int:
    """``ptq intake``."""
    from quarkci.ptq.intake import analyze, write_analysis

    analysis = analyze(args.model)
    path = write_analysis(analysis, args.out)
    if analysis["analysis_status"] == "partial":
        print(f"quarkci: analysis partial: {len(analysis['risks'])} risk(s) recorded in {path}", file=sys.stderr)
    _emit(args, path, analysis)
    return EXIT_OK


def run_plan(args: argparse.Namespace) -> int:
    """``ptq plan``."""
    from quarkci.ptq.plan import build_plan, load_json, write_plan

    analysis = load_json(args.analysis, "model_analysis")
    calibration = {"dataset": args.calib_dataset, "num_calib_data": args.num_calib_data, "seq_len": args.seq_len,
                   "batch_size": args.batch_size}
    plan = build_plan(analysis, str(Path(args.analysis).resolve()), args.scheme, algorithm=args.algo,
                      kv_cache=args.kv_cache, exclude=args.exclude, layer_quant_config=dict(args.layer_scheme),
                      calibration=calibration, dtype=args.dtype, device=args.device)
    plan["command"] = _plan_argv(args)
    path = write_plan(plan, args.out)
    _emit(args, path, plan)
    return EXIT_OK


def _plan_argv(args: argparse.Namespace) -> list[str]:
    """The exact ``quarkci ptq plan`` argument array that reproduces this plan (absolute paths)."""
    argv = ["quarkci", "ptq", "plan", "--analysis", str(Path(args.analysis).resolve()), "--scheme", args.scheme]
    for flag, value in (("--algo", args.algo), ("--kv-cache", args.kv_cache), ("--calib-dataset", args.calib_dataset),
                        ("--num-calib-data", args.num_calib_data), ("--seq-len", args.seq_len),
                        ("--batch-size", args.batch_size)):
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
    return [*argv, "--out", str(Path(args.out).resolve())]


def run_manifest(args: argparse.Namespace) -> int:
    """``ptq manifest``."""
    from quarkci.ptq.manifest import MANIFEST_FILE, build_manifest, write_manifest
    from quarkci.ptq.plan import load_json

    plan = load_json(args.plan, "quant_plan")
    manifest = build_manifest(plan, args.plan, args.out, args.output_dir)
    path = write_manifest(manifest, Path(args.out) / MANIFEST_FILE)
    if manifest.get("blocked_by"):
        print(f"quarkci: manifest is manual_only: {'; '.join(manifest['blocked_by'])}", file=sys.stderr)
    _emit(args, path, manifest)
    return EXIT_OK


def run_run(args: argparse.Namespace) -> int:
    """``ptq run``: refuses without ``--yes``; exit 1 on an upstream failure."""
    from quarkci.ptq.manifest import load_manifest, record_run, require_runnable
    from quarkci.ptq.plan import load_json

    manifest = load_manifest(args.manifest)
    if not args.yes:
        raise BadInputError("refusing to run PTQ without explicit confirmation: review "
                            f"{args.manifest} and pass --yes")
    require_runnable(manifest, args.manifest)
    plan = load_json(manifest["inputs"]["plan"], "quant_plan")
    _offline_hub()
    from quarkci.ptq import quark_api
    from quarkci.ptq.runner import run_plan as execute
    from quarkci.ptq.runner import write_run_result

    try:
        result = execute(plan, manifest["outputs"]["output_dir"])
    except quark_api.QuarkUnavailable as exc:
        raise BadInputError(f"{exc} (install the ML extra)") from None
    document = result.to_json()
    path = write_run_result(document, manifest["outputs"]["run_result"])
    record_run(args.manifest, document)
    if result.status != "succeeded":
        print(f"quarkci: ptq run failed at {result.stage} [{result.failure_class}]: {result.message}",
              file=sys.stderr)
    _emit(args, path, document)
    return EXIT_OK if result.status == "succeeded" else EXIT_FINDINGS


def run_validate(args: argparse.Namespace) -> int:
    """``ptq validate``."""
    from quarkci.ptq.validate import load_run_result, summarize, write_summary

    _offline_hub()
    run_result = load_run_result(args.run_result) if args.run_result else None
    summary = summarize(args.source, args.output, run_result=run_result, reload=not args.no_reload)
    path = write_summary(summary, args.out)
    _emit(args, path, summary)
    return EXIT_OK


def run_gate(args: argparse.Namespace) -> int:
    """``ptq gate``: verdict JSON on stdout; 0 pass, 1 fail, 2 unreadable input (verdict still printed)."""
    from quarkci.core.failure_class import FailureClass
    from quarkci.gates.ptq import evaluate

    summary: Any = None
    problem = None
    if not args.summary:
        problem = "--summary is required"
    else:
        try:
            summary = json.loads(Path(args.summary).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            problem = f"{args.summary}: unreadable: {type(exc).__name__}: {str(exc)[:200]}"
    if not problem and not (math.isfinite(args.max_size_ratio) and args.max_size_ratio > 0):
        problem = f"--max-size-ratio must be a positive finite number, not {args.max_size_ratio}"
    if problem:
        verdict = {"gate": "ptq", "pass": False, "failure_class": FailureClass.USER_CONFIG_ERROR.value,
                   "detail": problem, "checks": []}
        print(json.dumps(verdict, indent=2, sort_keys=True))
        print(f"quarkci: error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    verdict = evaluate(summary, max_size_ratio=args.max_size_ratio)
    if args.markdown:
        from quarkci.core.atomic import atomic_write_text
        from quarkci.ptq.markdown import render

        atomic_write_text(args.markdown, render(summary if isinstance(summary, dict) else {}, verdict))
    print(json.dumps(verdict, indent=2, sort_keys=True))
    return EXIT_OK if verdict["pass"] else EXIT_FINDINGS
