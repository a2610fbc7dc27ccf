"""0 skills audited is bad input; "Next actions" give commands that work on the job that produced them."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.real


def _one_line_exit_2(capsys, argv: list[str], flag: str) -> str:
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    err = [line for line in lines if not line.startswith("quarkci: ") or line.startswith("quarkci: error")]
    assert len(err) == 1 and flag in err[0] and "Traceback" not in "\n".join(lines)
    return err[0]


def test_release_without_bundled_skills_is_bad_input(capsys, tmp_path):
    from tests.realwheels import real_wheel

    line = _one_line_exit_2(
        capsys,
        [
            "sync",
            "--upstream",
            str(real_wheel("0.13")),
            "--baseline",
            str(real_wheel("0.12.post1")),
            "--skills",
            f"bundled:{real_wheel('0.12.post1')}",
            "--out",
            str(tmp_path / "r"),
        ],
        "--skills",
    )
    assert "0 skills" in line and "amd_quark-0.12.post1" in line
    assert not (tmp_path / "r" / "validation_report.json").exists()


def test_empty_skills_directory_is_bad_input(capsys, tmp_path):
    from tests.realwheels import real_wheel

    (tmp_path / "empty").mkdir()
    _one_line_exit_2(
        capsys,
        [
            "sync",
            "--upstream",
            str(real_wheel("0.13")),
            "--skills",
            str(tmp_path / "empty"),
            "--out",
            str(tmp_path / "r"),
        ],
        "--skills",
    )


def test_next_actions_of_the_default_job_work(tmp_path, monkeypatch, capsys):
    from tests.realwheels import real_wheel

    monkeypatch.chdir(tmp_path)
    upstream = str(real_wheel("0.13"))
    argv = ["sync", "--upstream", upstream, "--baseline", str(real_wheel("0.12.post1")), "--out", "r0"]
    main(argv)
    report = json.loads((tmp_path / "r0" / "validation_report.json").read_text(encoding="utf-8"))
    (action,) = [a for a in report["next_actions"] if "--fix" in a]
    commands = [shlex.split(c) for c in re.findall(r"`(quarkci [^`]+)`", action)]
    assert [c[1] for c in commands] == ["skills", "sync"]  # export a writable copy, then fix it
    assert main(commands[0][1:]) == 0
    sync = commands[1][1:] + ["--baseline", str(real_wheel("0.12.post1")), "--out", "r1"]
    main(sync)
    fixed = json.loads((tmp_path / "r1" / "validation_report.json").read_text(encoding="utf-8"))
    assert fixed["applied_fixes"] and fixed["changed_files"]
    capsys.readouterr()
