"""amd-quark release listing from the PyPI JSON API (``https://pypi.org/pypi/amd-quark/json``).

Pre-releases, dev releases and fully-yanked releases (or releases with no files) are excluded;
versions are ordered with :class:`packaging.version.Version`. The URL can be pointed elsewhere with
``$QUARKCI_PYPI_JSON_URL`` (a mirror, or a local server in tests).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from packaging.version import Version

from quarkci.core.errors import BadInputError, UpstreamUnreachableError

PYPI_JSON_URL = "https://pypi.org/pypi/amd-quark/json"
TIMEOUT_S = 20

Fetcher = Callable[[str], dict[str, Any]]


def _http_json(url: str) -> dict[str, Any]:
    request = urllib.request.Request(url, headers={"Accept": "application/json", "User-Agent": "quarkci"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:  # noqa: S310 - https only
            document: dict[str, Any] = json.loads(response.read().decode("utf-8"))
            return document
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UpstreamUnreachableError(f"PyPI is unreachable ({url}): {reason}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise UpstreamUnreachableError(f"PyPI returned an unreadable answer ({url}): {exc}") from None


def release_versions(payload: dict[str, Any]) -> list[Version]:
    """Final releases in a PyPI JSON ``payload``, oldest first.

    A release counts when it parses as PEP 440, is not a pre/dev release, and has at least one
    file that is not yanked.
    """
    out: list[Version] = []
    for raw, files in (payload.get("releases") or {}).items():
        try:
            version = Version(raw)
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
            continue
        if version.is_prerelease or version.is_devrelease:
            continue
        if not files or all(f.get("yanked", False) for f in files):
            continue
        out.append(version)
    return sorted(out)


class PyPIIndex:
    """The amd-quark release list. ``fetch(url) -> dict`` is injectable for tests.

    Every method raises :class:`UpstreamUnreachableError` when PyPI cannot be reached.
    """

    def __init__(self, fetch: Fetcher | None = None, url: str | None = None) -> None:
        self._fetch = fetch or _http_json
        self.url = url or os.environ.get("QUARKCI_PYPI_JSON_URL") or PYPI_JSON_URL
        self._versions: list[Version] | None = None
        self._document: dict[str, Any] | None = None

    def document(self) -> dict[str, Any]:
        """The project's PyPI JSON document (fetched once per instance)."""
        if self._document is None:
            self._document = self._fetch(self.url)
        return self._document

    def versions(self) -> list[Version]:
        """All final, non-yanked releases, oldest first (fetched once per instance)."""
        if self._versions is None:
            self._versions = release_versions(self.document())
        return list(self._versions)

    def newest(self) -> Version:
        """The newest final release. Raises :class:`UpstreamUnreachableError` if PyPI lists none."""
        versions = self.versions()
        if not versions:
            raise UpstreamUnreachableError(f"PyPI lists no usable amd-quark release at {self.url}")
        return versions[-1]

    def previous(self, version: str | Version) -> Version | None:
        """The newest release strictly older than ``version`` (None when there is none).

        Raises :class:`BadInputError` when ``version`` is not a PEP 440 version.
        """
        try:
            current = Version(str(version))
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
            raise BadInputError(f"not a version: {version!r}") from None
        older = [v for v in self.versions() if v < current]
        return older[-1] if older else None

    def has(self, version: str | Version) -> bool:
        """True when ``version`` is a listed final release."""
        return Version(str(version)) in self.versions()
