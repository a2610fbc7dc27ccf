"""resolve(spec): every accepted spec, and one clear BadInputError for everything else."""

from __future__ import annotations

import pytest

from quarkci.core.errors import BadInputError
from quarkci.upstream import fetch
from quarkci.upstream.checkout import CheckoutSnapshot
from quarkci.upstream.pypi import PyPIIndex
from quarkci.upstream.resolve import pinned_version, resolve
from quarkci.upstream.wheel import WheelSnapshot
from tests.upstream.miniwheel import MINI_CHECKOUT, build_mini_wheel

FILE = [{"filename": "x.whl", "yanked": False}]


@pytest.fixture
def cache(monkeypatch, tmp_path):
    directory = tmp_path / "cache"
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(directory))
    monkeypatch.setattr(fetch.subprocess, "run", lambda *a, **k: pytest.fail("network used"))
    return directory


def test_pinned_release_from_cache(cache):
    build_mini_wheel(cache, version="0.99")
    snap = resolve("amd-quark==0.99")
    assert isinstance(snap, WheelSnapshot)
    assert snap.version == "0.99" and snap.label == "amd-quark==0.99 (PyPI wheel)"
    assert resolve("amd_quark == 0.99").version == "0.99"  # names and spaces normalised
    assert resolve("amd-quark==0.99.0").label == "amd-quark==0.99 (PyPI wheel)"  # PEP 440 normalised


def test_bare_name_means_newest(cache):
    build_mini_wheel(cache, version="0.99")
    index = PyPIIndex(fetch=lambda url: {"releases": {"0.98": FILE, "0.99": FILE, "1.0rc1": FILE}})
    assert resolve("amd-quark", index=index).version == "0.99"


def test_wheel_path_and_checkout_dir(tmp_path):
    assert isinstance(resolve(str(build_mini_wheel(tmp_path))), WheelSnapshot)
    assert isinstance(resolve(str(MINI_CHECKOUT)), CheckoutSnapshot)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("", "empty"),
        ("amd-quark>=0.10", "pin one exact release"),
        ("amd-quark==0.*", "pin one exact release"),
        ("numpy==1.0", "only amd-quark is supported"),
        ("missing.whl", "no such file or directory"),
        ("amd-quark[cli]==0.13", "pin one exact release"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(BadInputError, match=message):
        resolve(spec)


def test_paths_that_are_neither(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("x")
    with pytest.raises(BadInputError, match="not a .whl"):
        resolve(str(text))
    with pytest.raises(BadInputError, match="not a Quark checkout"):
        resolve(str(tmp_path))
    with pytest.raises(BadInputError, match="no such file"):
        resolve(str(tmp_path / "absent"))


def test_pinned_version_parsing():
    assert pinned_version("amd-quark==0.12.post1") == "0.12.post1"
    assert pinned_version("amd-quark") is None
    with pytest.raises(BadInputError, match="only amd-quark"):
        pinned_version("torch==2.9")
