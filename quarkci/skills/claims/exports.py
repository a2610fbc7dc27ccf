"""``export_format`` claims: the export formats a skill says Quark produces.

Recognised (precision over recall): the value of ``--model_export`` (comma-separated allowed) in a
command; a code span or table cell equal to a known format in a row/sentence that speaks of export;
and prose ``export as/to/in GGUF``, ``exported as GGUF`` or ``GGUF export`` (not ``exported to ONNX``,
which in the ONNX skills describes where an input model came from). The vocabulary is the set of Quark export
formats (``quark/torch/export``: ``hf_format``, ``quark_format``, ``onnx``, ``gguf``, ``safetensors``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import quarkci.skills.claims.commands as sh
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

FORMATS = ("hf_format", "quark_format", "onnx", "gguf", "safetensors")
_FORMAT = "|".join(FORMATS)
_EXPORT_WORD = re.compile(r"\bexport(?:s|ed|ing)?\b", re.IGNORECASE)
_PROSE = [
    re.compile(
        rf"\b(?:exports?|exported(?=\s+as\b))\s+(?:it\s+|the\s+model\s+)?(?:as|to|in|into)\s+(?:the\s+)?`?(?P<fmt>{_FORMAT})`?\b",
        re.IGNORECASE,
    ),
    re.compile(rf"(?<![\w/.-])`?(?P<fmt>{_FORMAT})`?\s+exports?\b", re.IGNORECASE),
]


def extract(unit: Unit) -> Iterator[Found]:
    """``export_format`` claims of ``unit`` (see the module docstring)."""
    for text in unit.texts():
        yield from _text(text)
    for located in unit.commands:
        command = located.command.name or unit.infer_command(located.headings).command
        for flag in sh.flags(located.command):
            if flag.name != "--model_export":
                continue
            for value in ",".join(flag.values).split(","):
                if value.strip().lower() in FORMATS:
                    yield Found(
                        "export_format",
                        value.strip().lower(),
                        flag.line,
                        {
                            "where": "flag",
                            "flag": flag.name,
                            "command": command,
                            "section": heading_path(located.headings),
                        },
                    )


def _text(text: Text) -> Iterator[Found]:
    section = heading_path(text.headings)
    seen: set[tuple[str, int]] = set()
    for pattern in _PROSE:
        for match in pattern.finditer(text.text):
            key = (match.group("fmt").lower(), text.line_at(match.start()))
            if key not in seen:
                seen.add(key)
                yield Found(
                    "export_format",
                    key[0],
                    key[1],
                    {"where": text.kind, "text": match.group(0), "section": section},
                )
    if text.kind == "table" and text.cell is not None and not text.cell.is_header:
        value = re.sub(r"[*`]", "", text.text).strip().lower()
        # the row is read only for a cell naming a format (reading every row once per cell is quadratic)
        if value not in FORMATS or (value, text.line) in seen:
            return
        row_mentions_export = any(_EXPORT_WORD.search(c) for c in text.cell.row) or _EXPORT_WORD.search(
            text.cell.header
        )
        if row_mentions_export:
            yield Found(
                "export_format", value, text.line, {"where": "table", "text": text.text, "section": section}
            )
