"""The facts of the ``installed`` release are cached, keyed by the sha256 of the dist's RECORD."""

from __future__ import annotations

import importlib.metadata as md

import pytest

from quarkci.facts import cache
from quarkci.upstream.installed import InstalledSnapshot


@pytest.fixture
def installed() -> InstalledSnapshot:
    try:
        md.distribution("amd-quark")
    except md.PackageNotFoundError:
        pytest.skip("amd-quark is not installed (the ml extra)")
    return InstalledSnapshot()


def test_installed_facts_are_cached_by_record(installed, tmp_path, monkeypatch):
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path))
    entry = cache.entry_path(installed)
    assert entry is not None and entry.name.startswith("installed-") and not entry.exists()
    first = cache.facts_of(installed)
    assert entry.is_file()  # written on the first extraction...
    calls = []
    monkeypatch.setattr(cache, "extract_all", lambda *a, **k: calls.append(1))  # ...and served from it after
    assert cache.facts_of(InstalledSnapshot()).to_json() == first.to_json() and calls == []
    # another RECORD (any installed file changed) is another entry
    monkeypatch.setattr(InstalledSnapshot, "record_digest", lambda self: "0" * 64)
    assert cache.entry_path(installed) != entry
