"""CLI flags: every ``add_argument`` call, on any receiver (parser, group, subparser...).

Scripts read (from :data:`SCRIPTS`): the packaged CLI ``quark/experimental/cli/torch_llm_ptq.py``
(``quark-cli torch-llm-ptq``) and, in a checkout, every ``quantize_quark.py`` (the LLM PTQ example,
``examples/torch/language_modeling/llm_ptq/quantize_quark.py``). A wheel does not ship ``examples/``,
so that script is reported unavailable there.

Item name: the primary option string (the first ``--long`` one, else the first given), attrs:
``script``, ``options`` (all option strings), ``action``, ``type``, ``default``, ``choices``, ``nargs``,
``required``, ``metavar``, ``dest`` (literal values, or the unparsed source text when not a literal,
e.g. ``type="lambda s: s.split(',')"``), ``deprecated`` (``"deprecat"`` in the help text) and ``help``.
"""

from __future__ import annotations

import ast

from quarkci.facts._source import parse, str_const, text_of, value_of
from quarkci.facts.base import FactItem
from quarkci.upstream.base import Snapshot

KIND = "cli_flags"
PACKAGED_CLI = "quark/experimental/cli/torch_llm_ptq.py"
EXAMPLE_SCRIPT_NAME = "quantize_quark.py"
EXAMPLE_SCRIPT = "examples/torch/language_modeling/llm_ptq/quantize_quark.py"
SCRIPTS = {PACKAGED_CLI: "quark-cli torch-llm-ptq", EXAMPLE_SCRIPT_NAME: "quantize_quark.py"}
_KEYWORDS = ("action", "type", "default", "choices", "nargs", "required", "metavar", "dest")


def flags_in(tree: ast.Module, path: str, script: str) -> list[FactItem]:
    """One item per ``<any>.add_argument(...)`` call in ``tree``."""
    items: list[FactItem] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"):
            continue
        options = [s for s in (str_const(a) for a in node.args) if s is not None]
        if not options:
            continue  # add_argument(*names) built at run time: nothing static to report
        primary = next((o for o in options if o.startswith("--")), options[0])
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        help_text = text_of(keywords.get("help"))
        attrs: dict[str, object] = {"script": script, "options": options, "help": help_text,
                                    "deprecated": "deprecat" in help_text.lower()}
        for key in _KEYWORDS:
            attrs[key] = value_of(keywords[key]) if key in keywords else None
        items.append(FactItem(primary, path, node.lineno, attrs))
    return items


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Flag items of the packaged CLI and any ``quantize_quark.py``, plus unavailable script paths."""
    items: list[FactItem] = []
    unavailable: list[str] = []
    if snapshot.exists(PACKAGED_CLI):
        tree = parse(snapshot, PACKAGED_CLI)
        if tree is not None:
            items.extend(flags_in(tree, PACKAGED_CLI, SCRIPTS[PACKAGED_CLI]))
    elif not snapshot.covers(PACKAGED_CLI):
        unavailable.append(PACKAGED_CLI)
    examples = [p for p in snapshot.files() if p.rsplit("/", 1)[-1] == EXAMPLE_SCRIPT_NAME]
    for path in examples:
        tree = parse(snapshot, path)
        if tree is not None:
            items.extend(flags_in(tree, path, SCRIPTS[EXAMPLE_SCRIPT_NAME]))
    if not examples and not snapshot.covers(EXAMPLE_SCRIPT):
        unavailable.append(EXAMPLE_SCRIPT)
    return sorted(items), sorted(unavailable)
