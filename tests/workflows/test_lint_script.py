"""scripts/lint_workflows.sh: clean on this repository, and each of its linters fails a tree that breaks it.

Each negative tree passes every linter that runs before the one it targets, so a failure proves that
this particular linter is wired in and enforcing (not merely that the script stops somewhere).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.workflows.conftest import ROOT
from tests.workflows.conventions import violations

SCRIPT = ROOT / "scripts" / "lint_workflows.sh"

GOOD_JOB = """
  build:
    name: Build
    runs-on: {runs_on}
    timeout-minutes: 5
    permissions: {{}}
    steps:
      - name: Step
        {step}
"""


def _workflow(step: str = 'run: echo "ok"', runs_on: str = "ubuntu-latest") -> str:
    # pedantic zizmor: every job named, a concurrency limit (here for the whole workflow)
    head = "name: t\non: push\npermissions: {}\n"
    head += "concurrency:\n  group: t-${{ github.ref }}\n  cancel-in-progress: true\n"
    return head + "jobs:" + GOOD_JOB.format(runs_on=runs_on, step=step)


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), str(tree)], capture_output=True, text=True, timeout=300)


def _tree(tmp_path: Path, workflow: str, action: str | None = None) -> Path:
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(ROOT / ".github" / "actionlint.yaml", tmp_path / ".github" / "actionlint.yaml")
    (tmp_path / ".github" / "workflows" / "t.yml").write_text(workflow, encoding="utf-8")
    if action is not None:
        (tmp_path / "actions" / "a").mkdir(parents=True)
        (tmp_path / "actions" / "a" / "action.yml").write_text(action, encoding="utf-8")
    return tmp_path


ACTION = """name: a
description: a
inputs:
  x:
    {description}
    required: false
    default: ""
runs:
  using: composite
  steps:
    - name: Step
      shell: bash
      run: {run}
"""


def test_the_repository_is_clean() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    workflows = len(list((ROOT / ".github" / "workflows").glob("*.yml")))
    actions = len(list((ROOT / "actions").glob("*/action.yml")))
    assert workflows >= 8 and actions >= 4
    assert f"{workflows} workflows, {actions} actions: clean" in result.stdout
    assert "--persona pedantic" in result.stdout


def test_a_minimal_tree_is_clean(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        _workflow(runs_on="[self-hosted, rocm, mi300x]"),
        ACTION.format(description="description: x", run='echo "ok"'),
    )
    result = _lint(tree)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_readme_consumer_example_is_clean(tmp_path: Path) -> None:
    example = (Path(__file__).parent / "fixtures" / "consumer" / "quark-skills.yml").read_text(
        encoding="utf-8"
    )
    result = _lint(_tree(tmp_path, example))
    assert result.returncode == 0, result.stdout + result.stderr
    assert violations(example) == []


@pytest.mark.parametrize(
    ("workflow", "action", "stage", "evidence"),
    [
        pytest.param(
            _workflow(runs_on="[self-hosted, rocm, mi999]"),
            None,
            "== actionlint",
            "[runner-label]",
            id="actionlint-unknown-runner-label",
        ),
        pytest.param(
            _workflow(step="run: cd $HOME/$X"),
            None,
            "== actionlint",
            "[shellcheck]",
            id="actionlint-shellcheck",
        ),
        pytest.param(
            _workflow(step="shell: python\n        run: import os"),
            None,
            "== actionlint",
            "[pyflakes]",
            id="actionlint-pyflakes",
        ),
        pytest.param(
            _workflow(step="uses: actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955 # v4.3.0"),
            None,
            "== zizmor",
            "artipacked",
            id="zizmor-artipacked",
        ),
        pytest.param(
            _workflow(),
            ACTION.format(description="descripton: x", run='echo "ok"'),
            "== check-jsonschema",
            "description",
            id="jsonschema-action",
        ),
        pytest.param(
            _workflow(),
            ACTION.format(description="description: x", run="cd $X"),
            "== shellcheck",
            "SC2086",
            id="shellcheck-composite-run",
        ),
    ],
)
def test_each_linter_fails_a_tree_that_breaks_it(
    tmp_path: Path, workflow: str, action: str | None, stage: str, evidence: str
) -> None:
    result = _lint(_tree(tmp_path, workflow, action))
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    # it failed in the targeted stage (the last one started), with that linter's own evidence
    started = [line for line in result.stdout.splitlines() if line.startswith("== ")]
    assert started[-1].startswith(stage), output
    assert evidence in output, output


def test_zizmor_reads_dependabot_yml_and_any_severity_fails(tmp_path: Path) -> None:
    """The whole tree is audited: a dependabot.yml without a cooldown (zizmor's dependabot-cooldown) fails,
    and with one the same tree is clean (the finding, not the file, fails the lint)."""
    tree = _tree(tmp_path, _workflow())
    dependabot = tree / ".github" / "dependabot.yml"
    body = "version: 2\nupdates:\n  - package-ecosystem: pip\n"
    body += '    directory: "/"\n    schedule:\n      interval: weekly\n'
    dependabot.write_text(body, encoding="utf-8")
    result = _lint(tree)
    started = [line for line in result.stdout.splitlines() if line.startswith("== ")]
    assert result.returncode != 0 and started[-1].startswith("== zizmor"), result.stdout + result.stderr
    assert "dependabot-cooldown" in result.stdout
    dependabot.write_text(body + "    cooldown:\n      default-days: 7\n", encoding="utf-8")
    result = _lint(tree)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_repository_dependabot_yml_has_a_cooldown() -> None:
    from quarkci.core.documents import load_document

    config = load_document(ROOT / ".github" / "dependabot.yml")
    assert [u["cooldown"]["default-days"] for u in config["updates"]] == [7, 7]
