"""WheelSnapshot: read from the zip, METADATA as a virtual path, coverage computed, bad wheels rejected."""

from __future__ import annotations

import zipfile

import pytest

from quarkci.core.errors import BadInputError
from quarkci.upstream.wheel import WheelSnapshot
from tests.upstream.miniwheel import build_mini_wheel


@pytest.fixture
def wheel(tmp_path):
    return WheelSnapshot(build_mini_wheel(tmp_path, version="0.99.post1"))


def test_version_and_label_come_from_the_wheel(wheel):
    assert wheel.version == "0.99.post1"
    assert wheel.kind == "wheel"
    assert wheel.label == "amd_quark-0.99.post1-py3-none-any.whl (wheel)"


def test_coverage_is_what_the_zip_holds(wheel):
    assert wheel.coverage == frozenset({"quark", "metadata"})
    assert wheel.covers("quark/torch/missing.py")
    assert not wheel.covers("tools/ci/install_torch.sh")
    assert not wheel.covers("docs/source/install.rst")
    assert not wheel.covers("pyproject.toml")


def test_metadata_is_a_virtual_path_and_dist_info_is_hidden(wheel):
    assert wheel.exists("METADATA")
    assert "Requires-Python: >=3.11,<3.14" in wheel.read_text("METADATA")
    assert not [p for p in wheel.files() if ".dist-info" in p]


def test_files_prefix_and_read(wheel):
    skills = wheel.files("quark/_bundled_skills/")
    assert skills == ["quark/_bundled_skills/mini-skill/SKILL.md"]
    assert "name: mini-skill" in wheel.read_text(skills[0])
    assert wheel.files("nope/") == []
    with pytest.raises(FileNotFoundError):
        wheel.read_text("quark/absent.py")


def test_non_utf8_file_raises_unicode_error(tmp_path):
    snap = WheelSnapshot(build_mini_wheel(tmp_path, extra={"quark/bin.dat": b"\xff\xfe\x00"}))
    assert snap.read_bytes("quark/bin.dat") == b"\xff\xfe\x00"
    with pytest.raises(UnicodeDecodeError):
        snap.read_text("quark/bin.dat")


def test_not_a_zip_is_bad_input(tmp_path):
    bogus = tmp_path / "amd_quark-1.0-py3-none-any.whl"
    bogus.write_text("this is not a zip")
    with pytest.raises(BadInputError, match="not a wheel"):
        WheelSnapshot(bogus)


def test_zip_without_metadata_is_bad_input(tmp_path):
    path = tmp_path / "x.whl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("quark/__init__.py", "")
    with pytest.raises(BadInputError, match="no \\*.dist-info/METADATA"):
        WheelSnapshot(path)


def test_invalid_version_is_bad_input(tmp_path):
    path = build_mini_wheel(
        tmp_path, metadata="Metadata-Version: 2.1\nName: amd-quark\nVersion: not a version\n"
    )
    with pytest.raises(BadInputError, match="Version"):
        WheelSnapshot(path)


def test_missing_wheel_is_bad_input(tmp_path):
    with pytest.raises(BadInputError, match="no such wheel"):
        WheelSnapshot(tmp_path / "absent.whl")


def test_an_oversized_member_is_refused_before_it_is_inflated(tmp_path, monkeypatch):
    from quarkci.upstream import wheel as wheel_module

    path = build_mini_wheel(tmp_path, extra={"quark/huge.py": b"#" * 4096})
    monkeypatch.setattr(wheel_module, "MAX_MEMBER_BYTES", 1024)
    snapshot = WheelSnapshot(path)
    with pytest.raises(BadInputError, match="quark/huge.py is 4096 bytes uncompressed"):
        snapshot.read_bytes("quark/huge.py")
