"""Benchmark: the router on every committed evaluation set, accuracy and confident-route precision apart.

Sets: Quark 0.13's own ``evals/evals.json`` queries of every bundled skill, over the 0.13 bundled catalog (the
wheel is read at run time from the quarkci wheel cache, downloaded once if missing; the set rule and the
denominator are tests/router/test_quark_evals.py's), and the case files under tests/: the tuning corpus
(router_cases.yaml), the held-out splits (router_heldout_v2.yaml ... v7.yaml), and issue 25's kinds and
fresh probes (router_issue25.yaml). Per set it prints: the number of goals, accuracy (routed as expected; "ask" counts
when the router answers undecided), how many answers were confident routes and how many of those were right
(precision), and how many negated or deferred quantize goals reached a PTQ workflow (must be 0).

The held-out goals under benchmarks/heldout/ are scored by ``score_router_heldout.py``, not here.

Run: ``.venv/bin/python benchmarks/bench_router.py [--set NAME ...] [--misses]``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the case scoring lives with the tests (tests/router/scoring.py)

import yaml  # noqa: E402

from quarkci.router import route  # noqa: E402
from quarkci.router.catalog import load_catalog  # noqa: E402

PTQ = {"quark-torch-ptq", "quark-onnx-ptq", "quark-torch-llm-ptq-workflow", "quark-onnx-quantize-flow"}


@dataclass
class Score:
    """Counts of one set: ``confident`` answers that were routes, ``precise`` those that were right."""

    name: str
    total: int = 0
    right: int = 0
    confident: int = 0
    precise: int = 0
    negated: int = 0
    negated_to_ptq: int = 0

    def add(self, ok: bool, routed: bool, negated: bool = False, to_ptq: bool = False) -> None:
        self.total += 1
        self.right += ok
        self.confident += routed
        self.precise += routed and ok
        self.negated += negated
        self.negated_to_ptq += negated and to_ptq

    def line(self) -> str:
        precision = f"{self.precise / self.confident:.1%}" if self.confident else "-"
        neg = (
            f"; negated/deferred quantize to PTQ {self.negated_to_ptq}/{self.negated}" if self.negated else ""
        )
        return (
            f"{self.name:<22} goals {self.total:>4}  accuracy {self.right:>4}/{self.total:<4} "
            f"= {self.right / max(self.total, 1):6.1%}  confident {self.confident:>4}, right {self.precise:>4} "
            f"= {precision}{neg}"
        )


def score_evals(misses: list[str]) -> Score:
    from tests.realwheels import real_wheel
    from tests.router.test_quark_evals import eval_items, expected

    wheel = real_wheel("0.13")
    catalog, label = load_catalog(f"bundled:{wheel}")
    score = Score("quark-0.13 evals.json")
    for skill, item in eval_items(wheel):
        want = expected(skill, item)
        if want is None:
            continue
        got = route(item["prompt"][:4000], catalog, label).document["workflow"]
        score.add(got == want, got != "undecided")
        if got != want:
            misses.append(f"  {score.name}: {skill}#{item.get('id')} want {want}, got {got}")
    return score


def score_cases(name: str, cases: list[dict[str, Any]], misses: list[str]) -> Score:
    from tests.router.scoring import PTQ_ROLES, check

    score = Score(name)
    for case in cases:
        outcome = check(case)
        routed = outcome.got_role is not None or (outcome.error is not None and outcome.confident)
        negated = bool(case.get("negated"))
        score.add(outcome.error is None, routed, negated, outcome.got_role in PTQ_ROLES)
        if outcome.error:
            misses.append(f"  {name}: {case['goal'][:80]!r}: {outcome.error[:160]}")
    return score


def case_sets() -> dict[str, list[dict[str, Any]]]:
    """Set name -> cases, from the committed case files."""
    tests = ROOT / "tests"
    out = {"corpus": yaml.safe_load((tests / "router_cases.yaml").read_text("utf-8"))["cases"]}
    for path in sorted(tests.glob("router_heldout_v*.yaml"), key=lambda p: int(p.stem.rsplit("v", 1)[1])):
        out[f"heldout-{path.stem.rsplit('_', 1)[1]}"] = yaml.safe_load(path.read_text("utf-8"))["cases"]
    issue25 = yaml.safe_load((tests / "router_issue25.yaml").read_text("utf-8"))
    out["issue25-kinds"] = [case for cases in issue25["kinds"].values() for case in cases]
    for name, cases in issue25["probes"].items():
        out[f"issue25-{name}"] = cases
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", default=None, help="only this set (repeatable)")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    args = parser.parse_args()
    misses: list[str] = []
    scores = []
    wanted = set(args.set) if args.set else None
    if wanted is None or "evals" in wanted:
        scores.append(score_evals(misses))
    for name, cases in case_sets().items():
        if wanted is None or name in wanted:
            scores.append(score_cases(name, cases, misses))
    for s in scores:
        print(s.line())
    if args.misses:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
