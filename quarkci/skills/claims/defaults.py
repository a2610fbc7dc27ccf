"""``cli_flag_default`` claims: a skill stating the default value of a CLI flag.

A sentence (of a paragraph, list item or heading) states a default in any phrasing when it says
*default* (or what happens when the flag is not passed: "unless you pass", "when ... is not given", "if
omitted", "falls back to") and names exactly one flag and one value (:func:`stated_default`): ```--num_calib_data` defaults
to `128```, "by default the command calibrates on 512 samples (`--num_calib_data`)", "the default sequence
length (`--seq_len`) is 2048"; so does a table row whose column headed ``Default`` holds the value of the
flag named in another cell. Advice without the word *default* ("use 128 samples") is not a claim about the
default, nor is a sentence naming two flags or two values (which value belongs to which is not known). The value is ``"--flag=value"``; ``context`` carries ``flag``, ``default`` (as written) and
the ``command`` the flag belongs to (inferred like bare flags, see :meth:`Unit.infer_command`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import quarkci.skills.claims.commands as sh
from quarkci.skills.claims.commands import SHELL_LANGUAGES
from quarkci.skills.claims.unit import Found, Unit, contrasted
from quarkci.skills.claims.walk import Text, heading_path

# A sentence states a default when it says "default" (default, defaults, by default, defaulting), or says
# what happens when the flag is not passed ("unless you pass", "when ... is not given", "if omitted",
# "falls back to", "out of the box") ...
_PASS = r"(?:pass(?:ed)?|set|give[ns]?|specif(?:y|ied)|suppl(?:y|ied)|provide[sd]?|override)"
_DEFAULT_WORD = re.compile(
    rf"\bdefault(?:s|ing|ed)?\b|\bunless\b|\botherwise\b"
    rf"|\b(?:is|are|was|were) (?:not|never) {_PASS}\b|\b(?:isn't|aren't|wasn't) {_PASS}\b"
    rf"|\b(?:do|does|did) not {_PASS}\b|\b(?:don't|doesn't|didn't) {_PASS}\b"
    r"|\b(?:if|when) (?:it is |left )?(?:omitted|unset|absent|left out)\b|\bfalls? back to\b"
    r"|\b(?:is|are) (?:left out|omitted|not given|absent)\b"
    r"|\b(?:if|when|unless) you (?:omit|leave out|leave off|skip|drop)\b"
    r"|\bleave (?:it|them|the flag) (?:out|off)\b|\bomit (?:it|them|the flag)\b"
    r"|\bout of the box\b|\bleft unset\b|\bwithout (?:passing|setting|giving|specifying)\b"
    r"|\bwithout an? (?:explicit|custom|own)\b",
    re.IGNORECASE,
)
# ... and names exactly one flag and exactly one value. A flag is a code span or a bare word `--name`;
# a value is a code span that is no flag, or a bare number outside code spans.
_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
_SPAN = re.compile(r"`([^`\n]+)`")
_NUMBER = re.compile(r"(?<![\w.`-])\d+(?:\.\d+)?(?![\w`%-]|\.\w)")
_VALUE_TEXT = re.compile(r"[\w./:-]+")
_ENV_VAR = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}")
_ENV_READ = re.compile(r"\breads?\b|\benvironment\b|\benv(?:ironment)? var|\bvariable\b", re.IGNORECASE)
_PERCENT = re.compile(r"(?<![\w.`-])\d+(?:\.\d+)?%")
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


_QUOTED_DEFAULT = re.compile(
    r"\"[^\"\n]{0,80}\bdefault\b[^\"\n]{0,80}\"|“[^”\n]{0,80}\bdefault\b[^”\n]{0,80}”", re.I
)


def stated_default(sentence: str, commands: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """``(flag, value)`` when ``sentence`` states one flag's default, in any phrasing: it says "default"
    (or what happens when the flag is not passed) and names exactly one flag and exactly one value ("By
    default the command calibrates on 512 samples (`--num_calib_data`)", "the default sequence length
    (`--seq_len`) is 2048", "`--seq_len=2048` by default", "uses 256 samples unless you pass
    `--num_calib_data`"); else None. A code span naming one of ``commands`` (``torch-llm-ptq``) is the
    command, not a value. Advice without such words ("use 128 samples") states no default."""
    if not _DEFAULT_WORD.search(sentence):
        return None
    # a quoted text that says "default" is a quotation (a help string: 'says "Default 1", but the parser
    # default is "8"'), not the sentence's own statement
    sentence = _QUOTED_DEFAULT.sub(" ", sentence)
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
        elif (
            " " in span
            and _FLAG.fullmatch(span.split(" ", 1)[0])
            and _VALUE_TEXT.fullmatch(span.split(" ", 1)[1])
        ):
            flags.add(span.split(" ", 1)[0])  # `--max-model-len 8192`: the flag and its value in one span
            values.append(span.split(" ", 1)[1])
        elif span in commands or span.removeprefix("quark-cli ") in commands:
            continue
        elif _VALUE_TEXT.fullmatch(span) and not _FLAG.search(span):
            if _ENV_VAR.fullmatch(span) and _ENV_READ.search(sentence):
                continue  # "reads `QUARK_..._BACKEND` and falls back to `aiter`": the variable is no value
            values.append(span)
    flags.update(_FLAG.findall(outside))
    values.extend(_NUMBER.findall(outside))
    values.extend(_PERCENT.findall(outside))  # "uses 90% of GPU memory": a fraction said as a percentage
    if len(flags) != 1 or len(set(values)) != 1:
        return None
    return next(iter(flags)), values[0].rstrip(".,")


# Where a sentence listing several defaults splits into its pairs ("`--num_iters` 1000, `--learning_rate`
# 0.1, and ... 512 samples when `--num_calib_data` is not given"): commas, semicolons and "and" outside code
# spans (not a digit group's comma: "1,000").
# A table column holding the release's own value of each flag ("value on 0.10", "0.13 value"): its defaults.
_RELEASE_VALUE = re.compile(r"\bvalue\b.*\b0\.\d+|\b0\.\d+\b.*\bvalue\b")
# a Default cell saying there is none: the flag must be given, or the value is not a constant
_NO_DEFAULT = re.compile(r"(?:required|mandatory|none given|n/?a|-+|—|–)$", re.IGNORECASE)
# a sentence whose subject is the flag just named: "it defaults to ...", "leave it out and ...", "its default"
_PRONOUN = re.compile(
    r"^\W*(?:(?:out of the box|by default|if omitted|when omitted|otherwise|unset),?\s+)?"
    r"(?:it\s+(?:defaults|is|falls|uses|takes)|its default\b|leave it|leaving it|if you leave it|omit it"
    r"|without it)\b",
    re.IGNORECASE,
)
_CHOICES_WORD = re.compile(r"\b(?:one of|either|any of|choices?|accepts?|takes?|allowed)\b", re.IGNORECASE)
_PAIR_END = re.compile(r"(?<!\d),|,(?!\d)|;|\band\b")


def parts(sentence: str) -> list[tuple[int, str]]:
    """``(offset, part)`` pairs of ``sentence`` split at :data:`_PAIR_END` outside code spans: the items of
    a sentence listing several defaults."""
    spans = [(m.start(), m.end()) for m in _SPAN.finditer(sentence)]
    cuts = [m.start() for m in _PAIR_END.finditer(sentence) if not any(a < m.start() < b for a, b in spans)]
    return [(a, sentence[a:b]) for a, b in zip([0, *cuts], [*cuts, len(sentence)], strict=True)]


def stated_defaults(sentence: str, commands: frozenset[str] = frozenset()) -> list[tuple[int, str, str, str]]:
    """``[(offset, flag, value, part)]``: the one default :func:`stated_default` reads in ``sentence``, else, in
    a sentence that says "default" (or "unless you pass", ...) but names several flags, each of its parts
    (split at commas, semicolons and "and") that names exactly one flag and one value; ``part`` is the text
    the pair was read from (where a command it names is looked for)."""
    whole = stated_default(sentence, commands)
    if whole is not None:
        return [(max(sentence.find(whole[0]), 0), *whole, sentence)]
    if not _DEFAULT_WORD.search(sentence):
        return []
    out = []
    listed: str | None = None  # the flag whose list of choices the parts are going through
    for start, part in parts(sentence):
        # each part inherits the sentence's default marker: it is one item of the sentence's list
        pair = stated_default(part + " (default)", commands)
        if pair is None and listed is not None and (marker := _DEFAULT_WORD.search(part)):
            # "`--gpu-type` is one of `mi300x`, ..., `mi355x` (default `mi355x`)": the list's own default
            pair = stated_default(f"`{listed}` {part[marker.start() :]}", commands)
            if pair is not None:
                out.append((start, *pair, part))
            listed = None
            continue
        if pair is None:
            continue
        at = part.find(pair[0])
        after = re.search(rf"(?<![\w.-]){re.escape(pair[1])}(?![\w-])", part[at + len(pair[0]) :])
        own_marker = bool(_DEFAULT_WORD.search(part))
        tail = part[at + len(pair[0]) :]
        if not own_marker and (
            len(re.findall(r"`[^`]+`", tail)) > 1
            or tail.count("(") > tail.count(")")
            or _CHOICES_WORD.search(tail)
        ):
            # "`--model_export` (`onnx`, `hf_format`, ...)", "`--gpu-type` is one of `mi300x`, ... (default
            # `mi355x`)": a list of choices, not one default
            listed = pair[0] if _CHOICES_WORD.search(tail) else None
            continue
        named_after = re.search(rf"{re.escape(pair[1])}\s+[a-z]+\s*\(\s*`{re.escape(pair[0])}`\s*\)", part)
        if not after and not own_marker and not named_after:
            # a part that only inherits the sentence's marker states a value after its flag ("in 0.13 has
            # `--template_file` (new)" says no default; "512 samples unless `--num_calib_data`" does, and so
            # does "256 samples (`--num_calib_data`)": the flag named in parentheses after its value)
            continue
        out.append((start + max(at, 0), *pair, part))
    return out


# A default stated without its flag ("by default the CLI calibrates on 256 samples", "learning rate 0.01 by
# default"): one number and the words that name the setting; which flag they name is
# decided against the release's parsers (flag names and help texts), see cli-flag-default-changed.
_CONTENT_WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,}")
# ... said with the word "default" itself, and a value that is a number, or a word in a code span ("the
# default output directory is `exported_model`": a word names a setting only when the sentence's words
# cover the flag's whole name, decided by the rule)
_DEFAULT_ONLY = re.compile(r"\bdefault(?:s|ing|ed)?\b", re.IGNORECASE)
_SETTING_VALUE = re.compile(r"\d+(?:\.\d+)?|[A-Za-z_][\w.-]*")
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "when",
        "you",
        "not",
        "are",
        "was",
        "were",
        "has",
        "have",
        "its",
        "this",
        "that",
        "from",
        "into",
        "than",
        "then",
        "also",
        "only",
        "default",
        "defaults",
        "defaulting",
        "defaulted",
        "unless",
        "otherwise",
        "pass",
        "passed",
        "set",
        "give",
        "given",
        "uses",
        "use",
        "used",
        "value",
        "values",
        "cli",
        "command",
        "flag",
        "option",
        "quark",
        "torch",
        "onnx",
        "here",
        "there",
        "which",
        "what",
        "will",
        "would",
    ]
)


def flagless_default(sentence: str, commands: frozenset[str] = frozenset()) -> tuple[str, list[str]] | None:
    """``(value, words)`` when ``sentence`` says "default" and names no flag but exactly one value, a
    number or a word in a code span: the value and the content words that may name its setting; else
    None."""
    if not _DEFAULT_ONLY.search(sentence) or _FLAG.search(sentence):
        return None
    pair = stated_default(sentence + " `--stand-in`", commands)  # the same value rules, a stand-in flag
    if pair is None or not _SETTING_VALUE.fullmatch(pair[1]):
        return None
    outside = _SPAN.sub(" ", sentence)
    words = sorted({w.lower() for w in _CONTENT_WORD.findall(outside)} - _STOP)
    return (pair[1], words) if words else None


def subcommands(unit: Unit) -> dict[str, str]:
    """``{word: command}`` for every command of the release vocabulary: ``torch-llm-ptq`` and
    ``quark-cli torch-llm-ptq`` -> ``quark-cli torch-llm-ptq``; a console script names itself."""
    if unit.lexicon is None:
        return {}
    out: dict[str, str] = {}
    for command in unit.lexicon.names("command"):
        out[command] = command
        out.setdefault(command.rsplit(" ", 1)[-1], command)
    return out


_COMMAND_WORD = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")


def named_command(sentence: str, subcommands: dict[str, str]) -> str | None:
    """The one command ``sentence`` names (``quark-cli onnx-ptq``, `onnx-ptq`), not counting one it
    contrasts with ("unlike `torch-llm-ptq`", :func:`~quarkci.skills.claims.unit.contrasted`), else None."""
    named = {
        subcommands[m.group(0)]
        for m in _COMMAND_WORD.finditer(sentence)
        if m.group(0) in subcommands and not contrasted(sentence, m.start())
    }
    return next(iter(named)) if len(named) == 1 else None


def _command(unit: Unit, text: Text) -> str | None:
    return unit.infer_command(text.headings).command


def extract(unit: Unit) -> Iterator[Found]:
    """``cli_flag_default`` claims of ``unit`` (see the module docstring). A sentence naming one command
    (``onnx-ptq calibrates on ...``) states that command's default; else the section's command counts."""
    commands = subcommands(unit)
    words = frozenset(commands)
    for text in unit.texts():
        section = heading_path(text.headings)
        if text.kind == "table" and text.cell is not None and not text.cell.is_header:
            header = re.sub(r"[*`]", "", text.cell.header).strip().lower()
            if re.search(r"\bdefaults?\b", header) and (pairs := _FLAG_VALUE_SPAN.findall(text.text)):
                # "| `onnx-validate` | ... | `--block_size 1024`, `--per_gpu_eval_batch_size 4` |" under a
                # "Selected defaults" column: each span states its flag's default, of the row's command
                row_command = named_command(text.cell.row[0], commands) or _command(unit, text)
                for flag, value in pairs:
                    yield _table_claim(text, section, flag, value, row_command)
                continue
            if header.startswith("default") or _RELEASE_VALUE.search(header):
                flags = [c for c in text.cell.row if re.fullmatch(r"`?--[\w-]+`?", c.strip())]
                value = re.sub(r"[*`]", "", text.text).strip()
                if (
                    len(flags) == 1
                    and value
                    and re.fullmatch(r"[\w./:-]+", value)
                    and not _NO_DEFAULT.match(value)
                ):
                    flag = flags[0].strip().strip("`")
                    yield _table_claim(text, section, flag, value, _command(unit, text))
            continue
        # a list introduced as defaults ("Defaults:", a "Default values" heading, `<summary>Defaults`):
        # each item "`--flag`: value" states one
        listed = text.in_list and any(_DEFAULTS_LIST.search(t) for t in (text.lead, _last_heading(text)))
        previous: str | None = None  # the one flag the previous sentence of this text named
        for offset, sentence in sentences(text.text):
            parts = stated_defaults(sentence, words)
            if not parts and listed and _FLAG_ITEM.match(sentence):
                parts = stated_defaults(f"{sentence.rstrip()} (default)", words)
            if not parts and previous is not None and _PRONOUN.match(sentence) and not _FLAG.search(sentence):
                # "`--evaluation_dataset` picks the set; it defaults to `wikitext`", "...; leave it out and
                # quark-cli uses 256 samples": the pronoun is the previous sentence's flag
                shift = len(previous) + 3  # the "`--flag` " put before the sentence
                said = stated_defaults(f"`{previous}` {sentence}", words)
                parts = [(max(at - shift, 0), f, v, p) for at, f, v, p in said]
            if not parts and (described := _described(sentence)) is not None:
                # "The search tries at most 50 candidates (`--max-search-candidates`).": what a run does
                # when nothing is passed, said of the flag in parentheses
                parts = [described]
            named = {m.group(0).strip("`") for m in _FLAG.finditer(sentence)}
            previous = next(iter(named)) if len(named) == 1 else None
            if not parts:
                yield from _flagless(unit, text, section, sentence, offset, commands, words)
            for at, flag, value, part in parts:
                # one of several pairs: a command named in another part is that part's; else the command a
                # list item's label names ("* `onnx-autosearch`: ...; `--config` defaults to ..."), else the
                # section's
                command = (
                    named_command(part, commands)
                    or (
                        named_command(label.group(0), commands)
                        if (label := _LABEL.match(text.text))
                        else None
                    )
                    or _command(unit, text)
                )
                # the claim stands where the value is written (the token a fix rewrites), else at the flag
                where = _value_at(sentence, at, value)
                if command is None and f"`{flag} {value}`" in sentence:
                    continue  # `--flag value` said of no known command: another program's usage, likely
                yield _sentence_claim(text, section, sentence, offset + where, flag, value, command)
    yield from _comment_defaults(unit, words)
    yield from _html_comment_defaults(unit, commands, words)


# a list item's or paragraph's leading label: "`onnx-autosearch`:", "**export-onnx** -"
_LABEL = re.compile(r"^\s*(?:\*\*|__)?`?[\w.-]+(?: [\w.-]+)?`?(?:\*\*|__)?\s*(?::|—|–|-\s)")
_COMMENT_VALUE = re.compile(r"(\bdefaults? to\s+)([A-Za-z_][\w./-]*[\w/])(?![\w`])", re.IGNORECASE)


def _html_comment_defaults(unit: Unit, commands: dict[str, str], words: frozenset[str]) -> Iterator[Found]:
    """Defaults an HTML comment's sentences state ("<!-- torch-llm-ptq's --evaluation_dataset defaults to
    wikitext -->"), of the command the sentence names, else the file's."""
    for body, line_of in unit.comments():
        if "--" not in body or not _DEFAULT_WORD.search(body):
            continue
        for offset, raw in sentences(body):
            # a comment writes no code spans: the word after "defaults to" is the value, as a span would be
            sentence = _COMMENT_VALUE.sub(lambda m: f"{m.group(1)}`{m.group(2)}`", raw)
            for _at, flag, value, part in stated_defaults(sentence, words):
                command = named_command(part, commands) or named_command(sentence, commands)
                command = command or unit.infer_command(()).command
                if command is None:
                    continue
                yield Found(
                    "cli_flag_default",
                    f"{flag}={value}",
                    line_of(offset + max(raw.find(value), 0)),
                    {
                        "flag": flag,
                        "default": value,
                        "command": command,
                        "where": "comment",
                        "section": "",
                        "text": " ".join(sentence.split())[:200],
                    },
                )


def _comment_defaults(unit: Unit, words: frozenset[str]) -> Iterator[Found]:
    """Defaults a shell block's comment states ("# --seq_len is 2048 when omitted; --batch_size is 1"): each
    flag's of the Quark command the block runs next after the comment (else the one before it)."""
    for code in unit.codes():
        if code.info not in SHELL_LANGUAGES or "#" not in code.text:
            continue
        last = code.first_line + code.text.count("\n")
        runs = [
            c.command
            for c in unit.commands
            if c.where == "code" and code.first_line <= c.command.line <= last and c.command.is_quark
        ]
        for offset, raw in enumerate(code.text.split("\n")):
            comment = raw.strip()
            if not comment.startswith("#") or "--" not in comment:
                continue
            line = code.first_line + offset
            after = [c for c in runs if c.line > line]
            before = [c for c in runs if c.line < line]
            sentence = comment.lstrip("#").strip()
            for _at, flag, value, _part in stated_defaults(sentence, words):
                # the neighbouring command that passes the flag is the one the comment explains ("... --num_iters
                # 2000" then "# --num_iters defaults to 500 when not given"); else the next command, else the last
                passing = [c for c in (after[:1] + before[-1:]) if any(f.name == flag for f in sh.flags(c))]
                chosen = passing[0] if passing else (after[0] if after else (before[-1] if before else None))
                if chosen is None:
                    continue
                command = chosen.name
                yield Found(
                    "cli_flag_default",
                    f"{flag}={value}",
                    line,
                    {
                        "flag": flag,
                        "default": value,
                        "command": command,
                        "where": "comment",
                        "section": heading_path(code.headings),
                        "text": sentence[:200],
                    },
                )


_FLAG_VALUE_SPAN = re.compile(r"`\s*(--[A-Za-z][\w-]*)(?:\s+|=)([\w./:-]+)\s*`")
_DEFAULTS_LIST = re.compile(
    r"^(?!.*\b(?:our|my|your|team|recommended|suggested|preferred|typical|good|sane|custom)\b)"
    r"(?:.{0,40}\bdefaults?\b(?:\s+values?)?\s*:?\s*$"
    # "Defaults when a flag is omitted:", "Defaults of onnx-ptq:"
    r"|\W*defaults?\b(?:\s+values?)?\s+(?:when|if|of|for|unless)\b.{0,60}:\s*$)",
    re.IGNORECASE,
)
_FLAG_ITEM = re.compile(
    r"^\s*`--[\w-]+`\s*(?::|=|—|–|-|\s+is\b)\s*`?[\w./-]+`?(?:\s*,\s*`--[\w-]+`\s*(?::|=)\s*`?[\w./-]+`?)*"
    r"(?:\s*\([^()\n]{0,80}\))?\s*$"  # "`--num_calib_data` is 512 (the number of calibration samples)"
)


def _last_heading(text: Text) -> str:
    return text.headings[-1].text if text.headings else ""


def _table_claim(text: Text, section: str, flag: str, value: str, command: str | None) -> Found:
    """The ``cli_flag_default`` claim a table cell states, on the cell's line."""
    return Found(
        "cli_flag_default",
        f"{flag}={value}",
        text.line,
        {"flag": flag, "default": value, "command": command, "where": "table", "section": section},
    )


def _value_at(sentence: str, flag_at: int, value: str) -> int:
    """The offset in ``sentence`` of the stated ``value`` nearest the flag at ``flag_at`` (a code span
    or a bare word), else ``flag_at``."""
    found = [m.start() for m in re.finditer(rf"(?<![\w.-]){re.escape(value)}(?![\w-])", sentence)]
    return min(found, key=lambda at: abs(at - flag_at)) if found else flag_at


# a flag named alone in parentheses after what it controls: "a concurrency of 32 (`--bench-concurrency`)"
_PARENTHESISED_FLAG = re.compile(r"\(\s*`(--[A-Za-z][\w-]*)`\s*\)")
# what makes a description no statement of the default: an instruction, a condition, an example, a choice
_NOT_DESCRIBED = re.compile(
    r"^\W*(?:use|set|pass|try|run|add|give|choose|pick|raise|lower|increase|reduce|make|keep|consider|"
    r"start|limit|cap|bump|drop|change)\b|\b(?:if|when|whenever|with|for example|e\.g|such as|can|could|may|"
    r"might|should|must|recommend\w*|typically|usually|often|suggest\w*|up to you|instead)\b",
    re.IGNORECASE,
)


def _described(sentence: str) -> tuple[int, str, str, str] | None:
    """``(offset of the value, flag, value, sentence)`` when ``sentence`` describes what a run does with
    one number and names the one flag controlling it in parentheses after it (:data:`_PARENTHESISED_FLAG`),
    with no instruction, condition or example (:data:`_NOT_DESCRIBED`); None otherwise."""
    flags = _FLAG.findall(sentence)
    match = _PARENTHESISED_FLAG.search(sentence)
    if match is None or len(flags) != 1 or _NOT_DESCRIBED.search(sentence):
        return None
    numbers = list(_NUMBER.finditer(_SPAN.sub(lambda m: " " * len(m.group(0)), sentence[: match.start()])))
    if len(numbers) != 1 or _NUMBER.search(_SPAN.sub(" ", sentence[match.end() :])):
        return None
    return numbers[0].start(), match.group(1), numbers[0].group(0), sentence


def _sentence_claim(
    text: Text, section: str, sentence: str, offset: int, flag: str, value: str, command: str | None
) -> Found:
    return Found(
        "cli_flag_default",
        f"{flag}={value}",
        text.line_at(offset),
        {
            "flag": flag,
            "default": value,
            "command": command,
            "where": text.kind,
            "section": section,
            "text": " ".join(sentence.split())[:200],
        },
    )


_SIGNATURE_SPAN = re.compile(r"`[A-Za-z_][\w.]*\([^`]{0,400}\)`")


def _flagless(
    unit: Unit,
    text: Text,
    section: str,
    sentence: str,
    offset: int,
    commands: dict[str, str],
    words: frozenset[str],
) -> Iterator[Found]:
    """``cli_flag_default`` claims without a flag (``context["flag"]`` None, ``context["words"]`` the
    setting's words) for the sentence, or each comma-separated part of it that states one value."""
    if not _DEFAULT_ONLY.search(sentence) or _SIGNATURE_SPAN.search(sentence):
        # "`QConfig(global_config, exclude=None, ...)`: the `None` defaults become `[]`": a Python call's
        # defaults (python_code reads the signature), not a CLI setting's
        return
    pieces = [(0, sentence)]
    if flagless_default(sentence, words) is None:
        pieces = [(at, part + " (default)") for at, part in parts(sentence)]
    for at, piece in pieces:
        found = flagless_default(piece, words)
        if found is None:
            continue
        value, setting = found
        if re.fullmatch(r"[A-Z]\w*\.\w+|\w+\(.*\)", value):
            continue  # `QuantizationConfig.execution_providers`: a Python name, the subject, not a value
        command = named_command(piece, commands) or named_command(sentence, commands) or _command(unit, text)
        yield Found(
            "cli_flag_default",
            f"?={value}",
            text.line_at(offset + at + max(piece.find(value), 0)),
            {
                "flag": None,
                "words": setting,
                "default": value,
                "command": command,
                "where": text.kind,
                "section": section,
                "text": " ".join(sentence.split())[:200],
            },
        )
