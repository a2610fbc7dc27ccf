"""quarkci.core.documents.write_json_streamed: the same bytes as one json.dumps, one item at a time."""

from __future__ import annotations

import io
import json

import pytest

from quarkci.core.documents import write_json_streamed

ITEMS = [
    {"kind": "cli_flag", "value": "--a", "context": {"command": "quark-cli x", "nested": [1, {"b": None}]}},
    {"kind": "path", "value": "é/ü", "context": {}, "line": 3.5},
    [],
    "plain",
]


@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("items", [ITEMS, ITEMS[:1], []])
def test_streamed_bytes_equal_one_dumps(items, ascii_only):
    head = {
        "source": "dir",
        "count": len(items),
        "counts": {"b": 1, "a": {}},
        "unreadable": [],
        "zz": "\x00x",
    }
    out = io.StringIO()
    write_json_streamed(out, head, "claims", iter(items), ascii_only=ascii_only)
    expected = json.dumps({**head, "claims": items}, sort_keys=True, indent=2, ensure_ascii=ascii_only)
    assert out.getvalue() == expected


def test_items_are_encoded_one_at_a_time():
    written: list[int] = []

    class Sink(io.StringIO):
        def write(self, s: str) -> int:
            written.append(len(s))
            return super().write(s)

    items = ({"n": i, "pad": "x" * 1000} for i in range(200))
    write_json_streamed(Sink(), {"count": 200}, "claims", items)
    assert max(written) < 1100  # no write holds more than one item (the whole list is ~220 KB)
    assert sum(written) > 200 * 1000
