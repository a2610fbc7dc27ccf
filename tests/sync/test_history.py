"""``quarkci history``: one skill set against every release 0.9 ... 0.13, reusing per-release facts."""

from __future__ import annotations

import json

import pytest

from quarkci.cli import main
from quarkci.facts import cache as facts_cache
from quarkci.skills import SnapshotSource, discover
from quarkci.skills.claims import extract_claims
from quarkci.sync import history

pytestmark = pytest.mark.real
RELEASES = ("0.9", "0.10", "0.11", "0.11.1", "0.11.2", "0.12.post1", "0.13")


@pytest.fixture(scope="module")
def timeline_and_calls():
    from tests.realwheels import real_snapshot

    snapshots = [(f"amd-quark=={v}", real_snapshot(v)) for v in RELEASES]
    source = SnapshotSource(snapshots[-1][1])
    skills = discover(source)
    claims = [c for s in skills if s.error is None for c in extract_claims(s, source.read_text)]
    history.run_history(snapshots, skills, claims, source.read_text, "bundled:0.13")  # fills the facts cache
    calls: list[str] = []
    real = facts_cache.extract_all

    def counting(snapshot, kinds=None):
        calls.append(snapshot.version)
        return real(snapshot, kinds)

    facts_cache.extract_all = counting
    try:
        timeline = history.run_history(snapshots, skills, claims, source.read_text, "bundled:0.13")
    finally:
        facts_cache.extract_all = real
    return timeline, calls


def test_warm_history_reuses_every_release_facts(timeline_and_calls):
    timeline, calls = timeline_and_calls
    # the structural bound behind "whole history warm <= 10 s": no release is parsed again, the skills'
    # claims are read once for all releases (run_history takes them), one audit per release
    assert calls == []
    assert [p.version for p in timeline.points] == list(RELEASES)
    assert [p.baseline for p in timeline.points] == [None, *RELEASES[:-1]]


def test_a_kind_a_release_does_not_show_is_unverifiable_never_removed(timeline_and_calls):
    timeline, _ = timeline_and_calls
    first = timeline.points[0]
    # 0.9 has no quark/torch/quantization/config/template.py: model types cannot be checked there
    assert "model-type-unknown" not in first.rules and "model-list-incomplete" not in first.rules
    assert first.counts["unverifiable"] > timeline.points[1].counts["unverifiable"]
    # the two unknown schemes of the file2file skill are breaking on every release that has schemes
    assert timeline.points[-1].counts["breaking"] == 3


def test_markdown_chart_and_json(timeline_and_calls):
    timeline, _ = timeline_and_calls
    text = history.to_markdown(timeline)
    assert "```mermaid\nxychart-beta" in text and '"0.12.post1"' in text
    assert text.count("| 0.1") == 6 and "| 0.9 |" in text  # one row per release
    document = history.to_json(timeline)
    assert document["format"] == "quarkci-drift-history/1" and len(document["releases"]) == 7


def test_bad_range_is_exit_2_before_any_download(capsys, tmp_path, monkeypatch):
    import quarkci.commands.history as command

    monkeypatch.setattr(command, "releases", lambda *_a, **_k: pytest.fail("resolved releases"))
    assert main(["history", "--from", "0.13", "--to", "0.9", "--out", str(tmp_path)]) == 2
    assert main(["history", "--from", "zero", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "--from 0.13 is newer than --to 0.9" in err[0] and "--from 'zero'" in err[1]


def test_history_command_writes_both_files(tmp_path, monkeypatch, capsys):
    from packaging.version import Version

    import quarkci.commands.history as command

    monkeypatch.setattr(
        command, "releases", lambda low, high, index=None: [Version("0.12.post1"), Version("0.13")]
    )
    assert main(["history", "--from", "0.12.post1", "--to", "0.13", "--out", str(tmp_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [r["version"] for r in printed["releases"]] == ["0.12.post1", "0.13"]
    assert (
        (tmp_path / "drift_history.md")
        .read_text(encoding="utf-8")
        .startswith("<!-- quarkci:report:drift-history")
    )
