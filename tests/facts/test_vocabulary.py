"""The release vocabulary (quarkci/facts/vocabulary.py): merging, lookup, misspellings, the shipped recording."""

from __future__ import annotations

import pytest

from quarkci.facts import vocabulary
from quarkci.facts.base import FactItem, FactSet
from quarkci.facts.vocabulary import EMPTY, Vocabulary
from quarkci.skills.claims import tokens
from quarkci.skills.claims.unit import Unit


def _facts(version: str, schemes: list[str], cli_choices: list[str] | None = None) -> FactSet:
    kinds = {"schemes": [FactItem(s, "quark/t.py", n + 1) for n, s in enumerate(schemes)]}
    if cli_choices is not None:
        kinds["cli_flags"] = [
            FactItem(
                "--quant_scheme",
                "quark/cli.py",
                3,
                {"script": "quark-cli torch-llm-ptq", "options": ["--quant_scheme"], "choices": cli_choices},
            )
        ]
    return FactSet(version, f"amd-quark=={version}", frozenset({"quark"}), kinds)


def test_merged_records_the_releases_of_each_name_oldest_first():
    vocab = EMPTY.merged([_facts("0.11", ["int8", "ptpc_fp8"]), _facts("0.10", ["int8"], ["w_fp8_a_fp8"])])
    assert vocab.releases == ("0.10", "0.11")
    assert vocab.releases_of("scheme", "int8") == ("0.10", "0.11")
    assert vocab.releases_of("scheme", "ptpc_fp8") == ("0.11",)
    assert vocab.releases_of("scheme", "w_fp8_a_fp8") == ("0.10",)  # a CLI's scheme choices count
    assert vocab.releases_of("command", "quark-cli torch-llm-ptq") == ("0.10",)
    assert vocab.releases_of("scheme", "nope") == ()
    assert Vocabulary.from_json(vocab.to_json()) == vocab


def test_nearest_finds_misspellings_only():
    vocab = EMPTY.merged([_facts("0.10", ["int4_wo_128", "int8"], ["w_int4_per_group_sym"])])
    assert vocab.nearest("scheme", "w_int4_per_grup_sym") == "w_int4_per_group_sym"
    assert vocab.nearest("scheme", "int4_w0_128") == "int4_wo_128"
    assert vocab.nearest("scheme", "int4_wo_256") is None  # three edits away
    assert vocab.nearest("scheme", "int4_wo_128") is None  # known: no misspelling
    assert vocab.nearest("scheme", "int9") is None  # too short to call a misspelling
    assert vocab.nearest("scheme", "completely_else") is None


def _nearest_by_table(vocab: Vocabulary, kind: str, name: str, max_distance: int) -> str | None:
    """``nearest`` without its letter-set shortcut and memory: the Levenshtein table for every name."""
    if len(name) < 6 or name in vocab.symbols.get(kind, {}):
        return None
    close = [
        (vocabulary._levenshtein(name, known, max_distance), known)
        for known in vocab.symbols.get(kind, {})
        if len(known) >= 6 and abs(len(known) - len(name)) <= max_distance
    ]
    best = min((c for c in close if c[0] <= max_distance), default=None)
    return None if best is None else best[1]


def test_nearest_answers_what_the_full_edit_distance_table_answers():
    """The letter-set lower bound only skips names too far away (issue 24: a table of 39,000 distinct
    scheme-shaped tokens spent seconds in the table); asked twice, the remembered answer is the same."""
    import random

    vocab = vocabulary.shipped()
    names = sorted(vocab.symbols["scheme"])
    rng = random.Random(9)
    for _ in range(400):
        name = list(rng.choice(names))
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(name) + 1)
            name.insert(at, rng.choice("_abcfpintw0123468")) if rng.random() < 0.5 else name.pop(
                min(at, len(name) - 1)
            )
        token = "".join(name)
        for distance in (1, 2, 4):
            expected = _nearest_by_table(vocab, "scheme", token, distance)
            assert vocab.nearest("scheme", token, distance) == expected, (token, distance)
            assert vocab.nearest("scheme", token, distance) == expected


def test_token_claims_come_from_the_vocabulary_not_the_phrasing():
    vocab = EMPTY.merged([_facts("0.10", ["int8"], ["w_fp8_a_fp8", "w_int4_per_group_sym"])])
    text = (
        "Pick w_fp8_a_fp8 for speed.\n\n"
        "<!-- older notes: w_int4_per_group_sym -->\n\n"
        "<!-- quarkci: ignore[scheme-unknown] w_fp8_a_fp8 -->\n\n"
        "```yaml\nquant_scheme: w_int4_per_grup_sym\n```\n\n"
        "The int8 path is faster; fp8_tensor is a word here.\n"
    )
    found = sorted(
        (f.value, f.line, f.context["where"], f.context.get("misspelt_of"))
        for f in tokens.extract(Unit("s/SKILL.md", text, 1, vocab))
    )
    assert found == [
        ("w_fp8_a_fp8", 1, "prose", None),
        ("w_int4_per_group_sym", 3, "comment", None),
        ("w_int4_per_grup_sym", 8, "code", "w_int4_per_group_sym"),
    ]
    # no vocabulary, no token claims
    assert list(tokens.extract(Unit("s/SKILL.md", text))) == []


@pytest.mark.real
def test_the_shipped_vocabulary_is_the_recording_of_the_12_releases():
    # python -m quarkci.facts.vocabulary --record must have been run with the current extractors
    recorded = vocabulary.record()
    assert recorded.releases == vocabulary.RELEASES
    assert recorded == vocabulary.shipped()
    assert recorded.releases_of("scheme", "w_fp8_a_fp8") == ("0.10",)
    assert "w_int4_a_bf16" not in recorded.names("scheme")  # no release on PyPI defines it
    # extras by Requires-Dist marker: `cli` arrives in 0.12.post1, `lint` in 0.10, 0.9 has none
    assert recorded.releases_of("extra", "cli") == ("0.12.post1", "0.13")
    assert recorded.releases_of("extra", "lint")[0] == "0.10"
    assert not any("0.9" in recorded.releases_of("extra", e) for e in recorded.names("extra"))
