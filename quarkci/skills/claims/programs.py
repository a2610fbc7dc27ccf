"""``command`` claims: the Quark programs a skill runs (``quark-cli <subcommand>``, a ``quark-*`` console
script), from the shell commands :class:`~quarkci.skills.claims.unit.Unit` already parsed with its shell
lexer (fenced shell blocks and inline code spans). ``quark-cli`` with no subcommand (``quark-cli --help``)
is a claim too. The value is the command as named (``quark-cli torch-llm-ptq``); ``context["where"]`` is
``code``, ``inline`` or, for a name in a sentence about console scripts, ``prose``.

A sentence that speaks of console scripts or entry points ("After installing you get the console scripts
`quark-cli`, `quark-skills` and `quark-quantize`") names programs: each ``quark-*`` code span in it is a
``command`` claim, whether or not some release installs it (a skill's own name, ``quark-torch-ptq``, is
no console script and stands in no such sentence). A span some release has as a ``quark-cli`` subcommand,
followed by "subcommand" ("The `shapeshifter` subcommand can rewrite shapes"), is ``quark-cli <name>``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from quarkci.skills.claims.context import is_negative
from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.unit import USAGE_LINE, Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

CONSOLE_SCRIPT = re.compile(r"^quark-[a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?$")
_ABOUT_SCRIPTS = re.compile(r"\b(?:console[ -]scripts?|entry[ -]points?|executables?)\b", re.IGNORECASE)
_SCRIPT_SPAN = re.compile(r"`(quark-[a-z][a-z0-9-]*)`")


def extract(unit: Unit) -> Iterator[Found]:
    """``command`` claims of ``unit`` (see the module docstring)."""
    for located in unit.commands:
        name = located.command.name
        if CONSOLE_SCRIPT.match(name):
            yield Found(
                "command",
                name,
                located.command.line,
                {"where": located.where, "section": heading_path(located.headings), "quark": True},
            )
    subcommands = unit.subcommands
    yield from _help_subcommands(unit)
    for block in unit.texts():
        if block.kind == "heading":
            continue
        if block.kind == "table":
            yield from _subcommand_cells(block, subcommands)
        for offset, sentence in sentences(block.text):
            for match in _NAMED_SUBCOMMAND.finditer(sentence):
                # "The `shapeshifter` subcommand can rewrite shapes": a subcommand some release has
                if match.group(1) in subcommands:
                    context = {"where": "prose", "section": heading_path(block.headings), "quark": True}
                    yield Found(
                        "command",
                        f"quark-cli {match.group(1)}",
                        block.line_at(offset + match.start()),
                        context,
                    )
            if not _ABOUT_SCRIPTS.search(sentence) or is_negative(sentence):
                continue
            for match in _SCRIPT_SPAN.finditer(sentence):
                yield Found(
                    "command",
                    match.group(1),
                    block.line_at(offset + match.start()),
                    {"where": "prose", "section": heading_path(block.headings), "quark": True},
                )


_NAMED_SUBCOMMAND = re.compile(
    r"`(?:quark-cli\s+)?([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`\s+sub-?command\b", re.IGNORECASE
)
_SUBCOMMAND_HEADER = re.compile(r"^\W*(?:quark-cli\s+)?sub-?commands?\W*$", re.IGNORECASE)
_SUBCOMMAND_CELL = re.compile(r"\s*`(?:quark-cli\s+)?([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`\s*")


def _subcommand_cells(block: Text, subcommands: frozenset[str]) -> Iterator[Found]:
    """``command`` claims for the spans shaped like ``quark-cli`` subcommands in a cell of a column headed
    "Subcommand" (``| `torch-mixed-precision` | ... |``) or of a row whose label says "subcommands"
    (``| `quark-cli` subcommands | none | `onnx-adapter`, `shapeshifter` |``), when some release has a
    subcommand of that name or one within two edits of it."""
    cell = block.cell
    if cell is None or cell.is_header:
        return
    if _SUBCOMMAND_HEADER.match(cell.header):
        names = [m.group(1)] if (m := _SUBCOMMAND_CELL.fullmatch(block.text)) is not None else []
    elif cell.column > 0 and cell.row and re.search(r"\bsub-?commands?\b", cell.row[0], re.IGNORECASE):
        names = re.findall(r"`(?:quark-cli\s+)?([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`", block.text)
    else:
        return
    for name in names:
        if name in subcommands or difflib.get_close_matches(name, sorted(subcommands), n=1, cutoff=0.8):
            context = {"where": "table", "section": heading_path(block.headings), "quark": True}
            yield Found("command", f"quark-cli {name}", block.line, context)


_HELP_SUBCOMMAND = re.compile(r"^\s{2,}([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?:\s{2,}\S|\s*$)")


def _help_subcommands(unit: Unit) -> Iterator[Found]:
    """The subcommands a pasted ``quark-cli -h`` lists ("usage: quark-cli [-h] ..." then "    onnx-adapter
    ONNX Adapter workflows"): one ``command`` claim each."""
    for code in unit.codes():
        lines = code.text.split("\n")
        usage = next((m for m in map(USAGE_LINE.match, lines[:40]) if m is not None), None)
        if usage is None or usage.group("prog") != "quark-cli" or usage.group("sub"):
            continue
        for number, line in enumerate(lines):
            match = _HELP_SUBCOMMAND.match(line)
            if match is not None:
                yield Found(
                    "command",
                    f"quark-cli {match.group(1)}",
                    code.first_line + number,
                    {"where": "code", "section": heading_path(code.headings), "quark": True},
                )
