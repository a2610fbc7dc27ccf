"""Shell command lines in skills: split fenced blocks and inline spans into commands (shlex's POSIX
words, :mod:`.shellwords`).

A :class:`Command` names the program it runs the way a reader would (``quark-cli torch-llm-ptq``,
``quantize_quark.py``, ``pip``, ``quark-quant-perf``), so a flag can be attributed to the command it
belongs to. Heredoc bodies (``python3 - <<'PY'`` ... ``PY``) are skipped: they are not shell.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

import quarkci.skills.claims.shellwords as shellwords

QUARK_CLI = "quark-cli"
TORCH_LLM_PTQ = "quark-cli torch-llm-ptq"
QUANTIZE_QUARK = "quantize_quark.py"
# Commands whose flags are Quark's own (console scripts of amd-quark and the PTQ example script).
QUARK_COMMANDS = frozenset({TORCH_LLM_PTQ, QUANTIZE_QUARK, "quark-quant-perf", "quark-skills"})
# `python -m <module>` runs the console script whose entry point is that module (entry_points.txt of
# amd-quark 0.10 … 0.13: quark-cli = quark.experimental.cli.main:main, quark-quant-perf =
# quark.experimental.torch.quant_perf.cli:main, quark-skills = quark.skills:main).
MODULE_SCRIPTS = {
    "quark.experimental.cli.main": QUARK_CLI,
    "quark.experimental.torch.quant_perf.cli": "quark-quant-perf",
    "quark.skills": "quark-skills",
}

SHELL_LANGUAGES = frozenset({"", "bash", "sh", "shell", "console", "zsh", "shell-session", "terminal"})
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "|&", ";;"})
_PREFIXES = frozenset(
    {
        "sudo",
        "env",
        "time",
        "exec",
        "nohup",
        "!",
        "command",
        "if",
        "then",
        "else",
        "elif",
        "while",
        "until",
        "do",
        "{",
        "(",
    }
)
# Shell compound-statement words that start no command of their own (``for x in ...``, ``done``).
_NOT_COMMANDS = frozenset(
    {
        "for",
        "case",
        "select",
        "function",
        "done",
        "fi",
        "esac",
        "}",
        ")",
        "in",
        "[[",
        "[",
        "local",
        "declare",
        "readonly",
        "return",
        "break",
        "continue",
        "exit",
        "shift",
        ":",
    }
)
_MAX_QUOTED_LINES = 200
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^(?:python(?:3(?:\.\d+)?)?|<python>|\$python|\$\{python\})$", re.IGNORECASE)
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_REDIRECT = re.compile(r"^\d*(?:>>|>&|<&|&>|>|<)")
_REDIRECT_ALONE = re.compile(r"^\d*(?:>>|&>|>|<)$")
_PLACEHOLDER = re.compile(r"^<[^<>]+>$")
_PROGRAM = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.+-]*(?: -m)?(?: [A-Za-z0-9_.:-]+)?$")
_FLAG = re.compile(r"^--[A-Za-z][A-Za-z0-9_.-]*")
# A flag that stands for any flag ("use the syntax `--option=value`", "`--flag VALUE`"): prose describing
# syntax, not a flag of any command.
_PLACEHOLDER_FLAG = re.compile(
    r"^--(?:(?:some|your|my|any|the|an?)[-_])?(?:option|flag|arg|args|argument|param|parameter|name|key"
    r"|foo|bar|baz|x+|something|opt|setting)(?:[-_](?:name|here))?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Word:
    text: str
    line: int


@dataclass(frozen=True)
class Command:
    """One simple command: ``name`` (see module doc), ``args`` after the program, ``line`` of the program."""

    name: str
    args: tuple[Word, ...]
    line: int
    program: Word | None = None  # the program or script word as written (``examples/.../quantize_quark.py``)

    @property
    def is_quark(self) -> bool:
        return is_quark_name(self.name)


def is_quark_name(name: str) -> bool:
    """True for a command of amd-quark itself (``quark-cli ...``, its console scripts, the PTQ script)."""
    return name in QUARK_COMMANDS or name.startswith(QUARK_CLI)


@dataclass(frozen=True)
class Flag:
    """A long option used in a command: ``--name`` plus the values that follow it."""

    name: str
    values: tuple[str, ...]
    line: int


def parse_block(text: str, first_line: int) -> list[Command]:
    """Commands of a shell code block whose first content line is file line ``first_line``.

    Backslash continuations are joined (each word keeps its physical line); ``#`` comments,
    ``$ `` prompts and heredoc bodies are dropped; ``;``, ``&&``, ``||`` and ``|`` split commands.
    """
    commands: list[Command] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        segments: list[tuple[str, int]] = []
        quotes = shellwords.QuoteState()  # of the segments joined by spaces, read once each
        while index < len(lines):
            raw = lines[index]
            line_no = first_line + index
            index += 1
            stripped = raw.rstrip()
            if not segments:
                stripped = re.sub(r"^\s*\$\s+", "", stripped)
            if stripped.endswith("\\") and not stripped.endswith("\\\\"):
                segments.append((stripped[:-1], line_no))
                quotes.feed((" " if len(segments) > 1 else "") + stripped[:-1])
                continue
            segments.append((stripped, line_no))
            quotes.feed((" " if len(segments) > 1 else "") + stripped)
            if quotes.open and len(segments) < _MAX_QUOTED_LINES:
                continue  # a quoted argument spans lines (python -c "...")
            break
        logical = " ".join(s for s, _ in segments)
        commands.extend(_commands(logical, segments))
        heredoc = _HEREDOC.search(logical)
        if heredoc:
            tag = heredoc.group(2)
            while index < len(lines) and lines[index].strip() != tag:
                index += 1
            index += 1
    return commands


def parse_inline(text: str, line: int) -> list[Command]:
    """Commands of an inline code span on file line ``line`` (e.g. ``quark-cli torch-llm-ptq --help``).

    A span starting with a flag (``--seq_len 512``) yields one command named ``""`` (unknown).
    """
    return _commands(text, [(text, line)])


def looks_like_program(name: str) -> bool:
    """True for a plausible program name (``vllm``, ``quark-cli torch-llm-ptq``), False for prose such
    as ``error:`` that happens to sit in a code span."""
    return bool(_PROGRAM.match(name))


def flags(command: Command) -> list[Flag]:
    """Long options of ``command`` in order. ``--a=b`` gives ``--a`` with value ``b``. A placeholder that
    stands for any flag (``--option=value``, ``--flag``, ``--your-flag``) is none."""
    found: list[tuple[str, list[str], int]] = []  # values gathered in lists: linear in the words
    for word in command.args:
        match = _FLAG.match(word.text)
        if match and (len(word.text) == match.end() or word.text[match.end()] == "="):
            value = word.text[match.end() + 1 :] if "=" in word.text else None
            found.append((match.group(0), [value] if value is not None else [], word.line))
        elif found and not word.text.startswith("-"):
            found[-1][1].append(word.text)
        elif found and word.text.startswith("-"):
            found.append(("", [], word.line))  # a short option ends the previous flag's values
    return [
        Flag(name, tuple(values), line)
        for name, values, line in found
        if name and not _PLACEHOLDER_FLAG.match(name)
    ]


def _commands(logical: str, segments: list[tuple[str, int]]) -> list[Command]:
    words = _locate(_tokens(logical), segments)
    commands: list[Command] = []
    current: list[Word] = []
    for word in [*words, Word(";", 0)]:
        if word.text in _SEPARATORS:
            command = _name(current)
            if command is not None:
                commands.append(command)
            current = []
        else:
            current.append(word)
    return commands


_WHITESPACE_WORD = re.compile(r"\S+")


def _tokens(logical: str) -> list[tuple[str, int, int]]:
    """The words of ``logical`` with where each is written (``logical[start:end]``)."""
    try:
        tokens = shellwords.spans(logical)  # shlex's POSIX words, in linear time
    except ValueError:  # unbalanced quotes in a sketch of a command: fall back to whitespace words
        tokens = [(m.group(0), m.start(), m.end()) for m in _WHITESPACE_WORD.finditer(logical)]
    merged: list[tuple[str, int, int]] = []
    for token, start, end in tokens:  # keep redirections such as 2>&1 in one word
        last = merged[-1][0] if merged else ""
        if merged and ((last.endswith((">", "<")) and token in ("&", "&&")) or last.endswith((">&", "<&"))):
            merged[-1] = (last + token, merged[-1][1], end)
        else:
            merged.append((token, start, end))
    return merged


def _locate(tokens: list[tuple[str, int, int]], segments: list[tuple[str, int]]) -> list[Word]:
    """Give each token the physical line of the segment it starts in: the first match of the token (of a
    ``--flag=...`` its flag) after the cursor, up to where the token is written (``logical[start:end]``,
    the segments joined by spaces); a token not written as itself (``a\\ b``) keeps the cursor's line.
    Each search ends at its own token, so a command line of many words costs linear time."""
    starts, at = [], 0  # where each segment starts in the joined line
    for text, _ in segments:
        starts.append(at)
        at += len(text) + 1
    words: list[Word] = []
    seg = 0
    pos = 0
    for token, _, end in tokens:
        probe = token.split("=", 1)[0] if token.startswith("--") else token
        found = False
        for s in range(seg, len(segments)):
            if starts[s] > end:
                break  # past where the token is written
            at = segments[s][0].find(probe, pos if s == seg else 0, end - starts[s])
            if at >= 0:
                seg, pos, found = s, at + len(probe), True
                break
        words.append(Word(token, segments[seg][1] if found or segments else 0))
    return words


def _without_redirections(words: list[Word]) -> list[Word]:
    kept: list[Word] = []
    skip_next = False
    for word in words:
        if skip_next:
            skip_next = False
            continue
        if _PLACEHOLDER.match(word.text):
            kept.append(word)
        elif _REDIRECT_ALONE.match(word.text):
            skip_next = True  # "> file": the target is the next word
        elif not _REDIRECT.match(word.text):
            kept.append(word)
    return kept


def _name(words: list[Word]) -> Command | None:
    rest = _without_redirections(words)
    while rest and (rest[0].text in _PREFIXES or _ASSIGNMENT.match(rest[0].text)):
        rest.pop(0)
    if not rest or rest[0].text in _NOT_COMMANDS:
        return None
    head = rest.pop(0)
    program = posixpath.basename(head.text)
    if head.text.startswith("--"):
        return Command("", (head, *rest), head.line)  # a flag fragment with no program
    if _PYTHON.match(program):
        if rest and rest[0].text == "-m" and len(rest) > 1:
            module = rest[1].text
            script = MODULE_SCRIPTS.get(module)
            if script == QUARK_CLI and len(rest) > 2 and not rest[2].text.startswith("-"):
                return Command(f"{QUARK_CLI} {rest[2].text}", tuple(rest[3:]), head.line)
            if script is not None:
                return Command(script, tuple(rest[2:]), head.line)
            return Command(module if module == "pip" else f"python -m {module}", tuple(rest[2:]), head.line)
        if rest and rest[0].text.endswith(".py"):
            return Command(posixpath.basename(rest[0].text), tuple(rest[1:]), head.line, rest[0])
        return Command("python", tuple(rest), head.line)
    if program.endswith(".py"):
        return Command(program, tuple(rest), head.line, head)
    if program == QUARK_CLI and rest and not rest[0].text.startswith("-"):
        return Command(f"{QUARK_CLI} {rest[0].text}", tuple(rest[1:]), head.line)
    if program in ("pip", "pip3"):
        return Command("pip", tuple(rest), head.line)
    return Command(program, tuple(rest), head.line)
