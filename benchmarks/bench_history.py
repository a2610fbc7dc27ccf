"""Benchmark: the drift history run and the facts cache vs importing Quark at runtime, side by side.

1. Facts of one release (0.13) in-process: cold (empty facts cache: parse all modules) vs warm (one
   JSON read, keyed by the wheel's sha256). Targets: cold <= 5 s, warm <= 1 s.
2. ``quarkci history --from 0.9 --to 0.13`` logic in-process (releases resolved from the wheel cache,
   bundled skills of 0.13): cold facts cache vs warm. Target: warm <= 10 s for the seven releases.
3. The runtime path for comparison: a fresh process running ``import quark.torch`` (needs the ML extra);
   this is what reading facts from an installed Quark at runtime would cost per process.

Targets are printed as PASS/FAIL (the tests assert the structure: a cache hit runs no extractor).
Run: ``.venv/bin/python benchmarks/bench_history.py``. Wheels are downloaded once, untimed, first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

HISTORY = ("0.9", "0.10", "0.11", "0.11.1", "0.11.2", "0.12.post1", "0.13")


def _history(snapshots):
    from quarkci.skills import SnapshotSource, discover
    from quarkci.skills.claims import extract_claims
    from quarkci.sync.history import run_history

    source = SnapshotSource(snapshots[-1][1])
    skills = discover(source)
    claims = [c for s in skills if s.error is None for c in extract_claims(s, source.read_text)]
    return run_history(snapshots, skills, claims, source.read_text, "bundled:0.13")


def main() -> int:
    from quarkci.upstream.fetch import fetch_wheel
    from quarkci.upstream.wheel import WheelSnapshot

    paths = {v: fetch_wheel(v) for v in HISTORY}  # untimed download
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        os.environ["QUARKCI_CACHE_DIR"] = cache
        from quarkci.facts.cache import facts_of

        snap = WheelSnapshot(paths["0.13"])
        t = time.perf_counter()
        facts_of(snap)
        cold = time.perf_counter() - t  # noqa: E702
        t = time.perf_counter()
        facts_of(WheelSnapshot(paths["0.13"]))
        warm = time.perf_counter() - t  # noqa: E702
        rows += [("facts 0.13 cold", cold, 5.0), ("facts 0.13 warm", warm, 1.0)]
        os.environ["QUARKCI_CACHE_DIR"] = os.path.join(cache, "history")
        snapshots = [(f"amd-quark=={v}", WheelSnapshot(paths[v])) for v in HISTORY]
        t = time.perf_counter()
        _history(snapshots)
        h_cold = time.perf_counter() - t  # noqa: E702
        snapshots = [(f"amd-quark=={v}", WheelSnapshot(paths[v])) for v in HISTORY]
        t = time.perf_counter()
        timeline = _history(snapshots)
        h_warm = time.perf_counter() - t  # noqa: E702
        rows += [("history 0.9..0.13 cold", h_cold, None), ("history 0.9..0.13 warm", h_warm, 10.0)]
    with tempfile.TemporaryDirectory() as cwd:
        t = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", "import quark.torch"], cwd=cwd, capture_output=True, check=False
        )
        runtime = time.perf_counter() - t
    rows.append(
        (
            "runtime: import quark.torch (1 process)" + ("" if proc.returncode == 0 else " [FAILED]"),
            runtime,
            None,
        )
    )
    for name, seconds, target in rows:
        verdict = (
            "" if target is None else ("PASS" if seconds <= target else "FAIL") + f" (target <= {target:g} s)"
        )
        print(f"{name:<44} {seconds:8.2f} s  {verdict}")
    print(
        f"warm facts vs runtime import: {runtime / max(warm, 1e-9):.0f}x faster; "
        f"warm history of {len(timeline.points)} releases vs one runtime import: {runtime / h_warm:.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
