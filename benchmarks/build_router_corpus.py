"""Build the router classifier's corpus, ``quarkci/router/data/router_train.json`` (quarkci-router-train/1).

Sources, in this order (the first copy of a goal is kept; a goal labelled differently elsewhere is listed and
kept with its first label):

* the independent writers' training corpora (``--train FILE``, repeatable: train_1.json ... train_5.json;
  fields id/lang/kind/goal/expected, expected a default-catalog skill or null = ask), with the label
  corrections of :data:`CORRECTIONS` (a label that contradicts the seed's rules, reviewed by hand; each listed
  with why);
* the development set dev_3 (``--dev FILE``, same fields);
* this repository's own router case sentences (tests/router_*.yaml): ``expect.role``, or the role of
  ``expect.skill`` in the case's catalog, or ask for ``expect.undecided``. An undecided case whose catalog has
  no skill for a role it offers is left out (its question is about the catalog, not the goal);
* the (goal, default-catalog workflow) tables of tests/router/test_route.py (``NOT_NOW``, ``KINDS``,
  ``CLEAR``; "undecided" is ask) and tests/router/test_route_kinds.py's ``CONCRETE_QUANTIZE`` (PTQ);
* :data:`OWN_ADDITIONS`, goals written for this corpus.

Never the held-out sets (benchmarks/heldout/*). Run:
``python benchmarks/build_router_corpus.py --train train_1.json ... --train train_5.json --dev dev_3.json``
(the writers' files are kept outside the repository; the built corpus is committed).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from quarkci.router.model import FORMAT, normalise, skill_roles  # noqa: E402

OUT = ROOT / "quarkci" / "router" / "data" / "router_train.json"
_REWRITE = (
    "quark-onnx-shapeshifter-run",
    None,
    "a graph rewrite: the default catalog has the ShapeShifter run skill (the writer thought it absent)",
)
_CREATE = ("quark-skill-creator", None, "skill creation: the default catalog has the skill creator")
_EXPORT = (
    None,
    "export",
    "a post-quantization conversion: the export role (the default catalog has no export skill, so still ask)",
)
# (source, id) -> (expected skill or None, role or None, why): labels that contradict the seed's rules on the
# default catalog (reviewed by hand where the rules' answer and the writer's label differed), and the role of
# goals whose role the default catalog lacks (their answer there stays a question)
CORRECTIONS: dict[tuple[str, str], tuple[str | None, str | None, str]] = {
    **{("train_1", i): _REWRITE for i in ("t1-064", "t1-065", "t1-114", "t1-155", "t1-194")},
    **{("train_2", i): _REWRITE for i in ("t2-039", "t2-087", "t2-145")},
    ("dev_3", "d3-34"): _REWRITE,
    **{k: _CREATE for k in (("train_1", "t1-066"), ("train_1", "t1-195"), ("train_2", "t2-040"))},
    ("train_2", "t2-230"): _CREATE,
    ("train_1", "t1-067"): (
        "quark-torch-skill-sync",
        None,
        "an audit of the torch skills: the default catalog has the torch skill sync",
    ),
    **{("train_1", i): _EXPORT for i in ("t1-068", "t1-240")},
    **{("train_2", i): _EXPORT for i in ("t2-041", "t2-168", "t2-200")},
}


# goals written for this corpus (own sentences) for kinds the writers' corpora have few of: a run of existing
# ShapeShifter passes that crashed or misbehaved (the run skill diagnoses its own passes), and a managed
# mixed-precision search or Quant-Perf session
OWN_ADDITIONS: list[tuple[str, str]] = [
    (
        "the ShapeShifter fold pass crashed halfway through on my encoder.onnx, can you rerun it and fix it",
        "quark-onnx-shapeshifter-run",
    ),
    (
        "running the shapeshifter passes on vit.onnx throws an exception in the layout "
        "pass; get the rewrite done",
        "quark-onnx-shapeshifter-run",
    ),
    (
        "after the ShapeShifter opset upgrade the graph fails onnx.checker; diagnose the "
        "pass run and redo it",
        "quark-onnx-shapeshifter-run",
    ),
    (
        "my graph rewrite with ShapeShifter (fuse + simplify) stopped with a traceback, resume it",
        "quark-onnx-shapeshifter-run",
    ),
    (
        "ShapeShifter: the BatchNorm folding step errors out on model.onnx, please sort "
        "out the pass and apply it",
        "quark-onnx-shapeshifter-run",
    ),
    (
        "Der ShapeShifter-Lauf auf detector.onnx bricht beim Falten ab; bitte den Umbau "
        "reparieren und fertig machen",
        "quark-onnx-shapeshifter-run",
    ),
    ("ShapeShifter 的 layout pass 在 yolo.onnx 上报错了，帮我把图改写跑完", "quark-onnx-shapeshifter-run"),
    (
        "find the best mixed-precision mix for Llama-3.1-8B that keeps mmlu within 1 "
        "point and maximises tokens per second",
        "quark-torch-quant-perf",
    ),
    (
        "run a managed mixed-precision search on Qwen3-8B: try layer-wise fp8/int4 "
        "mixes, check accuracy and throughput each round",
        "quark-torch-quant-perf",
    ),
    (
        "I want a search over per-layer precisions for mistral-7b with accuracy and "
        "throughput validated, not a single scheme",
        "quark-torch-quant-perf",
    ),
    ("resume yesterday's quant-perf session for gemma-2-9b where it stopped", "quark-torch-quant-perf"),
    (
        "keep searching mixed precision configs for phi-4 until throughput improves 30% "
        "without losing gsm8k accuracy",
        "quark-torch-quant-perf",
    ),
    (
        "Mixed-Precision-Suche für Llama-3-8B: Genauigkeit und Durchsatz je Konfiguration prüfen",
        "quark-torch-quant-perf",
    ),
    ("对 Qwen2.5-7B 做混合精度搜索，每一轮都验证精度和吞吐", "quark-torch-quant-perf"),
]


def _cases(path: Path) -> list[dict[str, Any]]:
    data = yaml.safe_load(path.read_text("utf-8"))
    if "cases" in data:
        return list(data["cases"])
    return [c for v in data["kinds"].values() for c in v] + [c for v in data["probes"].values() for c in v]


def own_cases() -> list[dict[str, Any]]:
    """Corpus entries from tests/router_*.yaml (see the module docstring)."""
    from tests.router.scoring import REAL_CATALOG, names

    skills = skill_roles()
    out = []
    for path in sorted((ROOT / "tests").glob("router_*.yaml")):
        for i, case in enumerate(_cases(path)):
            exp, cat = case["expect"], case.get("catalog", "default")
            entry: dict[str, Any] = {
                "id": f"{path.stem}#{i}",
                "source": f"tests/{path.name}",
                "goal": case["goal"],
            }
            entry["kind"] = "negated-quantize" if case.get("negated") else ""
            if exp.get("undecided"):
                offered = exp.get("interpretations") or exp.get("offers") or []
                role_names = names(cat)
                if any(r not in role_names for r in offered if not r.startswith("described_skill")):
                    continue  # the question is about the catalog
                entry["expected"] = None
            else:
                role = exp.get("role")
                if role is None:
                    if cat == REAL_CATALOG:
                        role = {v: k for k, v in names(cat).items()}.get(exp["skill"])
                    else:
                        role = {v: k for k, v in names(cat).items()}.get(exp["skill"])
                    if role is None:
                        continue
                default_skill = {r: s for s, r in skills.items()}.get(role)
                if default_skill:
                    entry["expected"] = default_skill
                else:
                    entry["expected"], entry["role"] = None, role
            out.append(entry)
    from tests.router import test_route

    for table in ("NOT_NOW", "KINDS", "CLEAR"):
        for i, (goal, workflow) in enumerate(getattr(test_route, table)):
            expected = None if workflow == "undecided" else workflow
            kind = "negated-quantize" if table == "NOT_NOW" else ""
            source = "tests/router/test_route.py"
            out.append(
                {"id": f"{table}#{i}", "source": source, "goal": goal, "expected": expected, "kind": kind}
            )
    from tests.router import test_route_kinds

    for i, goal in enumerate(test_route_kinds.CONCRETE_QUANTIZE):
        source = "tests/router/test_route_kinds.py"
        out.append(
            {"id": f"CONCRETE_QUANTIZE#{i}", "source": source, "goal": goal, "expected": "quark-torch-ptq"}
        )
    for i, (goal, skill) in enumerate(OWN_ADDITIONS):
        out.append({"id": f"own#{i}", "source": "own", "goal": goal, "expected": skill})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", action="append", type=Path, default=[])
    parser.add_argument("--dev", action="append", type=Path, default=[])
    args = parser.parse_args()
    entries: list[dict[str, Any]] = []
    for path in [*args.train, *args.dev]:
        document = json.loads(path.read_text("utf-8"))
        for g in document["goals"]:
            source = path.stem
            expected, role, why = CORRECTIONS.get((source, g["id"]), (g["expected"], None, ""))
            entry = {k: g.get(k) for k in ("id", "lang", "kind", "goal")}
            entry.update(source=source, expected=expected, role=role)
            if why:
                entry.update(written=g["expected"], why=why)
            entries.append(entry)
    entries.extend(own_cases())
    skills = skill_roles()
    seen: dict[str, tuple[str, str]] = {}
    kept, conflicts = [], []
    for e in entries:
        key = normalise(e["goal"])
        label = e.get("role") or (skills[e["expected"]] if e["expected"] else "ask")
        if key in seen:
            if seen[key][0] != label:
                conflicts.append(f"{e['source']} {e['id']}: {label} vs {seen[key][0]} ({seen[key][1]})")
            continue
        seen[key] = (label, f"{e['source']} {e['id']}")
        kept.append({k: v for k, v in e.items() if v not in (None, "") or k in ("expected", "written")})
    document = {
        "format": FORMAT,
        "about": "labelled goals for the router's classifier (quarkci/router/model.py); "
        "built by benchmarks/build_router_corpus.py",
        "goals": kept,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
    by_source: dict[str, int] = {}
    for e in kept:
        by_source[e["source"]] = by_source.get(e["source"], 0) + 1
    changed = sum(1 for e in kept if "written" in e and e["expected"] != e["written"])
    print(f"labels changed: {changed}; roles given: {sum(1 for e in kept if e.get('role'))}")
    print(f"{len(kept)} goals -> {OUT.relative_to(ROOT)}: {by_source}")
    for c in conflicts:
        print("  conflict (kept the first):", c)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
