"""Benchmark of ``quarkci sync`` on the real amd-quark 0.13 wheel and its bundled skills (warm cache).

Prints, measured side by side in one run: the whole audit with the baseline read from a stored
``reports/baselines/0.12.post1.json`` vs resolved from the 0.12.post1 wheel, and the time per stage.
Results of both variants are compared for equality (same findings). Not a test: nothing is asserted.

    python benchmarks/bench_sync.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from quarkci.skills import SnapshotSource
from quarkci.sync import baseline as baselines
from quarkci.sync.audit import audit
from quarkci.sync.run import build_view, read_skills
from quarkci.sync.state import AuditState
from quarkci.upstream.resolve import resolve


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def run_once(base_source: str, stored: Path | None) -> tuple[dict[str, float], list[str]]:
    stages: dict[str, float] = {}
    snapshot, stages["resolve"] = _timed(lambda: resolve("amd-quark==0.13"))
    upstream, stages["facts"] = _timed(lambda: build_view("amd-quark==0.13", snapshot))
    source = SnapshotSource(snapshot)
    (skills, claims), stages["skills+claims"] = _timed(lambda: read_skills(source))
    if stored is not None:
        base, stages["baseline"] = _timed(lambda: baselines.load(stored))
    else:
        base, stages["baseline"] = _timed(lambda: build_view(base_source, resolve(base_source)))
    result, stages["audit"] = _timed(
        lambda: audit(AuditState(skills, claims, upstream, base, source.read_text))
    )
    stages["total"] = sum(stages.values())
    return stages, [f.one_line() for f in result.findings.findings]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    spec = "amd-quark==0.12.post1"
    with tempfile.TemporaryDirectory() as tmp:
        stored = baselines.save(build_view(spec, resolve(spec)), Path(tmp))
        run_once(spec, stored)  # warm the wheel cache and imports
        wheel_runs, stored_runs = [], []
        for _ in range(args.repeat):
            wheel_runs.append(run_once(spec, None))
            stored_runs.append(run_once(spec, stored))
    same = all(w[1] == s[1] for w, s in zip(wheel_runs, stored_runs, strict=True))
    print(f"amd-quark 0.13 bundled skills vs baseline 0.12.post1, median of {args.repeat} warm runs")
    print(f"{'stage':<16}{'baseline wheel':>16}{'stored baseline':>17}")
    for stage in wheel_runs[0][0]:
        w = statistics.median(r[0][stage] for r in wheel_runs)
        s = statistics.median(r[0][stage] for r in stored_runs)
        print(f"{stage:<16}{w:>15.3f}s{s:>16.3f}s")
    w = statistics.median(r[0]["total"] for r in wheel_runs)
    s = statistics.median(r[0]["total"] for r in stored_runs)
    print(
        f"stored baseline is {w / s:.2f}x faster end to end; findings identical: {same} "
        f"({len(stored_runs[0][1])} findings)"
    )


if __name__ == "__main__":
    main()
