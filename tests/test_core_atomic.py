"""Atomic writes: the target is the old content or the complete new one, never a partial file."""

from __future__ import annotations

import os

import pytest

from quarkci.core.atomic import atomic_write_bytes, atomic_write_text


def test_writes_and_creates_parents(tmp_path):
    target = tmp_path / "a" / "b" / "report.md"
    atomic_write_text(target, "hello\n")
    assert target.read_text() == "hello\n"
    assert os.listdir(target.parent) == ["report.md"]


def test_failure_mid_write_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text("old")

    def failing_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_bytes(target, b"new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["report.json"]


def test_new_file_mode_follows_umask_and_existing_mode_is_kept(tmp_path):
    old = os.umask(0o022)
    try:
        fresh = atomic_write_text(tmp_path / "new.md", "x")
        assert fresh.stat().st_mode & 0o777 == 0o644
        kept = tmp_path / "script.sh"
        kept.write_text("old")
        kept.chmod(0o750)
        atomic_write_text(kept, "new")
        assert kept.stat().st_mode & 0o777 == 0o750
    finally:
        os.umask(old)
