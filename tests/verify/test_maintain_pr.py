"""``verify maintain --fix`` writes what ``quarkci gh pr --key verify-<lib>`` reads: the validation
report with ``applied_fixes`` and ``changed_files`` (the skill's files the fix rewrote, relative to the
repository root it ran from), which ``gh pr`` loads against the contract and turns into one PR."""

from __future__ import annotations

import json
from pathlib import Path

from quarkci import cli

SKILL = ".cursor/skills/verify-minikern"


def _drift(root: Path) -> None:
    """Two mechanical drifts (a new family, a changed tolerance) and one breaking (an entry point gone)."""
    (root / "minikern" / "moe.py").write_text(
        "import torch\n\n\ndef moe_route(x: torch.Tensor) -> torch.Tensor:\n    return x.softmax(-1)\n"
    )
    test = root / "tests" / "test_gemm.py"
    test.write_text(test.read_text().replace("rtol=1e-4, atol=1e-4", "rtol=1e-3, atol=1e-4"))
    (root / "scripts" / "op_rmsnorm.py").unlink()


def _files(skill: Path) -> dict[str, bytes]:
    return {p.relative_to(skill).as_posix(): p.read_bytes() for p in sorted(skill.rglob("*")) if p.is_file()}


def test_maintain_fix_report_feeds_gh_pr_with_the_feature_map_files(minikern, monkeypatch, capsys):
    monkeypatch.chdir(minikern)  # the repository root, as the workflow runs it
    assert cli.main(["verify", "init", "--repo", ".", "--skills", ".cursor/skills"]) == 0
    skill = minikern / SKILL
    _drift(minikern)
    before = _files(skill)
    capsys.readouterr()
    assert cli.main(["verify", "maintain", "--skill", SKILL, "--out", "r1", "--fix", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert sorted(a.split(":")[0] for a in report["applied_fixes"]) == [
        "verify-family-added",
        "verify-tolerance-changed",
    ]
    changed = report["changed_files"]
    after = _files(skill)
    expected = sorted(f"{SKILL}/{p}" for p, data in after.items() if before.get(p) != data)
    assert changed == expected  # exactly the files whose bytes changed, nothing else
    assert f"{SKILL}/features/map.json" in changed and f"{SKILL}/features/moe-correctness.md" in changed
    assert json.loads((minikern / "r1" / "validation_report.json").read_text())["changed_files"] == changed

    # gh pr reads it (contract, upstream.version, files under --root) and plans one corrections PR
    capsys.readouterr()
    code = cli.main(
        [
            "gh",
            "pr",
            "--key",
            "verify-minikern",
            "--report",
            "r1/validation_report.json",
            "--root",
            ".",
            "--repo",
            "octo/skills",
            "--dry-run",
            "--json",
        ]
    )
    plan = json.loads(capsys.readouterr().out)
    version = report["upstream"]["version"]
    assert code == 0 and plan["operation"] == "created"
    assert plan["items"][0]["key"] == f"quarkci/verify-minikern/{version}"
    blobs = [s["what"] for s in plan["steps"] if s["path"].endswith("/git/blobs")]
    assert blobs == [f"blob {p}" for p in changed]

    # a second --fix finds nothing mechanical left: no fix, no changed file (the PR would close)
    capsys.readouterr()
    assert cli.main(["verify", "maintain", "--skill", SKILL, "--out", "r2", "--fix", "--json"]) == 1
    again = json.loads(capsys.readouterr().out)
    assert again["applied_fixes"] == [] and again["changed_files"] == [] and _files(skill) == after


def test_maintain_without_fix_lists_no_changed_file(minikern, monkeypatch, capsys):
    monkeypatch.chdir(minikern)
    assert cli.main(["verify", "init", "--repo", ".", "--skills", ".cursor/skills"]) == 0
    _drift(minikern)
    before = _files(minikern / SKILL)
    capsys.readouterr()
    assert cli.main(["verify", "maintain", "--skill", SKILL, "--out", "r1", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["changed_files"] == [] and report["applied_fixes"] == []
    assert _files(minikern / SKILL) == before  # negative control: nothing rewritten without --fix
