"""The amd-quark distribution installed in this interpreter, located via :mod:`importlib.metadata`.

``quark`` itself is never imported: the dist's RECORD (``Distribution.files``) lists the files and
``locate_file`` gives their location on disk. ``METADATA`` is exposed under the virtual path ``METADATA``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
from pathlib import Path

from packaging.version import Version

from quarkci.core.errors import BadInputError
from quarkci.upstream._files import IndexedSnapshot
from quarkci.upstream.base import ENTRY_POINTS_PATH, METADATA_PATH, SnapshotKind

DIST_NAME = "amd-quark"


class InstalledSnapshot(IndexedSnapshot):
    """The installed ``amd-quark`` (files under ``quark/`` plus ``METADATA``).

    Raises :class:`BadInputError` when amd-quark is not installed in this interpreter.
    """

    kind: SnapshotKind = "installed"

    def __init__(self, dist: md.Distribution | None = None) -> None:
        if dist is None:
            try:
                dist = md.distribution(DIST_NAME)
            except md.PackageNotFoundError:
                raise BadInputError(
                    "--upstream installed: amd-quark is not installed in this Python environment"
                ) from None
        self._dist = dist
        # path -> key for _load: a file on disk, None for METADATA, the ENTRY_POINTS_PATH string for entry points
        index: dict[str, Path | str | None] = {}
        for rel in dist.files or []:
            posix = rel.as_posix()
            if posix.startswith("quark/") and "/__pycache__/" not in posix:
                index[posix] = Path(str(dist.locate_file(rel)))
        if not index:  # no RECORD: walk the package directory instead
            root = Path(str(dist.locate_file("quark")))
            if root.is_dir():
                for file in root.rglob("*"):
                    if file.is_file() and "__pycache__" not in file.parts:
                        index["quark/" + file.relative_to(root).as_posix()] = file
        self._metadata = dist.read_text("METADATA") or ""
        index[METADATA_PATH] = None  # served from the dist, see _load
        self._entry_points = dist.read_text("entry_points.txt")
        if self._entry_points is not None:
            index[ENTRY_POINTS_PATH] = ENTRY_POINTS_PATH
        version = str(Version(dist.version))
        location = Path(str(dist.locate_file(""))).resolve()
        super().__init__(version=version, label=f"installed amd-quark {version} ({location})", index=index)

    def record_digest(self) -> str | None:
        """Hex sha256 of the dist's RECORD (every installed file with its own hash, so it changes whenever
        any file of the release does), or None when the dist has no RECORD. The facts cache keys an
        installed snapshot by it (:func:`quarkci.facts.cache.entry_path`)."""
        record = self._dist.read_text("RECORD")
        if record is None:
            return None
        return hashlib.sha256(f"{self.version}\n{record}".encode()).hexdigest()

    def _load(self, key: Path | str | None) -> bytes:
        if key is None:
            return self._metadata.encode("utf-8")
        if isinstance(key, str):  # only ENTRY_POINTS_PATH is indexed by a string
            return (self._entry_points or "").encode("utf-8")
        try:
            return key.read_bytes()
        except FileNotFoundError:
            raise FileNotFoundError(f"{key} is listed in amd-quark's RECORD but missing on disk") from None
