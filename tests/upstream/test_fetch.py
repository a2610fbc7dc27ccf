"""Wheel cache and pip download: reuse without network; the right error for each failure."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from quarkci.core.errors import BadInputError, UpstreamUnreachableError
from quarkci.upstream import fetch
from quarkci.upstream.pypi import PyPIIndex
from tests.upstream.miniwheel import build_mini_wheel

FILE = [{"filename": "x.whl", "yanked": False}]


def _no_subprocess(*args, **kwargs):
    raise AssertionError("pip must not run when the wheel is cached")


def test_cache_dir_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path / "c"))
    assert fetch.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("QUARKCI_CACHE_DIR")
    assert fetch.cache_dir() == Path.home() / ".cache" / "quarkci" / "wheels"


def test_cached_wheel_is_reused_without_network(monkeypatch, tmp_path):
    wheel = build_mini_wheel(tmp_path, version="0.12.post1")
    monkeypatch.setattr(fetch.subprocess, "run", _no_subprocess)
    assert fetch.fetch_wheel("0.12.post1", directory=tmp_path) == wheel
    assert fetch.fetch_wheel("0.12.0.post1", directory=tmp_path) == wheel  # same PEP 440 version


def test_download_runs_pip_without_deps_or_sdists_and_lands_atomically(monkeypatch, tmp_path):
    seen = {}

    def fake_pip(cmd, **kwargs):
        seen["cmd"] = cmd
        build_mini_wheel(Path(cmd[cmd.index("-d") + 1]), version="0.98")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(fetch.subprocess, "run", fake_pip)
    path = fetch.fetch_wheel("0.98", directory=tmp_path / "cache")
    assert path == tmp_path / "cache" / "amd_quark-0.98-py3-none-any.whl" and path.is_file()
    assert {"download", "--no-deps", "--only-binary=:all:", "amd-quark==0.98"} <= set(seen["cmd"])
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [path.name]  # no temp dir left behind


def _failing_pip(cmd, **kwargs):
    return subprocess.CompletedProcess(
        cmd, 1, "", "ERROR: No matching distribution found for amd-quark==9.99"
    )


def test_nonexistent_version_is_bad_input(monkeypatch, tmp_path):
    monkeypatch.setattr(fetch.subprocess, "run", _failing_pip)
    index = PyPIIndex(fetch=lambda url: {"releases": {"0.13": FILE}})
    with pytest.raises(
        BadInputError, match=r"amd-quark==9\.99 does not exist on PyPI \(newest release: 0\.13\)"
    ):
        fetch.fetch_wheel("9.99", directory=tmp_path, index=index)


def test_network_down_is_upstream_unreachable(monkeypatch, tmp_path):
    monkeypatch.setattr(fetch.subprocess, "run", _failing_pip)
    monkeypatch.setenv("QUARKCI_PYPI_JSON_URL", "http://127.0.0.1:9/json")
    with pytest.raises(UpstreamUnreachableError):
        fetch.fetch_wheel("0.13", directory=tmp_path)


def test_listed_version_that_pip_cannot_fetch_is_unreachable(monkeypatch, tmp_path):
    monkeypatch.setattr(fetch.subprocess, "run", _failing_pip)
    index = PyPIIndex(fetch=lambda url: {"releases": {"0.13": FILE}})
    with pytest.raises(UpstreamUnreachableError, match="pip download"):
        fetch.fetch_wheel("0.13", directory=tmp_path, index=index)


def test_invalid_version_is_bad_input(tmp_path):
    with pytest.raises(BadInputError, match="PEP 440"):
        fetch.fetch_wheel("not.a.version!", directory=tmp_path)
