"""CheckoutSnapshot: version sources in order, coverage from what is present, non-checkouts rejected."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from quarkci.core.errors import BadInputError
from quarkci.upstream.checkout import CheckoutSnapshot
from tests.upstream.miniwheel import MINI_CHECKOUT


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "quark-src"
    shutil.copytree(MINI_CHECKOUT, target)
    return target


def test_version_from_version_txt():
    snap = CheckoutSnapshot(MINI_CHECKOUT)
    assert snap.version == "0.99"
    assert snap.kind == "checkout"


def test_coverage_holds_every_present_tree_but_no_metadata():
    snap = CheckoutSnapshot(MINI_CHECKOUT)
    assert snap.coverage == frozenset({"quark", "docs", "tools", "examples", "pyproject.toml"})
    assert not snap.exists("METADATA")
    assert snap.covers("tools/ci/other.sh") and snap.covers("setup.py")
    assert not snap.covers("METADATA")


def test_coverage_shrinks_when_a_tree_is_absent(copy):
    shutil.rmtree(copy / "tools")
    snap = CheckoutSnapshot(copy)
    assert "tools" not in snap.coverage
    assert not snap.covers("tools/ci/install_torch.sh")


def test_version_from_pyproject_when_no_version_txt(copy):
    (copy / "quark" / "version.txt").unlink()
    text = (copy / "pyproject.toml").read_text().replace('dynamic = ["version"]', 'version = "1.2rc1"')
    (copy / "pyproject.toml").write_text(text)
    assert CheckoutSnapshot(copy).version == "1.2rc1"


def test_version_from_git_describe_with_commit_label(copy):
    (copy / "quark" / "version.txt").unlink()
    git = ["git", "-C", str(copy), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "init"], check=True)
    subprocess.run([*git, "tag", "v0.42"], check=True)
    sha = subprocess.run(
        [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    snap = CheckoutSnapshot(copy)
    assert snap.version == f"0.42+g{sha}"
    assert not [p for p in snap.files() if p.startswith(".git/")]


def test_directory_without_quark_package_is_bad_input(tmp_path):
    with pytest.raises(BadInputError, match="not a Quark checkout"):
        CheckoutSnapshot(tmp_path)
