"""``cli_flag`` claims: long options used in shell code blocks and inline code spans.

Each flag carries the command it belongs to (``context["command"]``): the program of its own command
line, or, for a bare fragment such as ``--seq_len 512`` in prose, the single command named in the
same section, file or skill (``context["inferred"] = True``, ``"inferred_from"`` says which level;
see :meth:`Unit.infer_command`); ``None`` when that is ambiguous, with the competing command names
in ``context["candidates"]`` (empty when the skill names no command at all).

``context["quark"]`` is a tri-state for the audit: True when the flag belongs to a command of amd-quark
itself (check it against that command), False when it belongs to another program or is ambiguous only
among other programs (not Quark's to check), None when unknown (no command anywhere, or ambiguous
between a Quark command and others: check it against every Quark CLI). ``--help`` is left
out (argparse adds it; it is no claim about Quark's options).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import quarkci.skills.claims.commands as sh
from quarkci.skills.claims.unit import Found, Unit

_IGNORED = frozenset({"--help"})


def extract(unit: Unit) -> Iterator[Found]:
    """``cli_flag`` claims of ``unit`` (see the module docstring)."""
    for located in unit.commands:
        command = located.command
        name: str | None = command.name
        inferred_from: str | None = None
        candidates: tuple[str, ...] = ()
        if not name:
            inference = unit.infer_command(located.headings)
            name, inferred_from, candidates = inference.command, inference.source, inference.candidates
        for flag in sh.flags(command):
            if flag.name in _IGNORED:
                continue
            yield Found(
                "cli_flag",
                flag.name,
                flag.line,
                {
                    "command": name,
                    "quark": _is_quark(name, candidates),
                    "where": located.where,
                    "inferred": not command.name,
                    "inferred_from": inferred_from,
                    "values": list(flag.values),
                    "candidates": list(candidates),
                    "subcommand": _subcommand(command),
                },
            )


def _is_quark(name: str | None, candidates: tuple[str, ...] | list[str]) -> bool | None:
    if name:
        return _quark_name(name)
    if not candidates:
        return None
    return None if any(_quark_name(c) for c in candidates) else False


def _quark_name(name: str) -> bool:
    return name.startswith(sh.QUARK_CLI) or sh.Command(name, (), 0).is_quark


def _subcommand(command: sh.Command) -> str | None:
    """The first argument of a program other than ``quark-cli`` when it is a bare word placed before any
    option (``quark-quant-perf eval --from-session ...`` -> ``eval``): a subcommand the program may
    dispatch itself."""
    if not command.name or command.name.startswith(sh.QUARK_CLI) or not command.args:
        return None
    first = command.args[0].text
    return first if re.fullmatch(r"[a-z][a-z0-9-]*", first) else None
