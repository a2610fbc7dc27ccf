"""Shell words of a command line, exactly as :class:`shlex.shlex` splits them, in linear time.

:func:`split` gives the words (and raises the same :class:`ValueError`) that
``shlex.shlex(text, posix=True, punctuation_chars=";&|")`` with ``whitespace_split = True`` and
``commenters = "#"`` gives: POSIX quoting (``'...'`` literal; ``"..."`` where a backslash escapes only
``"`` and ``\\``), a backslash escaping any character outside quotes, a ``#`` outside quotes ending the
line, runs of ``;``, ``&`` and ``|`` as words of their own, and whitespace (space, tab, CR, LF) between
words. The standard library's lexer reads one character at a time and grows each word by concatenation,
so a long word costs time quadratic in its length; here each run of plain characters is one regular
expression match. The tests compare both on generated command lines.

:class:`QuoteState` tells, line by line, whether a command line is still inside a quotation (what
``shlex`` reports as ``"No closing quotation"``/``"No escaped character"``) without lexing it again.
"""

from __future__ import annotations

import re

WHITESPACE = " \t\r\n"
PUNCTUATION = ";&|"
_SPACE = re.compile(r"[ \t\r\n]*")
_PLAIN = re.compile(r"[^ \t\r\n#'\"\\;&|]+")
_PUNCTUATION_RUN = re.compile(r"[;&|]+")
_IN_DOUBLE = re.compile(r'[^"\\]+')
_SPECIAL = re.compile(r"[#'\"\\]")
_DOUBLE_SPECIAL = re.compile(r'["\\]')


def split(text: str) -> list[str]:
    """The shell words of ``text`` (see the module docstring). Raises ValueError("No closing
    quotation") or ValueError("No escaped character") where :mod:`shlex` does."""
    return [word for word, _, _ in spans(text)]


def spans(text: str) -> list[tuple[str, int, int]]:
    """``(word, start, end)`` for each word of :func:`split`: ``text[start:end]`` is the word as written
    (quotes and backslashes included, a comment that ends it left out). Raises as :func:`split` does."""
    words: list[tuple[str, int, int]] = []
    i, n = 0, len(text)
    while True:
        i = _SPACE.match(text, i).end()  # type: ignore[union-attr]  # matches the empty string
        if i >= n:
            return words
        char = text[i]
        if char == "#":  # a comment: the rest of the line
            newline = text.find("\n", i)
            if newline < 0:
                return words
            i = newline + 1
            continue
        if char in PUNCTUATION:
            run = _PUNCTUATION_RUN.match(text, i)
            assert run is not None
            words.append((run.group(0), i, run.end()))
            i = run.end()
            continue
        start = i
        word, i, end = _word(text, i)
        words.append((word, start, end))


def _word(text: str, i: int) -> tuple[str, int, int]:
    """The word starting at ``text[i]`` (no whitespace, ``#`` or punctuation there), the offset to read on
    from and the offset where the word as written ends."""
    parts: list[str] = []
    n = len(text)
    while i < n:
        char = text[i]
        if char in WHITESPACE or char in PUNCTUATION:
            break
        if char == "#":  # ends the word and the line
            newline = text.find("\n", i)
            return "".join(parts), n if newline < 0 else newline + 1, i
        if char == "\\":
            if i + 1 >= n:
                raise ValueError("No escaped character")
            parts.append(text[i + 1])
            i += 2
        elif char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ValueError("No closing quotation")
            parts.append(text[i + 1 : end])
            i = end + 1
        elif char == '"':
            i = _double(text, i + 1, parts)
        else:
            plain = _PLAIN.match(text, i)
            assert plain is not None
            parts.append(plain.group(0))
            i = plain.end()
    return "".join(parts), i, i


def _double(text: str, i: int, parts: list[str]) -> int:
    """Read a double-quoted string whose content starts at ``text[i]`` into ``parts``; the offset after
    its closing quote."""
    n = len(text)
    while True:
        run = _IN_DOUBLE.match(text, i)
        if run is not None:
            parts.append(run.group(0))
            i = run.end()
        if i >= n:
            raise ValueError("No closing quotation")
        if text[i] == '"':
            return i + 1
        if i + 1 >= n:  # a backslash at the end
            raise ValueError("No escaped character")
        escaped = text[i + 1]
        if escaped not in ('"', "\\"):
            parts.append("\\")  # POSIX: inside "..." only the quote and the backslash are escaped
        parts.append(escaped)
        i += 2


class QuoteState:
    """Whether text fed piece by piece (:meth:`feed`) ends inside a quotation or right after a backslash:
    :attr:`open` is True exactly when :func:`split` of all the pieces joined would raise. Each piece is read
    once, so a quoted argument spanning many lines costs linear time."""

    def __init__(self) -> None:
        self._state = ""  # "" outside, "'" or '"' inside quotes, "\\" / '"\\' after a backslash, "#" comment

    @property
    def open(self) -> bool:
        return self._state in ("'", '"', "\\", '"\\')

    def feed(self, text: str) -> None:
        """Read ``text``, the next piece of the command line."""
        i, n, state = 0, len(text), self._state
        while i < n:
            if state == "#":  # a comment runs to the end of its line
                newline = text.find("\n", i)
                state, i = ("#", n) if newline < 0 else ("", newline + 1)
            elif state == "\\":
                state, i = "", i + 1
            elif state == '"\\':
                state, i = '"', i + 1
            elif state == "'":
                end = text.find("'", i)
                state, i = ("'", n) if end < 0 else ("", end + 1)
            elif state == '"':
                special = _DOUBLE_SPECIAL.search(text, i)
                if special is None:
                    i = n
                elif special.group(0) == '"':
                    state, i = "", special.end()
                else:
                    state, i = '"\\', special.end()
            else:
                special = _SPECIAL.search(text, i)
                if special is None:
                    i = n
                else:
                    state, i = special.group(0), special.end()
        self._state = state
