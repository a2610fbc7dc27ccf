"""Fixtures of the verify tests: a fresh copy of the miniature kernel library, and one torch
cpp_extension build cache shared by every test of the session (the JIT build is paid once)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

MINIKERN = Path(__file__).parent.parent / "fixtures" / "verify" / "minikern"


@pytest.fixture
def minikern(tmp_path: Path) -> Path:
    """A writable copy of tests/fixtures/verify/minikern."""
    root = tmp_path / "minikern-repo"
    shutil.copytree(MINIKERN, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="session")
def torch_extensions_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A shared TORCH_EXTENSIONS_DIR: $QUARKCI_TORCH_EXTENSIONS_DIR when set (a CI cache), else a
    session directory. The prover must leave it in place."""
    given = os.environ.get("QUARKCI_TORCH_EXTENSIONS_DIR")
    path = Path(given) if given else tmp_path_factory.mktemp("torch_extensions")
    path.mkdir(parents=True, exist_ok=True)
    return path
