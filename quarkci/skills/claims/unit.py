"""One Markdown file of a skill, walked once and shared by every claim extractor."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import Any

import quarkci.skills.claims.commands as sh
import quarkci.skills.claims.prose_words as prose_words
import quarkci.skills.markdown as markdown
from quarkci.skills.claims.context import sentences_of
from quarkci.skills.claims.lexicon import Lexicon
from quarkci.skills.claims.walk import Block, Code, Heading, Newlines, Text, walk

# Programs that never decide which CLI a bare flag in prose belongs to.
_UTILITIES = frozenset(
    {
        "",
        "python",
        "cd",
        "ls",
        "cat",
        "echo",
        "export",
        "mkdir",
        "tee",
        "head",
        "tail",
        "grep",
        "rm",
        "cp",
        "mv",
        "source",
        "which",
        "test",
        "true",
        "false",
        "find",
        "sed",
        "awk",
        "wc",
        "sort",
        "printf",
        "set",
    }
)


@dataclass(frozen=True)
class Found:
    """A claim before the skill and file are attached: kind, value, 1-based line, context."""

    kind: str
    value: str
    line: int
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Inference:
    """The command a bare flag is attributed to, the level that decided (section, file, skill,
    source_knowledge), and the competing command names when that level was ambiguous."""

    command: str | None
    source: str | None
    candidates: tuple[str, ...] = ()

    @cached_property
    def any_quark_candidate(self) -> bool:
        """True when one of :attr:`candidates` is a command of amd-quark (read once per inference)."""
        return any(sh.is_quark_name(c) for c in self.candidates)


@dataclass(frozen=True)
class Located:
    """A command found in a file: ``where`` is ``"code"`` (fenced block), ``"inline"`` (code span) or
    ``"usage"`` (the usage line of a pasted help text: it names the program for its section only)."""

    command: sh.Command
    where: str
    headings: tuple[Heading, ...]
    text: str = ""  # an inline command's sentence (who else it may belong to)
    paragraph: str = ""  # the paragraph, list item or cell holding an inline command


# a name said to differ from the subject: "unlike the underscores of `torch-llm-ptq`", "rather than onnx-ptq"
_CONTRAST = re.compile(
    r"\b(?:unlike|rather than|instead of|as opposed to|compared (?:with|to)|in contrast to|different from)\b[^.;:]*$",
    re.IGNORECASE,
)
_CONTRAST_REACH = 60  # characters before a name searched for a contrast word


def contrasted(text: str, start: int) -> bool:
    """True when the name at ``text[start:]`` is one the sentence contrasts its subject with
    (:data:`_CONTRAST` within :data:`_CONTRAST_REACH` characters before it, in the same clause)."""
    return _CONTRAST.search(text, max(0, start - _CONTRAST_REACH), start) is not None


_FRAMEWORK = re.compile(r"(?<![\w./-])quark\.(torch|onnx)\b")


def _lifted(block: Block, lexicon: Lexicon) -> Block:
    """``block`` with its bare Quark words as code spans (:func:`~quarkci.skills.claims.prose_words.lift`);
    headings and code blocks as they are."""
    if not isinstance(block, Text) or block.kind == "heading":
        return block
    text = prose_words.lift(block.text, lexicon)
    return block if text is block.text else replace(block, text=text)


class Unit:
    """A parsed Markdown file: ``file`` (root-relative), ``blocks`` and every shell command in it."""

    def __init__(self, file: str, text: str, first_line: int = 1, lexicon: Lexicon | None = None) -> None:
        self.file = file
        self.text = text
        self.first_line = first_line
        self.lexicon = lexicon  # the release vocabulary token claims resolve against (None: not resolved)
        self.document = markdown.parse(text, first_line)  # parsed once: the walk and the link reader share it
        self.blocks: list[Block] = walk(text, first_line, self.document)
        if lexicon is not None:  # bare prose words naming Quark things read as code spans (see prose_words)
            self.blocks = [_lifted(b, lexicon) for b in self.blocks]
        self.commands: list[Located] = list(self._commands())
        self.skill_command = Inference(None, None)
        self.quark_cli_subcommand: str | None = None  # the one `quark-cli <sub>` the whole skill names
        self._by_section: dict[tuple[Heading, ...], set[str]] = {}
        self._run_in_section: set[tuple[Heading, ...]] = set()  # sections with a command in a code block
        file_names: set[str] = set()
        for located in self.commands:
            command = located.command
            # only a program shown taking long options (or Quark's own) can own a bare `--flag` nearby
            if command.name not in _UTILITIES and (
                command.is_quark or command.name.startswith(sh.QUARK_CLI) or sh.flags(command)
            ):
                self._by_section.setdefault(located.headings, set()).add(command.name)
                if located.where != "inline":
                    self._run_in_section.add(located.headings)
                if located.where != "usage":  # a pasted usage line names its program for its section only
                    file_names.add(command.name)
        self._names: frozenset[str] = frozenset(file_names)
        # infer_command's answers by section (None: the file level), for the skill-level inputs below
        self._inferred: dict[tuple[Heading, ...] | None, Inference] = {}
        self._inferred_for: tuple[Inference, str | None] = (self.skill_command, self.quark_cli_subcommand)

    @cached_property
    def framework(self) -> str | None:
        """The one framework package (``quark.torch`` or ``quark.onnx``) the file names, None when it names
        both or neither: the package its bare Python names speak of."""
        found = set(_FRAMEWORK.findall(self.text))
        return f"quark.{found.pop()}" if len(found) == 1 else None

    def texts(self) -> Iterator[Text]:
        """Inline text blocks (paragraphs, headings, table cells) in document order."""
        return (b for b in self.blocks if isinstance(b, Text))

    def codes(self) -> Iterator[Code]:
        """Code blocks in document order."""
        return (b for b in self.blocks if isinstance(b, Code))

    def comments(self) -> Iterator[tuple[str, Callable[[int], int]]]:
        """Each HTML comment's body with a function from an offset in it to its file line; quarkci's own
        ``<!-- quarkci: ... -->`` directives are left out (they are no claims)."""
        newlines = Newlines(self.text)
        for comment in _HTML_COMMENT.finditer(self.text):
            body = comment.group(1)
            if body.strip().startswith("quarkci:"):
                continue
            yield body, partial(self._comment_line, newlines, comment.start(1))

    def _comment_line(self, newlines: Newlines, start: int, offset: int) -> int:
        return self.first_line + newlines.line_of(start + offset)

    def section_command(self, headings: tuple[Heading, ...]) -> str | None:
        """Name of the command a bare flag fragment under ``headings`` belongs to; see :meth:`infer_command`."""
        return self.infer_command(headings).command

    def infer_command(self, headings: tuple[Heading, ...]) -> Inference:
        """Which command a bare flag fragment such as ``--seq_len 512`` under ``headings`` belongs to.

        The innermost section naming any command decides, walking out through the ancestors, then the whole
        file, then :attr:`skill_command` set by the caller from the other files of the skill and its
        ``source_knowledge``; a section whose heading names one ``quark-cli`` subcommand decides by its
        heading unless it runs a command in a code block. A level naming several commands is ambiguous: no command, and those
        names as ``candidates``. ``quark-cli`` alone becomes the skill's one ``quark-cli <sub>``.
        """
        current = (self.skill_command, self.quark_cli_subcommand)
        if current[0] is not self._inferred_for[0] or current[1] != self._inferred_for[1]:
            self._inferred, self._inferred_for = {}, current  # the caller set the skill level: start again
        inferred = self._inferred.get(headings)
        if inferred is None:
            inferred = self._inferred[headings] = self._infer(headings)  # once per section: flags share it
        return inferred

    def _infer(self, headings: tuple[Heading, ...]) -> Inference:
        for depth in range(len(headings), -1, -1):
            # "### `onnx-ptq` defaults" above a table and "For comparison, `quark-cli torch-llm-ptq` ..." in
            # prose: the heading beats a command the section only mentions inline, not one it runs
            named = self.subcommand_named(headings[depth - 1].text) if depth else None
            if named is not None and headings[:depth] not in self._run_in_section:
                return Inference(f"{sh.QUARK_CLI} {named}", "heading")
            inferred = self._level(self._by_section.get(headings[:depth], frozenset()), "section")
            if inferred is not None:
                return self._headed(inferred, headings)
        if None not in self._inferred:  # the file level: the same for every section
            self._inferred[None] = self._level(self._names, "file") or self.skill_command
        return self._headed(self._inferred[None], headings)

    def _headed(self, inferred: Inference, headings: tuple[Heading, ...]) -> Inference:
        """``quark-cli`` alone, or no command at all, made precise by the innermost heading naming one of its
        subcommands in plain words ("# torch-llm-ptq options in 0.10"); ``inferred`` otherwise."""
        if self.lexicon is None or not (
            inferred.command == sh.QUARK_CLI or (inferred.command is None and not inferred.candidates)
        ):
            return inferred
        for heading in reversed(headings):
            if (named := self.subcommand_named(heading.text)) is not None:
                return Inference(f"{sh.QUARK_CLI} {named}", "heading")
        return inferred

    @cached_property
    def subcommands(self) -> frozenset[str]:
        """The ``quark-cli`` subcommands some release of the vocabulary has (``torch-llm-ptq``, ...)."""
        if self.lexicon is None:
            return frozenset()
        return frozenset(
            c.split(" ", 1)[1] for c in self.lexicon.names("command") if c.startswith(sh.QUARK_CLI + " ")
        )

    @cached_property
    def _subcommand_word(self) -> re.Pattern[str] | None:
        names = sorted(self.subcommands, key=len, reverse=True)
        return re.compile(rf"(?<![\w-])(?:{'|'.join(map(re.escape, names))})(?![\w-])") if names else None

    def subcommand_named(self, text: str) -> str | None:
        """The one ``quark-cli`` subcommand ``text`` names, in a code span or in plain words ("`--model_export`
        on torch-llm-ptq"), not counting one it contrasts with (:data:`_CONTRAST`: "unlike the underscores of
        `torch-llm-ptq`"); None when it names none or several. Precompiled patterns, a bounded look back per
        name: linear in ``text``."""
        named = self.subcommands_named(text)
        return next(iter(named)) if len(named) == 1 else None

    def subcommands_named(self, text: str) -> frozenset[str]:
        """Every ``quark-cli`` subcommand ``text`` names (see :meth:`subcommand_named`)."""
        if self._subcommand_word is None or not text:
            return frozenset()
        return frozenset(
            m.group(0) for m in self._subcommand_word.finditer(text) if not contrasted(text, m.start())
        )

    def _level(self, names: Set[str], where: str) -> Inference | None:
        names = _prefer_subcommand(names)
        if len(names) == 1:
            name = next(iter(names))
            if name == sh.QUARK_CLI and self.quark_cli_subcommand:
                return Inference(self.quark_cli_subcommand, f"{where}+skill")  # `quark-cli X` elsewhere
            return Inference(name, where)
        if names:
            return Inference(None, where, tuple(sorted(names)))
        return None

    def names(self) -> set[str]:
        """Every non-utility command named in this file (a new set each call)."""
        return set(self._names)

    @staticmethod
    def _usage(block: Code, known: Callable[[str], bool]) -> Iterator[Located]:
        """The program a pasted help text names on its usage line ("usage: quark-cli torch-mixed-precision
        {a,b} [--x X]": ``quark-cli torch-mixed-precision``), when it is Quark's."""
        for offset, line_text in enumerate(block.text.split("\n")[:_USAGE_SCAN]):
            usage = USAGE_LINE.match(line_text)
            if usage is None:
                continue
            program = f"{usage.group('prog')} {usage.group('sub') or ''}".strip()
            for command in sh.parse_inline(program, block.first_line + offset):
                if command.name.startswith(sh.QUARK_CLI) or known(command.name):
                    yield Located(command, "usage", block.headings)
            return

    def _prose_flags(self, block: Text) -> Iterator[Located]:
        """Bare flag fragments for the long options a paragraph writes in plain words, outside code spans
        (``--template_file``): only names some release's CLI defines or nearly does (a flag of the
        vocabulary, or within two edits of one), so syntax placeholders (``--option``) are none."""
        if "--" not in block.text or block.kind == "heading" or self.lexicon is None:
            return
        lexicon = self.lexicon
        blanked = _blank_spans(block.text)
        for match in _PROSE_FLAG.finditer(blanked):
            name = match.group(0)
            if name not in lexicon.names("flag") and lexicon.nearest("flag", name) is None:
                continue
            line = block.line_at(match.start())
            for command in sh.parse_inline(name, line):
                yield Located(command, "inline", block.headings, _sentence_of(block.text, name), block.text)

    def _commands(self) -> Iterator[Located]:
        # a span naming a console script some release installs (`quark-quant-perf`) runs it; other
        # `quark-*` words in spans are skill names, not programs
        scripts = self.lexicon.names("command") if self.lexicon is not None else frozenset()

        def known(name: str) -> bool:
            return " " not in name and name in scripts

        # `torch-llm-ptq --num_calib_data` in a span: a `quark-cli` subcommand written without the program
        subcommands = self.subcommands

        for block in self.blocks:
            if isinstance(block, Code):
                if block.info in sh.SHELL_LANGUAGES:
                    for command in sh.parse_block(block.text, block.first_line):
                        # an untagged block may be output or pseudo-code: only Quark's own commands count
                        if block.info or command.name.startswith(sh.QUARK_CLI) or command.is_quark:
                            yield Located(command, "code", block.headings)
                yield from self._usage(block, known)
            else:
                yield from self._prose_flags(block)
                for span, line in block.code_spans():
                    if "-" not in span:
                        continue  # no `--flag` and no `quark-cli` (shell quoting only removes characters)
                    written = span
                    first = span.split(maxsplit=1)[0] if span.strip() else ""
                    if first in subcommands and len(span.split()) > 1:
                        span = f"{sh.QUARK_CLI} {span}"
                    elif (row := _row_subcommand(block, subcommands)) is not None and first.startswith("--"):
                        span = (
                            f"{sh.QUARK_CLI} {row} {span}"  # "| `export-onnx` | `--model-name` |": its flags
                        )
                    for command in sh.parse_inline(span, line):
                        # `layer_quant_config`, `pattern -> scheme` or a bare script path is no command line
                        if command.name and not sh.looks_like_program(command.name):
                            continue
                        if command.name.startswith(sh.QUARK_CLI) or sh.flags(command) or known(command.name):
                            yield Located(
                                command,
                                "inline",
                                block.headings,
                                _sentence_of(block.text, written),
                                block.text,
                            )
        yield from self._comment_commands(known)

    def _comment_commands(self, known: Callable[[str], bool]) -> Iterator[Located]:
        """The commands an HTML comment quotes in code spans (``<!-- run `quark-cli torch-mixed-precision
        search ...` first -->``): Quark's own programs only."""
        for body, line_of in self.comments():
            for match in _CODE_SPAN.finditer(body):
                quoted = match.group(0).strip("`").strip()
                first = quoted.split(maxsplit=1)[0] if quoted else ""
                if not (first == sh.QUARK_CLI or known(first)):
                    continue
                for command in sh.parse_inline(quoted, line_of(match.start())):
                    yield Located(command, "inline", (), _sentence_of(body, quoted))
            if self.lexicon is None or "--" not in body:
                continue
            # "<!-- perplexity on the long split: add --evaluation_dataset wikitext -->": a flag in plain words
            blanked = _blank_spans(body)
            for match in _PROSE_FLAG.finditer(blanked):
                name = match.group(0)
                if name in self.lexicon.names("flag") or self.lexicon.nearest("flag", name) is not None:
                    for command in sh.parse_inline(name, line_of(match.start())):
                        yield Located(command, "inline", (), _sentence_of(body, name), body)


# a pasted argparse usage line: its program and, for `quark-cli`, the subcommand after it
USAGE_LINE = re.compile(r"^\s*usage:\s+(?P<prog>[\w.-]+)(?:\s+(?P<sub>[a-z][\w-]*))?", re.IGNORECASE)
_USAGE_SCAN = 40  # a usage line is among a pasted help text's first lines


def _row_subcommand(block: Text, subcommands: Set[str]) -> str | None:
    """The ``quark-cli`` subcommand a table row's first cell names (``| `export-onnx` | `--model-name` |``),
    for the row's later cells; else None."""
    cell = block.cell
    if cell is None or cell.is_header or cell.column == 0 or not cell.row:
        return None
    first = re.sub(r"[`*]", "", cell.row[0]).strip().removeprefix(f"{sh.QUARK_CLI} ")
    return first if first in subcommands else None


def _blank_spans(text: str) -> str:
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


_CODE_SPAN = re.compile(r"`+[^`]*`+")
_HTML_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
# a long option written in plain words ("pass it with --template_file x.json"), outside code spans
_PROSE_FLAG = re.compile(r"(?<![\w`/-])--[A-Za-z][\w-]*[A-Za-z0-9]")


def _prefer_subcommand(names: Set[str]) -> Set[str]:
    if any(n.startswith(sh.QUARK_CLI + " ") for n in names):
        return {n for n in names if n != sh.QUARK_CLI}
    return names


def _sentence_of(text: str, span: str) -> str:
    """The sentence of ``text`` holding the code span ``span`` (the whole text when it is not found)."""
    for sentence in sentences_of(text):
        if f"`{span}`" in sentence:
            return sentence
    return text
