"""Walk one Markdown file into located blocks: inline text runs and fenced code, with their headings.

Every extractor reads these blocks instead of the raw file, so "where is this" (line, section,
table column, code-block language) is decided once, by markdown-it-py.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from markdown_it.token import Token

import quarkci.skills.markdown as markdown


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True)
class Cell:
    """Where a table cell sits: its column header, the row's cells (raw inline source), header row?"""

    header: str
    column: int
    row: tuple[str, ...]
    headers: tuple[str, ...]
    is_header: bool
    labels: tuple[str, ...] = ()  # the first cell of every data row of the table


_SHORT = 512  # offsets up to this are counted, later ones bisected (Text.line_at: bounded cost a call)


@dataclass(frozen=True)
class Text:
    """One inline run (paragraph, list-item paragraph, heading or table cell), inline Markdown source.

    ``line`` is the 1-based file line of ``text[0]``; a character at offset ``i`` is on line
    ``line + text.count("\\n", 0, i)`` (see :meth:`line_at`).
    """

    text: str
    line: int
    headings: tuple[Heading, ...]
    kind: str  # "paragraph" | "heading" | "table"
    cell: Cell | None = None
    in_list: bool = False  # a paragraph inside a list item
    lead: str = ""  # the paragraph introducing this table or list (same section), "" when none

    def line_at(self, offset: int) -> int:
        """The file line of the character at ``offset`` (``line + text.count("\\n", 0, offset)``), by
        bisecting the newline offsets (computed once per block): O(log n) a call."""
        if offset <= _SHORT:  # near the start a count is cheaper than the index
            return self.line + self.text.count("\n", 0, max(offset, 0))
        return self.line + self._newlines.line_of(offset)

    @cached_property
    def _newlines(self) -> Newlines:
        return Newlines(self.text)

    def code_spans(self) -> Iterator[tuple[str, int]]:
        """Yield (content, line) for each inline code span, in order."""
        cursor = 0
        for content, offset in _spans_of(self.text):
            cursor = max(cursor, offset)
            yield content, self.line_at(cursor)


@dataclass(frozen=True)
class Code:
    """A fenced or indented code block. ``first_line`` is the file line of the first content line."""

    info: str  # language of the info string, lower-case ("" when absent)
    text: str
    first_line: int
    headings: tuple[Heading, ...]
    lead: str = ""  # the paragraph right before the block in the same section ("this no longer works:")


Block = Text | Code


class Newlines:
    """The newline offsets of a text, found once, so a line number is one bisection instead of a count
    from the start (claim extraction stays linear in the file's size)."""

    def __init__(self, text: str) -> None:
        self._offsets: list[int] = []
        at = text.find("\n")
        while at >= 0:
            self._offsets.append(at)
            at = text.find("\n", at + 1)

    def line_of(self, offset: int) -> int:
        """``text.count("\\n", 0, offset)``: the 0-based line of the character at ``offset`` (a negative
        offset counts as 0, one past the end as the end)."""
        return bisect_right(self._offsets, offset - 1) if offset > 0 else 0


_SUMMARY = re.compile(r"<summary>(.{1,200}?)</summary>", re.IGNORECASE | re.DOTALL)


class _Leads:
    """The lead of each list being walked, outermost first: a top-level list's is the paragraph before
    it, a nested list's the item paragraph it is nested in ("3. Check what pip pulled in:", "- `onnx`")."""

    def __init__(self) -> None:
        self._stack: list[str] = []
        self.item = ""  # the last list item paragraph

    def see(self, kind: str, lead: str, depth: int) -> None:
        """Open or close a list on its token ``kind`` (``lead``: the section's last paragraph)."""
        if kind in ("bullet_list_open", "ordered_list_open"):
            self._stack.append(lead if depth == 0 else self.item)
        elif kind in ("bullet_list_close", "ordered_list_close") and self._stack:
            self._stack.pop()

    @property
    def current(self) -> str:
        """The lead of the innermost open list ("" outside lists)."""
        return self._stack[-1] if self._stack else ""


