"""The release vocabulary as the claim extractors see it: a protocol, so extraction needs no facts."""

from __future__ import annotations

from typing import Protocol


class Lexicon(Protocol):
    """The names amd-quark's releases define (e.g. :class:`quarkci.facts.vocabulary.Vocabulary`)."""

    def names(self, kind: str) -> frozenset[str]:
        """Every name of ``kind`` (``"scheme"``, ...) any release defines."""
        ...

    def nearest(self, kind: str, name: str, max_distance: int = 2) -> str | None:
        """The known ``kind`` name within ``max_distance`` edits of an unknown ``name``, else None."""
        ...
