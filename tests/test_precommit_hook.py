""".pre-commit-hooks.yaml: the hook definition is valid for pre-commit, selects skill files, and its entry
command runs offline (sockets and DNS blocked) on a miniature skills repository against the installed
amd-quark: 0 on a clean skill, 1 on a skill that depends on a file the release does not have."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from pre_commit.clientlib import load_manifest

REPO = Path(__file__).resolve().parents[1]
HOOKS = REPO / ".pre-commit-hooks.yaml"

# Runs the hook's entry in-process in a fresh interpreter with the network made impossible.
OFFLINE = """
import shlex, socket, sys
import pytest_socket
pytest_socket.disable_socket()
def refuse(*a, **k):
    raise OSError("network blocked by the test")
socket.getaddrinfo = refuse
from quarkci import cli
argv = shlex.split(sys.argv[1])
assert argv[0] == "quarkci", argv
raise SystemExit(cli.main(argv[1:]))
"""


def _hook() -> dict:
    (hook,) = load_manifest(str(HOOKS))  # pre-commit's own schema: raises InvalidManifestError when wrong
    return hook


def test_hook_definition_is_valid_for_pre_commit():
    hook = _hook()
    assert hook["id"] == "quarkci-skills-audit" and hook["language"] == "python"
    assert hook["pass_filenames"] is False  # the audit reads the whole skills tree, not the changed files
    argv = shlex.split(hook["entry"])
    assert argv[:2] == ["quarkci", "sync"]
    assert argv[argv.index("--baseline") + 1] == "none"  # no previous release from PyPI: offline
    files = re.compile(hook["files"])
    assert files.search("skills/quark-ptq/SKILL.md") and files.search("skills/x/references/flags.md")
    assert not files.search("src/quarkci/cli.py")


@pytest.fixture
def skills_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "skills-repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "skills" / "ptq").mkdir(parents=True)
    return repo


def _run_hook(repo: Path) -> tuple[int, dict]:
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE, _hook()["entry"]],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            "PYTHONPATH": str(REPO),
            "PATH": "/usr/bin:/bin",
            "HOME": str(repo.parent),
            "HF_HUB_OFFLINE": "1",
        },
    )
    assert "Traceback" not in done.stderr and "network blocked" not in done.stderr, done.stderr[-2000:]
    report = json.loads((repo / ".quarkci-reports" / "validation_report.json").read_text(encoding="utf-8"))
    return done.returncode, report


def test_hook_entry_runs_offline_and_passes_a_clean_skill(skills_repo):
    (skills_repo / "skills" / "ptq" / "SKILL.md").write_text(
        "---\nname: ptq\ndescription: PTQ with Quark\nsource_knowledge:\n"
        "  - quark/torch/quantization/config/template.py\n---\nRead the templates.\n",
        encoding="utf-8",
    )
    code, report = _run_hook(skills_repo)
    assert code == 0
    assert report["counts"]["breaking"] == 0 and [s["name"] for s in report["skills"]] == ["ptq"]


def test_hook_entry_fails_a_skill_that_depends_on_a_missing_file(skills_repo):
    (skills_repo / "skills" / "ptq" / "SKILL.md").write_text(
        "---\nname: ptq\ndescription: PTQ with Quark\nsource_knowledge:\n"
        "  - quark/torch/no_such_module_xyz.py\n---\nRead the module.\n",
        encoding="utf-8",
    )
    code, report = _run_hook(skills_repo)
    assert code == 1
    breaking = [f["rule"] for f in report["findings"] if f["kind"] == "breaking"]
    assert breaking == ["source-path-missing"]
