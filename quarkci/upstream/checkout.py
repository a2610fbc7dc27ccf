"""A git checkout of amd/Quark (or an unpacked source tree) read from disk.

The version comes, in order, from ``quark/version.txt``, the static ``[project] version`` of
``pyproject.toml``, then ``git describe --tags``; when the directory is itself a git work tree the
short commit is appended as a PEP 440 local label (``0.14.dev0+g1a2b3c4``). Nothing is imported or run
except read-only ``git`` queries.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from packaging.version import Version

from quarkci.core.documents import parse_toml
from quarkci.core.errors import BadInputError
from quarkci.upstream._files import IndexedSnapshot
from quarkci.upstream.base import TREES, SnapshotKind, tree_of

_SKIP_DIRS = {".git", "__pycache__", ".venv", "node_modules", ".mypy_cache", ".pytest_cache", "build"}


def is_checkout(path: Path) -> bool:
    """True when ``path`` looks like a Quark source tree (a ``quark/`` package directory)."""
    return (path / "quark").is_dir() and (
        (path / "quark" / "__init__.py").is_file() or (path / "quark" / "version.txt").is_file()
    )


class CheckoutSnapshot(IndexedSnapshot):
    """A directory holding a Quark source tree. Raises :class:`BadInputError` when it is not one."""

    kind: SnapshotKind = "checkout"

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        if not is_checkout(self.root):
            raise BadInputError(f"{root}: not a Quark checkout (no quark/ package directory)")
        index: dict[str, Path] = {}
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
            rel_dir = Path(dirpath).relative_to(self.root).as_posix()
            for name in filenames:
                rel = name if rel_dir == "." else f"{rel_dir}/{name}"
                index[rel] = Path(dirpath) / name
        version = _version(self.root)
        super().__init__(version=version, label=f"checkout {self.root}", index=index)

    def _load(self, key: Path) -> bytes:
        return key.read_bytes()

    def covers(self, path: str) -> bool:
        """A checkout is the whole repository: top-level files outside TREES are covered too."""
        tree = tree_of(path)
        return tree in self.coverage or (tree not in TREES and tree != "metadata")


def _git(root: Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


def _normalise(raw: str | None) -> str | None:
    if not raw:
        return None
    try:
        return str(Version(raw.strip().lstrip("v")))
    except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
        return None


def _version(root: Path) -> str:
    version = None
    txt = root / "quark" / "version.txt"
    if txt.is_file():
        version = _normalise(txt.read_text(encoding="utf-8", errors="replace"))
    if version is None and (root / "pyproject.toml").is_file():
        try:
            document = parse_toml((root / "pyproject.toml").read_text(encoding="utf-8"), "pyproject.toml")
        except (BadInputError, UnicodeDecodeError):
            document = {}
        raw = document.get("project")
        project: dict[str, Any] = raw if isinstance(raw, dict) else {}
        version = _normalise(project.get("version") if isinstance(project.get("version"), str) else None)
    is_repo = (root / ".git").exists()
    if version is None and is_repo:
        described = _git(root, "describe", "--tags", "--abbrev=0")
        version = _normalise(described)
    if version is None:
        version = "0+unknown"
    if is_repo and "+" not in version:
        sha = _git(root, "rev-parse", "--short", "HEAD")
        if sha:
            version = f"{version}+g{sha}"
    return version
