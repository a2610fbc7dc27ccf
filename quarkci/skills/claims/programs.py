"""``command`` claims: the Quark programs a skill runs (``quark-cli <subcommand>``, a ``quark-*`` console
script), from the shell commands :class:`~quarkci.skills.claims.unit.Unit` already parsed with its shell
lexer (fenced shell blocks and inline code spans). ``quark-cli`` with no subcommand (``quark-cli --help``)
is a claim too. The value is the command as named (``quark-cli torch-llm-ptq``); ``context["where"]`` is
``code`` or ``inline``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_CONSOLE_SCRIPT = re.compile(r"^quark-[a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?$")


def extract(unit: Unit) -> Iterator[Found]:
    """``command`` claims of ``unit`` (see the module docstring)."""
    for located in unit.commands:
        name = located.command.name
        if _CONSOLE_SCRIPT.match(name):
            yield Found(
                "command",
                name,
                located.command.line,
                {"where": located.where, "section": heading_path(located.headings), "quark": True},
            )
