"""``command_count`` claims: how many ``quark-cli`` subcommands or console scripts a skill says Quark has.

A sentence (or list item) stating a number, in digits or words below a hundred (read by
:func:`quarkci.skills.claims.quantities.stated`), right before "subcommands" (or
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

from quarkci.skills.claims.choices import positionals
from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.quantities import NOUNS, stated
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_QUARK_CLI = re.compile(r"(?<![\w-])quark-cli(?![\w-])")
_ONE_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
# "entry points" are console scripts only where the text speaks of the command line ("All four entry points
# are plain functions re-exported by quark.torch" counts functions)
_COMMAND_LINE = re.compile(r"console|scripts?\b|commands?\b|\bCLI\b|quark-|executables?\b|\bPATH\b", re.I)


def extract(unit: Unit) -> Iterator[Found]:
    """``command_count`` claims of ``unit``'s paragraphs, list items and headings (see the module doc)."""
    for text in unit.texts():
        if text.kind == "table":
            continue
        section = heading_path(text.headings)
        for count in (
            stated(text.text, NOUNS["subcommand"], between=1) if _QUARK_CLI.search(text.text) else ()
        ):
            yield Found(
                "command_count",
                str(count.n),
                text.line_at(count.offset),
                {"of": "quark-cli", "where": text.kind, "section": section},
            )
        arguments = positionals(unit, text)
        for offset, sentence in sentences(text.text):
            flags = set(_ONE_FLAG.findall(sentence))
            for name in sorted(arguments) if not flags else ():
                # "Six stages exist: ...": the values of the section's command's positional `stage`
                for count in stated(sentence, rf"{re.escape(name)}s\b|values\s+of\s+{re.escape(name)}"):
                    argument: dict[str, object] = {"of": "choices", "flag": name, "where": text.kind}
                    argument |= {"section": section, "command": unit.infer_command(text.headings).command}
                    yield Found("command_count", str(count.n), text.line_at(offset + count.offset), argument)
            for count in stated(sentence, NOUNS["choice"], between=1) if len(flags) == 1 else ():
                context: dict[str, object] = {"of": "choices", "flag": next(iter(flags)), "where": text.kind}
                context |= {"section": section, "command": unit.infer_command(text.headings).command}
                yield Found("command_count", str(count.n), text.line_at(offset + count.offset), context)
            if not _COMMAND_LINE.search(sentence):
                continue
            for count in stated(sentence, NOUNS["console_script"], between=1):
                yield Found(
                    "command_count",
                    str(count.n),
                    text.line_at(offset + count.offset),
                    {"of": "console_scripts", "where": text.kind, "section": section},
                )
