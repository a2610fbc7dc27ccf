"""The one lexicon (:mod:`quarkci.router.lexicon`, ``lexicon.yaml``): the words live there, not in the
router's code; each language for the words routing turns on; a token with two meanings is refused.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from quarkci.router.lexicon import LANGUAGES, lexicon


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module's code (docstrings, which may quote examples, left out)."""
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_the_words_live_in_the_lexicon_not_in_the_code():
    """No router module's code spells a word of another language: the vocabulary is data."""
    router = Path(__file__).resolve().parents[2] / "quarkci" / "router"
    for module in router.glob("*.py"):
        for text in _code_strings(module):
            if re.fullmatch(r"(?:.-.)+", text, re.DOTALL):
                continue  # a character-class range (the CJK blocks), not a word
            assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", text), (module.name, text)
            assert not re.search(r"(nicht|quantisier|cuantiz|quantifi|\bnur\b|\bsolo\b)", text), (
                module.name,
                text,
            )


def test_the_code_check_sees_a_foreign_word(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""doc: 量化 is fine here"""\nWORDS = ("nicht",)\n')
    assert _code_strings(bad) == ["nicht"]


def test_the_lexicon_has_each_language_for_the_words_routing_turns_on():
    raw = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "quarkci" / "router" / "lexicon.yaml").read_text("utf-8")
    )
    terms = {t["to"]: t for t in raw["terms"]}
    for word in ("quantize", "install", "evaluate", "export", "convert", "plan", "gpu", "model", "error"):
        assert all(terms[word].get(lang) for lang in LANGUAGES), word
    markers: dict[str, set[str]] = {}
    for m in raw["markers"]:
        markers.setdefault(m["effect"], set()).update(lang for lang in LANGUAGES if m.get(lang))
    assert markers["negated"] == set(LANGUAGES)
    assert markers["deferred"] == set(LANGUAGES)
    assert markers["done"] == set(LANGUAGES)
    assert len(lexicon().actions) >= 20


def test_a_lexicon_token_with_two_meanings_is_refused():
    from quarkci.router.lexicon import build

    raw = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "quarkci" / "router" / "lexicon.yaml").read_text("utf-8")
    )
    raw["markers"][0] = {**raw["markers"][0], "token": "_neg_"}  # sequence reusing negation's token
    with pytest.raises(ValueError, match="two meanings"):
        build(raw)
