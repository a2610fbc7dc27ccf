"""A PyPI wheel of amd-quark, read straight from its zip (never extracted, imported or executed).

Paths are the wheel's own (``quark/...``); the ``*.dist-info/METADATA`` file is exposed under the
virtual path ``METADATA``, ``entry_points.txt`` under ``ENTRY_POINTS``, and the other ``*.dist-info`` files are left out. The version comes from
METADATA (the ``Version`` header), normalised with :mod:`packaging.version`.
"""

from __future__ import annotations

import struct
import threading
import zipfile
import zlib
from email.parser import HeaderParser
from pathlib import Path

from packaging.version import Version

from quarkci.core.errors import BadInputError
from quarkci.upstream._files import IndexedSnapshot
from quarkci.upstream.base import ENTRY_POINTS_PATH, METADATA_PATH, SnapshotKind

# Real amd-quark wheels, 0.6.0 to 0.13: at most 2.7 MB on disk, 1,004 members, 9.5 MB inflated in all,
# the largest member 429 KB (quark/torch/algorithm/rotation/hadamard.py), METADATA 16 KB. The bounds
# below leave ample room and are checked against the sizes the zip declares, which bound what is read:
# zipfile stops inflating a member at its declared size and fails the CRC check when more was there.
MAX_MEMBER_BYTES = 32 * 1024 * 1024  # one member, inflated
MAX_TOTAL_BYTES = 256 * 1024 * 1024  # every member together, inflated
MAX_METADATA_BYTES = 1024 * 1024  # *.dist-info/METADATA
MAX_MEMBERS = 50_000
MAX_WHEEL_BYTES = 256 * 1024 * 1024  # the .whl file itself (bounds the central directory read on open)
# What zipfile and zlib raise for a damaged or unsupported member (bad CRC, truncated or invalid deflate
# stream, an encrypted member, an unknown compression method, a header that does not match).
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError, OSError)


_END_OF_CENTRAL_DIRECTORY = struct.Struct("<4s4H2LH")  # APPNOTE.TXT 4.3.16; 22 bytes, then the comment


def _declared_members(path: Path) -> int | None:
    """The member count a zip's end-of-central-directory record declares (read from at most its last
    64 KiB + 22 bytes), or None when there is no plain record (a zip64 archive, or not a zip: zipfile
    decides). Raises ``OSError`` when the file cannot be read."""
    with open(path, "rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - (0xFFFF + _END_OF_CENTRAL_DIRECTORY.size)))
        tail = fh.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < _END_OF_CENTRAL_DIRECTORY.size:
        return None
    total = _END_OF_CENTRAL_DIRECTORY.unpack_from(tail, at)[4]
    return None if total == 0xFFFF else int(total)


class WheelSnapshot(IndexedSnapshot):
    """An amd-quark ``.whl`` file.

    ``WheelSnapshot(path, label=None)``. Raises :class:`BadInputError` when ``path`` is missing,
    not a zip, over :data:`MAX_WHEEL_BYTES`, declares more than :data:`MAX_MEMBERS` members or more than
    :data:`MAX_TOTAL_BYTES` inflated, or has no ``*.dist-info/METADATA`` (at most
    :data:`MAX_METADATA_BYTES`) with a valid ``Version``. Reading a member (:meth:`read_bytes`) raises
    :class:`BadInputError` when it is over :data:`MAX_MEMBER_BYTES` or damaged (bad CRC, bad deflate
    stream, encrypted).
    """

    kind: SnapshotKind = "wheel"

    def __init__(self, path: str | Path, label: str | None = None) -> None:
        self.path = Path(path)
        try:
            size = self.path.stat().st_size
            if size > MAX_WHEEL_BYTES:
                raise BadInputError(
                    f"{self.path}: {size} bytes, over the {MAX_WHEEL_BYTES}-byte limit for a wheel"
                )
            declared = _declared_members(self.path)
            if declared is not None and declared > MAX_MEMBERS:  # refused before zipfile reads them all
                raise BadInputError(
                    f"{self.path}: {declared} members, over the {MAX_MEMBERS} limit for a wheel"
                )
            self._zip = zipfile.ZipFile(self.path)
        except FileNotFoundError:
            raise BadInputError(f"{self.path}: no such wheel file") from None
        except _DAMAGED as exc:
            raise BadInputError(f"{self.path}: not a wheel (not a readable zip archive: {exc})") from None
        self._lock = threading.Lock()
        index: dict[str, str] = {}
        metadata: str | None = None
        infos = self._zip.infolist()
        if len(infos) > MAX_MEMBERS:
            raise BadInputError(
                f"{self.path}: {len(infos)} members, over the {MAX_MEMBERS} limit for a wheel"
            )
        total = sum(info.file_size for info in infos)
        if total > MAX_TOTAL_BYTES:
            raise BadInputError(
                f"{self.path}: {total} bytes once inflated, over the {MAX_TOTAL_BYTES}-byte limit for a wheel"
            )
        for info in infos:
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
        text = self._load(metadata, MAX_METADATA_BYTES).decode("utf-8", "replace")
        meta = HeaderParser().parsestr(text)
        try:
            version = str(Version(meta.get("Version", "")))
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
            raise BadInputError(f"{self.path}: METADATA has no valid Version header") from None
        if label is None:
            label = f"{self.path.name} (wheel)"
        super().__init__(version=version, label=label, index=index)

    def _load(self, key: str, limit: int | None = None) -> bytes:
        """The inflated bytes of member ``key``: at most ``limit`` (default :data:`MAX_MEMBER_BYTES`; its
        declared size is checked first, and zipfile inflates no more than that). Raises
        :class:`BadInputError` when it is larger or damaged."""
        limit = MAX_MEMBER_BYTES if limit is None else limit
        where = getattr(self, "label", str(self.path))  # (the label is set once METADATA is read)
        size = self._zip.getinfo(key).file_size
        if size > limit:  # a crafted wheel must not make quarkci inflate gigabytes
            raise BadInputError(
                f"{where}: {key} is {size} bytes uncompressed (limit {limit}); not a real amd-quark wheel"
            )
        try:
            with self._lock:  # ZipFile reads share one file handle
                data = self._zip.read(key)
        except _DAMAGED as exc:
            raise BadInputError(f"{where}: {key} cannot be read from the wheel ({exc})") from None
        if len(data) > limit:  # never, by zipfile's contract; kept as the bound of record
            raise BadInputError(f"{where}: {key} inflates past {limit} bytes; not a real amd-quark wheel")
        return data
