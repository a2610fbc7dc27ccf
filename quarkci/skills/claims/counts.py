"""``command_count`` claims: how many ``quark-cli`` subcommands or console scripts a skill says Quark has.

A sentence (or list item) stating a number, in digits or words up to twenty, right before "subcommands" (or
"sub-commands", "commands" when the sentence names ``quark-cli``) or "console scripts"/"entry points"
("quark-cli offers nine subcommands", "the wheel installs 3 console scripts") is a claim; the value is the
number, ``context["of"]`` is ``quark-cli`` or ``console_scripts``; "`--kv_cache_dtype` offers 12
choices" in a sentence naming that one flag is ``of`` ``choices`` with ``context["flag"]`` and the section's
``command``. A count of "commands" in a sentence not
naming ``quark-cli`` says nothing checkable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
)
NUMBER_WORDS = {word: n for n, word in enumerate(_WORDS.split())}
_NUMBER = r"(?P<n>\d{1,3}|" + "|".join(NUMBER_WORDS) + r")"
# "two more console scripts", "3 new subcommands": a part of the whole (a difference), never a total
_PART = r"(?!(?:more|other|additional|further|extra|new|remaining|added|removed|dropped)\b)"
_SUBCOMMANDS = re.compile(
    rf"(?<![\w.]){_NUMBER}\s+(?:{_PART}\w+\s+)?{_PART}(?P<noun>sub-?commands|commands)\b", re.I
)
_SCRIPTS = re.compile(
    rf"(?<![\w.]){_NUMBER}\s+(?:{_PART}\w+\s+)?(?:console[ -]scripts|entry[ -]points)\b", re.I
)
_QUARK_CLI = re.compile(r"(?<![\w-])quark-cli(?![\w-])")
_CHOICES = re.compile(
    rf"(?<![\w.]){_NUMBER}\s+(?:{_PART}\w+\s+)?(?:choices|options|values|accepted values)\b", re.I
)
_ONE_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")


def number(text: str) -> int:
    """``"9"`` or ``"nine"`` -> 9 (see :data:`NUMBER_WORDS`); raises KeyError/ValueError otherwise."""
    return int(text) if text.isdigit() else NUMBER_WORDS[text.lower()]


def extract(unit: Unit) -> Iterator[Found]:
    """``command_count`` claims of ``unit``'s paragraphs, list items and headings (see the module doc)."""
    for text in unit.texts():
        if text.kind == "table":
            continue
        section = heading_path(text.headings)
        for match in _SUBCOMMANDS.finditer(text.text) if _QUARK_CLI.search(text.text) else ():
            yield Found(
                "command_count",
                str(number(match.group("n"))),
                text.line_at(match.start()),
                {"of": "quark-cli", "where": text.kind, "section": section},
            )
        for offset, sentence in sentences(text.text):
            flags = set(_ONE_FLAG.findall(sentence))
            for match in _CHOICES.finditer(sentence) if len(flags) == 1 else ():
                context = {"of": "choices", "flag": next(iter(flags)), "where": text.kind, "section": section}
                context["command"] = unit.infer_command(text.headings).command
                yield Found(
                    "command_count",
                    str(number(match.group("n"))),
                    text.line_at(offset + match.start()),
                    context,
                )
        for match in _SCRIPTS.finditer(text.text):
            yield Found(
                "command_count",
                str(number(match.group("n"))),
                text.line_at(match.start()),
                {"of": "console_scripts", "where": text.kind, "section": section},
            )
