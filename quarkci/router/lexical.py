"""Lexical similarity between a goal and skill descriptions: BM25 (``bm25s``) over
:func:`quarkci.router.text.tokens` (Latin words, CJK character bigrams). Deterministic."""

from __future__ import annotations

import logging
from functools import lru_cache

from quarkci.router.text import tokens


class LexicalIndex:
    """A BM25 index over ``documents`` (skill descriptions); :meth:`scores` ranks a query against them."""

    def __init__(self, documents: list[str]) -> None:
        import bm25s  # type: ignore[import-untyped]  # numpy/scipy: imported only once routing starts, after the inputs were checked

        self._docs = [tokens(d) or ["_"] for d in documents]
        self._vocab = {t for doc in self._docs for t in doc}
        self._sets = [set(doc) for doc in self._docs]
        self._bm25 = bm25s.BM25()
        if self._docs:
            level = logging.getLogger("bm25s").level
            logging.getLogger("bm25s").setLevel(logging.WARNING)  # bm25s logs every index build at DEBUG
            try:
                self._bm25.index(self._docs, show_progress=False)
            finally:
                logging.getLogger("bm25s").setLevel(level)

    def scores(self, query: str, canonical: bool = False) -> list[float]:
        """BM25 score of ``query`` (raw, or canonical text of :func:`quarkci.router.text.normalise`) against
        each document, in document order (0.0 when nothing matches)."""
        if not self._docs:
            return []
        terms = [t for t in tokens(query, canonical) if t in self._vocab]
        if not terms:
            return [0.0] * len(self._docs)
        return [float(x) for x in self._bm25.get_scores(terms)]

    def df(self, term: str, among: set[int] | None = None) -> int:
        """How many documents (of those indexed ``among``; default all) use ``term``."""
        return sum(term in s for i, s in enumerate(self._sets) if among is None or i in among)

    def matched(self, query: str, document: int) -> list[str]:
        """The query tokens that occur in document ``document`` (for explanations), in query order, once each."""
        doc = set(self._docs[document])
        return list(dict.fromkeys(t for t in tokens(query) if t in doc))


@lru_cache(maxsize=8)
def index_for(documents: tuple[str, ...]) -> LexicalIndex:
    """A (cached) :class:`LexicalIndex` over ``documents``: one catalog is indexed once per process."""
    return LexicalIndex(list(documents))
