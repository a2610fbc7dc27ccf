"""A PyPI wheel of amd-quark, read straight from its zip (never extracted, imported or executed).

Paths are the wheel's own (``quark/...``); the ``*.dist-info/METADATA`` file is exposed under the
virtual path ``METADATA``, ``entry_points.txt`` under ``ENTRY_POINTS``, and the other ``*.dist-info`` files are left out. The version comes from
METADATA (the ``Version`` header), normalised with :mod:`packaging.version`.
"""

from __future__ import annotations

import threading
import zipfile
from email.parser import HeaderParser
from pathlib import Path

from packaging.version import InvalidVersion, Version

from quarkci.core.errors import BadInputError
from quarkci.upstream._files import IndexedSnapshot
from quarkci.upstream.base import ENTRY_POINTS_PATH, METADATA_PATH, SnapshotKind

# The largest file in a real amd-quark wheel is well under 1 MiB; 32 MiB leaves ample room.
MAX_MEMBER_BYTES = 32 * 1024 * 1024


class WheelSnapshot(IndexedSnapshot):
    """An amd-quark ``.whl`` file.

    ``WheelSnapshot(path, label=None)``. Raises :class:`BadInputError` when ``path`` is missing,
    not a zip, or has no ``*.dist-info/METADATA`` with a valid ``Version``.
    """

    kind: SnapshotKind = "wheel"

    def __init__(self, path: str | Path, label: str | None = None) -> None:
        self.path = Path(path)
        try:
            self._zip = zipfile.ZipFile(self.path)
        except FileNotFoundError:
            raise BadInputError(f"{self.path}: no such wheel file") from None
        except (zipfile.BadZipFile, OSError) as exc:
            raise BadInputError(f"{self.path}: not a wheel (not a readable zip archive: {exc})") from None
        self._lock = threading.Lock()
        index: dict[str, str] = {}
        metadata: str | None = None
        for info in self._zip.infolist():
            if info.is_dir():
                continue
            name = info.filename
            top = name.split("/", 1)[0]
            if top.endswith(".dist-info"):
                if name == f"{top}/METADATA":
                    metadata = name
                elif name == f"{top}/entry_points.txt":
                    index[ENTRY_POINTS_PATH] = name
                continue
            index[name] = name
        if metadata is None:
            raise BadInputError(f"{self.path}: not a wheel (no *.dist-info/METADATA inside)")
        index[METADATA_PATH] = metadata
        meta = HeaderParser().parsestr(self._zip.read(metadata).decode("utf-8", "replace"))
        try:
            version = str(Version(meta.get("Version", "")))
        except InvalidVersion:
            raise BadInputError(f"{self.path}: METADATA has no valid Version header") from None
        if label is None:
            label = f"{self.path.name} (wheel)"
        super().__init__(version=version, label=label, index=index)

    def _load(self, key: str) -> bytes:
        size = self._zip.getinfo(key).file_size
        if size > MAX_MEMBER_BYTES:  # a crafted wheel must not make quarkci inflate gigabytes
            raise BadInputError(
                f"{self.label}: {key} is {size} bytes uncompressed "
                f"(limit {MAX_MEMBER_BYTES}); not a real amd-quark wheel"
            )
        with self._lock:  # ZipFile reads share one file handle
            return self._zip.read(key)
