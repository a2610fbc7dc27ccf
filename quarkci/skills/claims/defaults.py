"""``cli_flag_default`` claims: a skill stating the default value of a CLI flag.

A sentence (of a paragraph, list item or heading) states a default in any phrasing when it says
*default* and names exactly one flag and one value (:func:`stated_default`): ```--num_calib_data` defaults
to `128```, "by default the command calibrates on 512 samples (`--num_calib_data`)", "the default sequence
length (`--seq_len`) is 2048"; so does a table row whose column headed ``Default`` holds the value of the
flag named in another cell. Advice without the word *default* ("use 128 samples") is not a claim about the
default, nor is a sentence naming two flags or two values (which value belongs to which is not known). The value is ``"--flag=value"``; ``context`` carries ``flag``, ``default`` (as written) and
the ``command`` the flag belongs to (inferred like bare flags, see :meth:`Unit.infer_command`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

# A sentence states a default when it says "default" (default, defaults, by default, defaulting) ...
_DEFAULT_WORD = re.compile(r"\bdefault(?:s|ing|ed)?\b", re.IGNORECASE)
# ... and names exactly one flag and exactly one value. A flag is a code span or a bare word `--name`;
# a value is a code span that is no flag, or a bare number outside code spans.
_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
_SPAN = re.compile(r"`([^`\n]+)`")
_NUMBER = re.compile(r"(?<![\w.`-])\d+(?:\.\d+)?(?![\w`%-]|\.\w)")
_VALUE_TEXT = re.compile(r"[\w./:-]+")
# Sentence ends: '.', ';', '!' or '?' followed by a space or the end (not "0.13" or "e.g.").
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.;!?](?=\s|$)|\n\s*\n")


def sentences(text: str) -> list[tuple[int, str]]:
    """``text`` split into (offset, sentence) pairs at sentence ends outside code spans."""
    spans = [(m.start(), m.end()) for m in _SPAN.finditer(text)]  # sorted, disjoint
    out: list[tuple[int, str]] = []
    start = 0
    cursor = 0  # the first span not ending before the current sentence end (they come in order)
    for match in _SENTENCE_END.finditer(text):
        while cursor < len(spans) and spans[cursor][1] <= match.start():
            cursor += 1
        if cursor < len(spans) and spans[cursor][0] <= match.start():
            continue
        out.append((start, text[start : match.end()]))
        start = match.end()
    if start < len(text):
        out.append((start, text[start:]))
    return out


def stated_default(sentence: str) -> tuple[str, str] | None:
    """``(flag, value)`` when ``sentence`` states one flag's default, in any phrasing: it says "default"
    and names exactly one flag and exactly one value ("By default the command calibrates on 512 samples
    (`--num_calib_data`)", "the default sequence length (`--seq_len`) is 2048", "`--seq_len=2048` by
    default"); else None. Advice without the word ("use 128 samples") states no default."""
    if not _DEFAULT_WORD.search(sentence):
        return None
    flags: set[str] = set()
    values: list[str] = []
    outside = _SPAN.sub(" ", sentence)
    for span in _SPAN.findall(sentence):
        span = span.strip()
        flag, eq, value = span.partition("=")
        if _FLAG.fullmatch(flag):
            flags.add(flag)
            if eq and _VALUE_TEXT.fullmatch(value):
                values.append(value)
        elif _VALUE_TEXT.fullmatch(span) and not _FLAG.search(span):
            values.append(span)
    flags.update(_FLAG.findall(outside))
    values.extend(_NUMBER.findall(outside))
    if len(flags) != 1 or len(set(values)) != 1:
        return None
    return next(iter(flags)), values[0].rstrip(".,")


def _command(unit: Unit, text: Text) -> str | None:
    return unit.infer_command(text.headings).command


def extract(unit: Unit) -> Iterator[Found]:
    """``cli_flag_default`` claims of ``unit`` (see the module docstring)."""
    for text in unit.texts():
        section = heading_path(text.headings)
        if text.kind == "table" and text.cell is not None and not text.cell.is_header:
            header = re.sub(r"[*`]", "", text.cell.header).strip().lower()
            if header.startswith("default"):
                flags = [c for c in text.cell.row if re.fullmatch(r"`?--[\w-]+`?", c.strip())]
                value = re.sub(r"[*`]", "", text.text).strip()
                if len(flags) == 1 and value and re.fullmatch(r"[\w./:-]+", value):
                    flag = flags[0].strip().strip("`")
                    yield Found(
                        "cli_flag_default",
                        f"{flag}={value}",
                        text.line,
                        {
                            "flag": flag,
                            "default": value,
                            "command": _command(unit, text),
                            "where": "table",
                            "section": section,
                        },
                    )
            continue
        for offset, sentence in sentences(text.text):
            stated = stated_default(sentence)
            if stated is None:
                continue
            flag, value = stated
            yield Found(
                "cli_flag_default",
                f"{flag}={value}",
                text.line_at(offset + max(sentence.find(flag), 0)),
                {
                    "flag": flag,
                    "default": value,
                    "command": _command(unit, text),
                    "where": text.kind,
                    "section": section,
                    "text": " ".join(sentence.split())[:200],
                },
            )
