"""Fault injection at every step of a first run, and two concurrent runs: consistent state, no duplicates.

Each scenario starts a fresh fake, injects one fault (kind x step), runs the command until it exits 0
(at most 3 runs: a 422 or an exhausted retry fails a run; the next run must finish the job), then
checks the final state and that one more run performs zero writes. For ``timeout`` (the server
processes the original request after the client gave up) the late write can land after the run has
finished; the following run cleans it up, so that run is counted too. ``FIGURES`` collects the totals;
run ``pytest tests/github/test_faults.py -s`` to see them.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter

import pytest

from quarkci.cli import main
from quarkci.github.markers import first_line_marker
from tests.fakegithub import FakeGitHub, Fault, seeded
from tests.github.conftest import TOKEN, record_open
from tests.github.reports import FIXED_TEXT, SKILL_FILE, finding, make_report

pytestmark = pytest.mark.usefixtures("tight_timeout")  # faults sleep past a 1 s client timeout

KINDS = ["502", "secondary-rate-limit", "primary-rate-limit", "422", "timeout", "lost-response"]
BRANCH = "quarkci/skill-sync/0.13"
STEPS = {
    "pr": [
        ("GET", r"^/repos/octo/skills$"),
        ("GET", "/git/ref/heads/quarkci"),
        ("GET", "/pulls$"),
        ("GET", "/git/ref/heads/main$"),
        ("GET", "/git/commits/"),
        ("POST", "/git/blobs$"),
        ("POST", "/git/trees$"),
        ("POST", "/git/commits$"),
        ("POST", "/git/refs$"),
        ("POST", "/pulls$"),
        ("PATCH", "/issues/1$"),
    ],
    "issues": [("GET", "/issues$"), ("POST", "/issues$"), ("POST", "/issues$")],
    "comment": [("GET", "/issues/1/comments$"), ("POST", "/issues/1/comments$")],
}
FIGURES: Counter[str] = Counter()
DELAY = 1.3  # > the 1 s client timeout of the test retry policy


def _setup(gh, tmp_path, monkeypatch, command):
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_API_URL", gh.url)
    monkeypatch.setenv("GITHUB_REPOSITORY", "octo/skills")
    findings = [finding("mechanical", "w_int4")] + [finding("breaking", f"--flag-{n}") for n in range(3)]
    tmp_path.mkdir(parents=True, exist_ok=True)
    report = tmp_path / "report.json"

    report.write_text(json.dumps(make_report(findings, [SKILL_FILE])))
    (tmp_path / SKILL_FILE).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / SKILL_FILE).write_text(FIXED_TEXT)
    body = tmp_path / "body.md"
    body.write_text("## CI report\nok\n")
    if command == "comment":
        gh.state.issues["1"] = {
            "id": 1,
            "title": "i",
            "body": "",
            "labels": [],
            "state": "open",
            "user": "dev",
            "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
            "closed_at": None,
            "state_reason": None,
            "pull": None,
        }
        gh.state.counters["issue"] = 1
    return {
        "pr": ["gh", "pr", "--report", str(report), "--root", str(tmp_path)],
        "issues": ["gh", "issues", "--report", str(report)],
        "comment": ["gh", "comment", "--pr", "1", "--body-file", str(body), "--name", "ci"],
    }[command]


def duplicates(gh, command) -> int:
    """Duplicates left in the final state: extra open PRs per branch, open issues per fingerprint,
    sticky comments per marker (0 when delivery is correct)."""
    s = gh.state
    if command == "pr":
        pulls = [i for i in s.issues.values() if i.get("pull") and i["pull"]["head"] == BRANCH]
        return (
            len(pulls)
            - 1
            + sum(max(0, n - 1) for n in Counter(c["body"] for c in s.comments.values()).values())
        )
    if command == "issues":
        keys = Counter(first_line_marker(i["body"]) for i in s.issues.values() if i["state"] == "open")
        return sum(n - 1 for n in keys.values()) + (3 - len(keys))
    marks = Counter(first_line_marker(c["body"]) for c in s.comments.values())
    return sum(n - 1 for n in marks.values())


def _check_final(gh, command):
    s = gh.state
    if command == "pr":
        head = s.refs[f"refs/heads/{BRANCH}"]
        blob = s.flatten(s.commits[head]["tree"])[SKILL_FILE][1]
        assert s.blob(blob).decode() == FIXED_TEXT
        (pr,) = [i for i in s.issues.values() if i.get("pull")]
        assert pr["state"] == "open" and pr["labels"] == ["quarkci", "skill-sync"]
    elif command == "issues":
        FIGURES["extra issues closed as duplicates by recovery"] += sum(
            1 for i in s.issues.values() if i["state"] == "closed"
        )
    else:
        (c,) = s.comments.values()
        assert c["body"] == "<!-- quarkci:report:ci -->\n## CI report\nok\n"


@pytest.mark.parametrize("command", sorted(STEPS))
@pytest.mark.parametrize("kind", KINDS)
def test_fault_at_every_step(command, kind, tmp_path, monkeypatch, capsys):
    for step, (method, path) in enumerate(STEPS[command]):
        if kind == "422" and method == "GET":
            continue  # GitHub documents no 422 for these reads; the fake's OpenAPI check would (rightly) object
        with FakeGitHub(seeded(token=TOKEN)) as gh:
            args = _setup(gh, tmp_path / f"{step}", monkeypatch, command)
            high = record_open(gh)  # open issues per finding after every write (issue 23: never 2)
            gh.faults = [
                Fault(
                    kind,
                    method=method,
                    path=path,
                    skip=1 if step == 2 and command == "issues" else 0,
                    delay=DELAY,
                )
            ]
            runs = 0
            for runs in range(1, 4):  # noqa: B007
                if main(args) == 0:
                    break
            if kind == "timeout":
                # The slowed original request lands after the run ended (it may create a second issue or
                # comment); the next scheduled run is the one that cleans up, so it counts as a run here.
                time.sleep(DELAY)
                assert main(args) == 0
                runs += 1
            assert gh.faults_injected() == 1, (command, step, kind)
            assert gh.violations == []
            _check_final(gh, command)
            assert duplicates(gh, command) == 0, (command, step, kind)
            if command == "issues":
                assert max(high.values()) == 1, (
                    step,
                    kind,
                    dict(high),
                )  # at every moment, not only at the end
            gh.clear_log()
            assert main(args) == 0
            assert gh.writes() == [], (command, step, kind)
            FIGURES["scenarios"] += 1
            FIGURES["runs"] += runs + 1
            FIGURES["faults injected"] += gh.faults_injected()
            FIGURES["duplicates found"] += duplicates(gh, command)
    capsys.readouterr()
    with capsys.disabled():
        print(f"\n[{command}/{kind}] cumulative: {dict(FIGURES)}")


@pytest.mark.parametrize("command", sorted(STEPS))
def test_two_concurrent_runs_leave_no_duplicates(command, tmp_path, monkeypatch, capsys):
    """Both runs read before either writes (the first listing is slowed), then both write."""
    listing = {"pr": "/pulls$", "issues": "/issues$", "comment": "/issues/1/comments$"}[command]
    for attempt in range(3):
        with FakeGitHub(seeded(token=TOKEN)) as gh:
            args = _setup(gh, tmp_path / f"{attempt}", monkeypatch, command)
            gh.faults = [Fault("barrier", method="GET", path=listing, times=2, delay=0.9)]
            codes: list[int] = []
            threads = [threading.Thread(target=lambda c=codes, a=args: c.append(main(a))) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            assert codes == [0, 0]
            creates = {
                "pr": ("POST", "/repos/octo/skills/git/refs"),
                "issues": ("POST", "/repos/octo/skills/issues"),
                "comment": ("POST", "/repos/octo/skills/issues/1/comments"),
            }[command]
            assert gh.writes().count(creates) >= 2  # the race really happened: both runs tried to create
            assert gh.violations == []
            _check_final(gh, command)
            assert duplicates(gh, command) == 0
            gh.clear_log()
            assert main(args) == 0 and gh.writes() == []
            FIGURES["concurrent pairs"] += 1
            FIGURES["duplicates found"] += duplicates(gh, command)
    capsys.readouterr()
    with capsys.disabled():
        print(f"\n[concurrent/{command}] cumulative: {dict(FIGURES)}")
