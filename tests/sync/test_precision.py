"""Precision of non-unverifiable findings on hand-labelled real jobs (tests/fixtures/sync/precision/*.json).

Each corpus lists every non-unverifiable finding of one job with a label written by hand after
checking it against the wheel (the evidence field says how). A finding the corpus does not know
fails the test: a new finding must be checked and labelled before it ships. Every breaking finding
is recorded. Precision = true / labelled, asserted >= 97 %.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.real
CORPORA = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "precision"


def _run(tmp_path, upstream: str, baseline: str, skills: str | None) -> dict:
    from tests.realwheels import real_wheel

    argv = [
        "sync",
        "--upstream",
        str(real_wheel(upstream)),
        "--baseline",
        str(real_wheel(baseline)),
        "--out",
        str(tmp_path),
        "--fail-on",
        "none",
    ]
    if skills:
        argv += ["--skills", f"bundled:{real_wheel(skills)}"]
    assert main(argv) == 0
    return json.loads((tmp_path / "validation_report.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("corpus", "upstream", "baseline", "skills"),
    [
        ("default_job_0_13.json", "0.13", "0.12.post1", None),
        ("cross_release_0_12_post1.json", "0.12.post1", "0.11.2", "0.13"),
    ],
)
def test_precision_on_labelled_real_jobs(tmp_path, capsys, corpus, upstream, baseline, skills):
    labels = {
        e["fingerprint"]: e for e in json.loads((CORPORA / corpus).read_text(encoding="utf-8"))["findings"]
    }
    report = _run(tmp_path, upstream, baseline, skills)
    capsys.readouterr()
    found = [f for f in report["findings"] if f["kind"] != "unverifiable"]
    unknown = [f"{f['rule']} {f['subject']}" for f in found if f["fingerprint"] not in labels]
    assert not unknown, f"label these findings by hand in {corpus}: {unknown}"
    true = sum(1 for f in found if labels[f["fingerprint"]]["label"] == "true")
    assert found and true / len(found) >= 0.97
    breaking = {f["fingerprint"] for f in found if f["kind"] == "breaking"}
    assert breaking <= {fp for fp, e in labels.items() if e["kind"] == "breaking"}
