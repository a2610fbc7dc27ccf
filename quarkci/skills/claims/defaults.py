"""``cli_flag_default`` claims: a skill stating the default value of a CLI flag.

Recognised: ```--num_calib_data` defaults to `128```, ```--seq_len` (default: 512)``, "the default
``--batch_size`` is 1", and a table row whose column headed ``Default`` holds the value of the flag
named in another cell. Advice without the word *default* ("use 128 samples") is not a claim about the
default. The value is ``"--flag=value"``; ``context`` carries ``flag``, ``default`` (as written) and
the ``command`` the flag belongs to (inferred like bare flags, see :meth:`Unit.infer_command`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Text, heading_path

_VALUE = r"`?(?P<value>[\w./:-]+)`?"
_PATTERNS = [
    re.compile(
        rf"`(?P<flag>--[\w-]+)`\s*(?:\([^)]*\)\s*)?defaults?\s+(?:is\s+|to\s+|value\s+is\s+)?{_VALUE}",
        re.IGNORECASE,
    ),
    re.compile(rf"`(?P<flag>--[\w-]+)`[^.;\n`]{{0,30}}\(default(?:s)?\s*[:=]?\s*{_VALUE}\)", re.IGNORECASE),
    re.compile(rf"\bdefault\s+(?:value\s+of\s+|for\s+)?`(?P<flag>--[\w-]+)`\s+is\s+{_VALUE}", re.IGNORECASE),
]


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
        for pattern in _PATTERNS:
            for match in pattern.finditer(text.text):
                flag, value = match.group("flag"), match.group("value").rstrip(".,")
                yield Found(
                    "cli_flag_default",
                    f"{flag}={value}",
                    text.line_at(match.start()),
                    {
                        "flag": flag,
                        "default": value,
                        "command": _command(unit, text),
                        "where": text.kind,
                        "section": section,
                        "text": match.group(0),
                    },
                )
