"""The one Markdown parser of quarkci.skills: markdown-it-py (CommonMark + tables).

Token line maps are 0-based and relative to the parsed text; :func:`parse` takes the 1-based line
of the text's first line so callers get absolute 1-based SKILL.md lines from :func:`line_of`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.common.utils import mdTrim
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block import table as gfm_table
from markdown_it.token import Token

# The empty cells markdown-it may add to short table rows, in a whole document. markdown-it-py caps them
# per table (MAX_AUTOCOMPLETED_CELLS, 65,536): a file of many tables with a wide header and one-character
# rows still became ~17 tokens per input byte (a 2 MiB file: minutes of parsing). Past this budget a row
# that would be padded ends its table, the way markdown-it's own cap ends one.
MAX_PADDED_CELLS = 0x10000
_PADDED = "quarkci_padded_cells"


def _bounded_table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it's GFM table rule with the document's padding budget (:data:`MAX_PADDED_CELLS`) applied
    by ending the table before the row that would exceed it (its rows are found the way the rule finds
    them: each is read once more here)."""
    if silent or not gfm_table(state, start, end, True):
        return gfm_table(state, start, end, silent)
    columns = _cells(_line(state, start))
    left: int = state.env.get(_PADDED, MAX_PADDED_CELLS)
    padding: list[int] = []  # the cells each body row would be padded with
    stop = end
    terminators = state.md.block.ruler.getRules("blockquote")  # what ends a table (as markdown-it reads it)
    for line in range(start + 2, end):
        if state.sCount[line] < state.blkIndent or any(rule(state, line, end, True) for rule in terminators):
            break
        text = _line(state, line)
        if not text or state.is_code_block(line):
            break
        padding.append(max(columns - _cells(text), 0))
        left -= padding[-1]
        if left < 0:
            stop = line
            break
    found = gfm_table(state, start, stop, silent)
    rows = max(min(state.line, stop) - (start + 2), 0)  # the rows the table took
    state.env[_PADDED] = state.env.get(_PADDED, MAX_PADDED_CELLS) - sum(padding[:rows])
    return found


def _line(state: StateBlock, line: int) -> str:
    return mdTrim(state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]])


def _cells(text: str) -> int:
    """How many cells markdown-it's table rule reads in the (trimmed) row ``text``: one more than its
    unescaped pipes (a pipe right after a backslash is escaped), less a leading and a trailing pipe."""
    count = 1 + text.count("|") - text.count("\\|")
    if text.startswith("|"):
        count -= 1
    if count > 0 and text.endswith("|") and not text.endswith("\\|"):
        count -= 1
    return count


_MD = MarkdownIt("commonmark").enable("table")
_MD.block.ruler.at("table", _bounded_table, {"alt": ["paragraph", "reference"]})


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