def walk(text: str, first_line: int = 1, doc: markdown.Document | None = None) -> list[Block]:
    """Blocks of ``text`` (whose first line is file line ``first_line``) in document order; ``doc`` is
    ``text`` already parsed (:func:`quarkci.skills.markdown.parse`), parsed here when None."""
    if doc is None:
        doc = markdown.parse(text, first_line)
    tokens = doc.tokens
    blocks: list[Block] = []
    stack: list[Heading] = []
    table: _Table | None = None
    list_depth = 0
    lead = ""  # the last paragraph outside lists in this section
    leads = _Leads()
    for index, token in enumerate(tokens):
        leads.see(token.type, lead, list_depth)
        if token.type == "list_item_open":
            list_depth += 1
        elif token.type == "list_item_close":
            list_depth -= 1
        elif token.type == "heading_open":
            blocks.append(_heading(token, tokens[index + 1], doc, stack))
            lead = ""
        elif token.type in ("table_open", "table_close"):
            table = _Table(tokens, index) if token.type == "table_open" else None
        elif token.type == "tr_open" and table is not None:
            table.start_row(tokens, index)
        elif table is not None and _is_cell(tokens, index):
            cell = table.cell(tokens[index - 1].type == "th_open")
            if token.content or cell.column == 0:  # an empty cell says nothing (its row keeps it)
                blocks.append(Text(token.content, doc.line_of(token), tuple(stack), "table", cell, lead=lead))
        elif token.type == "inline" and tokens[index - 1].type == "paragraph_open":
            blocks.append(
                Text(
                    token.content,
                    doc.line_of(token),
                    tuple(stack),
                    "paragraph",
                    None,
                    list_depth > 0,
                    lead=leads.current if list_depth > 0 else lead,
                )
            )
            if list_depth == 0:
                lead = token.content
            else:
                leads.item = token.content
        elif token.type == "html_block" and (summary := _SUMMARY.search(token.content)):
            lead = summary.group(1).strip()  # `<details><summary>Defaults</summary>`: what follows is that
        elif token.type in ("fence", "code_block"):
            offset = 1 if token.type == "fence" else 0
            blocks.append(
                Code(_language(token), token.content, doc.line_of(token, offset), tuple(stack), lead)
            )
    return blocks


def _heading(token: Token, inline: Token, doc: markdown.Document, stack: list[Heading]) -> Text:
    """The heading's text block; ``stack`` (the open headings) becomes its ancestors plus itself."""
    heading = Heading(int(token.tag[1:]), inline.content, doc.line_of(token))
    while stack and stack[-1].level >= heading.level:
        stack.pop()
    block = Text(inline.content, heading.line, tuple(stack), "heading")
    stack.append(heading)
    return block


def _is_cell(tokens: list[Token], index: int) -> bool:
    """True for the inline content of a table cell (``th``/``td``)."""
    return tokens[index].type == "inline" and tokens[index - 1].type in ("th_open", "td_open")


def _language(token: Token) -> str:
    """A code block's language: the info string's first word, lower-case ("" when there is none)."""
    info = token.info.strip()
    return info.split(maxsplit=1)[0].lower() if info else ""


class _Table:
    def __init__(self, tokens: list[Token], index: int) -> None:
        self.headers: tuple[str, ...] = ()
        self.row: tuple[str, ...] = ()
        self.column = 0
        # the first cell of each body row, read once per table (a row labelled "0.8" beside "0.8.1" and
        # "0.8.2" is that release, not its series)
        labels: list[str] = []
        first = False
        for at in range(index + 1, len(tokens)):
            token = tokens[at]
            if token.type == "table_close":
                break
            if token.type == "tr_open":
                first = True
            elif token.type == "inline" and first and tokens[at - 1].type == "td_open":
                labels.append(token.content)
                first = False
            elif token.type in ("td_open", "th_open") and first and tokens[at + 1].type != "inline":
                first = False
        self.labels = tuple(labels)

    def start_row(self, tokens: list[Token], index: int) -> None:
        cells: list[str] = []
        for at in range(index + 1, len(tokens)):  # no slice: a copy of the rest per row is quadratic
            token = tokens[at]
            if token.type == "tr_close":
                break
            if token.type == "inline":
                cells.append(token.content)
        self.row = tuple(cells)
        self.column = 0

    def cell(self, is_header: bool) -> Cell:
        if is_header:
            self.headers = self.row
        column = self.column
        self.column += 1
        header = self.headers[column] if column < len(self.headers) else ""
        return Cell(header, column, self.row, self.headers, is_header, self.labels)


@lru_cache(maxsize=8192)
def _spans_of(text: str) -> tuple[tuple[str, int], ...]:
    """:func:`_code_spans` of ``text``, memoised (every extractor walks the same spans)."""
    return tuple(_code_spans(text))


def _code_spans(text: str) -> Iterator[tuple[str, int]]:
    """CommonMark code spans of inline source ``text``: (content, offset of the opening backticks)."""
    i = 0
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] != "`":
            i += 1
            continue
        run = i
        while i < n and text[i] == "`":
            i += 1
        ticks = i - run
        close = i
        while True:
            close = text.find("`" * ticks, close)
            if close < 0:
                break
            end = close + ticks
            if (close == 0 or text[close - 1] != "`") and (end >= n or text[end] != "`"):
                break
            close = end
            while close < n and text[close] == "`":
                close += 1
        if close < 0:
            continue  # an unmatched backtick run is literal text
        content = text[i:close].replace("\n", " ")
        if content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        yield content, run
        i = close + ticks


def heading_path(headings: tuple[Heading, ...]) -> str:
    """``"A > B"`` for the heading ancestors (empty string at top level)."""
    return " > ".join(h.text for h in headings)
