"""``core.progress.heartbeat``: a progress line every period while a step runs, none for a short step,
and the thread gone when the step ends or raises."""

from __future__ import annotations

import threading
import time

import pytest

from quarkci.core import progress
from quarkci.core.progress import heartbeat


def test_a_long_step_says_it_is_still_running_every_period():
    lines: list[str] = []
    with heartbeat(lines.append, "validate: reload", every=0.05):
        time.sleep(0.33)
    assert 4 <= len(lines) <= 7, lines
    assert all(line.startswith("validate: reload: still running (") for line in lines)
    count = len(lines)
    time.sleep(0.15)
    assert len(lines) == count  # nothing after the step ended


def test_a_short_step_says_nothing_and_none_prints_nothing():
    lines: list[str] = []
    with heartbeat(lines.append, "quick", every=5.0):
        pass
    assert lines == []
    with heartbeat(None, "silent", every=0.01):
        time.sleep(0.05)  # no say: nothing to call, no thread


def test_the_default_period_is_read_at_each_call(monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 0.05)
    lines: list[str] = []
    with heartbeat(lines.append, "drive"):
        time.sleep(0.2)
    assert lines and progress.EVERY == 0.05


def test_a_raising_step_stops_its_heartbeat():
    before = threading.active_count()
    lines: list[str] = []
    with pytest.raises(RuntimeError), heartbeat(lines.append, "boom", every=0.02):
        raise RuntimeError("x")
    assert threading.active_count() == before
    time.sleep(0.06)
    assert lines == []
