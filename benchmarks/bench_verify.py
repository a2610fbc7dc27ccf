"""Benchmark: the cost of the real proof on amd-quark's kernels, cold vs warm JIT cache, side by side.

1. ``verify init --repo installed:amd-quark`` (static inventory: no quark import), timed.
2. ``verify prove --feature hw_emulation-mx-correctness`` with an empty TORCH_EXTENSIONS_DIR (the JIT
   build of hw_emulation is counted), then again with the same, now warm, cache.

Printed: seconds of each and the cold/warm ratio. Targets (printed as PASS/FAIL, never asserted in
tests): init <= 5 s; warm prove <= cold prove. Needs the ML extra, g++ and ninja.

Run: ``.venv/bin/python benchmarks/bench_verify.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, done.returncode


def main() -> int:
    quarkci = [sys.executable, "-m", "quarkci"]
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "TORCH_EXTENSIONS_DIR": str(work / "torch_extensions")}
        init_s, code = timed(
            [
                *quarkci,
                "verify",
                "init",
                "--repo",
                "installed:amd-quark",
                "--lib",
                "quark-kernels",
                "--skills",
                str(work / "skills"),
            ],
            env,
        )
        if code:
            print(f"init failed (exit {code})")
            return 1
        prove = [
            *quarkci,
            "verify",
            "prove",
            "--skill",
            str(work / "skills" / "verify-quark-kernels"),
            "--feature",
            "hw_emulation-mx-correctness",
            "--lock",
            str(work / "lock"),
        ]
        cold_s, cold_code = timed([*prove, "--out", str(work / "cold")], env)
        warm_s, warm_code = timed([*prove, "--out", str(work / "warm")], env)
    print(f"init {init_s:.1f} s  [{'PASS' if init_s <= 5 else 'FAIL'} <= 5 s]")
    print(
        f"prove cold JIT cache {cold_s:.1f} s (exit {cold_code})  |  warm {warm_s:.1f} s (exit {warm_code})  "
        f"|  cold/warm {cold_s / warm_s:.2f}x  [{'PASS' if warm_s <= cold_s else 'FAIL'} warm <= cold]"
    )
    return 0 if cold_code == warm_code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
