"""Benchmark: the day-0 chain on the demo model (CPU), end to end, and the conductor's overhead.

Usage: ``PYTHONPATH=. python benchmarks/bench_day0.py [--scheme int8] [--model DIR] [--out DIR]``

Runs, each in a fresh process (so both pay one ``import quark.torch``):

* ``conductor``: ``quarkci day0 run`` (fresh baseline cache), wall time end to end;
* ``direct``: the same stage functions called one after the other with no conductor (intake, plan,
  manifest, PTQ run, validate + PTQ gate, canary, baseline eval, candidate eval, compare, verbosity);
* ``checkpoint``: ``quarkci day0 run --checkpoint EXPORT`` on the export of the warm-up conductor run (no
  PTQ: validate + gate, canary, evals), side by side with the full chain: it must be no slower (issue 22:
  it was 111 s vs 66 s when it imported Quark in more processes);
* ``vllm``: once, ``quarkci day0 run --server vllm`` (the canary and both evals through vLLM's server, from
  ``--vllm-python``, ``$QUARKCI_VLLM_PYTHON`` or ``.venv-vllm/bin/python``), with its stage times; the row
  says why it was skipped when no vLLM environment is there (``bash scripts/vllm_env.sh`` builds one).

Runs one uncounted warm-up run of each mode, then ABBA rounds (default 2) of conductor and direct, each
round followed by a checkpoint run. Reports the mean wall times side by side (and the checkpoint run's
against the full chain's, with both runs' stage times), the overhead ``(conductor - direct) / direct``,
each round's conductor/direct ratio and their median, the stage times of the last conductor run beside
the same stages timed in the last direct run (where a difference sits), the conductor's own bookkeeping
(its recorded wall time minus the sum of its stage times) and, per conductor run, the whole process's
wall time minus its stage times (an upper bound of the conductor's cost that stage-time noise cannot
hide: it includes the interpreter start and exit the direct run pays too). Targets: end to end <= 600 s
on this machine; overhead <= 5 %; checkpoint / full <= 1. Timing on a shared machine is noisy: each
figure is one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def direct(model: str, scheme: str, out: Path) -> None:
    """The stages without the conductor (what a user would script by hand)."""
    from quarkci.day0.canary import known_probe, run_canary
    from quarkci.day0.evaluate import EvalSpec, run_eval
    from quarkci.day0.suite import write_demo_suite
    from quarkci.gates import compare, verbosity
    from quarkci.gates.ptq import evaluate
    from quarkci.ptq.intake import analyze, write_analysis
    from quarkci.ptq.manifest import build_manifest, write_manifest
    from quarkci.ptq.plan import build_plan, write_plan
    from quarkci.ptq.runner import run_plan
    from quarkci.ptq.validate import summarize

    times: dict[str, float] = {}
    t0 = time.perf_counter()
    analysis_path = write_analysis(analyze(model), out / "model_analysis.json")
    plan = build_plan(json.loads(analysis_path.read_text()), str(analysis_path), scheme)
    plan_path = write_plan(plan, out / "quant_plan.json")
    manifest = build_manifest(plan, plan_path, out)
    write_manifest(manifest, out / "run_manifest.yaml")
    result = run_plan(plan, manifest["outputs"]["output_dir"])
    checkpoint = manifest["outputs"]["output_dir"]
    times["ptq"], t0 = time.perf_counter() - t0, time.perf_counter()
    assert (
        result.status == "succeeded"
        and evaluate(summarize(model, checkpoint, run_result=result.to_json()))["pass"]
    )
    times["gate_ptq"], t0 = time.perf_counter() - t0, time.perf_counter()
    assert run_canary(checkpoint, out / "canary", probe=known_probe(model))["pass"]
    times["canary"], t0 = time.perf_counter() - t0, time.perf_counter()
    suite = write_demo_suite(out / "suite")
    base = run_eval(model, suite, EvalSpec())
    times["baseline_eval"], t0 = time.perf_counter() - t0, time.perf_counter()
    cand = run_eval(checkpoint, suite, EvalSpec())
    times["candidate_eval"], t0 = time.perf_counter() - t0, time.perf_counter()
    assert compare.evaluate(base, cand)["pass"] and verbosity.evaluate(base, cand)["pass"]
    times["compare+verbosity"] = time.perf_counter() - t0
    (out / "direct_stages.json").write_text(json.dumps(times))


def _timed(argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    start = time.perf_counter()
    subprocess.run(argv, check=False, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def _vllm_row(python: str, conductor_argv, scheme: str) -> dict:
    """One ``day0 run --server vllm`` with its wall and stage times and which server judged, or
    ``{"skipped": why}`` when the vLLM environment is not there."""
    if not Path(python).is_file():
        return {
            "skipped": f"no vLLM environment at {python} (build one with `bash scripts/vllm_env.sh`, or pass "
            "--vllm-python / set QUARKCI_VLLM_PYTHON)"
        }
    argv = conductor_argv("vllm", "cache-vllm", "--server", "vllm", "--vllm-python", python)
    wall = _timed(argv)
    out = Path(argv[argv.index("--out") + 1])
    if not (out / "day0_result.json").is_file():
        return {"skipped": f"the --server vllm run wrote no day0_result.json (see {out})", "wall_s": wall}
    result = json.loads((out / "day0_result.json").read_text())
    canary = result.get("canary") or {}
    return {
        "scheme": scheme,
        "decision": result["decision"],
        "wall_s": round(wall, 1),
        "canary_server": canary.get("server"),
        "fallback": canary.get("fallback"),
        "stages_s": {s["name"]: round(s["seconds"], 1) for s in result["stages"]},
    }


def _dataset_absent_row(conductor_argv) -> dict:
    """``day0 run --tasks arc_easy`` offline with no arc_easy dataset in the cache: the setup gate's
    SYSTEMIC, its wall time, and that no PTQ stage started (issue 22)."""
    argv = conductor_argv("absent", "cache-absent")
    at = argv.index("--scheme")
    argv = [*argv[:at], "--tasks", "arc_easy", *argv[at:]]
    empty = Path(argv[argv.index("--out") + 1]).parent / "empty-datasets-cache"
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_DATASETS_CACHE": str(empty)}
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    out = Path(argv[argv.index("--out") + 1])
    result = (
        json.loads((out / "day0_result.json").read_text()) if (out / "day0_result.json").is_file() else {}
    )
    started = [
        s["name"] for s in result.get("stages", []) if s.get("status") not in (None, "skipped", "not_run")
    ]
    return {"wall_s": round(wall, 1), "exit": done.returncode, "decision": result.get("decision"),
            "stages_started": started}  # fmt: skip


def main() -> int:
    """Run both modes and print the figures (JSON on the last line)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--scheme", default="int8")
    parser.add_argument("--model", help="demo model directory (built when absent)")
    parser.add_argument("--out", help="work directory (default: a temporary one)")
    parser.add_argument("--rounds", type=int, default=2, help="ABBA rounds (default 2: four runs)")
    parser.add_argument(
        "--warmup",
        type=int,
        default=1,
        help="uncounted runs of each mode first (default 1): the first run of a session pays the "
        "cold page cache, HF datasets cache and .pyc writes, and ABBA puts the conductor first",
    )
    parser.add_argument(
        "--vllm-python",
        default=os.environ.get("QUARKCI_VLLM_PYTHON") or str(ROOT / ".venv-vllm" / "bin" / "python"),
        help="the vLLM environment's interpreter for the --server vllm row (default: $QUARKCI_VLLM_PYTHON, "
        "else .venv-vllm/bin/python); the row is skipped, saying so, when it does not exist",
    )
    parser.add_argument("--mode", choices=("direct",), help=argparse.SUPPRESS)
    args = parser.parse_args()
    work = Path(args.out or tempfile.mkdtemp(prefix="bench-day0-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.mode == "direct":
        direct(args.model, args.scheme, work)
        return 0
    model = args.model
    if not model:
        model = str(work / "demo")
        subprocess.run(
            [sys.executable, "-m", "quarkci", "demo-model", "--out", model],
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def conductor_argv(name: str, cache: str, *extra: str) -> list[str]:
        return [
            sys.executable,
            "-m",
            "quarkci",
            "day0",
            "run",
            "--model",
            model,
            "--scheme",
            args.scheme,
            "--out",
            str(work / name),
            "--cache-dir",
            str(work / cache),
            *extra,
        ]

    def direct_argv(name: str) -> list[str]:
        return [
            sys.executable,
            __file__,
            "--mode",
            "direct",
            "--model",
            model,
            "--scheme",
            args.scheme,
            "--out",
            str(work / name),
        ]

    for i in range(max(args.warmup, 1)):  # the first warm-up conductor run makes the checkpoint's export
        _timed(conductor_argv(f"warmup-conductor-{i}", f"warmup-cache-{i}"))
        _timed(direct_argv(f"warmup-direct-{i}"))
    export = str(work / "warmup-conductor-0" / "ptq" / "model")
    _timed(conductor_argv("warmup-checkpoint", "warmup-cache-ckpt", "--checkpoint", export))
    # ABBA order (conductor, direct, direct, conductor, ...) so that load drifting on a shared machine
    # weighs on both sides alike; each conductor run gets a fresh baseline cache (no cache hit), and so
    # does each checkpoint run (it evaluates the baseline too)
    conductor_times, direct_times, checkpoint_times, outside = [], [], [], []
    result: dict = {}
    given: dict = {}
    for i in range(args.rounds):
        order = ("conductor", "direct") if i % 2 == 0 else ("direct", "conductor")
        for mode in order:
            if mode == "conductor":
                out = work / f"conductor-{i}"
                conductor_times.append(_timed(conductor_argv(f"conductor-{i}", f"cache-{i}")))
                result = json.loads((out / "day0_result.json").read_text())
                # the whole process minus the stage functions it ran: interpreter start, argument checks,
                # state file, closeout, report and exit -- an upper bound of what the conductor adds
                outside.append(conductor_times[-1] - sum(s["seconds"] for s in result["stages"]))
            else:
                direct_times.append(_timed(direct_argv(f"direct-{i}")))
        argv = conductor_argv(f"checkpoint-{i}", f"cache-ckpt-{i}", "--checkpoint", export)
        checkpoint_times.append(_timed(argv))
        given = json.loads((work / f"checkpoint-{i}" / "day0_result.json").read_text())
    t_conductor = sum(conductor_times) / len(conductor_times)
    t_direct = sum(direct_times) / len(direct_times)
    stage_sum = sum(s["seconds"] for s in result["stages"])
    figures = {
        "scheme": args.scheme,
        "decision": result["decision"],
        "conductor_s": round(t_conductor, 1),
        "direct_s": round(t_direct, 1),
        "conductor_runs_s": [round(t, 1) for t in conductor_times],
        "direct_runs_s": [round(t, 1) for t in direct_times],
        "overhead_vs_direct": round((t_conductor - t_direct) / t_direct, 4),
        # each round's pair (run back to back, order alternating): the median is robust to one slow run
        "pair_ratios": [round(c / d, 4) for c, d in zip(conductor_times, direct_times, strict=True)],
        "pair_ratio_median": round(
            statistics.median(c / d for c, d in zip(conductor_times, direct_times, strict=True)), 4
        ),
        "conductor_bookkeeping_s": round(result["seconds"] - stage_sum, 3),
        "bookkeeping_ratio": round((result["seconds"] - stage_sum) / result["seconds"], 4),
        "outside_stages_s": [round(t, 2) for t in outside],
        "outside_stages_ratio_max": round(
            max(o / t for o, t in zip(outside, conductor_times, strict=True)), 4
        ),
        "stages_s": {s["name"]: round(s["seconds"], 1) for s in result["stages"]},
        # the same stages timed in the last direct run: where a difference sits
        "direct_stages_s": {
            k: round(v, 1)
            for k, v in json.loads(
                (work / f"direct-{args.rounds - 1}" / "direct_stages.json").read_text()
            ).items()
        },
        # day0 run --checkpoint (no PTQ) beside the full chain: target no slower (ratio <= 1)
        "checkpoint_decision": given["decision"],
        "checkpoint_s": round(sum(checkpoint_times) / len(checkpoint_times), 1),
        "checkpoint_runs_s": [round(t, 1) for t in checkpoint_times],
        "checkpoint_vs_full": round(sum(checkpoint_times) / sum(conductor_times), 4),
        "checkpoint_stages_s": {s["name"]: round(s["seconds"], 1) for s in given["stages"]},
        "vllm": _vllm_row(args.vllm_python, conductor_argv, args.scheme),
        "dataset_absent": _dataset_absent_row(conductor_argv),
        "end_to_end_target_s": 600,
        "overhead_target": 0.05,
    }
    print(
        f"day-0 {args.scheme} on the demo model: conductor {t_conductor:.1f}s | direct {t_direct:.1f}s | "
        f"overhead {figures['overhead_vs_direct']:+.1%} | "
        f"bookkeeping {figures['conductor_bookkeeping_s']:.2f}s"
    )
    print(
        f"day0 run --checkpoint {figures['checkpoint_s']:.1f}s vs the full chain {t_conductor:.1f}s "
        f"(ratio {figures['checkpoint_vs_full']:.3f})"
    )
    stages = list(figures["stages_s"])
    print(f"{'stage':<16}{'full chain s':>14}{'--checkpoint s':>16}")
    for name in stages:
        given_s = figures["checkpoint_stages_s"].get(name, 0.0)
        print(f"{name:<16}{figures['stages_s'][name]:>14.1f}{given_s:>16.1f}")
    vllm = figures["vllm"]
    print(
        f"--server vllm: {vllm['skipped']}"
        if "skipped" in vllm
        else f"--server vllm: {vllm['wall_s']:.1f}s, {vllm['decision']}, stages {vllm['stages_s']}"
    )
    absent = figures["dataset_absent"]
    print(
        f"--tasks arc_easy, dataset absent offline: {absent['decision']} after {absent['wall_s']:.1f}s "
        f"(exit {absent['exit']}), stages started: {absent['stages_started']}"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
