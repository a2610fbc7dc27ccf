"""Table-driven: every bad input over every command is exit 2, exactly one stderr line naming the flag,
nothing written, and no slow work started (no network, no quark/torch import), asserted structurally.

The cases run once, in one fresh interpreter (tests/bad_input_cases.py), so an import of quark or
torch cannot hide behind a module another test already imported. Times: benchmarks/bench_bad_inputs.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bad_input_cases import CASES

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, dict]:
    work = tmp_path_factory.mktemp("bad-inputs")
    home, tmp = work / "home", work / "tmp"
    home.mkdir()
    tmp.mkdir()
    out = work / "records.json"
    env = {
        **os.environ,
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "PYTHONPATH": str(REPO),
        "GITHUB_TOKEN": "",
        "GH_TOKEN": "",
    }
    done = subprocess.run(
        [sys.executable, str(REPO / "tests" / "bad_input_cases.py"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=work,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {r["id"]: r for r in json.loads(out.read_text(encoding="utf-8"))}


def test_there_are_40_plus_cases_over_every_command():
    from quarkci import cli

    assert len(CASES) >= 40 and len({c[0] for c in CASES}) == len(CASES)
    covered = {argv[0] for _, argv, _ in CASES if not argv[0].startswith("-")}
    assert covered == set(cli.COMMANDS)


def test_importing_the_cli_imports_nothing_slow(records):
    assert next(iter(records.values()))["startup_imports"] == []


@pytest.mark.parametrize("case_id", [c[0] for c in CASES])
def test_bad_input_is_exit_2_one_line_naming_the_flag_nothing_written_no_slow_work(records, case_id):
    record = records[case_id]
    lines = record["stderr"].splitlines()
    assert record["code"] == 2, record
    assert len(lines) == 1 and lines[0].startswith("quarkci: error: "), lines
    assert record["name"] in lines[0], lines
    assert "Traceback" not in record["stderr"]
    assert record["new_files"] == []
    assert record["imports"] == [] and record["connections"] == []


def test_the_guards_would_catch_slow_work(tmp_path):
    """Negative control: the driver's guards really refuse an import of torch and a DNS lookup."""
    code = (
        "import sys, socket; sys.path.insert(0, sys.argv[1])\n"
        "import tests.bad_input_cases as b, pytest_socket\n"
        "g = b._ImportGuard(); sys.meta_path.insert(0, g)\n"
        "try:\n    import torch\nexcept ImportError:\n    pass\n"
        "pytest_socket.disable_socket()\n"
        "try:\n    socket.socket()\nexcept Exception as e:\n    print(type(e).__name__)\n"
        "print(g.hits)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(REPO)], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["SocketBlockedError", "['torch']"], done.stderr
