"""Render untrusted text (upstream source, skills, PR titles) into GitHub Markdown safely.

Three threats, three rules:

* **@mentions** (``@user``, ``@org/team``) notify people. Every ``@`` followed by a name character
  gets a zero-width space after it (``@\u200buser``): it reads the same and pings nobody.
* **Raw HTML** (``<img src=...>``, ``<details>``) would render. Outside code, every Markdown-active
  ASCII punctuation character is backslash-escaped (CommonMark "backslash escapes"), so ``<`` is text.
* **Breaking out of code** (a fence or backtick run inside the text closing ours). Code spans and
  fences use a backtick run one longer than the longest run inside the text (CommonMark "code
  spans" / "fenced code blocks": a fence closes only on a run at least as long as the opener).

In addition, ``<!--`` in untrusted text is defused everywhere (``<\u200b!--``), so a finding can never
carry a ``<!-- quarkci:... -->`` marker into a body and confuse deduplication.
"""

from __future__ import annotations

import re

ZWSP = "\u200b"
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# CommonMark's escapable ASCII punctuation that can start markup, HTML, links, tables or entities.
_MARKDOWN_ACTIVE = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")
_BACKTICKS = re.compile(r"`+")
_INFO = re.compile(r"[^A-Za-z0-9_+.-]")


def _base(text: str) -> str:
    """Drop control characters (keeping tab and newline), defuse mentions and HTML comments."""
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = text.replace("<!--", "<" + ZWSP + "!--")
    return _MENTION.sub("@" + ZWSP, text)


def _longest_backtick_run(text: str) -> int:
    return max((len(m.group(0)) for m in _BACKTICKS.finditer(text)), default=0)


def plain(text: str) -> str:
    """Untrusted prose as literal Markdown text: markup escaped, mentions defused; newlines kept."""
    return _MARKDOWN_ACTIVE.sub(r"\\\1", _base(text))


def inline(text: str) -> str:
    """Like :func:`plain` but on one line (newlines become spaces): safe inside a list item."""
    return plain(" ".join(text.split()))


def code_span(text: str) -> str:
    """Untrusted text as one inline code span that its own backticks cannot close.

    Newlines become spaces. An empty string renders as ``(empty)``.
    """
    text = _base(" ".join(text.split("\n")))
    if not text.strip():
        return "(empty)"
    fence = "`" * (_longest_backtick_run(text) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def code_block(text: str, info: str = "") -> str:
    """Untrusted text as a fenced code block that no line inside can close.

    ``info`` (the language tag) is reduced to ``[A-Za-z0-9_+.-]``. The result ends with a newline.
    """
    text = _base(text)
    if not text.endswith("\n"):
        text += "\n"
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    return f"{fence}{_INFO.sub('', info)}\n{text}{fence}\n"


def title(text: str, limit: int = 256) -> str:
    """Untrusted text as an issue/PR title: one line, mentions defused, at most ``limit`` characters."""
    text = " ".join(_base(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
