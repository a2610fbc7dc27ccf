"""Make untrusted text (from upstream or skills) safe inside our Markdown.

Text from rules may mark code with backticks (``passes `--foo` to ...``). :func:`md` keeps those
spans as code and escapes everything else, so untrusted text can never:

* ping anyone (``@name`` -> ``@<U+200B>name``, also inside code spans),
* inject HTML (``<``, ``>``, ``&`` become entities outside code),
* open links, emphasis, headings or tables (Markdown punctuation is backslash-escaped),
* break out of a list item or open a code fence (newlines become spaces; an unpaired backtick is
  escaped; a code span's content never contains a backtick).
"""

from __future__ import annotations

import re

ZWSP = "\u200b"
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_PUNCT = re.compile(r"([\\`*_{}\[\]#|~])")


def _no_mentions(text: str) -> str:
    return _MENTION.sub("@" + ZWSP, text)


def plain(text: str) -> str:
    """Escape ``text`` as inline Markdown with no markup at all."""
    text = re.sub(r"\s+", " ", str(text))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _PUNCT.sub(r"\\\1", text)
    return _no_mentions(text)


def code(text: str) -> str:
    """``text`` as one inline code span; backticks inside are replaced by ``'`` so it cannot close early."""
    text = " ".join(str(text).split()).replace("`", "'")
    return "`" + _no_mentions(text or " ") + "`"


def md(text: str) -> str:
    """Escape ``text`` keeping its well-formed `code spans` as code (see the module doc)."""
    text = " ".join(str(text).split())
    out, pos = [], 0
    for m in _SPAN.finditer(text):
        out.append(plain(text[pos:m.start()]))
        out.append(code(m.group(1)))
        pos = m.end()
    out.append(plain(text[pos:]))
    return "".join(out)


def cell(text: str) -> str:
    """Make already-escaped inline Markdown safe inside a table cell (a ``|`` in a code span too)."""
    return text.replace("\\|", "\x00").replace("|", "\\|").replace("\x00", "\\|")
