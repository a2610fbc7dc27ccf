"""The amd-quark requirement a runner installs: one exact version, wheels only, with every accepted
wheel's sha256 (``pip install --no-deps --only-binary :all: --require-hashes -r FILE``).

The hashes come from the repository's lock (``requirements/ml.lock``, compiled by
``scripts/lock_deps.sh`` with ``--generate-hashes``) for the locked release, or, for a release the lock
does not pin yet, from the PyPI JSON API when ``upstream-watch.yml`` detects the release
(:func:`wheel_sha256s`), passed to the dispatched workflow as its ``quark-sha256`` input. A runner never
asks the index for a hash at install time (that would trust whatever the index serves then), and never
builds an sdist (``--only-binary``: building one runs upstream code).

The PyPI JSON API fields read (``releases.<version>[].packagetype``, ``filename``, ``yanked``,
``digests.sha256``) are documented in PyPI's "JSON API" page (warehouse ``docs/api-reference/json.rst``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from quarkci.core.errors import BadInputError, UpstreamUnreachableError

PROJECT = "amd-quark"
SHA256 = re.compile(r"^[0-9a-f]{64}$")
MAX_HASHES = 64
_LOCK_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})+)", re.M)


@dataclass(frozen=True)
class Pin:
    """One exact release and the sha256 of each wheel pip may install for it (sorted, at least one)."""

    project: str
    version: str
    sha256: tuple[str, ...]

    def requirement(self) -> str:
        """The requirements-file line: ``amd-quark==V --hash=sha256:H ...`` (pip's hash-checking mode)."""
        return " ".join([f"{self.project}=={self.version}", *(f"--hash=sha256:{h}" for h in self.sha256)])


def parse_sha256s(text: str, flag: str = "--sha256") -> tuple[str, ...]:
    """Comma- or space-separated sha256 digests (64 lowercase hex digits each), sorted and deduplicated.

    Raises :class:`BadInputError` naming ``flag`` for anything else (or more than 64 digests).
    """
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    bad = [p for p in parts if not SHA256.match(p)]
    if bad:
        raise BadInputError(f"{flag} {bad[0][:80]!r}: not a sha256 (64 lowercase hex digits)")
    if len(parts) > MAX_HASHES:
        raise BadInputError(f"{flag}: {len(parts)} digests, over the limit of {MAX_HASHES}")
    return tuple(sorted(set(parts)))


def locked(lock_text: str, project: str = PROJECT) -> Pin | None:
    """The pin of ``project`` in a pip-compile/uv lock with ``--generate-hashes`` (None when not pinned)."""
    joined = lock_text.replace("\\\n", " ")
    for name, version, hashes in _LOCK_ENTRY.findall(joined):
        if canonicalize_name(name) == canonicalize_name(project):
            return Pin(project, version, tuple(sorted(set(re.findall(r"[0-9a-f]{64}", hashes)))))
    return None


def read_lock(path: Path, project: str = PROJECT) -> Pin | None:
    """:func:`locked` of the file at ``path``; raises :class:`BadInputError` naming ``--lock`` when it
    cannot be read."""
    try:
        return locked(path.read_text(encoding="utf-8"), project)
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"--lock {path}: cannot read ({exc})") from None


def wheel_sha256s(payload: Mapping[str, Any], version: str) -> tuple[str, ...]:
    """The sha256 of every non-yanked wheel of ``version`` in a PyPI JSON project document (sdists left out).

    Raises :class:`UpstreamUnreachableError` when the index lists no such release or it has no wheel
    with a sha256 digest (the index, not the caller, is what is missing).
    """
    files = (payload.get("releases") or {}).get(version)
    if not isinstance(files, list) or not files:
        raise UpstreamUnreachableError(f"the index lists no amd-quark {version}")
    digests = []
    for entry in files:
        if not isinstance(entry, dict) or entry.get("yanked"):
            continue
        name = str(entry.get("filename") or "")
        kind = entry.get("packagetype")
        if kind != "bdist_wheel" and not (kind is None and name.endswith(".whl")):
            continue
        digest = str((entry.get("digests") or {}).get("sha256") or "")
        if SHA256.match(digest):
            digests.append(digest)
    if not digests:
        raise UpstreamUnreachableError(f"the index lists no wheel with a sha256 for amd-quark {version}")
    return tuple(sorted(set(digests)))


def check_version(version: str, flag: str = "--quark-version") -> str:
    """``version`` when it is a PEP 440 release number; raises :class:`BadInputError` naming ``flag``."""
    try:
        Version(version)
    except InvalidVersion:
        raise BadInputError(f"{flag} {version[:80]!r}: not a version such as 0.13") from None
    return version


def resolve(version: str, given: Iterable[str], lock: Pin | None, project: str = PROJECT) -> Pin:
    """The pin to install for ``version``: the lock's when it pins that version (a ``given`` digest must
    then be one of the lock's), else the ``given`` digests.

    Raises :class:`BadInputError` naming ``--quark-sha256`` when a given digest disagrees with the lock, or
    when the lock does not pin ``version`` and none is given (with the command that prints them).
    """
    given = tuple(sorted(set(given)))
    if lock is not None and Version(lock.version) == Version(version):
        stray = [h for h in given if h not in lock.sha256]
        if stray:
            raise BadInputError(
                f"--quark-sha256 {stray[0]}: not a wheel the lock pins for {project} {lock.version}"
            )
        return Pin(project, version, lock.sha256)
    if not given:
        pinned = f" (the lock pins {lock.version})" if lock is not None else ""
        raise BadInputError(
            f"--quark-sha256: {project} {version} is not the locked release{pinned}: give its wheel "
            f"sha256 (`quarkci upstream wheel-sha256 --version {version}` prints it; upstream-watch.yml "
            "passes it to the workflows it dispatches)"
        )
    return Pin(project, version, given)
