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


def check_disjoint(
    output: str | os.PathLike[str], output_flag: str, source: str | os.PathLike[str], source_flag: str
) -> Path:
    """Check that output location ``output`` (option ``output_flag``) does not overlap input directory
    ``source`` (option ``source_flag``): it is neither the same directory, inside it, nor above it
    (symbolic links and ``..`` resolved), so writing the output cannot change the input being read.

    Returns ``output`` resolved. Raises :class:`BadInputError` naming ``output_flag`` otherwise.
    """
    out, src = Path(output).resolve(), Path(source).resolve()
    if out == src:
        relation = "is"
    elif src in out.parents:
        relation = "is inside"
    elif out in src.parents:
        relation = "contains"
    else:
        return out
    raise BadInputError(
        f"{output_flag} {output}: {relation} the {source_flag} directory {source}; write the output elsewhere"
    )


def repository_root(start: str | os.PathLike[str]) -> Path | None:
    """The git repository root holding ``start``: the nearest ancestor-or-self directory with a ``.git``
    entry (a directory, or a file for a worktree or submodule), resolved; None outside a repository."""
    current = Path(start).resolve()
    for folder in (current, *current.parents):
        if (folder / ".git").exists():
            return folder
    return None


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
