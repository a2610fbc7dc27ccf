"""Real amd-quark wheels from PyPI for ``@pytest.mark.real`` tests, downloaded at test time.

``real_wheel("0.13") -> Path`` fetches with ``pip download --no-deps`` into the quarkci wheel cache
(``$QUARKCI_CACHE_DIR`` or ``~/.cache/quarkci/wheels``) and reuses the cached file afterwards.
Quark's files are never committed to this repository.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from quarkci.upstream.fetch import fetch_wheel
from quarkci.upstream.wheel import WheelSnapshot

# The releases the real values are stated for, oldest first.
REAL_VERSIONS: tuple[str, ...] = ("0.10", "0.11", "0.11.1", "0.11.2", "0.12.post1", "0.13")


@cache
def real_wheel(version: str) -> Path:
    """Path of the cached real amd-quark ``version`` wheel (downloaded on first use)."""
    return fetch_wheel(version)


def real_snapshot(version: str) -> WheelSnapshot:
    """A :class:`WheelSnapshot` of the real amd-quark ``version`` wheel."""
    return WheelSnapshot(real_wheel(version), label=f"amd-quark=={version} (PyPI wheel)")
