"""A fault-injection soak of ``quarkci gh pr|issues|comment|dispatch`` against the fake GitHub.

Each of the four commands runs ``runs // 4`` times on its own fake repository (the four families run
in parallel threads; the fake's faults sleep, so this is wall-clock cheap). Every run draws, from one
seeded ``random.Random``:

* an input that changes over time (PR: fixed file content and, now and then, a newer upstream
  release; issues: a random subset of six breaking findings; comment: one of three bodies;
  dispatch: a fresh dispatch each time, each invocation with a correlation id of its own: the same
  id twice at the same moment is a race no client can close, GitHub having no idempotency key);
* 0-2 faults on that command's requests: a lost response (processed, never answered), a slow
  response (the client gives up, the late original still lands), 502/503, secondary or primary
  rate limits;
* with probability ``pair_rate``, a concurrent pair: two runs at once, forced to read the same
  state before either writes (a barrier on the first listing).

A run may fail (exit 3 after retries); the next one must repair. After the last run of a family,
one settle run without faults. Then the duplicates are counted in the fake's final state: open
drift PRs per skills root beyond one, open issues per fingerprint beyond one, sticky comments per
marker beyond one, workflow runs per correlation id beyond one, plus dispatches that were confirmed
(exit 0) but started no run; and consistency is checked (the open issues are exactly the last
report's breaking findings, the comment holds the last body, the PR branch holds the last content).

Used by ``tests/github/test_soak.py`` (200 runs) and ``benchmarks/gh_soak.py`` (bigger, timed).
"""

from __future__ import annotations

import io
import itertools
import json
import random
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quarkci.cli import main
from quarkci.github.markers import body_marker, first_line_marker
from tests.fakegithub import FakeGitHub, Fault, seeded
from tests.github.reports import FIXED_TEXT, SKILL_FILE, finding, make_report

TOKEN = "ghp_SOAKtoken0123456789abcdefABCDEF012345"
KINDS = ("lost-response", "timeout", "502", "503", "secondary-rate-limit", "primary-rate-limit")
WEIGHTS = (3, 2, 3, 2, 2, 1)
PATHS = {
    "pr": [
        ("POST", "/git/blobs$"),
        ("POST", "/git/trees$"),
        ("POST", "/git/commits$"),
        ("POST", "/git/refs$"),
        ("PATCH", "/git/refs/heads/"),
        ("POST", "/pulls$"),
        ("PATCH", "/pulls/\\d+$"),
        ("PATCH", "/issues/\\d+$"),
        ("POST", "/comments$"),
        ("GET", "/pulls$"),
        ("GET", "/git/ref/"),
    ],
    "issues": [("POST", "/issues$"), ("PATCH", "/issues/\\d+$"), ("GET", "/issues$")],
    "comment": [
        ("POST", "/issues/1/comments$"),
        ("PATCH", "/issues/comments/"),
        ("DELETE", "/issues/comments/"),
        ("GET", "/issues/1/comments$"),
    ],
    "dispatch": [("POST", "/dispatches$"), ("GET", "/runs$"), ("GET", "/contents/")],
}
LISTING = {"pr": "/pulls$", "issues": "/issues$", "comment": "/issues/1/comments$", "dispatch": "/contents/"}
FINDINGS = [finding("breaking", f"--flag-{n}") for n in range(6)]


