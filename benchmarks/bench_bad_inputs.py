"""Benchmark: how fast each bad input is refused (tests/bad_input_cases.py, run in a fresh interpreter).

Prints, side by side, the time to refuse every case of the table (in-process through quarkci.cli.main,
network and quark/torch imports blocked) next to the time of one ``import quark.torch`` in another
fresh interpreter: the work a refusal must never pay for. Not a test: nothing is asserted.

    python benchmarks/bench_bad_inputs.py
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="quarkci-bench-bad-") as work:
        home, tmp = Path(work, "home"), Path(work, "tmp")
        home.mkdir()
        tmp.mkdir()
        out = Path(work, "records.json")
        env = {**os.environ, "HOME": str(home), "TMPDIR": str(tmp), "PYTHONPATH": str(REPO)}
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, str(REPO / "tests" / "bad_input_cases.py"), str(out)], env=env, check=True
        )
        total = time.perf_counter() - start
        records = json.loads(out.read_text(encoding="utf-8"))
    start = time.perf_counter()
    quark = subprocess.run([sys.executable, "-c", "import quark.torch"], capture_output=True)
    quark_s = time.perf_counter() - start
    times = sorted(r["seconds"] for r in records)
    print(f"{'case':<40} {'exit':>4} {'ms':>8}")
    for r in records:
        print(f"{r['id']:<40} {r['code']!s:>4} {r['seconds'] * 1000:8.1f}")
    print(
        f"\n{len(records)} bad inputs refused in {sum(times):.2f} s in-process "
        f"(median {statistics.median(times) * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms, first case pays the "
        f"CLI imports); whole driver process {total:.2f} s"
    )
    label = "import quark.torch" if quark.returncode == 0 else "import quark.torch (failed: not installed?)"
    print(
        f"for comparison, one fresh {label}: {quark_s:.2f} s "
        f"= {quark_s / statistics.median(times):.0f} x the median refusal"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
