"""The one Markdown parser of quarkci.skills: markdown-it-py (CommonMark + tables).

Token line maps are 0-based and relative to the parsed text; :func:`parse` takes the 1-based line
of the text's first line so callers get absolute 1-based SKILL.md lines from :func:`line_of`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

_MD = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Document:
    """Parsed Markdown: ``tokens`` (block stream) and ``first_line`` (1-based line of ``text[0]``)."""

    text: str
    tokens: list[Token]
    first_line: int

    def line_of(self, token: Token, offset: int = 0) -> int:
        """1-based absolute line of ``token`` (plus ``offset`` lines into it)."""
        start = token.map[0] if token.map else 0
        return self.first_line + start + offset


def parse(text: str, first_line: int = 1) -> Document:
    """Parse ``text`` whose first line is line ``first_line`` of its file."""
    return Document(text, _MD.parse(text), first_line)


def links(doc: Document) -> Iterator[tuple[str, int]]:
    """Yield (href, line) for every inline link in ``doc``."""
    for token in doc.tokens:
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            if child.type == "link_open":
                href = child.attrGet("href")
                if isinstance(href, str):
                    yield href, doc.line_of(token)


def headings(doc: Document) -> Iterator[tuple[int, str, int]]:
    """Yield (level, text, line) for every heading."""
    tokens = doc.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            yield int(token.tag[1:]), tokens[index + 1].content, doc.line_of(token)
