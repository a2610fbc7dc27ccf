"""The fuzz campaign of issue 24 (benchmarks/fuzz_inputs.py): a small seeded run ends clean, and the
harness really sees what it counts (negative controls: a traceback, a hang, an address-space overrun, a
write outside ``OUT``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import fuzz_inputs  # noqa: E402


def test_a_small_seeded_run_is_clean_and_repeatable(tmp_path: Path) -> None:
    summaries = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.json"
        done = subprocess.run(
            [sys.executable, str(REPO / "benchmarks" / "fuzz_inputs.py"), "--seed", "7", "--count", "12",
             "--summary", str(out)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr[-2000:]
        summaries.append(json.loads(out.read_text()))
    first, second = summaries
    assert first["totals"] == {
        "inputs": 12,
        "tracebacks": 0,
        "exit_4": 0,
        "exit_other": 0,
        "hangs": 0,
        "rss_over_1gib": 0,
        "writes_outside_out": 0,
    }
    assert first["failures"] == [] and first["exit_codes"] == second["exit_codes"]  # same seed, same inputs
    assert first["families"] == second["families"]


def test_the_500_input_seeded_tier_is_clean(tmp_path: Path) -> None:
    """The tier the test command keeps (issue 24): seed 24, 500 inputs, two children at once, each forked
    from a process that imported quarkci once. Each child gets 90 s here, not 30: the suite runs this beside
    torch tests on three workers of a 2-core machine, where an input that takes 4 s alone (a module at the
    parse bounds) has taken 30 s. The 30 s bound is checked by the recorded 10,000-input run
    (benchmarks/fuzz_inputs_summary.json), the same command with ``--count 10000`` on an idle machine."""
    out = tmp_path / "summary.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "fuzz_inputs.py"), "--seed", "24", "--count", "500",
         "--jobs", "2", "--fork", "--timeout", "90", "--summary", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    summary = json.loads(out.read_text())
    assert done.returncode == 0, json.dumps(summary["failures"][:5], indent=1)
    assert summary["totals"]["inputs"] == 500 and summary["failures"] == []
    assert sum(summary["exit_codes"].values()) == 500 and set(summary["exit_codes"]) <= {"0", "1", "2", "3"}
    assert len(summary["families"]) >= 6  # every family of untrusted input was drawn
    assert 0 < summary["peak_rss_kib"] <= 1024 * 1024


@pytest.mark.parametrize(
    ("launcher", "problem"),
    [
        ("raise RuntimeError('boom')", "tracebacks"),
        ("import sys; sys.exit(4)", "exit_4"),
        ("import sys; sys.exit(9)", "exit_other"),
        ("import time; time.sleep(30)", "hangs"),
        (
            "import os, resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30,) * 2); b = bytes(2 << 30)",
            "tracebacks",
        ),
        ("open('stray.txt', 'w').write('x')", "writes_outside_out"),
    ],
    ids=["traceback", "exit-4", "exit-9", "hang", "address-space", "stray-write"],
)
def test_the_harness_sees_what_it_counts(tmp_path: Path, launcher: str, problem: str) -> None:
    (tmp_path / "home").mkdir()
    d = tmp_path / "i0"
    d.mkdir()
    record = fuzz_inputs.run_one(["facts"], d, timeout=2, address_space=4 << 30, launcher=launcher)
    assert [p.split(":")[0] for p in fuzz_inputs.problems_of(record, ["facts"])] == [problem]


def test_a_clean_child_has_no_problem_negative_control(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    d = tmp_path / "i0"
    d.mkdir()
    record = fuzz_inputs.run_one(["--version"], d, timeout=60, address_space=4 << 30)
    assert record["code"] == 0 and record["rss_kb"] > 0
    assert fuzz_inputs.problems_of(record, ["--version"]) == []


def test_the_peak_is_the_childs_own_even_under_a_large_parent(tmp_path: Path) -> None:
    """Linux carries ``ru_maxrss`` across fork and execve: a child of a worker holding 1.1 GiB used to
    report 1.1 GiB for ``--version``. The harness reads the child's own high-water mark."""
    (tmp_path / "home").mkdir()
    d = tmp_path / "i0"
    d.mkdir()
    ballast = bytearray(b"\x01") * (1100 << 20)  # touched pages: resident in this process
    record = fuzz_inputs.run_one(["--version"], d, timeout=60, address_space=4 << 30)
    assert len(ballast) == 1100 << 20
    assert record["code"] == 0 and 0 < record["rss_kb"] < 512 * 1024


def test_a_child_over_1_gib_is_counted(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    d = tmp_path / "i0"
    d.mkdir()
    launcher = fuzz_inputs.LAUNCHER.replace(
        "runpy.run_module('quarkci', run_name='__main__')", "b = bytearray(b'x') * (1200 << 20)"
    )
    record = fuzz_inputs.run_one(["facts"], d, timeout=30, address_space=4 << 30, launcher=launcher)
    assert [p.split(":")[0] for p in fuzz_inputs.problems_of(record, ["facts"])] == ["rss_over_1gib"]


FORKED = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, {bench!r})
import fuzz_inputs
fuzz_inputs.preload()
import quarkci.cli as cli
behaviour = sys.argv[1]
if behaviour == "traceback":
    def fake(argv): raise RuntimeError("boom")
elif behaviour == "exit-4":
    def fake(argv): return 4
elif behaviour == "hang":
    def fake(argv): time.sleep(30)
elif behaviour == "rss":
    def fake(argv): return len(bytearray(b"x") * (1200 << 20)) * 0
elif behaviour == "stray-write":
    def fake(argv): open("stray.txt", "w").write("x"); return 0
if behaviour != "real":
    cli.main = fake
d = Path(sys.argv[2])
record = fuzz_inputs.run_forked(sys.argv[3:], d, timeout=3, address_space=4 << 30)
print(json.dumps({{"problems": fuzz_inputs.problems_of(record, sys.argv[3:]), "code": record["code"],
                  "rss_kb": record["rss_kb"], "stderr": record["stderr"][-300:]}}))
"""


@pytest.mark.parametrize(
    ("behaviour", "problem"),
    [
        ("traceback", ["tracebacks"]),
        ("exit-4", ["exit_4"]),
        ("hang", ["hangs"]),
        ("rss", ["rss_over_1gib"]),
        ("stray-write", ["writes_outside_out"]),
        ("real", []),
    ],
)
def test_the_forked_runner_sees_what_it_counts(tmp_path: Path, behaviour: str, problem: list[str]) -> None:
    """``--fork`` (the mode of the 500- and 10,000-input runs) counts the same problems as a fresh
    interpreter per input; ``real`` is the negative control (``quarkci --version``: exit 0, no problem)."""
    (tmp_path / "home").mkdir()
    d = tmp_path / "i0"
    d.mkdir()
    script = FORKED.format(bench=str(REPO / "benchmarks"))
    done = subprocess.run(
        [sys.executable, "-c", script, behaviour, str(d), "--version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert [p.split(":")[0] for p in result["problems"]] == problem, result
    if behaviour == "real":
        assert result["code"] == 0 and 0 < result["rss_kb"] < 512 * 1024
