"""Benchmark: the router on every committed evaluation set, accuracy and confident-route precision apart.

Sets: Quark 0.13's own ``evals/evals.json`` queries of every bundled skill, over the 0.13 bundled catalog (the
wheel is read at run time from the quarkci wheel cache, downloaded once if missing; the set rule and the
denominator are tests/router/test_quark_evals.py's), and the case files under tests/: the tuning corpus
(router_cases.yaml), the held-out splits (router_heldout_v2.yaml ... v7.yaml), and issue 25's kinds and
fresh probes (router_issue25.yaml). Per set it prints: the number of goals, accuracy (routed as expected; "ask" counts
when the router answers undecided), how many answers were confident routes and how many of those were right
(precision), and how many negated or deferred quantize goals reached a PTQ workflow (must be 0).

The held-out goals under benchmarks/heldout/ are scored by ``score_router_heldout.py``, not here.

``--fit`` prints the classifier's cost at first use (sklearn import, corpus load, fit, first opinion).
``--cv`` scores the classifier and the agreement rule out of fold on the corpus (quarkci/router/data/
router_train.json; 5 folds, goal i in fold i mod 5): per part (the writers' train_1 ... train_5, dev_3, the own
sentences), the rules alone, the classifier alone, and the combined router for a sweep of the thresholds
(``AGREE`` x ``FALLBACK`` x ``OVERRIDE``), plus dev_3 scored by fits that never saw it (the writers' corpora
alone; everything but dev_3). It picks the thresholds by the rule in quarkci/router/confidence.py and prints them. Never the
held-out sets.

Run: ``.venv/bin/python benchmarks/bench_router.py [--set NAME ...] [--misses] [--fit] [--cv]``.
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


def fit_cost() -> None:
    """Print the classifier's first-use cost in seconds (a fresh process measures the import too)."""
    import time

    t0 = time.perf_counter()
    import sklearn.feature_extraction.text  # noqa: F401
    import sklearn.linear_model  # noqa: F401

    from quarkci.router import model

    t1 = time.perf_counter()
    examples = model.corpus()
    t2 = time.perf_counter()
    classifier = model.fit(examples)
    t3 = time.perf_counter()
    classifier.opinion("quantize Qwen/Qwen3-8B to fp8")
    t4 = time.perf_counter()
    print(
        f"classifier first use: import {t1 - t0:.2f} s, corpus ({len(examples)} goals) {t2 - t1:.2f} s, "
        f"fit {t3 - t2:.2f} s, first opinion {t4 - t3:.3f} s; total {t4 - t0:.2f} s"
    )


AGREE_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
FALLBACK_GRID = (None, 0.95, 0.9, 0.8, 0.7, 0.6, 0.5)
OVERRIDE_GRID = (None, 0.95, 0.9, 0.8, 0.7, 0.6)
TARGET_PRECISION = 0.98
FOLDS = 5


Counts = tuple[int, int, int, int]  # goals, right, confident routes, right confident routes
PARTS = {
    "writers": lambda e: e.source.startswith("train_"),
    "dev_3": lambda e: e.source == "dev_3",
    "own": lambda e: not e.source.startswith("train_") and e.source != "dev_3",
}


def _rule_decisions(examples: list[Any]) -> tuple[list[Any], list[str]]:
    """(the rules' decision and the catalog's role map, the right answer) per corpus goal: over the default
    catalog, or the extended fixture catalog for an own case whose role the default catalog lacks."""
    from quarkci.router.lexical import index_for
    from quarkci.router.model import ASK
    from quarkci.router.roles import resolve_roles
    from quarkci.router.route import Facts
    from quarkci.router.route import decide as rules
    from quarkci.router.session import clean_goal

    catalogs = {}
    for name in ("default", "extended"):
        skills = load_catalog(None if name == "default" else str(ROOT / "tests/fixtures/router/extended"))[0]
        catalogs[name] = (skills, resolve_roles(skills), index_for(tuple(s.positive for s in skills)))
    decided, wanted = [], []
    for e in examples:
        missing = e.label != ASK and e.label not in catalogs["default"][1]
        skills, names, index = catalogs[
            "extended" if missing and not e.source.startswith("train") else "default"
        ]
        decided.append((rules(clean_goal(e.goal), Facts(), names, skills, index), names))
        wanted.append(e.label if e.label in names else ASK)
    return decided, wanted


