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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

from quarkci.core.errors import EXIT_BAD_INPUT

_RST_LITERAL = re.compile(r"``([^`]+)``")
_ARGUMENT = re.compile(r"^argument (\S+): ")


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
        if (
            not shows_default
            and default not in (None, False, "", [], argparse.SUPPRESS)
            and action.nargs != 0
        ):
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

    def _get_value(self, action: argparse.Action, arg_string: str) -> Any:
        """argparse's conversion of one value, with an ``OSError`` of a ``type=`` check (a file system that
        refuses the lookup) turned into the usual one-line error naming the option, never a traceback."""
        try:
            return super()._get_value(action, arg_string)  # argparse's private conversion hook
        except OSError as exc:
            shown = arg_string if len(arg_string) <= 80 else arg_string[:77] + "..."
            raise argparse.ArgumentError(action, f"{shown}: cannot check ({exc.strerror or exc})") from None

    def error(self, message: str) -> NoReturn:
        message = _ARGUMENT.sub(r"\1: ", " ".join(message.split()))  # "argument --out: x" -> "--out: x"
        self.exit(EXIT_BAD_INPUT, f"quarkci: error: {message}\n")

    def parse_known_args(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
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
            print(
                f"quarkci: warning: {flag} is deprecated, use {new_flag} (the old spelling goes in the next "
                "release)",
                file=sys.stderr,
            )
            out[i] = new_flag + token[len(flag) :]
        return out


# What ``quarkci.cli`` passes to every command's ``add_parser``: the top-level subparsers, whose parsers are
# :class:`Parser` (a string alias: ``_SubParsersAction`` is not subscriptable at runtime).
Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The optional (``--flag``) actions of ``parser``, without ``-h/--help``."""
    return [
        a
        for a in parser._actions
        if a.option_strings and not isinstance(a, argparse._HelpAction | argparse._VersionAction)
    ]


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The direct subcommands of ``parser`` by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every (command path, parser) pair below and including ``parser``, depth first."""
    found = [(path, parser)]
    for name, sub in subparsers(parser).items():
        found += walk(sub, (*path, name))
    return found


# ---------------------------------------------------------------------------------------------
# argparse ``type=`` checks: run while parsing, so a bad value is refused before any work, in one
# line that argparse prefixes with the option ("argument --out: ..."). Each returns the value as given.


_FLAG = "\0flag"  # placeholder passed as the option name to checks that name it; stripped by _reason


def _reason(exc: Exception) -> argparse.ArgumentTypeError:
    """The one-line reason of a quarkci error, without the option name the caller put first."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return argparse.ArgumentTypeError(text.removeprefix(_FLAG + " "))


def _checked(check: Callable[[str, str], object], value: str) -> str:
    """Run a core check that names its flag (``check(value, flag)``); its BadInputError becomes argparse's
    one-line type error. Returns ``value`` unchanged."""
    from quarkci.core.errors import BadInputError

    try:
        check(value, _FLAG)
    except BadInputError as exc:
        raise _reason(exc) from None
    return value


def output_dir(value: str) -> str:
    """A directory quarkci may create or write into (probed by creating a temporary file there)."""
    from quarkci.core.paths import check_output_dir

    return _checked(check_output_dir, value)


def output_file(value: str) -> str:
    """A file path quarkci may create or replace (its directory is probed by creating a temporary file)."""
    from quarkci.core.paths import check_output_file

    return _checked(check_output_file, value)


def path_name(value: str) -> str:
    """A path the operating system can look up (no NUL, no component over 255 bytes); nothing is touched.
    For path options whose command checks existence itself (e.g. ``DIR|HF_ID``)."""
    from quarkci.core.paths import check_path_name

    return _checked(check_path_name, value)


def _looked_up(value: str) -> Path:
    """``value`` as a :class:`Path` once :func:`path_name` accepts it (so ``exists()`` can answer)."""
    return Path(path_name(value))


def input_file(value: str) -> str:
    """An existing regular file."""
    path = _looked_up(value)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{value}: no such file")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{value}: not a regular file")
    return value


def input_file_at_most(limit: int, *, stdin: bool = False) -> Callable[[str], str]:
    """An existing regular file of at most ``limit`` bytes (``-``, standard input, too when ``stdin``;
    its size is bounded when it is read)."""

    def check(value: str) -> str:
        if stdin and value == "-":
            return value
        input_file(value)
        size = Path(value).stat().st_size  # (an OSError here is the parser's one-line error too)
        if size > limit:
            raise argparse.ArgumentTypeError(f"{value}: {size} bytes, over the {limit}-byte limit")
        return value

    check.__name__ = "input_file"
    return check


def input_dir(value: str) -> str:
    """An existing directory."""
    path = _looked_up(value)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{value}: no such directory")
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value}: not a directory")
    return value


def upstream_spec(value: str) -> str:
    """An upstream spec (amd-quark==X, amd-quark, a wheel, a Quark checkout, installed), checked offline."""
    from quarkci.upstream.resolve import check_spec

    return _checked(check_spec, value)


def skills_spec(value: str) -> str:
    """``DIR`` (an existing directory) or ``bundled:SPEC`` (an upstream spec, checked offline)."""
    if value.startswith("bundled:"):
        spec = value.removeprefix("bundled:").strip()
        if not spec:
            raise argparse.ArgumentTypeError(f"{value}: missing upstream spec after 'bundled:'")
        try:
            upstream_spec(spec)
        except argparse.ArgumentTypeError as exc:
            raise argparse.ArgumentTypeError(f"bundled:{exc}") from None
        return value
    if not value.strip():
        raise argparse.ArgumentTypeError("empty (expected DIR or bundled:SPEC)")
    return input_dir(value)


def baseline_spec(value: str) -> str:
    """A stored baseline ``.json`` file (must exist), ``none``, or an upstream spec (checked offline)."""
    if value == "none":
        return value
    path = _looked_up(value)
    if value.endswith(".json") or (path.is_file() and not value.endswith(".whl")):
        return input_file(value)
    try:
        return upstream_spec(value)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(
            f"{exc} (expected a baseline .json file or an upstream spec)"
        ) from None


def positive_int(value: str) -> int:
    """An integer >= 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r}: not an integer") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value}: must be >= 1")
    return number


def non_negative_int(value: str) -> int:
    """An integer >= 0."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r}: not an integer") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value}: must be >= 0")
    return number


def repository(value: str) -> str:
    """A GitHub repository as ``owner/name``."""
    if not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", value):
        raise argparse.ArgumentTypeError(f"{value!r}: expected owner/name")
    return value


def as_path(check: Callable[[str], str]) -> Callable[[str], Path]:
    """``check`` returning a :class:`~pathlib.Path` (for commands whose code takes paths)."""

    def convert(value: str) -> Path:
        return Path(check(value))

    convert.__name__ = check.__name__
    return convert