@dataclass
class Family:
    """One command's soak: its fake, its working directory, what it last asked for, and counts."""

    command: str
    fake: FakeGitHub
    work: Path
    rng: random.Random
    figures: Counter[str] = field(default_factory=Counter)
    confirmed_dispatches: list[str] = field(default_factory=list)
    last: dict[str, Any] = field(default_factory=dict)
    version: int = 13
    errors: list[str] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        return {
            "GITHUB_TOKEN": TOKEN,
            "GITHUB_API_URL": self.fake.url,
            "GITHUB_REPOSITORY": "octo/skills",
            "QUARKCI_GH_LOGIN": "quarkci-bot",
        }

    def args(self) -> list[str]:
        """Write this run's input and return the command line."""
        rng, work = self.rng, self.work
        if self.command == "pr":
            if rng.random() < 0.08:
                self.version += 1
            text = FIXED_TEXT + f"variant {rng.randrange(3)}\n"
            (work / SKILL_FILE).parent.mkdir(parents=True, exist_ok=True)
            (work / SKILL_FILE).write_text(text)
            report = make_report([finding("mechanical", "w_int4")], [SKILL_FILE], version=f"0.{self.version}")
            report["applied_fixes"] = ["quark-torch-ptq/SKILL.md:4: rename"]
            (work / "r.json").write_text(json.dumps(report))
            self.last = {"version": f"0.{self.version}", "text": text}
            return ["gh", "pr", "--report", str(work / "r.json"), "--root", str(work)]
        if self.command == "issues":
            chosen = [f for f in FINDINGS if rng.random() < 0.6]
            (work / "r.json").write_text(json.dumps(make_report(chosen)))
            self.last = {"fingerprints": {f["fingerprint"] for f in chosen}}
            return ["gh", "issues", "--report", str(work / "r.json"), "--max-new", "10", "--max-close", "10"]
        if self.command == "comment":
            body = f"## Report\nvariant {rng.randrange(3)}\n"
            (work / "b.md").write_text(body)
            self.last = {"body": "<!-- quarkci:report:soak -->\n" + body}
            return ["gh", "comment", "--pr", "1", "--body-file", str(work / "b.md"), "--name", "soak"]
        return [
            "gh",
            "dispatch",
            "--workflow",
            "release.yml",
            "--ref",
            "main",
            "--input",
            "amd-quark=0.13",
            "--json",
        ]

    def faults(self, pair: bool) -> list[Fault]:
        rng = self.rng
        out = []
        for _ in range(rng.choice((0, 1, 1, 2))):
            kind = rng.choices(KINDS, WEIGHTS)[0]
            method, path = rng.choice(PATHS[self.command])
            if kind in ("lost-response", "timeout") and method == "GET":
                kind = "502"  # a slow read only costs time; the write faults are what matter
            out.append(Fault(kind, method=method, path=path, delay=1.1))
        if pair:
            out.append(Fault("barrier", method="GET", path=LISTING[self.command], times=2, delay=0.8))
        return out


class _PerThreadStdout:
    """``sys.stdout`` for the soak: each thread writes to its own buffer (redirect_stdout is global)."""

    def __init__(self) -> None:
        self.local = threading.local()

    def buffer(self) -> io.StringIO:
        if not hasattr(self.local, "out"):
            self.local.out = io.StringIO()
        return self.local.out

    def write(self, text: str) -> int:
        return self.buffer().write(text)

    def flush(self) -> None:
        pass

    def take(self) -> str:
        text = self.buffer().getvalue()
        self.local.out = io.StringIO()
        return text


STDOUT = _PerThreadStdout()


_DISPATCH_IDS = itertools.count(1)


def _invoke(family: Family, args: list[str], codes: list[int]) -> None:
    STDOUT.take()
    if family.command == "dispatch":
        args = [*args, "--correlation-id", f"soak-{next(_DISPATCH_IDS)}"]
    code = main(args)
    codes.append(code)
    if family.command == "dispatch" and code == 0:
        family.confirmed_dispatches.append(STDOUT.take())


def run_family(family: Family, runs: int, pair_rate: float) -> None:
    """``runs`` runs (a concurrent pair counts two) of the family's command, then one settle run."""
    done = 0
    while done < runs:
        pair = runs - done >= 2 and family.rng.random() < pair_rate
        family.fake.faults = family.faults(pair)
        args = family.args()
        codes: list[int] = []
        if pair:
            threads = [threading.Thread(target=_invoke, args=(family, args, codes)) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=120)
            family.figures["concurrent pairs"] += 1
        else:
            _invoke(family, args, codes)
        done += len(codes)
        family.figures["runs"] += len(codes)
        family.figures["failed runs (exit != 0, repaired later)"] += sum(1 for c in codes if c != 0)
        family.figures["faults injected"] += sum(f.fired for f in family.fake.faults if f.kind != "barrier")
    import time

    time.sleep(1.2)  # let a slowed original request land before the settle run
    family.fake.faults = []
    codes = []
    _invoke(family, family.args(), codes)
    family.figures["settle runs (no faults)"] += 1
    if codes != [0]:
        family.errors.append(f"{family.command}: the settle run exited {codes}")


