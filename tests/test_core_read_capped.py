"""core.documents.read_capped: the one bounded reader for user files and streams."""

from __future__ import annotations

import io

import pytest

from quarkci.core.documents import read_capped
from quarkci.core.errors import BadInputError


def test_a_file_at_the_limit_is_read_whole_and_one_byte_more_is_refused(tmp_path):
    path = tmp_path / "body.md"
    path.write_bytes(b"x" * 10)
    assert read_capped(path, 10, "--body-file f") == b"x" * 10
    path.write_bytes(b"x" * 11)
    with pytest.raises(BadInputError, match="^--body-file f: over the 10-byte limit$"):
        read_capped(str(path), 10, "--body-file f")


def test_a_stream_is_bounded_while_read_never_read_to_its_end():
    class Endless(io.RawIOBase):
        reads = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            Endless.reads += 1
            buffer[:] = b"y" * len(buffer)
            return len(buffer)

    with pytest.raises(BadInputError, match="over the 1000-byte limit"):
        read_capped(io.BufferedReader(Endless()), 1000, "-")
    assert Endless.reads < 10  # it stopped after limit + 1 bytes


def test_an_unreadable_path_is_one_line_naming_where(tmp_path):
    with pytest.raises(BadInputError, match=r"^changed file 'a': cannot read \("):
        read_capped(tmp_path / "missing", 10, "changed file 'a'")
