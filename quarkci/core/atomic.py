"""Atomic file writes: a report is either the old one or the complete new one, never half-written."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (temp file in the same directory, fsync, then rename).

    Creates missing parent directories. Returns the final path.
    Raises ``OSError`` if the directory cannot be written; the target is then left untouched.
    """
    return atomic_write_bytes(path, text.encode(encoding))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; see :func:`atomic_write_text`.

    The new file keeps the mode of the file it replaces; a new file gets ``0o666 & ~umask``
    (``mkstemp`` alone would leave it ``0o600``).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return target


def _umask() -> int:
    """The process umask (read by setting and restoring it)."""
    current = os.umask(0)
    os.umask(current)
    return current
