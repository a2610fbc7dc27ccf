"""``cli_flag`` claims: long options used in shell code blocks and inline code spans.

Each flag carries the command it belongs to (``context["command"]``): the program of its own command
line, or, for a bare fragment such as ``--seq_len 512`` in prose, the single command named in the
same section, file or skill (``context["inferred"] = True``, ``"inferred_from"`` says which level;
see :meth:`Unit.infer_command`); ``None`` when that is ambiguous, with the competing command names
in ``context["candidates"]`` (empty when the skill names no command at all; at most
:data:`MAX_CANDIDATES` of them, with ``context["candidates_total"]`` when there are more).

A bare fragment in a sentence that names another program (vLLM, lm-eval, docker, ...) is that program's
(``context["quark"]`` False) unless some Quark CLI defines the flag (``--model_export`` stays Quark's).

``context["quark"]`` is a tri-state for the audit: True when the flag belongs to a command of amd-quark
itself (check it against that command), False when it belongs to another program or is ambiguous only
among other programs (not Quark's to check), None when unknown (no command anywhere, or ambiguous
between a Quark command and others: check it against every Quark CLI). ``--help`` is left
out (argparse adds it; it is no claim about Quark's options).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import quarkci.skills.claims.commands as sh
from quarkci.skills.claims.unit import Found, Inference, Located, Unit

_IGNORED = frozenset({"--help"})
# Programs other than Quark's whose flags prose quotes bare (serving engines, evaluation harnesses, ...).
_OTHER_PROGRAM = re.compile(
    r"\b(?:vllm|sglang|lm[-_]eval|lm-evaluation-harness|llama\.cpp|llama-server|trtllm|tensorrt-llm|tgi"
    r"|text-generation-launcher|torchrun|docker|huggingface-cli|optimum-cli)\b",
    re.IGNORECASE,
)
# The most competing command names a claim keeps (sorted; ``candidates_total`` counts them all when more):
# a bare flag in a file naming thousands of commands stores a bounded list, not a copy of them all.
MAX_CANDIDATES = 16


def extract(unit: Unit) -> Iterator[Found]:
    """``cli_flag`` claims of ``unit`` (see the module docstring)."""
    for located in unit.commands:
        command = located.command
        inference = (
            Inference(command.name, None)
            if command.name
            else _sentence_command(unit, located.text)
            or _several_named(unit, located.text)
            or _paragraph_command(unit, located)
            or unit.infer_command(located.headings)
        )
        name, inferred_from, candidates = inference.command, inference.source, inference.candidates
        quark = _is_quark(inference)
        others = not command.name and bool(_OTHER_PROGRAM.search(located.text))
        stored = list(candidates[:MAX_CANDIDATES])
        quark_flags = unit.lexicon.names("flag") if unit.lexicon is not None else frozenset()
        for flag in sh.flags(command):
            if flag.name in _IGNORED:
                continue
            if others and flag.name not in quark_flags:
                # "we serve it in vLLM with `--kv-cache-dtype fp8`": another program's flag
                yield Found(
                    "cli_flag",
                    flag.name,
                    flag.line,
                    {"command": None, "quark": False, "where": located.where},
                )
                continue
            context: dict[str, object] = {
                "command": name,
                "quark": quark,
                "where": located.where,
                "inferred": not command.name,
                "inferred_from": inferred_from,
                "values": list(flag.values),
                "candidates": list(stored),
                "subcommand": _subcommand(command),
            }
            if len(candidates) > MAX_CANDIDATES:
                context["candidates_total"] = len(candidates)
            yield Found("cli_flag", flag.name, flag.line, context)


def _sentence_command(unit: Unit, sentence: str) -> Inference | None:
    """The one ``quark-cli`` subcommand a bare flag's sentence names (:meth:`Unit.subcommand_named`), as the
    flag's command; None when it names none or several."""
    named = unit.subcommand_named(sentence)
    return Inference(f"{sh.QUARK_CLI} {named}", "sentence") if named is not None else None


def _several_named(unit: Unit, sentence: str) -> Inference | None:
    """An ambiguous inference when the bare flag's sentence names two or more ``quark-cli`` subcommands
    ("`export-onnx` uses `--model-name` while `export-oga` takes `--model_path`"): the flag is one of theirs,
    not the section's command's; None otherwise."""
    named = unit.subcommands_named(sentence)
    if len(named) < 2:
        return None
    return Inference(None, "sentence", tuple(sorted(f"{sh.QUARK_CLI} {n}" for n in named)))


def _paragraph_command(unit: Unit, located: Located) -> Inference | None:
    """The one ``quark-cli`` subcommand the flag's paragraph names ("The torch-llm-ptq parser was trimmed:
    ... For perplexity add `--evaluation_dataset`."), when the section names no command of its own."""
    if not located.paragraph or located.paragraph == located.text:
        return None
    inferred = unit.infer_command(located.headings)
    if inferred.command is not None or inferred.candidates:
        return None
    found = _sentence_command(unit, located.paragraph)
    return Inference(found.command, "paragraph") if found is not None else None


def _is_quark(inference: Inference) -> bool | None:
    if inference.command:
        return sh.is_quark_name(inference.command)
    if not inference.candidates:
        return None
    return None if inference.any_quark_candidate else False


def _subcommand(command: sh.Command) -> str | None:
    """The first argument of a program other than ``quark-cli`` when it is a bare word placed before any
    option (``quark-quant-perf eval --from-session ...`` -> ``eval``): a subcommand the program may
    dispatch itself."""
    if not command.name or command.name.startswith(sh.QUARK_CLI) or not command.args:
        return None
    first = command.args[0].text
    return first if re.fullmatch(r"[a-z][a-z0-9-]*", first) else None
