"""``cli_flag`` claims: long options used in shell code blocks and inline code spans.

Each flag carries the command it belongs to (``context["command"]``): the program of its own command
line, or, for a bare fragment such as ``--seq_len 512`` in prose, the single command named in the
same section, file or skill (``context["inferred"] = True``, ``"inferred_from"`` says which level;
see :meth:`Unit.infer_command`); ``None`` when that is ambiguous. ``--help`` is left
out (argparse adds it; it is no claim about Quark's options).
"""

from __future__ import annotations

from collections.abc import Iterator

from quarkci.skills.claims import commands as sh
from quarkci.skills.claims.unit import Found, Unit

_IGNORED = frozenset({"--help"})


def extract(unit: Unit) -> Iterator[Found]:
    for located in unit.commands:
        command = located.command
        name: str | None = command.name
        inferred_from = None
        if not name:
            name, inferred_from = unit.infer_command(located.headings)
        for flag in sh.flags(command):
            if flag.name in _IGNORED:
                continue
            yield Found(
                "cli_flag",
                flag.name,
                flag.line,
                {
                    "command": name,
                    "quark": bool(name) and sh.Command(name, (), 0).is_quark,
                    "where": located.where,
                    "inferred": not command.name,
                    "inferred_from": inferred_from,
                    "values": list(flag.values),
                },
            )
