"""No test installs anything: the workflow lint script fails in one line when a tool is missing
(the test extra provides every tool; scripts/test.sh installs it)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.workflows.conftest import ROOT

SCRIPT = ROOT / "scripts" / "lint_workflows.sh"


def test_the_lint_script_never_installs() -> None:
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    code = "\n".join(line for line in lines if not line.lstrip().startswith(("#", "echo ")))
    assert not re.search(r"\b(pip3?|python3? -m pip|apt-get|apt|sudo|npm|brew)\b\s+(install|update)", code)
    assert any("install the test extra" in line for line in lines)


def test_a_missing_tool_fails_in_one_line(tmp_path: Path) -> None:
    """Negative control: with an empty venv and a PATH of system tools only, the script stops before
    linting and names every missing tool."""
    result = subprocess.run(
        ["/bin/bash", str(SCRIPT), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "VENV": str(tmp_path / "no-venv"), "HOME": str(tmp_path)},
    )
    assert result.returncode == 1
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("lint_workflows: missing ") and "actionlint" in line and "zizmor" in line
