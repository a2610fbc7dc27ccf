"""Output-location checks done before any slow work: the one place that decides "can we write there?".

``os.access`` always says yes to root (and CI runs as root), so a location is probed by creating and
removing a temporary file in the nearest existing directory. Nothing is left behind: missing parent
directories are not created by the probe (the writer creates them later).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from quarkci.core.errors import BadInputError


def check_output_dir(path: str | os.PathLike[str], flag: str) -> Path:
    """Check that directory ``path`` (given with command-line option ``flag``) can be created or written.

    Returns the path. Raises :class:`BadInputError` (exit 2) with one line naming ``flag`` when ``path``
    exists and is not a directory, or its nearest existing ancestor is not a writable directory.
    """
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise BadInputError(f"{flag} {target}: exists and is not a directory")
    _probe(_nearest_existing(target), target, flag)
    return target


def check_output_file(path: str | os.PathLike[str], flag: str) -> Path:
    """Check that file ``path`` (given with option ``flag``) can be written (created or replaced).

    Returns the path. Raises :class:`BadInputError` naming ``flag`` when ``path`` is a directory, or
    its nearest existing ancestor is not a writable directory.
    """
    target = Path(path)
    if target.is_dir():
        raise BadInputError(f"{flag} {target}: is a directory, expected a file path")
    _probe(_nearest_existing(target.parent), target, flag)
    return target


def check_inside(path: str | os.PathLike[str], root: str | os.PathLike[str], what: str) -> Path:
    """Check that ``path`` resolves inside directory ``root`` (symbolic links and ``..`` resolved).

    Returns the resolved path. Raises :class:`BadInputError` naming ``what`` otherwise.
    """
    resolved = Path(path).resolve()
    base = Path(root).resolve()
    if resolved != base and base not in resolved.parents:
        raise BadInputError(f"{what} {path}: outside {root}")
    return resolved


def _nearest_existing(path: Path) -> Path:
    current = path.absolute()
    while not current.exists():
        if current.parent == current:
            break
        current = current.parent
    return current


def _probe(directory: Path, target: Path, flag: str) -> None:
    if not directory.is_dir():
        raise BadInputError(f"{flag} {target}: {directory} is not a directory")
    try:
        fd, name = tempfile.mkstemp(prefix=".quarkci-probe-", dir=directory)
    except OSError as exc:
        raise BadInputError(f"{flag} {target}: cannot write in {directory} ({exc.strerror})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)
