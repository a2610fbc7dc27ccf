"""``onnx_config`` claims: the ONNX configuration names a skill uses (``XINT8``, ``A8W8_ADAROUND``).

``quark.onnx`` accepts a configuration by name (``get_default_config("XINT8")``, ``quark-cli onnx-ptq
--config XINT8``): the keys of its ``DefaultConfigMapping`` (the vocabulary's ``onnx_config`` kind). In a file
that speaks of ONNX, an upper-case code span (or a string passed to ``get_default_config`` in code) is a
claim when some release has that name, or, in a sentence about configurations (or a name with an
underscore), when it is one or two edits from such a name or extends one with another part
(``S8S8_AAWS_GPTQ``: ``context["misspelt_of"]``). A bare data type (``BF16``, ``MX6``, ``INT8``) counts
only in a sentence about configurations (or a list item whose lead is). Context: ``where`` (``span`` or
``code``), ``misspelt_of``.

A total of the names in a sentence about ONNX (its heading path or the sentence names ONNX,
``DefaultConfigMapping`` or ``get_default_config``) is an ``onnx_config_count`` claim: "There are sixty-four
preset names in 0.8.2", "`DefaultConfigMapping` holds 57 entries" (:mod:`~quarkci.skills.claims.quantities`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from quarkci.skills.claims.defaults import sentences
from quarkci.skills.claims.quantities import NOUNS, stated
from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import heading_path

_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_SPAN = re.compile(r"`([^`\n]{1,80})`")
_DTYPE_WORD = re.compile(r"^(?:U?INT|FP|BF|BFP|MX|MXFP|MXINT)\d+(?:E\dM\d)?$")
_ABOUT_CONFIGS = re.compile(
    r"\bconfig(?:uration)?s?\b|\bpresets?\b|\bmapping\b|get_default_config|--config\b", re.IGNORECASE
)
_CALLED = re.compile(r"""get_default_config\(\s*["']([A-Za-z][A-Za-z0-9_]*)["']""")
_ABOUT_ONNX = re.compile(r"\bonnx\b|DefaultConfigMapping|get_default_config", re.IGNORECASE)
# "`DefaultConfigMapping` holds 57 entries": the table as the subject of the count
_MAPPING_NOUN = r"(?:entries|keys|names|items)"


def extract(unit: Unit) -> Iterator[Found]:
    """``onnx_config`` claims of ``unit`` (see the module docstring); nothing without a vocabulary."""
    known = unit.lexicon.names("onnx_config") if unit.lexicon is not None else frozenset()
    if not known or "onnx" not in unit.text.lower():
        return
    for block in unit.texts():
        if block.kind == "heading":
            continue
        header = block.cell.header if block.cell is not None else ""
        onnx_section = bool(_ABOUT_ONNX.search(heading_path(block.headings)))
        for offset, sentence in sentences(block.text):
            if onnx_section or _ABOUT_ONNX.search(sentence):
                noun = NOUNS["onnx_config"] + (
                    "|" + _MAPPING_NOUN if "DefaultConfigMapping" in sentence else ""
                )
                for count in stated(sentence, noun):
                    yield Found(
                        "onnx_config_count",
                        str(count.n),
                        block.line_at(offset + count.offset),
                        {"where": block.kind, "section": heading_path(block.headings)},
                    )
            # a list item under "Preset families available here:" is about configurations too
            lead = block.lead if block.in_list else ""
            about = bool(
                _ABOUT_CONFIGS.search(sentence)
                or _ABOUT_CONFIGS.search(header)
                or _ABOUT_CONFIGS.search(lead)
            )
            for span in _SPAN.finditer(sentence):
                token = span.group(1).strip()
                at = block.line_at(offset + span.start())
                # "`get_default_config("VINT8")`" written in a sentence: the name it passes
                called = _CALLED.search(token)
                if called is not None:
                    token, about_it = called.group(1), True
                else:
                    about_it = about
                found = _claim(token, about_it, known, unit, passed=called is not None)
                if found is not None:
                    yield Found("onnx_config", token, at, found)
    for code in unit.codes():
        for number, line in enumerate(code.text.split("\n")):
            for match in _CALLED.finditer(line):
                found = _claim(match.group(1), True, known, unit, passed=True)
                if found is not None:
                    yield Found(
                        "onnx_config", match.group(1), code.first_line + number, {**found, "where": "code"}
                    )


def _claim(
    token: str, about: bool, known: frozenset[str], unit: Unit, passed: bool = False
) -> dict[str, object] | None:
    """The context of an ``onnx_config`` claim for ``token``, else None; ``passed``: the name is given to
    ``get_default_config``, whose names are a closed set (an unknown one is wrong even when it is short:
    ``XINT4``, the nearest being ``XINT8``)."""
    if passed and not _NAME.fullmatch(token) and token.upper() in known:
        return {
            "where": "span",
            "misspelt_of": token.upper(),
        }  # `get_default_config("XInt8")`: names are exact
    if not _NAME.fullmatch(token) or not any(ch.isdigit() for ch in token) or len(token) < 3:
        return None
    if _DTYPE_WORD.match(token) and not about:
        return None  # `BF16` in prose is a data type
    if token in known or token.removesuffix("_CONFIG") in known:
        return {"where": "span"}  # `XINT8_CONFIG`: the constant behind the name
    if not (about or "_" in token):
        return None
    if unit.lexicon is not None and (
        token in unit.lexicon.names("export") or token in unit.lexicon.names("name")
    ):
        return None  # `XINT8_QCONFIG`: a Python name a package exports, not a configuration name
    nearest = unit.lexicon.nearest("onnx_config", token) if unit.lexicon is not None else None
    nearest = nearest or extended(token, known)
    if nearest is None and passed:
        close = difflib.get_close_matches(token, sorted(known), n=1, cutoff=0.6)
        nearest = close[0] if close else None
    return {"where": "span", "misspelt_of": nearest} if nearest is not None else None


def extended(token: str, known: frozenset[str]) -> str | None:
    """The known name ``token`` extends by more parts (``S8S8_AAWS_GPTQ`` -> ``S8S8_AAWS``), else None."""
    parts = token.split("_")
    for cut in range(len(parts) - 1, 0, -1):
        head = "_".join(parts[:cut])
        if head in known:
            return head
    return None
