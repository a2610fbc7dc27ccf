"""Where skills come from: a directory on disk, or the skills bundled inside an upstream release.

A :class:`SkillSource` lists files (POSIX paths relative to the skills root) and reads them as
checked UTF-8 text. Reading never returns garbage: a file that is binary, not UTF-8 or larger than
:data:`MAX_FILE_BYTES` raises :class:`SkillFileError`, which discovery turns into a value.

Spec grammar for ``--skills`` (see :func:`open_skills`)::

    DIR               a directory holding SKILL.md files at any depth
    bundled:SPEC      quark/_bundled_skills/ of the upstream snapshot ``SPEC`` (any --upstream spec,
                      e.g. ``bundled:amd-quark==0.13``); releases before 0.13 bundle no skills
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

from quarkci.core.errors import BadInputError
from quarkci.core.paths import SKILL_FILE, escaped_name, is_text
from quarkci.upstream.base import Snapshot

MAX_FILE_BYTES = 2 * 1024 * 1024  # a SKILL.md or reference above this is refused, not parsed
# Entries a skills directory walk may visit (0.13 bundles about 150 files; a whole repository for the
# pre-commit hook's --skills . is rarely above tens of thousands outside .git and node_modules).
MAX_TREE_ENTRIES = 250_000
BUNDLED_PREFIX = "quark/_bundled_skills/"
_SKIPPED_DIRS = frozenset({".git", "__pycache__", ".hg", ".svn", "node_modules"})


class SkillFileError(ValueError):
    """A skill file that cannot be read as text: binary, not UTF-8, or too large."""


class SkillSource(Protocol):
    """A tree of skill files. Paths are POSIX and relative to the skills root."""

    label: (
        str  # human-readable origin, e.g. "skills/" or "amd-quark==0.13 (PyPI wheel): quark/_bundled_skills/"
    )

    def files(self) -> list[str]:
        """Sorted list of every file below the root."""
        ...

    def read_text(self, path: str) -> str:
        """Checked UTF-8 text of ``path``. Raises :class:`SkillFileError` or ``FileNotFoundError``."""
        ...


def decode_checked(data: bytes, path: str) -> str:
    """Decode ``data`` (the bytes of ``path``) as UTF-8 text, refusing binary and oversized content.

    Raises :class:`SkillFileError` with a one-line reason naming ``path``.
    """
    if len(data) > MAX_FILE_BYTES:
        raise SkillFileError(f"{path}: file is {len(data)} bytes, over the {MAX_FILE_BYTES}-byte limit")
    if b"\0" in data:
        raise SkillFileError(f"{path}: binary file (contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SkillFileError(f"{path}: not UTF-8 (byte {exc.start}: {exc.reason})") from None
    return text.removeprefix("\ufeff")


class DirectorySource:
    """Skills in a directory on disk. Symbolic links that leave the directory are ignored; other links
    that loop or dangle are ignored too, except a ``SKILL.md`` one: it is listed, and reading it (like
    reading any file that cannot be read) raises :class:`SkillFileError`, so the skill is reported
    unreadable instead of silently dropped."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.label = str(root)
        self._undecodable: set[str] = set()  # escaped names of files whose real name is not UTF-8

    def files(self) -> list[str]:
        """Every file below the root, sorted. Raises :class:`BadInputError` once the walk has seen more
        than :data:`MAX_TREE_ENTRIES` files and directories (``--skills /`` walks ``/proc``)."""
        root = self.root.resolve()
        found: list[str] = []
        seen = 0
        for dirpath, dirnames, filenames in os.walk(root):  # followlinks=False: no directory symlinks
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED_DIRS)
            seen += len(dirnames) + len(filenames)
            if seen > MAX_TREE_ENTRIES:
                raise BadInputError(
                    f"--skills {self.label}: more than {MAX_TREE_ENTRIES} files and directories; "
                    "not a skills directory"
                )
            for name in filenames:
                full = Path(dirpath, name)
                try:
                    if full.is_symlink() and not full.resolve().is_relative_to(root):
                        continue
                    listed = full.is_file()
                except (OSError, RuntimeError):  # RuntimeError: Path.resolve() of a symlink loop (3.11, 3.12)
                    listed = False
                try:
                    broken = full.is_symlink() and not full.exists()  # a loop or a dangling link
                except OSError:  # e.g. /proc/1/cwd: permission denied even to root
                    broken = False
                if listed or (broken and name == SKILL_FILE):  # such a SKILL.md: reading it is the error
                    relative = full.relative_to(root).as_posix()
                    if not is_text(relative):  # listed by its escaped name; reading it is the error
                        relative = escaped_name(relative)
                        self._undecodable.add(relative)
                    found.append(relative)
        return sorted(found)

    def read_text(self, path: str) -> str:
        if path in self._undecodable:
            raise SkillFileError(f"{path}: file name is not UTF-8 (shown escaped); rename it")
        full = self.root / path
        try:  # non-blocking open: a FIFO put in place of a file must not hang the audit
            with open(os.open(full, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
                info = os.fstat(fh.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise SkillFileError(f"{path}: not a regular file")
                if info.st_size > MAX_FILE_BYTES:  # refuse before reading a huge file into memory
                    raise SkillFileError(
                        f"{path}: file is {info.st_size} bytes, over the {MAX_FILE_BYTES}-byte limit"
                    )
                data = fh.read(MAX_FILE_BYTES + 1)  # bounded even when the file grows meanwhile
        except OSError as exc:  # missing, a link loop or a dangling link, unreadable
            raise SkillFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
        return decode_checked(data, path)


class SnapshotSource:
    """The skills bundled in an upstream release: ``quark/_bundled_skills/`` of a :class:`Snapshot`.

    Only the Snapshot protocol's ``files(prefix)`` and ``read_text(path)`` are used. Snapshot text
    that is not UTF-8 (``UnicodeDecodeError``) becomes :class:`SkillFileError`.
    """

    def __init__(self, snapshot: Snapshot, prefix: str = BUNDLED_PREFIX) -> None:
        self.snapshot = snapshot
        self.prefix = prefix if prefix.endswith("/") else prefix + "/"
        self.label = f"{getattr(snapshot, 'label', 'snapshot')}: {self.prefix}"

    def files(self) -> list[str]:
        return sorted(p[len(self.prefix) :] for p in self.snapshot.files(self.prefix) if p != self.prefix)

    def read_text(self, path: str) -> str:
        try:
            text = self.snapshot.read_text(self.prefix + path)
        except UnicodeDecodeError as exc:
            raise SkillFileError(f"{path}: not UTF-8 (byte {exc.start}: {exc.reason})") from None
        return decode_checked(text.encode("utf-8"), path)


def open_skills(spec: str) -> SkillSource:
    """Turn a ``--skills`` spec (``DIR`` or ``bundled:SPEC``) into a :class:`SkillSource`.

    ``bundled:SPEC`` resolves ``SPEC`` with :func:`quarkci.upstream.resolve.resolve` (which may raise
    ``BadInputError`` or ``UpstreamUnreachableError``). Raises :class:`BadInputError` for an empty
    spec, a missing path or a path that is not a directory. An empty directory is valid (0 skills).
    """
    if not spec or not spec.strip():
        raise BadInputError("--skills: empty spec (expected DIR or bundled:SPEC)")
    if spec.startswith("bundled:"):
        upstream = spec.removeprefix("bundled:").strip()
        if not upstream:
            raise BadInputError("--skills bundled:SPEC: missing upstream spec after 'bundled:'")
        from quarkci.upstream.resolve import resolve  # lazy: only bundled specs need snapshots

        return SnapshotSource(resolve(upstream, flag="--skills bundled:SPEC"))
    path = Path(spec)
    if not path.exists():
        raise BadInputError(f"--skills {spec}: no such directory")
    if not path.is_dir():
        raise BadInputError(f"--skills {spec}: not a directory")
    return DirectorySource(path)