def duplicates(family: Family) -> dict[str, int]:
    """Duplicates left in the final state (all must be 0) and consistency failures."""
    s = family.fake.state
    out: Counter[str] = Counter()
    if family.command == "pr":
        open_pulls = [i for i in s.issues.values() if i.get("pull") and i["state"] == "open"]
        out["duplicate open drift PRs"] = max(0, len(open_pulls) - 1)
        heads = Counter(
            i["pull"]["head"] for i in s.issues.values() if i.get("pull") and i["state"] == "open"
        )
        out["duplicate open PRs per branch"] = sum(n - 1 for n in heads.values())
        (pr,) = open_pulls
        branch = f"refs/heads/quarkci/skill-sync/{family.last['version']}"
        blob = s.flatten(s.commits[s.refs[branch]]["tree"])[SKILL_FILE][1]
        out["inconsistent: PR branch content"] = int(
            s.blob(blob).decode() != family.last["text"]
            or pr["pull"]["head"] != branch.removeprefix("refs/heads/")
        )
        sticky = Counter((c["issue"], first_line_marker(c["body"])) for c in s.comments.values())
        out["duplicate comments on drift PRs"] = sum(n - 1 for n in sticky.values())
    elif family.command == "issues":
        keys = Counter(
            body_marker(i["body"]) for i in s.issues.values() if i["state"] == "open" and not i.get("pull")
        )
        out["duplicate open issues"] = sum(n - 1 for n in keys.values())
        opened = {k[1] for k in keys if k and k[0] == "finding"}
        out["inconsistent: open issues != findings"] = int(opened != family.last["fingerprints"])
    elif family.command == "comment":
        marks = Counter(
            first_line_marker(c["body"]) for c in s.comments.values() if c["user"] == "quarkci-bot"
        )
        out["duplicate sticky comments"] = sum(n - 1 for n in marks.values())
        bodies = [c["body"] for c in s.comments.values() if c["user"] == "quarkci-bot"]
        out["inconsistent: comment body"] = int(bodies != [family.last["body"]])
    else:
        cids = Counter(r["inputs"].get("correlation-id") for r in s.runs)
        out["duplicate workflow runs"] = sum(n - 1 for n in cids.values())
        confirmed = [
            json.loads(text)["items"][0]["note"].split("correlation id ")[1].split(";")[0]
            for text in family.confirmed_dispatches
        ]
        out["confirmed dispatches without a run"] = sum(1 for c in confirmed if c not in cids)
    return dict(out)


def soak(runs: int, seed: int, work: Path, pair_rate: float = 0.15) -> tuple[Counter[str], dict[str, int]]:
    """Run the soak; returns (figures, duplicates by kind). Sets the environment of the process."""
    import os

    families: list[Family] = []
    fakes = []
    for n, command in enumerate(("pr", "issues", "comment", "dispatch")):
        fake = FakeGitHub(seeded(token=TOKEN)).start()
        fakes.append(fake)
        if command == "comment":
            fake.state.issues["1"] = {
                "id": 1,
                "title": "PR",
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
            fake.state.counters["issue"] = 1
        (work / command).mkdir(parents=True, exist_ok=True)
        families.append(Family(command, fake, work / command, random.Random(seed * 10 + n)))
    # One process environment for all families: each command reads its API URL from --api-url.
    soak_env = {"GITHUB_TOKEN": TOKEN, "GITHUB_REPOSITORY": "octo/skills", "QUARKCI_GH_LOGIN": "quarkci-bot"}
    saved_env = {key: os.environ.get(key) for key in soak_env}
    os.environ.update(soak_env)  # restored below: a token left behind made later dry runs try the real API
    original = Family.args

    def with_url(self: Family) -> list[str]:
        return [*original(self), "--api-url", self.fake.url]

    Family.args = with_url  # type: ignore[method-assign]
    saved, sys.stdout = sys.stdout, STDOUT  # type: ignore[assignment]
    try:

        def guarded(f: Family) -> None:
            try:
                run_family(f, runs // 4, pair_rate)
            except Exception as exc:  # surfaced by the caller: a thread must not swallow it
                f.errors.append(f"{f.command}: {type(exc).__name__}: {exc}")

        threads = [threading.Thread(target=guarded, args=(f,)) for f in families]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=1800)
    finally:
        sys.stdout = saved
        Family.args = original  # type: ignore[method-assign]
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        for fake in fakes:
            fake.stop()
    figures: Counter[str] = Counter()
    found: Counter[str] = Counter()
    for f in families:
        assert not f.errors, f.errors
        figures.update(f.figures)
        found.update(duplicates(f))
        assert f.fake.violations == [], f.fake.violations[:3]
    return figures, dict(found)
