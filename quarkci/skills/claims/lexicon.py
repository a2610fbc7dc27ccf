"""The release vocabulary as the claim extractors see it (a protocol, so extraction needs no facts), and
the shapes of Quark Python names that several extractors match."""

from __future__ import annotations

from typing import Protocol

# What a Quark Python name looks like, as regular-expression sources (no anchors): a class-like CamelCase
# name with a lower-case letter and two or more capitals, parts maybe joined by "_" (ModelExporter,
# LLMTemplate, QLayerConfig, OCP_MXFP4Spec; not Linear, not ONNX, not XINT8_CONFIG), and a snake_case name
# with at least one underscore (export_safetensors).
CLASS_NAME = (
    r"(?=[A-Z][A-Za-z0-9_]*[a-z])(?=[A-Za-z0-9_]*[A-Z][A-Za-z0-9_]*[A-Z])[A-Z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*"
)
SNAKE_NAME = r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+"


class Lexicon(Protocol):
    """The names amd-quark's releases define (e.g. :class:`quarkci.facts.vocabulary.Vocabulary`)."""

    def names(self, kind: str) -> frozenset[str]:
        """Every name of ``kind`` (``"scheme"``, ...) any release defines."""
        ...

    def nearest(self, kind: str, name: str, max_distance: int = 2) -> str | None:
        """The known ``kind`` name within ``max_distance`` edits of an unknown ``name``, else None."""
        ...
