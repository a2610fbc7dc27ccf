"""Output-location checks done before any slow work: the one place that decides "can we write there?".

``os.access`` always says yes to root (and CI runs as root), so a location is probed by creating and
removing a temporary file in the nearest existing directory. Nothing is left behind: missing parent
directories are not created by the probe (the writer creates them later).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from quarkci.core.errors import BadInputError

SKILL_FILE = "SKILL.md"  # the file that makes a directory a skill
NAME_MAX_BYTES = 255  # one path component (Linux NAME_MAX; also macOS and Windows file systems)
PATH_MAX_BYTES = 4095  # a whole path (Linux PATH_MAX less the terminating NUL)


def is_text(name: str) -> bool:
    """Whether ``name`` is Unicode text: a file name read from a disk that is not UTF-8 (``b"s\\xff"``)
    arrives as a lone surrogate (PEP 383) and cannot be written as UTF-8 into a report."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped_name(name: str) -> str:
    """``name`` with each byte that is not UTF-8 written as ``\\xNN`` text (``"s\\udcff"`` -> ``"s\\\\xff"``):
    printable, and never the name of the file on disk."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def check_path_name(path: str | os.PathLike[str], flag: str) -> Path:
    """Check that ``path`` (given with option ``flag``) is a path the operating system can look up at all:
    no NUL byte, UTF-8 (:func:`is_text`), no component over :data:`NAME_MAX_BYTES` bytes and at most
    :data:`PATH_MAX_BYTES` bytes in all. Touches no file, so it is safe before any other check.

    Returns the path. Raises :class:`BadInputError` naming ``flag`` otherwise (``Path.exists()`` would
    raise ``OSError: File name too long`` or ``ValueError: embedded null byte`` instead of answering).
    """
    text = os.fspath(path)
    shown = text if len(text) <= 80 else text[:77] + "..."
    if "\0" in text:
        raise BadInputError(f"{flag} {shown!r}: contains a NUL byte")
    if not is_text(text):
        raise BadInputError(
            f"{flag} {escaped_name(shown)}: not UTF-8 (quarkci writes paths into its reports)"
        )
    data = os.fsencode(text)
    if len(data) > PATH_MAX_BYTES:
        raise BadInputError(
            f"{flag} {shown}: path of {len(data)} bytes, over the {PATH_MAX_BYTES}-byte limit"
        )
    longest = max(data.split(b"/"), key=len)
    if len(longest) > NAME_MAX_BYTES:
        raise BadInputError(
            f"{flag} {shown}: a path component of {len(longest)} bytes, over the {NAME_MAX_BYTES}-byte limit"
        )
    return Path(text)


def check_relative_file(name: str, what: str) -> PurePosixPath:
    """Check that ``name`` (described by ``what`` in errors, e.g. ``"report.json: changed_files[0]"``) is a
    normalised relative POSIX path naming a file below some root: not empty, not absolute, no ``.``,
    ``..`` or empty component, and :func:`check_path_name`'s limits. Touches no file.

    Returns it as a :class:`~pathlib.PurePosixPath`. Raises :class:`BadInputError` naming ``what``.
    """
    check_path_name(name, what)
    shown = name if len(name) <= 80 else name[:77] + "..."
    parts = name.split("/")
    if not name or name.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise BadInputError(
            f"{what} {shown!r}: not a relative path to a file (no '.', '..', '//' or leading '/')"
        )
    return PurePosixPath(name)


def check_output_dir(path: str | os.PathLike[str], flag: str) -> Path:
    """Check that directory ``path`` (given with command-line option ``flag``) can be created or written.

    Returns the path. Raises :class:`BadInputError` (exit 2) with one line naming ``flag`` when ``path``
    fails :func:`check_path_name`, is a symbolic link to nothing (dangling, or a loop), exists and is not a
    directory, or its nearest existing ancestor is not a writable directory.
    """
    target = check_path_name(path, flag)
    try:
        if target.is_symlink() and not target.exists():
            raise BadInputError(f"{flag} {target}: a symbolic link to a missing path (or a link loop)")
        if target.exists() and not target.is_dir():
            raise BadInputError(f"{flag} {target}: exists and is not a directory")
        _probe(_nearest_existing(target), target, flag)
    except OSError as exc:
        raise BadInputError(f"{flag} {target}: cannot check ({exc.strerror or exc})") from None
    return target


def check_output_file(path: str | os.PathLike[str], flag: str) -> Path:
    """Check that file ``path`` (given with option ``flag``) can be written (created or replaced).

    Returns the path. Raises :class:`BadInputError` naming ``flag`` when ``path`` fails
    :func:`check_path_name`, is a directory, or its nearest existing ancestor is not a writable directory.
    """
    target = check_path_name(path, flag)
    try:
        if target.is_dir():
            raise BadInputError(f"{flag} {target}: is a directory, expected a file path")
        _probe(_nearest_existing(target.parent), target, flag)
    except OSError as exc:
        raise BadInputError(f"{flag} {target}: cannot check ({exc.strerror or exc})") from None
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


def check_distinct_file(
    output: str | os.PathLike[str], output_flag: str, source: str | os.PathLike[str], source_flag: str
) -> Path:
    """Check that output file ``output`` (option ``output_flag``) is not input file ``source`` (option
    ``source_flag``): not the same path once symbolic links and ``..`` are resolved, nor another name of
    the same file (a hard link), so writing the output cannot replace the input.

    Returns ``output`` resolved. Raises :class:`BadInputError` naming ``output_flag`` otherwise.
    """
    out, src = Path(output).resolve(), Path(source).resolve()
    same = out == src
    if not same:
        with contextlib.suppress(OSError):  # a missing output is a new file: never the input
            same = os.path.samefile(out, src)
    if same:
        raise BadInputError(
            f"{output_flag} {output}: is the {source_flag} file {source}; write the output elsewhere"
        )
    return out


Location = tuple[str | os.PathLike[str] | None, str]  # (path or None when not given, its option)


def check_apart(writes: Iterable[Location], reads: Iterable[Location]) -> None:
    """Check, before any work, that no location a command writes can replace or change one it reads:
    the one data-safety check every command that reads and writes calls with all its paths.

    ``writes``/``reads``: ``(path, option)`` pairs; a ``None`` path (an option not given) is skipped. An
    existing directory read (a skills tree, a model directory, a workspace) must not be, contain or hold
    a written location (:func:`check_disjoint`); a file read must not be a written file (also through a
    symbolic or hard link: :func:`check_distinct_file`) nor lie inside a written directory.

    Raises :class:`BadInputError` naming the written option and the read one.
    """
    reads = [(path, flag) for path, flag in reads if path is not None and str(path) not in ("", "-")]
    for output, output_flag in writes:
        if output is None or str(output) in ("", "-"):
            continue
        for source, source_flag in reads:
            assert source is not None
            if Path(source).is_dir():
                check_disjoint(output, output_flag, source, source_flag)
            else:
                check_distinct_file(output, output_flag, source, source_flag)
                if Path(output).resolve() in Path(source).resolve().parents:
                    raise BadInputError(
                        f"{output_flag} {output}: holds the {source_flag} file {source}; "
                        "write the output elsewhere"
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


def check_output_outside_skills(
    out: str | os.PathLike[str], out_flag: str, root: str | os.PathLike[str], root_flag: str
) -> Path:
    """Check that output directory ``out`` (option ``out_flag``) cannot become part of a skill of the
    skills directory ``root`` (option ``root_flag``): it is not ``root`` nor above it
    (:func:`~quarkci.core.paths.check_disjoint`), and when it lies inside ``root`` no directory from it up
    to ``root`` holds a ``SKILL.md`` (files written there would be read as that skill's references, and a
    later ``--fix`` or drift PR would carry them along). A directory inside the tree but outside every
    skill (the pre-commit hook's ``--skills . --out .quarkci-reports``) is allowed.

    Returns ``out`` resolved. Raises :class:`BadInputError` naming ``out_flag`` otherwise.
    """
    resolved, base = Path(out).resolve(), Path(root).resolve()
    if base not in resolved.parents:
        return check_disjoint(out, out_flag, root, root_flag)
    for folder in (resolved, *resolved.parents):
        if (folder / SKILL_FILE).exists():
            raise BadInputError(
                f"{out_flag} {out}: inside the skill {folder} of the {root_flag} directory {root} "
                "(its files would be read as the skill's); write the output elsewhere"
            )
        if folder == base:
            break
    return resolved
