"""Score the router on the committed held-out goals (benchmarks/heldout/router/goals.json).

The set was written by a helper that had not seen the router's code or tests; never tune on it. Each goal is
routed through the real CLI (``quarkci route GOAL --json``, a subprocess per goal), and three figures are
printed: accuracy (``workflow`` equals ``expected``; ``expected: null`` means the router must ask, i.e. answer
``undecided``), the precision of confident routes (routes that are not ``undecided``: how many are right), and
how many negated or deferred quantize goals went to a PTQ workflow (must be 0).

Usage: ``python benchmarks/score_router_heldout.py [--goals FILE] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PTQ = {"quark-torch-ptq", "quark-onnx-ptq"}


def route(goal: str, scratch: Path) -> str:
    """The ``workflow`` the router gives ``goal`` ("undecided" when it asks; "ERROR rc=N" on a failed run)."""
    done = subprocess.run(
        [sys.executable, "-m", "quarkci", "route", goal, "--json", "--output", str(scratch / "s.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        return f"ERROR rc={done.returncode}"
    return str(json.loads(done.stdout)["workflow"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--goals", type=Path, default=HERE / "heldout" / "router" / "goals.json")
    parser.add_argument("--json", type=Path, default=None, help="write the per-goal results here")
    args = parser.parse_args()
    goals = json.loads(args.goals.read_text())["goals"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in goals:
            got = route(g["goal"], Path(tmp))
            want = g["expected"] or "undecided"
            rows.append({**g, "got": got, "ok": got == want})
    confident = [r for r in rows if r["got"] != "undecided" and not r["got"].startswith("ERROR")]
    right = [r for r in rows if r["ok"]]
    negated = [r for r in rows if r["kind"] in ("negated-quantize", "deferred-quantize")]
    negated_ptq = [r for r in negated if r["got"] in PTQ]
    by_lang: dict[str, list[int]] = {}
    for r in rows:
        by_lang.setdefault(r["lang"], [0, 0])
        by_lang[r["lang"]][0] += r["ok"]
        by_lang[r["lang"]][1] += 1
    print(f"goals: {len(rows)}")
    print(f"accuracy: {len(right)}/{len(rows)} = {len(right) / len(rows):.1%}")
    cp = sum(r["ok"] for r in confident)
    print(f"confident routes: {len(confident)}; right: {cp} = {cp / max(len(confident), 1):.1%} precision")
    print(f"negated/deferred quantize goals sent to PTQ: {len(negated_ptq)} of {len(negated)}")
    print("by language: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by_lang.items())))
    for r in rows:
        if not r["ok"]:
            print(f"  MISS {r['id']} [{r['lang']}, {r['kind']}] want {r['expected']} got {r['got']}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
