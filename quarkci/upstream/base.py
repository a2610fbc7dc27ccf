"""The Snapshot interface: a read-only view of one upstream Quark release.

Implementations (one module each): ``wheel.py`` (a PyPI wheel read from its zip, fetched with
``pip download --no-deps`` into a cache), ``checkout.py`` (a git checkout of amd/Quark),
``installed.py`` (the amd-quark installed in this interpreter, located without importing it).
``resolve.py`` turns an ``--upstream`` spec into a Snapshot. Nothing is ever imported or executed.
"""

from __future__ import annotations

from typing import Literal, Protocol

SnapshotKind = Literal["wheel", "checkout", "installed"]

# Top-level trees a snapshot may hold. A wheel holds {"quark", "metadata"} only.
TREES = ("quark", "metadata", "examples", "docs", "tools", "pyproject.toml", "requirements.txt")

# The virtual path under which a wheel's / installed dist's ``*.dist-info/METADATA`` is exposed.
METADATA_PATH = "METADATA"
# The virtual path of ``*.dist-info/entry_points.txt`` (console scripts), where the snapshot has one.
ENTRY_POINTS_PATH = "ENTRY_POINTS"


def tree_of(path: str) -> str:
    """The top-level tree holding ``path``: ``"metadata"`` for ``METADATA`` (and a skill's reference to
    ``*.dist-info/...``), else its first component.

    ``tree_of("quark/torch/x.py") == "quark"``; ``tree_of("pyproject.toml") == "pyproject.toml"``.
    """
    head = path.lstrip("/").split("/", 1)[0]
    if head in (METADATA_PATH, ENTRY_POINTS_PATH) or head.endswith(".dist-info"):
        return "metadata"
    return head


def coverage_of(paths: list[str] | set[str]) -> frozenset[str]:
    """The subset of :data:`TREES` that has at least one file among ``paths`` (computed, never assumed)."""
    present = {tree_of(p) for p in paths}
    return frozenset(t for t in TREES if t in present)


class Snapshot(Protocol):
    """One upstream release. Paths are POSIX, relative to the repository root (``quark/...``).

    The wheel's ``*.dist-info/METADATA`` is exposed under the virtual path ``METADATA``.
    """

    version: str  # e.g. "0.13" (PEP 440 normalised), "0.13+g1a2b3c" for a checkout
    kind: SnapshotKind
    label: str  # human-readable origin, e.g. "amd-quark==0.13 (PyPI wheel)"
    coverage: frozenset[str]  # subset of TREES present in this snapshot

    def exists(self, path: str) -> bool:
        """True when ``path`` is a file in the snapshot."""
        ...

    def read_text(self, path: str) -> str:
        """Return the UTF-8 text of ``path``. Raises ``FileNotFoundError`` when absent.

        Raises ``UnicodeDecodeError`` (a ``ValueError``) when the file is not UTF-8.
        """
        ...

    def read_bytes(self, path: str) -> bytes:
        """Return the raw bytes of ``path``. Raises ``FileNotFoundError`` when absent."""
        ...

    def files(self, prefix: str = "") -> list[str]:
        """Sorted list of every file path starting with ``prefix``."""
        ...

    def covers(self, path: str) -> bool:
        """True when the tree holding ``path`` is in :attr:`coverage` (so absence is meaningful)."""
        ...
