"""The README's PTQ walkthrough as a user runs it: one fresh ``python -m quarkci`` process per step.

Times each step (demo-model, intake, plan, manifest, run, validate, gate) and a misspelled scheme,
prints one line per step and the totals against the targets of issue 14:

* intake + plan + manifest <= 3 s together (they read Quark's facts statically; no ``import quark``);
* the whole walkthrough <= 90 s, the demo model's build included when this run builds it (as the
  README's walkthrough does); with ``--model DIR`` it is reused and not counted;
* a misspelled scheme rejected in well under a second (printed; not a pass/fail target here).

Exit 0 when both targets are met, 1 otherwise. ``--model DIR`` reuses an existing demo model.

    python benchmarks/bench_ptq_walkthrough.py [--scheme fp8] [--model DIR] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def step(name: str, argv: list[str], expect: int = 0) -> float:
    """Run ``python -m quarkci ARGV`` in a fresh process; return its wall time in seconds."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "quarkci", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    seconds = time.perf_counter() - start
    status = "ok" if proc.returncode == expect else f"UNEXPECTED exit {proc.returncode}"
    print(f"{name:<22} {seconds:7.2f} s  exit {proc.returncode} ({status})", flush=True)
    if proc.returncode != expect:
        print(proc.stderr[-2000:], file=sys.stderr)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scheme", default="fp8")
    parser.add_argument("--model", help="an existing demo model directory (default: build one)")
    parser.add_argument("--keep", help="work directory to keep (default: a temporary one)")
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="quarkci-walkthrough-"))
    work.mkdir(parents=True, exist_ok=True)
    out = work / "out"
    model = Path(args.model) if args.model else work / "demo"
    demo = 0.0
    if not args.model:
        demo = step("demo-model", ["demo-model", "--out", str(model)])
    times = {
        "intake": step(
            "ptq intake",
            ["ptq", "intake", "--model", str(model), "--output", str(out / "model_analysis.json")],
        ),
        "plan": step(
            "ptq plan",
            [
                "ptq",
                "plan",
                "--analysis",
                str(out / "model_analysis.json"),
                "--scheme",
                args.scheme,
                "--output",
                str(out / "quant_plan.json"),
            ],
        ),
        "manifest": step(
            "ptq manifest", ["ptq", "manifest", "--plan", str(out / "quant_plan.json"), "--out", str(out)]
        ),
    }
    typo = step(
        "plan (misspelled)",
        [
            "ptq",
            "plan",
            "--analysis",
            str(out / "model_analysis.json"),
            "--scheme",
            "fp8x",
            "--output",
            str(work / "typo.json"),
        ],
        expect=2,
    )
    times["run"] = step("ptq run", ["ptq", "run", "--manifest", str(out / "run_manifest.yaml"), "--yes"])
    times["validate"] = step(
        "ptq validate",
        [
            "ptq",
            "validate",
            "--source",
            str(model),
            "--checkpoint",
            str(out / "model"),
            "--run-result",
            str(out / "run_result.json"),
            "--output",
            str(out / "validation_summary.json"),
        ],
    )
    times["gate"] = step(
        "ptq gate",
        [
            "ptq",
            "gate",
            "--summary",
            str(out / "validation_summary.json"),
            "--markdown",
            str(out / "ptq_gate.md"),
        ],
    )
    static = times["intake"] + times["plan"] + times["manifest"]
    total = sum(times.values()) + demo
    print(
        f"\nintake+plan+manifest {static:6.2f} s (target <= 3 s)   misspelled scheme rejected in {typo:.2f} s"
    )
    print(
        f"walkthrough          {total:6.2f} s (target <= 90 s; of which the demo model's build {demo:.2f} s)"
    )
    print(
        f"run+validate share   {(times['run'] + times['validate']) / total:.0%} (the two steps that import Quark)"
    )
    return 0 if static <= 3.0 and total <= 90.0 else 1


if __name__ == "__main__":
    sys.exit(main())
