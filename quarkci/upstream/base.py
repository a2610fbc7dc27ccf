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
        """Return the UTF-8 text of ``path``. Raises ``FileNotFoundError`` when absent."""
        ...

    def files(self, prefix: str = "") -> list[str]:
        """Sorted list of every file path starting with ``prefix``."""
        ...

    def covers(self, path: str) -> bool:
        """True when the tree holding ``path`` is in :attr:`coverage` (so absence is meaningful)."""
        ...