def _opinions(examples: list[Any]) -> tuple[dict[int, Any], dict[str, dict[int, Any]]]:
    """Out-of-fold opinions per goal index, and dev_3's opinions by fits that never saw it."""
    from quarkci.router import model

    oof: dict[int, Any] = {}
    for k in range(FOLDS):
        fitted = model.fit([e for i, e in enumerate(examples) if i % FOLDS != k])
        held = [i for i in range(len(examples)) if i % FOLDS == k]
        oof.update(zip(held, fitted.opinions([examples[i].goal for i in held]), strict=True))
    dev = [i for i, e in enumerate(examples) if e.source == "dev_3"]
    unseen = {}
    for label, train in (
        ("the writers' corpora", [e for e in examples if e.source.startswith("train_")]),
        ("all but dev_3", [e for e in examples if e.source != "dev_3"]),
    ):
        unseen[label] = dict(
            zip(dev, model.fit(train).opinions([examples[i].goal for i in dev]), strict=True)
        )
    return oof, unseen


def _line(counts: Counts) -> str:
    n, right, routed, precise = counts
    return f"{right}/{n} = {right / max(n, 1):.1%}, confident {precise}/{routed} = {precise / max(routed, 1):.1%}"


def _choose(score: Any, oof: dict[int, Any]) -> str:
    """The rule: of the pairs whose out-of-fold confident precision on the writers' goals reaches the target,
    and whose classifier-only routes (the goals the rules leave open), pooled over the whole corpus, reach it
    too, the one with the highest out-of-fold accuracy on the writers' goals (ties: the stricter pair)."""
    best: tuple[int, float, float | None, float | None] | None = None
    for agree in AGREE_GRID:
        base = [score(p, oof, agree, None) for p in PARTS]
        for fallback in FALLBACK_GRID:
            for override in OVERRIDE_GRID:
                more = [score(p, oof, agree, fallback, override) for p in PARTS]
                added = sum(m[2] - b[2] for m, b in zip(more, base, strict=True))
                added_right = sum(m[3] - b[3] for m, b in zip(more, base, strict=True))
                writers = more[0]
                if writers[3] < TARGET_PRECISION * writers[2] or added_right < TARGET_PRECISION * added:
                    continue
                if best is None or writers[1] > best[0]:
                    best = (writers[1], agree, fallback, override)
    if best is None:
        return "no triple reaches the target"
    return f"AGREE {best[1]:.2f}, FALLBACK {best[2]}, OVERRIDE {best[3]}"


def cross_validate() -> None:
    """Out-of-fold scores of the combined router on the corpus (see the module docstring)."""
    from quarkci.router import confidence, model
    from quarkci.router.model import ASK
    from quarkci.router.route import Facts

    examples = list(model.corpus())
    decided, wanted = _rule_decisions(examples)
    oof, unseen = _opinions(examples)

    def score(
        part: str,
        opinions: dict[int, Any],
        agree: float | None,
        fallback: float | None,
        override: float | None = None,
    ) -> Counts:
        n = right = routed = precise = 0
        for i, e in enumerate(examples):
            if not PARTS[part](e) or i not in opinions:
                continue
            d, names = decided[i]
            if agree is not None:
                d = confidence.combine(
                    d, opinions[i], e.goal, Facts(), names, agree=agree, fallback=fallback, override=override
                )
            ok = (d.role or ASK) == wanted[i]
            n, right = n + 1, right + ok
            routed, precise = routed + (d.role is not None), precise + (ok and d.role is not None)
        return n, right, routed, precise

    for part, member in PARTS.items():
        alone = [oof[i].label == wanted[i] for i, e in enumerate(examples) if member(e)]
        print(
            f"{part:<8} rules alone {_line(score(part, oof, None, None))}; "
            f"classifier alone (out of fold) {sum(alone)}/{len(alone)} = {sum(alone) / len(alone):.1%}"
        )
    print("combined (out of fold), AGREE x FALLBACK x OVERRIDE; dev_3 also by fits that never saw it")
    for agree in AGREE_GRID:
        for fallback in FALLBACK_GRID:
            for override in OVERRIDE_GRID:
                cells = [f"{p} {_line(score(p, oof, agree, fallback, override))}" for p in PARTS]
                cells += [
                    f"dev_3 <- {k} {_line(score('dev_3', v, agree, fallback, override))}"
                    for k, v in unseen.items()
                ]
                print(f"  {agree:.2f} {str(fallback):>4} {str(override):>4}: " + " | ".join(cells))
    chosen = _choose(score, oof)
    print(
        f"chosen: {chosen} (confidence.py: AGREE {confidence.AGREE}, FALLBACK {confidence.FALLBACK}, "
        f"OVERRIDE {confidence.OVERRIDE})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", default=None, help="only this set (repeatable)")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--fit", action="store_true", help="only the classifier's first-use cost")
    parser.add_argument("--cv", action="store_true", help="only the cross-validation of the classifier")
    args = parser.parse_args()
    if args.fit or args.cv:
        if args.fit:
            fit_cost()
        if args.cv:
            cross_validate()
        return 0
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
