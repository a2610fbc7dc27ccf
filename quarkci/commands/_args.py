"""Shared argparse pieces of the quarkci command line: the one parser class and its help format.

Conventions (docs/cli.md): ``--out DIR`` for a command that writes several files, ``--output FILE``
for one file, descriptive names for inputs (``--model``, ``--checkpoint``, ``--analysis``, ``--plan``);
every option has help text naming its unit or shape, and its default is shown.

* :class:`Parser` reports usage errors as one line (``quarkci: error: ...``) and exit 2, rewrites
  deprecated option spellings to their new name with one warning line on stderr, and refuses an
  old spelling whose meaning changed (a hard break) with an error naming the new option.
* :class:`HelpFormatter` shows help text without reStructuredText markup, marks required options
  and appends ``(default: X)`` to options whose help does not already state the default.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

_RST_LITERAL = re.compile(r"``([^`]+)``")
_EXIT_BAD_INPUT = 2  # quarkci.core.errors.EXIT_BAD_INPUT (kept literal: this module imports nothing of quarkci)


def plain(text: str) -> str:
    """``text`` without reStructuredText inline literals: ````quarkci facts```` -> ``quarkci facts``."""
    return _RST_LITERAL.sub(r"\1", text)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps descriptions' line breaks, strips RST literals, marks required options, shows defaults."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain(text))

    def _get_help_string(self, action: argparse.Action) -> str:
        text = plain(action.help or "")
        if not action.option_strings:
            return text
        if action.required:
            text = f"(required) {text}"
        default = action.default
        shows_default = "default" in text.lower()
        if (not shows_default and default not in (None, False, "", [], argparse.SUPPRESS)
                and action.nargs != 0):
            text += " (default: %(default)s)"
        return text


def _flag_of(token: str) -> str:
    return token.split("=", 1)[0]


class Parser(argparse.ArgumentParser):
    """The argparse parser of every quarkci command (subparsers inherit it via ``parser_class``).

    ``deprecate(old, new)`` keeps ``old`` working for one release (rewritten to ``new``, one warning
    line on stderr); ``hard_break(old, new, message)`` refuses ``old`` when ``new`` is not given, with
    ``message`` (which must name ``new``), because the old spelling now means something else.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self.deprecated: dict[str, str] = {}
        self.hard_breaks: dict[str, tuple[str, str]] = {}

    def deprecate(self, old: str, new: str) -> None:
        """Accept option spelling ``old`` as ``new`` for one release, warning on stderr."""
        self.deprecated[old] = new

    def hard_break(self, old: str, new: str, message: str) -> None:
        """Refuse ``old`` unless ``new`` is also given (``old`` changed meaning); ``message`` names ``new``."""
        self.hard_breaks[old] = (new, message)

    def error(self, message: str) -> NoReturn:
        self.exit(_EXIT_BAD_INPUT, f"quarkci: error: {message}\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        if args is None:
            args = sys.argv[1:]
        return super().parse_known_args(self._rewrite(list(args)), namespace)

    def _rewrite(self, args: list[str]) -> list[str]:
        """Apply hard breaks and deprecated spellings to this parser's own options (up to ``--``)."""
        if not (self.deprecated or self.hard_breaks):
            return args
        end = args.index("--") if "--" in args else len(args)
        flags = {_flag_of(a) for a in args[:end] if a.startswith("--")}
        for old, (new, message) in self.hard_breaks.items():
            if old in flags and new not in flags:
                self.error(message)
        out = list(args)
        for i, token in enumerate(args[:end]):
            flag = _flag_of(token)
            new_flag = self.deprecated.get(flag)
            if new_flag is None:
                continue
            print(f"quarkci: warning: {flag} is deprecated, use {new_flag} (the old spelling goes in the next "
                  "release)", file=sys.stderr)
            out[i] = new_flag + token[len(flag):]
        return out


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The optional (``--flag``) actions of ``parser``, without ``-h/--help``."""
    return [a for a in parser._actions
            if a.option_strings and not isinstance(a, argparse._HelpAction | argparse._VersionAction)]


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The direct subcommands of ``parser`` by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def walk(parser: argparse.ArgumentParser,
         path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every (command path, parser) pair below and including ``parser``, depth first."""
    found = [(path, parser)]
    for name, sub in subparsers(parser).items():
        found += walk(sub, (*path, name))
    return found
