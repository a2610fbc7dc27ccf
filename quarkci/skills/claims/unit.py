"""One Markdown file of a skill, walked once and shared by every claim extractor."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from quarkci.skills.claims import commands as sh
from quarkci.skills.claims.walk import Block, Code, Heading, Text, walk

# Programs that never decide which CLI a bare flag in prose belongs to.
_UTILITIES = frozenset(
    {"", "python", "cd", "ls", "cat", "echo", "export", "mkdir", "tee", "head", "tail", "grep", "rm", "cp",
     "mv", "source", "which", "test", "true", "false", "find", "sed", "awk", "wc", "sort", "printf", "set"}
)


@dataclass(frozen=True)
class Found:
    """A claim before the skill and file are attached: kind, value, 1-based line, context."""

    kind: str
    value: str
    line: int
    context: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Located:
    """A command found in a file: ``where`` is ``"code"`` (fenced block) or ``"inline"`` (code span)."""

    command: sh.Command
    where: str
    headings: tuple[Heading, ...]


class Unit:
    """A parsed Markdown file: ``file`` (root-relative), ``blocks`` and every shell command in it."""

    def __init__(self, file: str, text: str, first_line: int = 1) -> None:
        self.file = file
        self.blocks: list[Block] = walk(text, first_line)
        self.commands: list[Located] = list(self._commands())
        self._by_section: dict[tuple[Heading, ...], set[str]] = {}
        for located in self.commands:
            if located.command.name not in _UTILITIES:
                self._by_section.setdefault(located.headings, set()).add(located.command.name)

    def texts(self) -> Iterator[Text]:
        return (b for b in self.blocks if isinstance(b, Text))

    def codes(self) -> Iterator[Code]:
        return (b for b in self.blocks if isinstance(b, Code))

    def section_command(self, headings: tuple[Heading, ...]) -> str | None:
        """The one command named in the innermost section (or nearest ancestor) that names any; None
        when that section names several (ambiguous) or none does. ``quark-cli`` alone yields to
        ``quark-cli <sub>`` when both appear."""
        for depth in range(len(headings), -1, -1):
            names = self._by_section.get(headings[:depth], set())
            names = {n for n in names if not (n == sh.QUARK_CLI and any(m.startswith("quark-cli ") for m in names))}
            if len(names) == 1:
                return next(iter(names))
            if names:
                return None
        return None

    def _commands(self) -> Iterator[Located]:
        for block in self.blocks:
            if isinstance(block, Code):
                if block.info in sh.SHELL_LANGUAGES:
                    for command in sh.parse_block(block.text, block.first_line):
                        yield Located(command, "code", block.headings)
            else:
                for span, line in block.code_spans():
                    for command in sh.parse_inline(span, line):
                        yield Located(command, "inline", block.headings)
