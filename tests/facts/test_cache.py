"""The facts cache never turns a bad entry into a release without facts: an entry that fails its schema
(truncated, corrupted, reshaped, another format, another release's facts) is rebuilt by extracting again."""

from __future__ import annotations

import json

import pytest

from quarkci.facts import cache as facts_cache
from quarkci.facts import extract_all
from quarkci.facts.base import FactSet


@pytest.fixture
def cached(wheel, tmp_path, monkeypatch):
    """(snapshot, entry path, the facts a cold extraction gives) with an empty cache under tmp_path."""
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path))
    cold = facts_cache.facts_of(wheel)
    entry = facts_cache.entry_path(wheel)
    assert entry is not None and entry.is_file()
    return wheel, entry, cold


def _envelope(entry):
    return json.loads(entry.read_text(encoding="utf-8"))


def _resealed(data: dict) -> str:
    """``data`` with its sha256 recomputed: a well-sealed entry whose facts may have the wrong shape."""
    data["sha256"] = facts_cache._facts_digest(data["facts"])
    return json.dumps(data)


def _corruptions(entry) -> dict[str, str]:
    text = entry.read_text(encoding="utf-8")
    emptied = _envelope(entry)
    emptied["facts"]["schemes"]["items"] = []  # sha256 left as it was: corrupted content
    no_kind = _envelope(entry)
    del no_kind["facts"]["cli_flags"]  # reshaped, resealed: the shape check catches it
    bad_item = _envelope(entry)
    bad_item["facts"]["schemes"]["items"][0]["line"] = "14"
    other_release = _envelope(entry)
    other_release["facts"]["version"] = "0.42"
    return {
        "truncated": text[: len(text) // 2],
        "empty-file": "",
        "not-utf8": "\udcff",
        "empty-object": "{}",
        "a-list": "[]",
        "bare-facts-of-the-old-format": json.dumps(_envelope(entry)["facts"]),
        "items-emptied": json.dumps(emptied),
        "kind-missing": _resealed(no_kind),
        "item-line-not-an-integer": _resealed(bad_item),
        "another-release": _resealed(other_release),
    }


CASES = [
    "truncated",
    "empty-file",
    "not-utf8",
    "empty-object",
    "a-list",
    "bare-facts-of-the-old-format",
    "items-emptied",
    "kind-missing",
    "item-line-not-an-integer",
    "another-release",
]


@pytest.mark.parametrize("case", CASES)
def test_an_entry_that_fails_its_schema_is_rebuilt_never_read_as_empty(cached, monkeypatch, case):
    snapshot, entry, cold = cached
    assert cold.kinds["schemes"], "the miniature wheel must hold schemes for this test to mean anything"
    text = _corruptions(entry)[case]
    entry.write_bytes(text.encode("utf-8", "surrogateescape"))
    calls: list[str] = []

    def counting(snap, *args, **kwargs):
        calls.append(snap.label)
        return extract_all(snap, *args, **kwargs)

    monkeypatch.setattr(facts_cache, "extract_all", counting)
    again = facts_cache.facts_of(snapshot)
    assert calls == [snapshot.label]  # extracted again, not served from the bad entry
    assert again.to_json() == cold.to_json()
    assert len(again.kinds["schemes"]) == len(cold.kinds["schemes"]) > 0
    # the entry was rewritten whole: the next call is a hit again
    monkeypatch.setattr(facts_cache, "extract_all", lambda *_a, **_k: pytest.fail("extracted on a hit"))
    assert facts_cache.facts_of(snapshot).to_json() == cold.to_json()


def test_negative_control_a_sound_entry_is_served_without_extracting(cached, monkeypatch):
    snapshot, entry, cold = cached
    data = _envelope(entry)
    assert data["format"] == facts_cache.ENTRY_FORMAT and len(data["sha256"]) == 64
    monkeypatch.setattr(facts_cache, "extract_all", lambda *_a, **_k: pytest.fail("extracted on a hit"))
    assert facts_cache.facts_of(snapshot).to_json() == cold.to_json()


def test_strict_reading_names_the_first_bad_place_and_lenient_reading_still_accepts_old_documents():
    with pytest.raises(ValueError, match=r"facts\.python: a block with an items list"):
        FactSet.from_json({"version": "0.13", "source": "", "coverage": []}, strict=True)
    with pytest.raises(ValueError, match=r"facts\.version"):
        FactSet.from_json({"version": ""}, strict=True)
    # lenient (stored baselines of older quarkci versions): absent kinds are empty, not an error
    assert FactSet.from_json({"version": "0.13"}).kinds["schemes"] == []
