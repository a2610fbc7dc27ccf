"""Score skill sync on the committed held-out set (benchmarks/heldout/sync/labels.json).

The set was written by a helper that had not seen the code or tests; never tune on it. Each case is audited
through the real CLI (``quarkci sync --upstream amd-quark==REL --skills CASE --baseline none``, one subprocess
per case; the wheels come from the wheel cache or PyPI). A planted drift is found when a finding that is not
unverifiable stands on its file and line; a non-unverifiable finding on no planted line is false. Printed:
recall (planted drifts found), precision (non-unverifiable findings that are true), the kind agreement of the
found drifts, and the share of findings left unverifiable beside them.

Usage: ``python benchmarks/score_sync_heldout.py [--labels FILE] [--json OUT]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Unreadable(Exception):
    """sync refused the case as bad input (exit 2: e.g. no skill's frontmatter parses)."""


def audit(release: str, skills: Path, out: Path) -> list[dict[str, object]]:
    """The findings of one case (raises :class:`Unreadable` on exit 2, RuntimeError on another failure)."""
    argv = [sys.executable, "-m", "quarkci", "sync", "--upstream", f"amd-quark=={release}", "--skills"]
    argv += [str(skills), "--baseline", "none", "--out", str(out), "--fail-on", "none"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if done.returncode == 2:
        raise Unreadable(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "exit 2")
    if done.returncode != 0:
        raise RuntimeError(f"{skills}: sync exited {done.returncode}: {done.stderr.strip()[-300:]}")
    report = json.loads((out / "validation_report.json").read_text(encoding="utf-8"))
    return list(report["findings"])


def skills_dir(root: Path, case: dict[str, object]) -> Path:
    """The directory of a case's skills: ``case["skills"]`` as a path under the set, or, when it lists the
    skills' names (a writer's other shape), ``cases/<id>/skills``."""
    skills = case["skills"]
    if isinstance(skills, list):
        return root / "cases" / str(case["id"]) / "skills"
    return root / str(skills)


def skill_file(case: dict[str, object], file: str) -> str:
    """A planted drift's file as the report names it (relative to the skills directory), whether the
    labels give it so or relative to the set (``cases/<id>/skills/<skill>/SKILL.md``)."""
    return file.removeprefix(f"cases/{case['id']}/skills/")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--labels", type=Path, default=HERE / "heldout" / "sync" / "labels.json")
    parser.add_argument("--json", type=Path, default=None, help="write per-case results here")
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text(encoding="utf-8"))
    root = args.labels.parent
    planted_total = found_total = kind_ok = 0
    true_findings = false_findings = unverifiable = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, case in enumerate(labels["cases"]):
            try:
                findings = audit(case["release"], skills_dir(root, case), Path(tmp) / str(n))
            except Unreadable as refused:
                # the case's skills are bad input (the tool's exit 2): no finding, every drift missed
                print(f"  REFUSED {case['id']} [{case['release']}]: {refused}")
                findings = []
            drift = [f for f in findings if f["kind"] != "unverifiable"]
            unverifiable += len(findings) - len(drift)
            at: dict[tuple[str, int], list[dict[str, object]]] = {}
            for f in drift:
                loc = f.get("skill_location") or {}
                at.setdefault((str(loc.get("file")), int(loc.get("line") or 0)), []).append(f)
            planted = {(skill_file(case, p["file"]), p["line"]): p for p in case["planted"]}
            missed = [p for key, p in planted.items() if key not in at]
            false = [f for key, fs in at.items() if key not in planted for f in fs]
            planted_total += len(planted)
            found_total += len(planted) - len(missed)
            kind_ok += sum(
                1 for key, p in planted.items() if any(f["kind"] == p["kind"] for f in at.get(key, ()))
            )
            false_findings += len(false)
            true_findings += len(drift) - len(false)
            rows.append({"id": case["id"], "release": case["release"], "missed": missed, "false": false})
    precision = true_findings / max(true_findings + false_findings, 1)
    print(f"cases: {len(rows)}; planted drifts: {planted_total}")
    print(f"recall: {found_total}/{planted_total} = {found_total / max(planted_total, 1):.1%}")
    print(f"precision: {true_findings}/{true_findings + false_findings} = {precision:.1%} (non-unverifiable)")
    print(f"kind agreement of found drifts: {kind_ok}/{found_total}")
    total = true_findings + false_findings + unverifiable
    print(f"unverifiable: {unverifiable} of {total} findings = {unverifiable / max(total, 1):.1%}")
    for row in rows:
        for p in row["missed"]:
            print(f"  MISS {row['id']} [{row['release']}] {p['file']}:{p['line']} {p['kind']} {p['token']!r}")
        for f in row["false"]:
            loc = f.get("skill_location") or {}
            print(
                f"  FALSE {row['id']} [{row['release']}] {loc.get('file')}:{loc.get('line')} {f['rule']} {f['subject']}"
            )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
