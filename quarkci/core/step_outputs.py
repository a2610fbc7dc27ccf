"""The one writer of GitHub Actions step outputs (``$GITHUB_OUTPUT``).

Each value is written in the heredoc form GitHub documents for multi-line values
(``name<<DELIMITER`` / value / ``DELIMITER``) with a fresh random delimiter per value, so a value
holding a newline (text from a fork, a dispatch input) cannot end its own entry and forge another
output. Names are checked (``[A-Za-z_][A-Za-z0-9_-]*``, GitHub's output-name rule) and a value that
contains its delimiter line is impossible by construction (128 random bits).

Source of the format: GitHub's "Workflow commands for GitHub Actions", section "Setting an output
parameter" and "Multiline strings" (the runner reads ``$GITHUB_OUTPUT`` with the same heredoc parser it
uses for ``$GITHUB_ENV``).
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping

from quarkci.core.errors import BadInputError

ENV = "GITHUB_OUTPUT"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,99}$")


def delimiter() -> str:
    """A fresh heredoc delimiter: ``quarkci_`` and 32 random hex digits (the workflows' bash form)."""
    return f"quarkci_{secrets.token_hex(16)}"


def format_outputs(values: Mapping[str, str]) -> str:
    """The ``$GITHUB_OUTPUT`` text for ``values`` (name -> value), one heredoc entry each, in order.

    Raises :class:`BadInputError` for a name outside ``[A-Za-z_][A-Za-z0-9_-]*`` (at most 100 characters).
    """
    out = []
    for name, value in values.items():
        if not _NAME.match(name):
            raise BadInputError(f"step output name {name!r} must match [A-Za-z_][A-Za-z0-9_-]*")
        marker = delimiter()
        out.append(f"{name}<<{marker}\n{value}\n{marker}\n")
    return "".join(out)


def output_file(environ: Mapping[str, str] | None = None) -> str | None:
    """The path in ``$GITHUB_OUTPUT`` (None outside a GitHub Actions step)."""
    env = os.environ if environ is None else environ
    return env.get(ENV) or None


def write_outputs(values: Mapping[str, str], path: str | None = None) -> bool:
    """Append ``values`` as step outputs to ``path`` (default: ``$GITHUB_OUTPUT``); False when there is
    no such file to write (not an Actions step), True when written.

    Raises :class:`BadInputError` for a bad output name (nothing written) or an unwritable file.
    """
    target = path or output_file()
    if not target:
        return False
    text = format_outputs(values)
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise BadInputError(f"${ENV} {target}: cannot append ({exc.strerror or exc})") from None
    return True


def require_output_file(flag: str = "--github-output", environ: Mapping[str, str] | None = None) -> str:
    """``$GITHUB_OUTPUT`` for a command given ``flag``; raises :class:`BadInputError` naming the flag
    when it is not set (the command was asked to write step outputs outside a step)."""
    target = output_file(environ)
    if not target:
        raise BadInputError(f"{flag}: ${ENV} is not set (not a GitHub Actions step)")
    return target
