"""setup-quarkci's install.sh for real (issue 12 cases 14 and 15): hashed lock installs, and a reused
environment trusted only while the lock hash of everything installed is unchanged.

Needs a package index (PyPI or a mirror), like the act end-to-end tests: marked e2e.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

from tests.workflows.conftest import ROOT
from tests.workflows.test_hardening import parse_outputs

pytestmark = pytest.mark.e2e
SCRIPT = ROOT / "actions" / "setup-quarkci" / "install.sh"


def _install(tmp: Path) -> tuple[int, str, dict[str, str]]:
    out = tmp / "github_output"
    out.write_text("")
    env = {
        **os.environ,
        "GITHUB_ACTION_PATH": str(SCRIPT.parent),
        "GITHUB_OUTPUT": str(out),
        "GITHUB_PATH": str(tmp / "github_path"),
        "RUNNER_TEMP": str(tmp),
        "EXTRAS": "",
        "TORCH": "none",
        "SYSTEM_SITE": "false",
        "PRE_INSTALL": "",
    }
    env.pop("QUARKCI_VENV", None)
    done = subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=900)
    return done.returncode, done.stdout + done.stderr, parse_outputs(out.read_text())


def test_install_from_hashed_locks_then_reuse_only_while_the_lock_hash_holds(tmp_path) -> None:
    code, log, outputs = _install(tmp_path)
    assert code == 0, log[-3000:]
    python = Path(outputs["python"])
    freeze = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--all", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = "".join(sorted(freeze.splitlines(keepends=True), key=lambda s: s.encode()))
    assert outputs["lock-hash"] == hashlib.sha256(lines.encode()).hexdigest()
    assert "PyGithub==" in freeze or "pygithub==" in freeze.lower()

    code, log, again = _install(tmp_path)
    assert code == 0 and "reusing" in log and again["lock-hash"] == outputs["lock-hash"]

    # someone installs a package into the persistent environment: it is rebuilt, not trusted
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "iniconfig"], check=True, capture_output=True
    )
    code, log, rebuilt = _install(tmp_path)
    assert code == 0 and "differ from its lock hash; rebuilding it" in log
    assert rebuilt["lock-hash"] == outputs["lock-hash"]
    assert (
        "iniconfig"
        not in subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True, text=True).stdout
    )
