"""``link`` claims: relative Markdown links from a skill's files to other files.

One claim per inline link, reference-style link or image whose destination is a relative path. Its
value is the target resolved against the linking file and normalised, relative to the skills root
(``_legacy_impl/shared/contracts/quant_plan.schema.json``); a target outside the skills tree keeps its
leading ``../`` (``../docs/agent_skills/README.md`` from ``_legacy_impl/README.md``). Context:

* ``href``: the destination as written (percent-decoded, without its ``#anchor``);
* ``anchor``: the fragment ("" when none); ``directory``: the destination ends with ``/``;
* ``image``: an ``![...](...)`` image rather than a link.

Not links, so no claim: URLs (any scheme, ``//host``), anchor-only links (``#section``), absolute
paths, placeholders (``<primary_artifact>``, ``{name}``, ``$VAR``, ``path/to/...``, ``...``), anything
inside a code span or code block (Markdown makes no link there) and raw HTML. README and CONTRIBUTING
files describe the skills repository, they are not skills: their links are no claims.

:func:`links_in` reads one file's links; the ``skill-link-broken`` rule also uses it on a Markdown file
a skill links to outside its own directory.
"""

from __future__ import annotations

import posixpath
import re
import sys
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from urllib.parse import unquote, urlsplit

from markdown_it.token import Token

import quarkci.skills.markdown as markdown
from quarkci.skills.claims.unit import Found, Unit

KIND = "link"
# Stems of the files that document the skills repository itself (any case, any extension).
NOT_SKILLS = frozenset({"readme", "contributing"})
_PLACEHOLDER = re.compile(r"[<>{}$]|\.\.\.|…|(?:^|/)path/to/")


def is_skill_file(path: str) -> bool:
    """False for README and CONTRIBUTING files (any case or extension), True for any other path."""
    stem = posixpath.basename(path).split(".", 1)[0].lower()
    return stem not in NOT_SKILLS


def resolve(file: str, path: str) -> str:
    """``path`` (a relative destination written in ``file``) as a normalised skills-root-relative path;
    a target above the root keeps its leading ``../`` segments."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(file), path))


def destination(href: str) -> tuple[str, str] | None:
    """(decoded path, anchor) of a relative file destination, or None when ``href`` is no link to a file
    (a URL, an anchor, an absolute path, a placeholder or empty)."""
    try:
        parts = urlsplit(href)
    except ValueError:  # e.g. an unclosed IPv6 bracket: no file path either way
        return None
    if parts.scheme or parts.netloc or href.startswith("//"):
        return None
    path = unquote(parts.path)
    if not path or path.startswith("/") or _PLACEHOLDER.search(path):
        return None
    return path, unquote(parts.fragment)


def extract(unit: Unit) -> Iterator[Found]:
    """The ``link`` claims of ``unit`` (see the module docstring)."""
    return links_in(unit.file, unit.text, unit.first_line, unit.document)


def links_in(
    file: str, text: str, first_line: int = 1, doc: markdown.Document | None = None
) -> Iterator[Found]:
    """``link`` claims of the Markdown ``text`` of skills-root-relative ``file`` (whose first line is
    ``first_line``; ``doc``: ``text`` already parsed, else parsed here); nothing for a README or
    CONTRIBUTING file. ``line`` is the line holding the destination (a reference-style link: its
    definition line, where an edit would go)."""
    if not is_skill_file(file):
        return
    if doc is None:
        doc = markdown.parse(text, first_line)
    lines = text.split("\n")
    where = _Destinations(lines)
    for token in doc.tokens:
        if token.type != "inline" or not token.children or "[" not in token.content:
            continue  # no link or image without a bracket (autolinks are URLs)
        start, end = (token.map[0], token.map[1]) if token.map else (0, len(lines))
        for child in token.children:
            href = _href(child)
            if href is None:
                continue
            found = destination(href)
            if found is None:
                continue
            path, anchor = found
            line = where.line_of(start, end, href, path)
            yield Found(
                KIND,
                resolve(file, path),
                first_line + line,
                {
                    "href": path,
                    "anchor": anchor,
                    "directory": path.endswith("/"),
                    "image": child.type == "image",
                },
            )


def _href(token: Token) -> str | None:
    value = token.attrGet("href") if token.type == "link_open" else None
    if token.type == "image":
        value = token.attrGet("src")
    return value if isinstance(value, str) else None


class _Destinations:
    """Where a file writes a link's destination, answered from indexes built once (per block, and once for
    the reference definitions), so a file of many links costs about linear time, not a scan of the block
    and then of every line per link. Same answers as reading the lines in order (see :meth:`line_of`)."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._blocks: dict[tuple[int, int], _PrefixIndex] = {}
        self._definitions: _PrefixIndex | None = None

    def line_of(self, start: int, end: int, href: str, path: str) -> int:
        """0-based line of the destination: the first line of the block ``[start, end)`` writing it
        (``(path``, ``(<path`` or ``(href``), else the first reference definition (``[x]: path``) whose
        destination starts with ``path`` or ``href``, else the block's first line."""
        if any(_stops_word(x) for x in (path, href)):  # the index cannot answer: read the lines
            found = [_first_line_with(self._lines, start, end, (f"({path}", f"(<{path}", f"({href}"))]
        else:
            block = self._block(start, end)
            found = [block.first(x) for x in (path, "<" + path, href)]
        lines = [f for f in found if f is not None]
        if lines:
            return min(lines)
        if path[:1].isspace() or href[:1].isspace():  # the index cannot answer: read the lines
            definition = _definition_of(path, href)
            return next((i for i, line in enumerate(self._lines) if definition.match(line)), start)
        if self._definitions is None:
            self._definitions = _PrefixIndex(
                (line[m.end() :].lstrip(), index)
                for index, line in enumerate(self._lines)
                if (m := _DEFINITION.match(line))
            )
        found = [self._definitions.first(x) for x in (path, "<" + path, href, "<" + href)]
        lines = [f for f in found if f is not None]
        return min(lines) if lines else start

    def _block(self, start: int, end: int) -> _PrefixIndex:
        index = self._blocks.get((start, end))
        if index is None:
            words: list[tuple[str, int]] = []  # the word after each "(" of the block, with its line
            for number in range(start, min(end, len(self._lines))):
                line = self._lines[number]
                words.extend(
                    (line[p + 1 : _word_end(line, p + 1)], number) for p in _opening_parentheses(line)
                )
            index = self._blocks[(start, end)] = _PrefixIndex(words)
        return index


