"""Counts stated next to a symbol kind: the one reader every count claim is built on.

A count is a number, in digits or words (:data:`CARDINAL`: "nine",
"twenty-six"), then at most ``between`` describing words or code spans, then the kind's noun: "the 18
schemes", "ships twenty-one schemes", "There are sixty-four preset names", "registers 29 model types".
It is a *total* of the kind, never a part:

* a describing word or the word before the number that makes it a part or a bound is no count ("2 of the
  schemes", "3 more schemes", "the first 4 schemes", "more than 20 schemes", "up to 8 choices");
* a number in words is common English ("combine two schemes"), so it counts only after a word that states
  a total: a verb of having or listing ("ships", "registers", "has", "lists", "There are") or "all".

Callers choose the noun (:data:`NOUNS`) and what the count is of; the checks are the count rules'.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
)
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
NUMBER_WORDS = {word: n for n, word in enumerate(_WORDS.split())} | {
    word: 20 + 10 * n for n, word in enumerate(_TENS.split())
}
# An English cardinal below a hundred, as counts are written: "nine", "twenty", "twenty-six", "sixty five".
# (word2number 1.1 was tried: it reads "a hundred and two" as 200.)
CARDINAL = (
    rf"(?:(?:{'|'.join(_TENS.split())})(?:[- ](?:{'|'.join(_WORDS.split()[1:10])}))?"
    rf"|{'|'.join(sorted(_WORDS.split(), key=len, reverse=True))})(?![\w-])"
)


def number(text: str) -> int:
    """``"9"``, ``"nine"`` -> 9, ``"twenty-six"``/``"Twenty six"`` -> 26 (a :data:`CARDINAL`); raises
    KeyError/ValueError on anything else."""
    if text.isdigit():
        return int(text)
    words = re.split(r"[- ]", text.lower())
    if len(words) == 2 and NUMBER_WORDS[words[0]] >= 20 and 0 < NUMBER_WORDS[words[1]] < 10:
        return NUMBER_WORDS[words[0]] + NUMBER_WORDS[words[1]]
    if len(words) != 1:
        raise ValueError(f"not a cardinal: {text!r}")
    return NUMBER_WORDS[words[0]]


# The noun of each countable kind (lower case; matched case-insensitively).
NOUNS: dict[str, str] = {
    "scheme": r"(?:quant(?:ization)?\s+)?scheme(?:s|\s+names)",
    "model_type": r"(?:model\s+)?(?:families|model\s+types|architectures|templates)",
    "subcommand": r"sub-?commands|commands",
    "console_script": r"console[ -]scripts|entry[ -]points",
    "choice": r"choices|options|values|accepted\s+values",
    "onnx_config": r"(?:preset|default|built-in|named)\s+(?:config(?:uration)?s?\s+)?names|presets|"
    r"(?:preset|default|named)\s+config(?:uration)?s|config(?:uration)?\s+names",
}
# Words that only qualify a total ("18 built-in schemes", "36 supported model families").
COMPLETE = frozenset(["built-in", "builtin", "built", "in", "supported", "registered", "available", "model"])
# Words that make the number a part, a difference or a bound: among the describing words ("2 of the
# schemes", "3 new subcommands") and right before the number ("the first 4", "more than 20", "up to 8";
# "the 18 schemes" and "one of 65 presets" are totals).
_PART = frozenset(
    [
        "of",
        "the",
        "these",
        "those",
        "other",
        "more",
        "new",
        "additional",
        "extra",
        "first",
        "last",
        "top",
        "than",
        "or",
        "and",
        "few",
        "fewer",
        "less",
        "remaining",
        "further",
        "added",
        "removed",
        "dropped",
    ]
)
_PART_BEFORE = (_PART - {"the", "of", "or", "and", "added", "removed", "dropped"}) | {
    "over",
    "under",
    "least",
    "most",
    "about",
    "around",
    "nearly",
    "almost",
    "roughly",
    "approximately",
    "some",
    "to",
}
# Words after which a number written in words is a total ("ships twenty-one schemes", "all four").
_TOTAL_CUE = frozenset(
    [
        "all",
        "ships",
        "installs",
        "installed",
        "creates",
        "gives",
        "ship",
        "shipped",
        "has",
        "have",
        "had",
        "registers",
        "registered",
        "lists",
        "listed",
        "offers",
        "offered",
        "defines",
        "defined",
        "provides",
        "provided",
        "supports",
        "supported",
        "exposes",
        "exposed",
        "contains",
        "contained",
        "includes",
        "included",
        "are",
        "were",
        "holds",
        "held",
        "knows",
        "returns",
        "totals",
        "accepts",
        "takes",
        "carries",
        "bundles",
        "its",
    ]
)
_BEFORE = re.compile(r"([A-Za-z]+)[^\w`]*$")


@dataclass(frozen=True)
class Count:
    """A stated total: ``n`` of the noun, the number's ``offset`` in the text and how it was ``written``."""

    n: int
    offset: int
    written: str


def stated(
    text: str, noun: str, between: int = 3, describing: frozenset[str] | None = None
) -> Iterator[Count]:
    """Every total of ``noun`` (a regex, one of :data:`NOUNS`) that ``text`` states; offsets into ``text``.
    ``describing``: when given, the only words allowed between the number and the noun (code spans aside).

    Linear in ``len(text)``: each search starts after the previous number and its repetition is bounded
    (``between`` words, spans of at most 80 characters); the word before a match is looked up in the 40
    characters before it."""
    pattern = re.compile(
        rf"(?<![\w.`\-–—/])(?P<n>\d{{1,3}}|{CARDINAL})\s+(?P<words>(?:(?:`[^`\n]{{1,80}}`|[\w-]+)\s+){{0,{between}}}?)"
        rf"(?:{noun})\b",
        re.IGNORECASE,
    )
    position = 0
    while (match := pattern.search(text, position)) is not None:
        # the next search starts after this number, not after the noun: in "one of 65 presets" the first
        # candidate ("one ... presets") is a part and the second ("65 presets") the total
        position = match.end("n")
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", re.sub(r"`[^`]*`", " ", match.group("words")))}
        before = _BEFORE.search(text[max(0, match.start() - 40) : match.start()])
        previous = before.group(1).lower() if before else ""
        if words & _PART or previous in _PART_BEFORE or (describing is not None and words - describing):
            continue
        written = match.group("n")
        if (
            not written.isdigit()
            and previous not in _TOTAL_CUE
            and not (previous == "the" and words & COMPLETE)
        ):
            continue  # ("the twenty built-in schemes": the determiner and a word of completeness)
        yield Count(number(written), match.start(), written)
