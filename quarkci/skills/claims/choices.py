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
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.defaults import named_command, sentences, subcommands
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
_MARKER = re.compile(
    r"\b(?:takes?|accepts?|one of|either|supports?|knows?|choices?|options?|values?|can be|allowed|valid"
    r"|possible)\b",
    re.IGNORECASE,
)
_ITEM = r"`?[A-Za-z0-9](?:[\w./-]*[\w/])?`?"
_SEP = r"\s*(?:,\s*(?:or\s+|and\s+)?|/|\s+or\s+|\s+and\s+)\s*"
_ENUMERATION = re.compile(rf"(?P<items>{_ITEM}(?:{_SEP}{_ITEM})+)\s*(?:[.;:)!?]|$)")
_MAX_AFTER = 120  # how far after the flag the enumeration may start (characters)


def stated_choices(sentence: str) -> tuple[str, list[str], int] | None:
    """``(flag, values, offset of the flag)`` when ``sentence`` states the values one flag accepts (see the
    module docstring), else None."""
    flags = {m.group(0) for m in _FLAG.finditer(sentence)}
    if len(flags) != 1:
        return None
    flag = next(iter(flags))
    at = sentence.find(flag)
    after = sentence[at + len(flag) :].lstrip("`")
    parenthesised = after.lstrip().startswith("(")
    for match in _ENUMERATION.finditer(after[:_MAX_AFTER] + after[_MAX_AFTER:].split("\n", 1)[0]):
        if match.start() > _MAX_AFTER:
            break
        if not (parenthesised or _MARKER.search(after[: match.start()])):
            continue
        if match.start() and after[match.start() - 1] not in " (`":
            continue
        items = [i.strip("`") for i in re.split(_SEP, match.group("items")) if i.strip("`")]
        if len(items) >= 2 and not any(i.startswith("-") for i in items):
            return flag, items, at
    return None


def extract(unit: Unit) -> Iterator[Found]:
    """``cli_flag_choices`` claims of ``unit`` (see the module docstring)."""
    commands = subcommands(unit)
    for text in unit.texts():
        if text.kind == "table":
            continue
        section = heading_path(text.headings)
        for offset, sentence in sentences(text.text):
            stated = stated_choices(sentence)
            if stated is None:
                continue
            flag, values, at = stated
            command = named_command(sentence, commands) or unit.infer_command(text.headings).command
            yield Found(
                "cli_flag_choices",
                f"{flag}={'|'.join(values)}",
                text.line_at(offset + at),
                {
                    "flag": flag,
                    "choices": values,
                    "command": command,
                    "where": text.kind,
                    "section": section,
                    "text": " ".join(sentence.split())[:200],
                },
            )