_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:")
_WORD_STOP = re.compile(r"[\s)]")


def _definition_of(path: str, href: str) -> re.Pattern[str]:
    return re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(?:" + re.escape(path) + "|" + re.escape(href) + ")")


def _stops_word(text: str) -> bool:
    """True when ``text`` holds a character that ends an indexed word (whitespace or ``)``)."""
    return _WORD_STOP.search(text) is not None


def _word_end(line: str, at: int) -> int:
    stop = _WORD_STOP.search(line, at)
    return len(line) if stop is None else stop.start()


def _opening_parentheses(line: str) -> Iterator[int]:
    at = line.find("(")
    while at >= 0:
        yield at
        at = line.find("(", at + 1)


def _first_line_with(lines: list[str], start: int, end: int, written: tuple[str, ...]) -> int | None:
    for index in range(start, min(end, len(lines))):
        if any(w in lines[index] for w in written):
            return index
    return None


class _PrefixIndex:
    """``first(prefix)``: the least line among (key, line) entries whose key starts with ``prefix``, from
    the keys sorted once and a sparse table of range minima (O(log n) a question)."""

    def __init__(self, entries: Iterable[tuple[str, int]]) -> None:
        ordered = sorted(entries)
        self._keys = [key for key, _ in ordered]
        self._minima: list[list[int]] = [[line for _, line in ordered]]
        width = 1
        while 2 * width <= len(ordered):
            last = self._minima[-1]
            self._minima.append([min(last[i], last[i + width]) for i in range(len(last) - width)])
            width *= 2

    def first(self, prefix: str) -> int | None:
        if not prefix:
            return min(self._minima[0], default=None)
        low = bisect_left(self._keys, prefix)
        if ord(prefix[-1]) == sys.maxunicode:
            high = low
            while high < len(self._keys) and self._keys[high].startswith(prefix):
                high += 1
        else:
            high = bisect_left(self._keys, prefix[:-1] + chr(ord(prefix[-1]) + 1), low)
        if high <= low:
            return None
        level = (high - low).bit_length() - 1
        row = self._minima[level]
        return min(row[low], row[high - (1 << level)])
