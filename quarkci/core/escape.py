"""The one escaper per output language: GitHub Markdown and GitHub workflow commands.

Untrusted text (upstream source, skills, PR titles, finding messages, paths) reaches two languages; each
has exactly one set of functions here, used by every renderer (the sync report, the PTQ comment, the
drift PR and issues, the job summary and annotations).

**Markdown** (GitHub-flavoured, rendered in reports, comments, issues and PR bodies). Escaped text can never:

* ping anyone: every ``@`` before a name character gets a zero-width space after it (``@\u200buser``),
  also inside code spans;
* inject HTML or a ``<!-- quarkci:... -->`` marker: outside code ``<``, ``>`` and ``&`` become entities;
* open links, emphasis, headings or tables: Markdown punctuation is backslash-escaped (CommonMark
  "backslash escapes");
* break out of a list item, a code span or a fence: inline text is one line; a backtick inside a code
  span becomes ``'``; a fence uses a backtick run one longer than the longest run inside the text
  (CommonMark "fenced code blocks": a fence closes only on a run at least as long as the opener);
* carry control characters (dropped; tab and newline kept where newlines are kept).

**Workflow commands** (``::error file=...::message`` lines on a runner's stdout): GitHub's escaping rule
(``%``, CR, LF; in properties also ``:`` and ``,``), so untrusted text cannot end a command and start another.

**Runner log lines** (everything else a step prints): the Actions runner reads a step's stdout and stderr
line by line and tries each line as a command (actions/runner ``src/Runner.Worker/ActionCommandManager.cs``
``TryProcessCommand`` and ``src/Runner.Common/ActionCommand.cs`` ``TryParseV2``/``TryParse``):

* a line ends at ``\r``, ``\n`` or ``\r\n`` (.NET ``StreamReader.ReadLine``);
* ``::name ...::data`` is a command when the line starts with ``::`` after leading whitespace is trimmed;
* the legacy ``##[name ...]data`` is a command wherever ``##[`` occurs in the line;
* ``::stop-commands::TOKEN`` makes the runner ignore every command until a ``::TOKEN::`` line.

:func:`log_line` and :func:`log_text` make untrusted text unable to form any of these (so no
``stop-commands`` either): no CR or LF inside a line, no ``##[`` anywhere, no ``::`` at the start.
"""

from __future__ import annotations

import re

ZWSP = "\u200b"
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_PUNCT = re.compile(r"([\\`*_{}\[\]#|~])")
_BACKTICKS = re.compile(r"`+")
_INFO = re.compile(r"[^A-Za-z0-9_+.-]")


# --- Markdown ---------------------------------------------------------------------------------------------


def _base(text: object) -> str:
    """Drop control characters (keeping tab and newline; CR/CRLF become LF) and defuse mentions (the
    ``<!--`` of a marker is broken by the callers that keep ``<`` as is)."""
    text = _CONTROL.sub("", str(text).replace("\r\n", "\n").replace("\r", "\n"))
    return _MENTION.sub("@" + ZWSP, text)


def _longest_backtick_run(text: str) -> int:
    return max((len(m.group(0)) for m in _BACKTICKS.finditer(text)), default=0)


def plain(text: object) -> str:
    """``text`` as one line of inline Markdown with no markup at all (whitespace runs become one space)."""
    text = re.sub(r"\s+", " ", _CONTROL.sub("", str(text)))
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MENTION.sub("@" + ZWSP, _PUNCT.sub(r"\\\1", text))


def code(text: object) -> str:
    """``text`` as one inline code span on one line; a backtick inside becomes ``'`` so it cannot close
    the span, and ``<!--`` is broken so no marker can be forged. Empty text renders as ``` ` ` ```."""
    text = _base(" ".join(str(text).split())).replace("`", "'").replace("<!--", "<" + ZWSP + "!--")
    return "`" + (text or " ") + "`"


def md(text: object) -> str:
    """Escape ``text`` as :func:`plain`, keeping its well-formed `code spans` as code (for rule messages)."""
    text = " ".join(_CONTROL.sub("", str(text)).split())
    out, pos = [], 0
    for m in _SPAN.finditer(text):
        out.append(plain(text[pos : m.start()]))
        out.append(code(m.group(1)))
        pos = m.end()
    out.append(plain(text[pos:]))
    return "".join(out)


def cell(text: str) -> str:
    """Make already-escaped inline Markdown safe inside a table cell (a ``|`` in a code span too)."""
    return text.replace("\\|", "\x00").replace("|", "\\|").replace("\x00", "\\|")


def code_block(text: object, info: str = "") -> str:
    """Untrusted text as a fenced code block that no line inside can close; ends with a newline.

    ``info`` (the language tag) is reduced to ``[A-Za-z0-9_+.-]``.
    """
    body = _base(text).replace("<!--", "<" + ZWSP + "!--")
    if not body.endswith("\n"):
        body += "\n"
    fence = "`" * max(3, _longest_backtick_run(body) + 1)
    return f"{fence}{_INFO.sub('', info)}\n{body}{fence}\n"


def title(text: object, limit: int = 256) -> str:
    """Untrusted text as an issue/PR title (plain text, no Markdown): one line, mentions defused and
    ``<!--`` broken, at most ``limit`` characters (``…`` marks a cut)."""
    line = " ".join(_base(text).replace("<!--", "<" + ZWSP + "!--").split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ``…`` marking a cut (before escaping)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- workflow commands ------------------------------------------------------------------------------------


def escape_data(text: str) -> str:
    """Escape a workflow-command message (GitHub's rule: ``%``, CR and LF), so untrusted text cannot
    end the command and start another one."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow-command property value (the message rules plus ``:`` and ``,``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


# --- runner log lines -------------------------------------------------------------------------------------

LINE_END = re.compile(r"\r\n|\r|\n")
"""Where the Actions runner ends a line of step output (.NET ``StreamReader.ReadLine``)."""
# ``\s`` is str.isspace(): a superset of .NET's Char.IsWhiteSpace, which TryParseV2's TrimStart uses.
_LEADING_COMMAND = re.compile(r"^(\s*)::")
_LEGACY_COMMAND = "##["
# ``\u0023`` is ``#`` in JSON and Python string syntax, so a JSON document printed through the escaper
# still decodes to the same value; in plain text it reads as what it is.
_LEGACY_BROKEN = "#\\u0023["


def log_line(text: object) -> str:
    """``text`` as one runner log line that the runner cannot take for a workflow command.

    CR and LF become ``%0D`` / ``%0A`` (the line stays one line), every ``##[`` becomes ``#\\u0023[``
    (the legacy prefix counts anywhere in a line) and a ``::`` at the start, after whitespace, becomes
    ``%3A%3A``. Other text is unchanged. Safe for a whole line or the untrusted part that starts it;
    concatenating two escaped pieces is a new line to escape (or print through
    :class:`quarkci.report.lines.CommandGuard`).
    """
    line = str(text).replace("\r", "%0D").replace("\n", "%0A").replace(_LEGACY_COMMAND, _LEGACY_BROKEN)
    return _LEADING_COMMAND.sub(lambda m: m.group(1) + "%3A%3A", line, count=1)


def log_text(text: object) -> str:
    """Multi-line untrusted text as runner log lines: each line (ended by CR, LF or CRLF, as the runner
    splits) through :func:`log_line`, lines joined by LF; a final line end is kept. JSON stays JSON
    with the same value (a JSON string holds no raw CR/LF and no line starts with ``::``)."""
    parts = LINE_END.split(str(text))
    return "\n".join(log_line(part) for part in parts)
