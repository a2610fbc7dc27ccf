"""Benchmark: the YAML alias bomb ("billion laughs") against the one document loader.

A 9-level document of nested aliases (342-355 bytes; 9**9 ~ 387 million strings once expanded) is fed to
``quarkci contracts validate`` and ``quarkci route --env-context`` as fresh processes. The loader composes
the node graph, counts the expanded size without expanding (memoised, linear in distinct nodes) and refuses
at 100,000 nodes: one line, exit 2. Each run's wall time and peak RSS (``wait4``) are printed side by side
with a process that only starts quarkci's CLI (``--version``), and, for scale, with ``yaml.safe_load``
plus one walk of the result (``json.dumps``) on a 6-level bomb (531,441 strings; PyYAML shares aliased
objects, the walk expands them; 9 levels would need tens of GB).

Targets (PASS/FAIL, never asserted in tests): <= 1 s and <= 100 MB per refused document: measured
in-process (``load_document``, ``tracemalloc`` peak) and as a process (wall minus the ``--version``
baseline, which on a shared 2-core machine is itself about 1 s of interpreter and import start-up).
Run: ``.venv/bin/python benchmarks/bench_yaml_bomb.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEVEL_LINE = "{name}: &{name} [{items}]\n"


def bomb(levels: int) -> str:
    """A billion-laughs document with ``levels`` levels of 9 aliases each."""
    names = "abcdefghijklmnop"
    text = LEVEL_LINE.format(name="a", items=",".join(['"lol"'] * 9))
    for i in range(1, levels):
        text += LEVEL_LINE.format(name=names[i], items=",".join([f"*{names[i - 1]}"] * 9))
    return text


def run(cmd: list[str]) -> tuple[float, float, int, str]:
    """(wall seconds, peak RSS MB, exit code, stderr) of ``cmd`` as a child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), err.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    py = sys.executable
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        doc = Path(tmp) / "bomb.env_context.yaml"
        doc.write_text(bomb(9))
        small = Path(tmp) / "small.yaml"
        small.write_text(bomb(6))
        print(f"bomb: {doc.stat().st_size} bytes, 9 levels (9**9 = {9**9:,} strings expanded)")
        rows = {
            "quarkci --version (baseline)": [py, "-m", "quarkci", "--version"],
            "contracts validate <bomb>": [py, "-m", "quarkci", "contracts", "validate", str(doc)],
            "route --env-context <bomb>": [
                py,
                "-m",
                "quarkci",
                "route",
                "quantize llama",
                "--env-context",
                str(doc),
                "--out",
                str(Path(tmp) / "s.json"),
            ],
            "safe_load + json.dumps, 6 levels": [
                py,
                "-c",
                f"import json, yaml; json.dumps(yaml.safe_load(open({str(small)!r})))",
            ],
        }
        import tracemalloc

        from quarkci.core.documents import load_document
        from quarkci.core.errors import BadInputError

        times, peaks = [], []
        for _ in range(args.repeat):
            tracemalloc.start()
            start = time.perf_counter()
            with contextlib.suppress(BadInputError):
                load_document(doc)
            times.append(time.perf_counter() - start)
            peaks.append(tracemalloc.get_traced_memory()[1] / 2**20)
            tracemalloc.stop()
        passed = statistics.median(times) <= 1.0 and max(peaks) <= 100
        ok &= passed
        print(
            f"{'load_document <bomb> (in-process)':<40} {statistics.median(times):6.3f} s  {max(peaks):7.2f} MB  "
            f"refused  {'PASS' if passed else 'FAIL'}"
        )
        baseline = 0.0
        for label, cmd in rows.items():
            results = [run(cmd) for _ in range(args.repeat)]
            wall = statistics.median(r[0] for r in results)
            mem = max(r[1] for r in results)
            code, err = results[0][2], results[0][3]
            verdict = ""
            if "baseline" in label:
                baseline = wall
            if "<bomb>" in label:
                passed = wall - baseline <= 1.0 and mem <= 100 and code == 2 and err.count("\n") == 0
                ok &= passed
                verdict = "PASS" if passed else "FAIL"
            extra = f" (+{wall - baseline:.3f} s over baseline)" if "<bomb>" in label else ""
            print(f"{label:<40} {wall:6.3f} s  {mem:7.1f} MB  exit {code}  {verdict}{extra}")
            if err and "<bomb>" in label:
                print(f"{'':<40} stderr: {err}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
