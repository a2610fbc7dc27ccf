"""PyPI listing: final releases only, sorted by packaging.version; unreachable PyPI is exit-3 material."""

from __future__ import annotations

import pytest

from quarkci.core.errors import BadInputError, UpstreamUnreachableError
from quarkci.upstream.pypi import PyPIIndex, release_versions

FILE = [{"filename": "x.whl", "yanked": False}]
PAYLOAD = {
    "releases": {
        "0.9": FILE,
        "0.10": FILE,
        "0.11.1": FILE,
        "0.11": FILE,
        "0.12": [{"filename": "y.whl", "yanked": True}],  # fully yanked
        "0.12.post1": FILE,
        "0.13rc1": FILE,  # pre-release
        "0.14.dev3": FILE,  # dev release
        "0.15": [],  # no files
        "garbage!": FILE,  # not PEP 440
    }
}


def test_release_versions_filters_and_sorts_semantically():
    assert [str(v) for v in release_versions(PAYLOAD)] == ["0.9", "0.10", "0.11", "0.11.1", "0.12.post1"]


def test_newest_and_previous():
    index = PyPIIndex(fetch=lambda url: PAYLOAD)
    assert str(index.newest()) == "0.12.post1"
    assert str(index.previous("0.12.post1")) == "0.11.1"
    assert str(index.previous("0.11")) == "0.10"
    assert index.previous("0.9") is None
    assert index.has("0.11.1") and not index.has("0.12")
    with pytest.raises(BadInputError):
        index.previous("not-a-version")


def test_fetches_once_per_instance():
    calls = []
    index = PyPIIndex(fetch=lambda url: calls.append(url) or PAYLOAD, url="https://example.invalid/json")
    index.versions()
    index.newest()
    assert calls == ["https://example.invalid/json"]


def test_empty_listing_has_no_newest():
    with pytest.raises(UpstreamUnreachableError, match="no usable"):
        PyPIIndex(fetch=lambda url: {"releases": {}}).newest()


def test_unreachable_pypi_raises_upstream_unreachable(monkeypatch):
    monkeypatch.setenv("QUARKCI_PYPI_JSON_URL", "http://127.0.0.1:9/pypi/amd-quark/json")
    with pytest.raises(UpstreamUnreachableError, match="unreachable"):
        PyPIIndex().versions()


def test_an_unresolvable_index_is_asked_once_and_is_exit_3(monkeypatch):
    """Structural (no network): a fake resolver counts the look-ups; a DNS failure is not retried."""
    import socket

    calls: list[str] = []

    def unresolvable(host, *args, **kwargs):
        calls.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", unresolvable)
    monkeypatch.setenv("QUARKCI_PYPI_JSON_URL", "https://pypi.example.invalid/pypi/amd-quark/json")
    with pytest.raises(UpstreamUnreachableError, match="Name or service not known") as caught:
        PyPIIndex().versions()
    assert calls == ["pypi.example.invalid"] and caught.value.exit_code == 3
    assert len(str(caught.value).splitlines()) == 1
