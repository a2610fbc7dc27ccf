"""Shared behaviour of the concrete snapshots: a sorted, immutable path index over some byte store.

Subclasses fill ``_index`` (path -> opaque key) once and implement ``_load(key) -> bytes``.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from quarkci.upstream.base import SnapshotKind, coverage_of, tree_of


class IndexedSnapshot:
    """A :class:`~quarkci.upstream.base.Snapshot` backed by a path index.

    ``covers(path)`` is True when the path's top-level tree is in ``coverage``; a checkout also covers
    top-level files outside :data:`~quarkci.upstream.base.TREES` (it is the whole repository).
    """

    kind: SnapshotKind

    def __init__(self, *, version: str, label: str, index: Mapping[str, Any]) -> None:
        self.version = version
        self.label = label
        self._index = dict(index)
        self._sorted = sorted(self._index)
        self.coverage = coverage_of(self._sorted)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label} files={len(self._sorted)}>"

    def _load(self, key: Any) -> bytes:  # pragma: no cover - abstract
        raise NotImplementedError

    def exists(self, path: str) -> bool:
        """True when ``path`` is a file in the snapshot."""
        return path in self._index

    def read_bytes(self, path: str) -> bytes:
        """Raw bytes of ``path``; ``FileNotFoundError`` when absent."""
        try:
            key = self._index[path]
        except KeyError:
            raise FileNotFoundError(f"{path} is not in {self.label}") from None
        return self._load(key)

    def read_text(self, path: str) -> str:
        """UTF-8 text of ``path``; ``FileNotFoundError`` when absent, ``UnicodeDecodeError`` if not UTF-8."""
        return self.read_bytes(path).decode("utf-8")

    def files(self, prefix: str = "") -> list[str]:
        """Sorted list of every file path starting with ``prefix``."""
        start = bisect.bisect_left(self._sorted, prefix)
        out: list[str] = []
        for path in self._sorted[start:]:
            if not path.startswith(prefix):
                break
            out.append(path)
        return out

    def covers(self, path: str) -> bool:
        """True when absence of ``path`` in this snapshot is meaningful."""
        return tree_of(path) in self.coverage
