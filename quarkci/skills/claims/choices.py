"""``cli_flag_choices`` claims: the values a skill says a CLI flag accepts, in prose.

A sentence naming exactly one flag states its values when, after the flag, it says so ("takes", "accepts",
"one of", "either", "supports", "knows", "choices", "options", "values", "can be", or a parenthesis right
after the flag) and then ends its clause with an enumeration of two or more single-word values joined by
commas, "or", "and" or "/" ("`--dataset`, which takes pileval, wikitext or c4", "`--device` only knows `cuda`
and `rocm`", "`--evaluation_dataset` (wikitext or ptb)"). The enumeration must close the clause, so a value
followed by more words ("pileval and works well") is none. The value is ``"--flag=a|b|c"``; ``context``
carries ``flag``, ``choices`` (as written) and the ``command`` (named in the sentence, else the section's:
:func:`quarkci.skills.claims.defaults.named_command`). Whether each value is valid is decided against the
flag's argparse ``choices`` (``cli-flag-choice-invalid``); a flag without choices is not checked.

An argparse usage or help text pasted in a code block (a block with a ``usage: PROG ...`` line) states each
braced list completely: ``[--agent {claude-code,cursor,all}]`` is a claim with ``context["complete"]``
True (a value the parser has and the list lacks is drift too), its command the program the usage line
names (``quark-skills``; a ``quark-cli`` subcommand as ``quark-cli <sub>``).

A positional argument with choices (the vocabulary's ``positional`` kind: 0.13's ``quark-cli
torch-mixed-precision stage``) is read the same way where the section runs its command: a sentence naming
it by its noun and listing values ("Six stages exist: decision-space, ..., run.") is a ``cli_flag_choices``
claim with ``flag`` ``stage``, and the first word a shell command passes after the command is a
``cli_flag`` claim ``stage`` with that value (``quark-cli torch-mixed-precision search ...``). A list spread
over lines makes one claim per line, each on the line its values are written on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from quarkci.skills.claims.defaults import named_command, sentences, subcommands
from quarkci.skills.claims.unit import USAGE_LINE, Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
_MARKER = re.compile(
    r"\b(?:takes?|accepts?|one of|either|supports?|knows?|choices?|options?|values?|can be|allowed|valid"
    r"|possible|selects?|formats?)\b",
    re.IGNORECASE,
)
_ITEM = r"`?[A-Za-z0-9](?:[\w./-]*[\w/])?`?"
_SEP = r"\s*(?:,\s*(?:or\s+|and\s+)?|/|\s+or\s+|\s+and\s+)\s*"
# the enumeration closes its clause: a sentence end, or a comma before the default ("`a`, `b`, default `a`")
_ENUMERATION = re.compile(
    rf"(?P<items>{_ITEM}(?:{_SEP}{_ITEM})+)\s*(?:[.;:)!?]|$|,\s+(?:the\s+|with\s+)?default(?:s|ing)?\b"
    # "... `hf_format` or `gguf`, and the flag may be repeated": a new clause after the last item
    r"|,\s+(?:and|but|so|while|which)\s+(?:the|it|this|that|they)\b"
    # "... order, reorder or interleave, and reorder is what you get by default": a clause about one of them
    r"|,\s+(?:and|but|so|while)\s+`?[\w.-]+`?\s+(?:is|are|was|were|stays|becomes|remains)\b)"
)
_MAX_AFTER = 120  # how far after the flag the enumeration may start (characters)
_PROSE = frozenset({"e.g", "i.e", "etc", "list", "names", "values", "others", "more"})
_BRACED = re.compile(r"(?<![\w-])(?P<flag>--[A-Za-z][\w-]*)[ =]\{(?P<values>[^{}\s]{1,400})\}")


def stated_choices(sentence: str) -> tuple[str, list[str], int] | None:
    """``(flag, values, offset of the flag)`` when ``sentence`` states the values one flag accepts (see the
    module docstring), else None."""
    flags = {m.group(0) for m in _FLAG.finditer(sentence)}
    if len(flags) != 1:
        return None
    flag = next(iter(flags))
    at = sentence.find(flag)
    values = _enumerated(sentence[at + len(flag) :].lstrip("`"))
    return (flag, values, at) if values is not None else None


def _positional_words(unit: Unit) -> Iterator[Found]:
    """``cli_flag`` claims of the positional argument (with choices) a shell command passes a value to,
    with that value (``context["values"]``), so ``cli-flag-choice-invalid`` checks it as a flag's value: the
    value to its command's positional argument with choices: the first word
    after the command when it is no option, placeholder or variable (``quark-cli torch-mixed-precision
    search --strategy s.yaml``: ``stage`` = ``search``)."""
    known = unit.lexicon.names("positional") if unit.lexicon is not None else frozenset()
    if not known:
        return
    for located in unit.commands:
        command = located.command
        names = sorted(p.rsplit(" ", 1)[1] for p in known if p.rsplit(" ", 1)[0] == command.name)
        if len(names) != 1 or not command.args:
            continue
        first = command.args[0]
        if not re.fullmatch(r"[A-Za-z][\w.-]*", first.text):
            continue  # an option, a placeholder (<STAGE>), a variable ($STAGE)
        # an argument passed like a flag's value: checked as one (argparse refuses an invalid choice)
        context: dict[str, object] = {"command": command.name, "quark": True, "where": "code"}
        context |= {"inferred": False, "values": [first.text], "section": heading_path(located.headings)}
        yield Found("cli_flag", names[0], first.line, context)


def positionals(unit: Unit, text: Text) -> frozenset[str]:
    """The positional arguments with choices (vocabulary ``positional``) of the command ``text``'s section
    runs: ``stage`` under a ``torch-mixed-precision`` heading."""
    if unit.lexicon is None or not (known := unit.lexicon.names("positional")):
        return frozenset()
    command = unit.infer_command(text.headings).command
    return frozenset(p.rsplit(" ", 1)[1] for p in known if command and p.rsplit(" ", 1)[0] == command)


def positional_choices(sentence: str, names: frozenset[str]) -> tuple[str, list[str], int] | None:
    """``(name, values, offset)`` when ``sentence`` names one of the positional arguments ``names`` (its
    noun, singular or plural) and lists its values: after a colon ("Six stages exist: decision-space,
    search, ... and run.") or a marker word ("the stage is one of search or run"); else None."""
    for name in sorted(names):
        word = re.search(rf"\b{re.escape(name)}s?\b", sentence, re.IGNORECASE)
        if word is None:
            continue
        after = sentence[word.end() :]
        colon = after.find(":")
        if 0 <= colon <= 40:
            listed = _ENUMERATION.match(after[colon + 1 :].lstrip(" `"))
            if listed is not None:
                items = [i.strip("`") for i in re.split(_SEP, listed.group("items")) if i.strip("`")]
                if len(items) >= 2 and not any(i.startswith("-") or i.lower() in _PROSE for i in items):
                    return name, items, word.start()
        values = _enumerated(after)
        if values is not None:
            return name, values, word.start()
    return None


def _enumerated(after: str) -> list[str] | None:
    """The values the text right ``after`` a flag or parameter says it accepts (a marker word, or a
    parenthesis, then an enumeration closing the clause: see the module docstring), else None."""
    parenthesised = after.lstrip().startswith("(")
    for match in _ENUMERATION.finditer(after[:_MAX_AFTER] + after[_MAX_AFTER:].split("\n", 1)[0]):
        if match.start() > _MAX_AFTER:
            break
        if not (parenthesised or _MARKER.search(after[: match.start()])):
            continue
        if match.start() and after[match.start() - 1] not in " (`":
            continue
        written = match.group("items")
        spans = re.findall(r"`([^`]+)`", written)
        if (
            spans
            and re.sub(r"`[^`]+`", "", written).strip(" ,/")
            and re.search(r"[A-Za-z]", re.sub(r"`[^`]+`|\b(?:or|and)\b", "", written))
        ):
            continue  # "names from the CLI's own list, e.g. `a`": code spans are the values, words are prose
        items = spans or [i.strip("`") for i in re.split(_SEP, written) if i.strip("`")]
        if len(items) >= 2 and not any(i.startswith("-") or i.lower() in _PROSE for i in items):
            return items
    return None


_SPAN = re.compile(r"`([A-Za-z_]\w*)=?`")


def stated_keyword_choices(sentence: str, closed: dict[str, list[str]]) -> tuple[str, list[str], int] | None:
    """``(parameter, values, offset)`` when ``sentence`` opens on one code span naming a parameter some
    release's callable closes (``closed``: parameter -> the callables that do, see
    :func:`closed_parameters`) and then states the values it accepts, as for a flag ("`custom_mode` accepts
    `quark`, `awq` and `fp8`"); None otherwise, or when the sentence names a flag."""
    if _FLAG.search(sentence):
        return None
    first = _SPAN.search(sentence)
    if first is None or first.group(1) not in closed or first.start() > 40:
        return None
    values = _enumerated(sentence[first.end() :])
    return (first.group(1), values, first.start()) if values is not None else None


@lru_cache(maxsize=8)
def closed_parameters(names: frozenset[str]) -> dict[str, list[str]]:
    """``{parameter: callable keys}`` of the vocabulary's ``literal`` symbols (``names``:
    ``export_safetensors(custom_mode=awq)``, see :func:`quarkci.facts.vocabulary.literal_key`): which
    callables of any release close each parameter's values. Read once per vocabulary."""
    out: dict[str, set[str]] = {}
    for name in names:
        callee, _, rest = name.partition("(")
        parameter = rest.split("=", 1)[0]
        if callee and parameter:
            out.setdefault(parameter, set()).add(callee)
    return {parameter: sorted(callees) for parameter, callees in out.items()}


def _keyword_claims(unit: Unit, text: Text, offset: int, sentence: str) -> Iterator[Found]:
    """``python_argument`` claims of a sentence stating a closed parameter's values in prose, each value
    passed to the one callable of the file that closes it (its last name written in the file: 0.13's
    `custom_mode` is closed by `export_safetensors` and by `ModelExporter`'s methods); none when the file
    names none or several of them."""
    if unit.lexicon is None or "`" not in sentence:
        return
    closed = closed_parameters(unit.lexicon.names("literal"))
    stated = stated_keyword_choices(sentence, closed)
    if stated is None:
        return
    parameter, values, at = stated
    named = [c for c in closed[parameter] if re.search(rf"\b{re.escape(c.rsplit('.', 1)[-1])}\b", unit.text)]
    if len(named) != 1:
        return
    for value in values:
        yield Found(
            "python_argument",
            value,
            text.line_at(offset + at),
            {"callable": named[0], "keyword": parameter, "where": "prose", "stated": "choices"},
        )


def extract(unit: Unit) -> Iterator[Found]:
    """``cli_flag_choices`` claims of ``unit`` (see the module docstring)."""
    commands = subcommands(unit)
    yield from _usage(unit, commands)
    yield from _positional_words(unit)
    for text in unit.texts():
        if text.kind == "table":
            yield from _row(unit, text, commands)
            continue
        section = heading_path(text.headings)
        previous: str | None = None  # the one flag the previous sentence of the paragraph named
        for offset, sentence in sentences(text.text):
            stated = (
                stated_choices(sentence)
                or _also_accepted(sentence, previous)
                or positional_choices(sentence, positionals(unit, text))
            )
            flags = set(_FLAG.findall(sentence))
            previous = next(iter(flags)) if len(flags) == 1 else (previous if not flags else None)
            if stated is None:
                yield from _keyword_claims(unit, text, offset, sentence)
                continue
            flag, values, at = stated
            command = named_command(sentence, commands) or unit.infer_command(text.headings).command
            context = {"flag": flag, "command": command, "where": text.kind, "section": section}
            context["text"] = " ".join(sentence.split())[:200]
            # each value on the line it is written on (a list spread over lines): one claim per line
            by_line: dict[int, list[str]] = {}
            cursor = at
            for value in values:
                found_at = sentence.find(value, cursor)
                cursor = found_at + len(value) if found_at >= 0 else cursor
                line = text.line_at(offset + (found_at if found_at >= 0 else at))
                by_line.setdefault(line, []).append(value)
            for line, written in sorted(by_line.items()):
                yield Found(
                    "cli_flag_choices",
                    f"{flag}={'|'.join(written)}",
                    line,
                    {**context, "choices": written},
                )


# "A newer layout, `quark_safetensors`, is also accepted there.": more values of the flag the sentence before
# named
_ALSO_ACCEPTED = re.compile(
    r"\b(?:is|are)\s+(?:also\s+)?(?:accepted|allowed|valid)\s+(?:too|as well|there)\b"
    r"|\b(?:is|are)\s+also\s+(?:accepted|allowed|valid)\b"
    # "For 4-bit KV caches the parser also offers `int4_per_group`."
    r"|\balso\s+(?:offers|accepts|takes|allows|knows)\b",
    re.IGNORECASE,
)


def _also_accepted(sentence: str, flag: str | None) -> tuple[str, list[str], int] | None:
    """``(flag, values, offset of the first value)`` when ``sentence`` names no flag, says its code spans
    are also accepted (:data:`_ALSO_ACCEPTED`) and the previous sentence named the one ``flag``; None
    otherwise."""
    if flag is None or _FLAG.search(sentence) or not _ALSO_ACCEPTED.search(sentence):
        return None
    values = [v for v in _CODE.findall(sentence) if re.fullmatch(r"[\w./-]+", v)]
    return (flag, values, sentence.find(f"`{values[0]}`")) if values else None


def _usage(unit: Unit, commands: dict[str, str]) -> Iterator[Found]:
    """The braced choice lists of argparse usage/help text in code blocks (see the module docstring)."""
    for code in unit.codes():
        lines = code.text.split("\n")
        usage = next((m for m in map(USAGE_LINE.match, lines) if m is not None), None)
        if usage is not None:
            prog, sub = usage.group("prog"), usage.group("sub")
            command = commands.get(f"{prog} {sub}") if sub else None
            command = command or commands.get(prog) or prog
        elif (
            code.info in ("", "text", "console", "txt")
            and sum(1 for x in lines if _HELP_OPTION.match(x)) >= 3
        ):
            # pasted option lines without their usage line: the command the section runs
            inferred = unit.infer_command(code.headings).command
            if inferred is None:
                continue
            command = inferred
        else:
            continue
        previous: str | None = None  # the option the last option line named (a wrapped line continues it)
        for number, line in enumerate(lines):
            yield from _help_option(line, code.first_line + number, command, heading_path(code.headings))
            option = _HELP_OPTION.match(line)
            if option is not None:
                previous = option.group("flag")
            elif (
                previous is not None and line.strip() and (default := _HELP_DEFAULT.search(line)) is not None
            ):
                # "  --gpu-type {mi300x,...}" then "        default: mi300x": the wrapped line's default
                value = default.group("value") or default.group("column")
                if value and value.lower() not in _NO_VALUE:
                    yield Found(
                        "cli_flag_default",
                        f"{previous}={value}",
                        code.first_line + number,
                        {
                            "flag": previous,
                            "default": value,
                            "command": command,
                            "where": "code",
                            "section": heading_path(code.headings),
                        },
                    )
            elif not line.strip():
                previous = None
            for match in _BRACED.finditer(line):
                written = [v for v in match.group("values").split(",") if v]
                # "{fp8,mxfp4,...}": an abridged list names some values, not all of them
                values = [v for v in written if v.strip(".…")]
                if len(values) < 2:
                    continue
                yield Found(
                    "cli_flag_choices",
                    f"{match.group('flag')}={'|'.join(values)}",
                    code.first_line + number,
                    {
                        "flag": match.group("flag"),
                        "choices": values,
                        "command": command,
                        "complete": len(values) == len(written),
                        "where": "code",
                        "section": heading_path(code.headings),
                        "text": " ".join(line.split())[:200],
                    },
                )


# "also accepts `pileval`", "one of `a`, `b`", or a cell opening with "also" / "or" right before a span
# ("| `mi355x` | also `mi300x`, `mi325x` or `mi350x` |": more values besides the default)
_ROW_MARKER = re.compile(
    r"\b(?:also\s+)?(?:accepts?|takes?|choices?:?|one of|allowed:?|valid:?)\s|^\s*(?:also|or)\s+(?=`)",
    re.IGNORECASE,
)
_CODE = re.compile(r"`([^`\n]+)`")
# a column whose header says its cells list the values the row's flag takes ("Allowed values", "Choices")
_CHOICES_HEADER = re.compile(
    r"(?:allowed|accepted|valid|possible|supported)?\s*(?:values|choices|options)(?:\s*\(.*\))?",
    re.IGNORECASE,
)


def _row(unit: Unit, cell: Text, commands: dict[str, str]) -> Iterator[Found]:
    """A table row whose first cell is one flag and whose cell says which values it accepts ("| `--dataset`
    | `wikitext` | also accepts `pileval` |") or stands in a column headed so (:data:`_CHOICES_HEADER`:
    "| Flag | Default | Allowed values |"): the code spans after the marker, or of the cell, are values the
    flag takes (one is enough: not a complete list). Read once per row, on its first cell."""
    if cell.cell is None or cell.cell.column != 0 or cell.cell.is_header:
        return
    flags = _FLAG.findall(cell.cell.row[0])
    if len(flags) != 1:
        return
    headers = cell.cell.headers
    for column, other in enumerate(cell.cell.row[1:], start=1):
        marker = _ROW_MARKER.search(other)
        headed = column < len(headers) and _CHOICES_HEADER.fullmatch(
            re.sub(r"[*`]", "", headers[column]).strip()
        )
        if (marker is None and not headed) or _FLAG.search(other):
            continue
        after = other[marker.end() :] if marker is not None else other
        values = [v.strip() for v in _CODE.findall(after) if re.fullmatch(r"[\w./-]+", v.strip())]
        if not values:
            continue
        yield Found(
            "cli_flag_choices",
            f"{flags[0]}={'|'.join(values)}",
            cell.line,
            {
                "flag": flags[0],
                "choices": values,
                "command": named_command(" ".join(cell.cell.row), commands)
                or unit.infer_command(cell.headings).command,
                "where": "table",
                "section": heading_path(cell.headings),
                "text": " | ".join(cell.cell.row)[:200],
            },
        )


# An option line of pasted --help output: "  --group_size GROUP_SIZE   (default: 128)".
_HELP_OPTION = re.compile(r"^\s+(?:-\w,\s+)?(?P<flag>--[A-Za-z][\w-]*)")
# "(default: 512)", "(default 512)", "[default: 512]", or a trailing "   default: 512" column of the help text
# a printed default that says there is none ("(default: None)", "(default: off)"): no value to compare
_NO_VALUE = frozenset({"none", "off", "disabled", "unset", "null", "n/a", "-"})
_HELP_DEFAULT = re.compile(
    r"[(\[]default:?\s*(?P<value>[^()\[\]\s]+)[)\]]|(?:\s{2,}|\t)default:?\s+(?P<column>[^\s()]+)\s*$",
    re.IGNORECASE,
)


def _help_option(line: str, at: int, command: str, section: str) -> Iterator[Found]:
    """The flag an option line of pasted help output names (a ``cli_flag`` of the usage line's command) and
    the default it prints, if any (``cli_flag_default``)."""
    option = _HELP_OPTION.match(line)
    if option is None or option.group("flag") == "--help":
        return
    flag = option.group("flag")
    context: dict[str, object] = {
        "command": command,
        "quark": True,
        "where": "code",
        "inferred": False,
        "inferred_from": None,
        "values": [],
        "candidates": [],
        "subcommand": None,
    }
    yield Found("cli_flag", flag, at, context)
    default = _HELP_DEFAULT.search(line)
    value = None if default is None else default.group("value") or default.group("column")
    if value is not None and value.lower() not in _NO_VALUE:
        yield Found(
            "cli_flag_default",
            f"{flag}={value}",
            at,
            {"flag": flag, "default": value, "command": command, "where": "code", "section": section},
        )
