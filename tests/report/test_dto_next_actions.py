"""The report's Next actions hold commands that work on this job: run verbatim on the default job (the
newest release's bundled skills), they copy the skills and apply exactly the fixes the report promises
(real amd-quark 0.13 wheel, downloaded at test time)."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from quarkci.cli import main
from quarkci.upstream import pypi

pytestmark = pytest.mark.real


def test_the_next_actions_commands_run_verbatim_on_the_default_job(tmp_path, monkeypatch):
    from tests.realwheels import real_wheel

    real_wheel("0.13"), real_wheel("0.12.post1")  # in the wheel cache: both resolve without pip
    listing = {"releases": {v: [{"yanked": False}] for v in ("0.12.post1", "0.13")}}
    monkeypatch.setattr(pypi, "_http_json", lambda url: listing)  # "amd-quark": the newest is 0.13
    monkeypatch.chdir(tmp_path)
    assert main(["sync"]) == 1  # the default job (3 breaking findings), from a directory of its own
    report = json.loads((tmp_path / "reports" / "validation_report.json").read_text(encoding="utf-8"))
    (action,) = [a for a in report["next_actions"] if "--fix" in a]
    promised = int(re.search(r"to apply (\d+) mechanical fixes", action).group(1))
    commands = re.findall(r"`(quarkci [^`]+)`", action)
    # the newest release can move: the commands pin the release this job audited
    assert commands == [
        "quarkci skills export --skills bundled:amd-quark==0.13 --out skills-fix",
        "quarkci sync --upstream amd-quark==0.13 --skills skills-fix --fix",
    ]
    assert main(shlex.split(commands[0])[1:]) == 0
    main(shlex.split(commands[1])[1:])
    after = json.loads((tmp_path / "reports" / "validation_report.json").read_text(encoding="utf-8"))
    assert after["mode"] == "fix" and after["baseline"]["version"] == "0.12.post1"
    assert len(after["applied_fixes"]) == promised == 16  # 15 before, + the model template count (36 -> 51)
    assert report["upstream"]["version"] == after["upstream"]["version"] == "0.13"
