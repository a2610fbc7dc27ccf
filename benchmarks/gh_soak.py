"""A bigger fault-injection soak of ``quarkci gh`` than the test suite's (tests/github/test_soak.py: 200 runs).

    PYTHONPATH=. python benchmarks/gh_soak.py [--runs 1000] [--seed 7] [--pair-rate 0.15]

Prints the wall time, the figures (runs, faults injected, concurrent pairs, failed runs repaired
later) and the duplicates and inconsistencies found in the fake GitHub's final state (all must be 0;
exit 1 otherwise). The engine and what it checks: :mod:`tests.github.soak`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="runs in all, split over 4 commands (1000)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (7)")
    parser.add_argument("--pair-rate", type=float, default=0.15, help="share of concurrent pairs (0.15)")
    args = parser.parse_args()
    import logging

    import quarkci.github.client as client
    from tests.github.conftest import FAST
    from tests.github.soak import soak

    logging.basicConfig(level=logging.ERROR)
    client.DEFAULT_POLICY = FAST
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        figures, found = soak(args.runs, args.seed, Path(tmp), args.pair_rate)
    wall = time.perf_counter() - start
    print(f"gh soak: {figures['runs']} runs in {wall:.1f} s ({wall / max(figures['runs'], 1):.2f} s/run)")
    for key, value in sorted(figures.items()):
        print(f"  {key}: {value}")
    print("duplicates and inconsistencies (all must be 0):")
    for key, value in sorted(found.items()):
        print(f"  {key}: {value}")
    return 0 if not any(found.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
