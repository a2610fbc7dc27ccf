"""``command`` claims: the Quark programs a skill runs (``quark-cli <subcommand>``, a ``quark-*`` console
script), from the shell commands :class:`~quarkci.skills.claims.unit.Unit` already parsed with its shell
lexer (fenced shell blocks and inline code spans). ``quark-cli`` with no subcommand (``quark-cli --help``)
is a claim too. The value is the command as named (``quark-cli torch-llm-ptq``); ``context["where"]`` is
``code``, ``inline`` or, for a name in a sentence about console scripts, ``prose``.

A sentence that speaks of console scripts or entry points ("After installing you get the console scripts
`quark-cli`, `quark-skills` and `quark-quantize`") names programs: each ``quark-*`` code span in it is a
``command`` claim, whether or not some release installs it (a skill's own name, ``quark-torch-ptq``, is
no console script and stands in no such sentence).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.context import is_negative
from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

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
    for block in unit.texts():
        if block.kind == "heading":
            continue
        for offset, sentence in sentences(block.text):
            if not _ABOUT_SCRIPTS.search(sentence) or is_negative(sentence):
                continue
            for match in _SCRIPT_SPAN.finditer(sentence):
                yield Found(
                    "command",
                    match.group(1),
                    block.line_at(offset + match.start()),
                    {"where": "prose", "section": heading_path(block.headings), "quark": True},
                )
