"""Goal text (:mod:`quarkci.router.text`) and the lexical index over it (:mod:`quarkci.router.lexical`):
CJK tokens without word boundaries, terms never cut into a longer word.
"""

from __future__ import annotations

import pytest

from quarkci.router.lexical import LexicalIndex
from quarkci.router.text import tokens


def test_cjk_tokens_do_not_depend_on_word_boundaries():
    assert {"校准", "准数", "数据"} <= set(tokens("使用校准数据"))  # character bigrams, no word boundaries
    assert "quantiz" in tokens("Qwen3を量子化して")  # the lexicon maps 量子化 to "quantize" (stemmed)
    assert "fp8" in tokens("FP8に量子化")
    index = LexicalIndex(["quantize a model to fp8 量子化", "install pytorch インストール"])
    scores = index.scores("モデルを量子化")
    assert scores[0] > scores[1] == 0.0


@pytest.mark.parametrize(
    "text, kept",
    [
        ("audit skills/_legacy_impl/ now", "skills/_legacy_impl/"),  # a path keeps its words
        ("push it to github", "github"),  # "hub" (a term in a CJK list too) is no part of "github"
        ("make a one-layer copy", "one-layer"),
        ("report the drift", "report"),  # French "reporter" (postpone) is not the English verb
    ],
)
def test_terms_never_cut_into_a_longer_word(text, kept):
    from quarkci.router.text import normalise

    assert kept in normalise(text).split()
