"""Fetch an amd-quark wheel into the local cache with ``pip download --no-deps --only-binary=:all:``.

Cache directory: ``$QUARKCI_CACHE_DIR`` or ``~/.cache/quarkci/wheels``. A cached wheel whose file name
carries the requested version is reused without touching the network. ``--only-binary=:all:``
guarantees pip never builds an sdist (which would execute upstream code).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from packaging.utils import InvalidWheelFilename, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from quarkci.core.errors import BadInputError, UpstreamUnreachableError
from quarkci.upstream.pypi import PyPIIndex

log = logging.getLogger(__name__)

PROJECT = "amd-quark"
PIP_TIMEOUT_S = 600


def cache_dir() -> Path:
    """``$QUARKCI_CACHE_DIR`` or ``~/.cache/quarkci/wheels`` (not created here)."""
    env = os.environ.get("QUARKCI_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "quarkci" / "wheels"


def cached_wheel(version: str | Version, directory: Path | None = None) -> Path | None:
    """The cached ``amd_quark-<version>-*.whl`` in ``directory`` (default :func:`cache_dir`), or None."""
    wanted = Version(str(version))
    directory = directory or cache_dir()
    if not directory.is_dir():
        return None
    for path in sorted(directory.glob("amd_quark-*.whl")):
        try:
            name, found, _build, _tags = parse_wheel_filename(path.name)
        except (InvalidWheelFilename, InvalidVersion):
            continue
        if name == PROJECT and found == wanted:
            return path
    return None


def fetch_wheel(version: str, directory: Path | None = None, index: PyPIIndex | None = None) -> Path:
    """Return the path of the amd-quark ``version`` wheel, downloading it into the cache if needed.

    Raises :class:`BadInputError` for an invalid or non-existent version and
    :class:`UpstreamUnreachableError` when PyPI cannot be reached.
    """
    try:
        wanted = Version(version)
    except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
        raise BadInputError(f"amd-quark=={version}: not a PEP 440 version") from None
    directory = directory or cache_dir()
    hit = cached_wheel(wanted, directory)
    if hit is not None:
        return hit
    directory.mkdir(parents=True, exist_ok=True)
    log.info("downloading amd-quark==%s from PyPI into %s", wanted, directory)
    with tempfile.TemporaryDirectory(prefix=".download-", dir=directory) as tmp:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--no-input",
            "--retries",
            "1",
            "--timeout",
            "20",
            "-d",
            tmp,
            f"{PROJECT}=={wanted}",
        ]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise UpstreamUnreachableError(f"pip download amd-quark=={wanted} timed out") from None
        wheels = sorted(Path(tmp).glob("amd_quark-*.whl"))
        if proc.returncode != 0 or not wheels:
            _explain_failure(str(wanted), proc.stderr, index or PyPIIndex())
        final = directory / wheels[0].name
        os.replace(wheels[0], final)  # atomic: the cache never holds a partial wheel
        shutil.rmtree(tmp, ignore_errors=True)
    return final


def _explain_failure(version: str, stderr: str, index: PyPIIndex) -> None:
    """Turn a failed ``pip download`` into the right one-line error (always raises)."""
    # Ask the JSON API whether the version exists; that also tells us if PyPI is reachable.
    listed = index.versions()  # raises UpstreamUnreachableError when PyPI is down
    if Version(version) not in listed:
        newest = f" (newest release: {listed[-1]})" if listed else ""
        raise BadInputError(f"amd-quark=={version} does not exist on PyPI{newest}")
    last = next((ln.strip() for ln in reversed(stderr.splitlines()) if ln.strip()), "no output")
    raise UpstreamUnreachableError(f"pip download amd-quark=={version} failed: {last}")
