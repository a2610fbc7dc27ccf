"""A test-side model of how the GitHub Actions runner finds workflow commands in a step's output.

Written from the runner's documented behaviour and its parser (actions/runner: ActionCommandManager
``TryProcessCommand``, ActionCommand ``TryParseV2`` and ``TryParse``), independently of quarkci's escaper:

* output is split into lines at ``\\r\\n``, ``\\r`` and ``\\n`` (.NET ``StreamReader.ReadLine``);
* a line is a command ``::name props::data`` when, after its leading whitespace is trimmed (.NET
  ``Char.IsWhiteSpace``), it starts with ``::``, a second ``::`` follows, and ``name`` is registered
  (case-insensitive);
* otherwise it is a legacy command ``##[name props]data`` when ``##[`` occurs anywhere in it, a ``]``
  follows, and ``name`` is registered;
* after ``stop-commands`` (data = TOKEN) nothing is a command until a line that parses as the command
  ``TOKEN`` (the token is registered while processing is stopped).

Data is unescaped as the runner does (``%0D``, ``%0A``, ``%25``; properties also ``%3A``, ``%2C``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

REGISTERED = frozenset(
    {
        "stop-commands",
        "set-env",
        "set-output",
        "save-state",
        "add-mask",
        "add-path",
        "add-matcher",
        "remove-matcher",
        "debug",
        "warning",
        "error",
        "notice",
        "group",
        "endgroup",
        "echo",
    }
)
# .NET Char.IsWhiteSpace: U+0009..U+000D, U+0085 and the Unicode separators (Zs, Zl, Zp).
DOTNET_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
_LINES = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Command:
    """One command the runner would process: its name (lower case), properties, data and source line."""

    name: str
    properties: dict[str, str] = field(default_factory=dict)
    data: str = ""
    line: str = ""


def runner_lines(output: str) -> list[str]:
    """``output`` split where the runner ends lines (a final line end yields no extra line)."""
    lines = _LINES.split(output)
    return lines[:-1] if lines and lines[-1] == "" else lines


def _unescape(text: str, pairs: tuple[tuple[str, str], ...]) -> str:
    for escaped, raw in pairs:
        text = text.replace(escaped, raw)
    return text


_DATA = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
_PROPERTY = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
_LEGACY = (("%3B", ";"), ("%0D", "\r"), ("%0A", "\n"), ("%5D", "]"), ("%25", "%"))


def parse_line(line: str, registered: set[str] | frozenset[str] = REGISTERED) -> Command | None:
    """The command ``line`` holds under the runner's rules (V2 ``::`` first, then legacy ``##[``), or None."""
    names = {n.lower() for n in registered}
    text = line.lstrip(DOTNET_WHITESPACE)
    if text.startswith("::") and (end := text.find("::", 2)) >= 0:
        info = text[2:end]
        name, _, props = info.partition(" ")
        if name.lower() in names:
            properties = {}
            for prop in filter(None, props.strip().split(",")):
                key, sep, value = prop.partition("=")
                if sep and key and value:
                    properties[key] = _unescape(value, _PROPERTY)
            return Command(name.lower(), properties, _unescape(text[end + 2 :], _DATA), line)
    start = line.find("##[")
    if start >= 0 and (close := line.find("]", start)) >= 0:
        info = line[start + 3 : close]
        name, _, props = info.partition(" ")
        if name.lower() in names:
            properties = {}
            for prop in filter(None, props.split(";")):
                key, sep, value = prop.partition("=")
                if sep and key and value:
                    properties[key] = _unescape(value, _LEGACY)
            return Command(name.lower(), properties, _unescape(line[close + 1 :], _LEGACY), line)
    return None


def commands(output: str) -> list[Command]:
    """Every command the runner would process in ``output``, in order, honouring ``stop-commands``
    (the stop and resume lines are themselves listed: each is a processed command)."""
    found: list[Command] = []
    stop_token: str | None = None
    for line in runner_lines(output):
        registered = REGISTERED | ({stop_token} if stop_token else set())
        command = parse_line(line, registered)
        if command is None:
            continue
        if stop_token is not None:
            if command.name == stop_token.lower():
                found.append(command)
                stop_token = None
            continue
        found.append(command)
        if command.name == "stop-commands":
            stop_token = command.data
    return found
