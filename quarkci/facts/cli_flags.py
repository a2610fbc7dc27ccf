"""CLI flags: every ``add_argument`` call, on any receiver (parser, group, subparser...).

Scripts read: every CLI the release holds (:func:`commands`: each ``[console_scripts]`` entry point,
and each ``quark-cli`` subcommand registered in its main module, e.g. ``quark-cli torch-llm-ptq`` from
``quark/experimental/cli/torch_llm_ptq.py``, ``quark-cli onnx-ptq``, ``quark-quant-perf``) and, in a checkout, every ``quantize_quark.py`` (the LLM PTQ example,
``examples/torch/language_modeling/llm_ptq/quantize_quark.py``). A wheel does not ship ``examples/``,
so that script is reported unavailable there.

Item name: the primary option string (the first ``--long`` one, else the first given), attrs:
``script``, ``options`` (all option strings), ``action``, ``type``, ``default``, ``choices``, ``nargs``,
``required``, ``metavar``, ``dest`` (literal values, or the unparsed source text when not a literal,
e.g. ``type="lambda s: s.split(',')"``), ``deprecated`` (``"deprecat"`` in the help text) and ``help``.
"""

from __future__ import annotations

import ast
import configparser
from collections.abc import Iterable

from quarkci.facts.base import FactItem
from quarkci.facts.public_api import absolute_module, module_name
from quarkci.facts.source import assigned_name, parse, project_table, read, str_const, text_of, value_of
from quarkci.upstream.base import ENTRY_POINTS_PATH, Snapshot

KIND = "cli_flags"
PACKAGED_CLI = "quark/experimental/cli/torch_llm_ptq.py"
EXAMPLE_SCRIPT_NAME = "quantize_quark.py"
EXAMPLE_SCRIPT = "examples/torch/language_modeling/llm_ptq/quantize_quark.py"
SCRIPTS = {PACKAGED_CLI: "quark-cli torch-llm-ptq", EXAMPLE_SCRIPT_NAME: "quantize_quark.py"}
_KEYWORDS = ("action", "type", "default", "choices", "nargs", "required", "metavar", "dest")


def flags_in(tree: ast.AST, path: str, script: str) -> list[FactItem]:
    """One item per ``<any>.add_argument(...)`` call in ``tree``."""
    items: list[FactItem] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            continue
        options = [s for s in (str_const(a) for a in node.args) if s is not None]
        if not options:
            continue  # add_argument(*names) built at run time: nothing static to report
        primary = next((o for o in options if o.startswith("--")), options[0])
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        help_text = text_of(keywords.get("help"))
        attrs: dict[str, object] = {
            "script": script,
            "options": options,
            "help": help_text,
            "deprecated": "deprecat" in help_text.lower(),
        }
        for key in _KEYWORDS:
            attrs[key] = value_of(keywords[key]) if key in keywords else None
        items.append(FactItem(primary, path, node.lineno, attrs))
    return items


def _module_path(snapshot: Snapshot, module: str) -> str | None:
    base = module.replace(".", "/")
    for path in (f"{base}.py", f"{base}/__init__.py"):
        if snapshot.exists(path):
            return path
    return None


def _imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> dotted origin (``mod`` or ``mod.attr``) of every import anywhere in ``tree``."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            source = absolute_module(module, is_package, node.level, node.module)
            for alias in node.names:
                if alias.name != "*":
                    out[alias.asname or alias.name] = f"{source}.{alias.name}"
    return out


def _defining_module(snapshot: Snapshot, origin: str) -> tuple[str, str | None] | None:
    """``pkg.mod.Name`` -> (path of pkg/mod.py, "Name"); ``pkg.mod`` (a module) -> (its path, None)."""
    if (path := _module_path(snapshot, origin)) is not None:
        return path, None
    head, _, attr = origin.rpartition(".")
    if head and (path := _module_path(snapshot, head)) is not None:
        return path, attr
    return None


def _flags_of(snapshot: Snapshot, path: str, label: str, seen: set[str] | None = None) -> list[FactItem]:
    """Flags registered by the module ``path`` and, one level deep, by the quark functions it imports
    and calls (``add_eval_profile_args(parser)``)."""
    tree = parse(snapshot, path)
    if tree is None:
        return []
    imports = _imports(tree, module_name(path), path.endswith("/__init__.py"))
    items = [_with_named_choices(snapshot, item, path, tree, imports) for item in flags_in(tree, path, label)]
    items = [_with_lookup_choices(snapshot, item, path, tree, imports) for item in items]
    seen = (seen or set()) | {path}
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    for name in sorted(called & set(imports)):
        found = _defining_module(snapshot, imports[name]) if imports[name].startswith("quark.") else None
        if found is None or found[0] in seen or found[1] is None:
            continue
        helper = parse(snapshot, found[0])
        for node in helper.body if helper else []:
            if isinstance(node, ast.FunctionDef) and node.name == found[1]:
                items.extend(flags_in(node, found[0], label))
    return items


def _with_named_choices(
    snapshot: Snapshot, item: FactItem, path: str, tree: ast.Module, imports: dict[str, str]
) -> FactItem:
    """``item`` with ``choices`` given by a module-level name (0.10's ``choices=SUPPORTED_QUANT_SCHEME``,
    imported from ``.../llm_ptq/customized_configuration.py``) replaced by the list of strings that name
    holds, and ``choices_from`` = ``"<file>:<line>"`` of its assignment; other items unchanged."""
    choices = item.attrs.get("choices")
    if not isinstance(choices, str):
        return item
    if not choices.isidentifier():
        # an expression of such names and literals: ``choices=(*_AGENT_SKILLS_DIRS, "all")`` (0.13's
        # quark-skills install --agent: the dict's keys, then "all")
        try:
            expression = ast.parse(choices, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return item
        strings: list[str] = []
        if not _collect_strings(snapshot, path, tree, imports, expression, strings, 0):
            return item
        values = list(dict.fromkeys(strings))
        return FactItem(
            item.name,
            item.file,
            item.line,
            {**item.attrs, "choices": values, "choices_from": f"{item.file}:{item.line}"},
        )
    resolved = named_strings(snapshot, path, tree, imports, choices)
    if resolved is None:
        return item
    values, where = resolved
    return FactItem(item.name, item.file, item.line, {**item.attrs, "choices": values, "choices_from": where})


def _dest(item: FactItem) -> str:
    """The ``args`` attribute a flag's value lands in (``dest=``, else its name without dashes)."""
    dest = item.attrs.get("dest")
    return dest if isinstance(dest, str) and dest else item.name.lstrip("-").replace("-", "_")


def _with_lookup_choices(
    snapshot: Snapshot, item: FactItem, path: str, tree: ast.Module, imports: dict[str, str]
) -> FactItem:
    """``item`` with ``choices`` read from where the script sends the value, for a flag declared without
    any: the script passes ``args.<dest>`` to a Quark function that refuses a value outside a module-level
    table (``get_default_config(args.config)``, which raises unless ``config_name in DefaultConfigMapping``:
    quark/onnx/quantization/config/custom_config.py, 0.6.0 … 0.13), so the table's keys are the values the
    flag accepts, with the strings the script compares ``args.<dest>`` with itself (``"MATMUL_NBITS"``).
    ``choices_from`` names the table. Other items unchanged."""
    if item.attrs.get("choices") is not None or item.attrs.get("action") in ("store_true", "store_false"):
        return item
    dest = _dest(item)
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in imports):
            continue
        if not any(isinstance(a, ast.Attribute) and a.attr == dest for a in call.args[:1]):
            continue
        found = (
            _defining_module(snapshot, imports[call.func.id])
            if imports[call.func.id].startswith("quark.")
            else None
        )
        table = _refusing_table(snapshot, found) if found is not None and found[1] else None
        if table is None:
            continue
        values, where = table
        compared = _compared_strings(tree, dest)
        choices = list(dict.fromkeys([*values, *compared]))
        return FactItem(
            item.name, item.file, item.line, {**item.attrs, "choices": choices, "choices_from": where}
        )
    return item


def _refusing_table(
    snapshot: Snapshot, found: tuple[str, str | None], depth: int = 0
) -> tuple[list[str], str] | None:
    """The keys (``named_strings``) of the module-level table function ``found`` = (path, name) refuses
    its first parameter outside of (``if p not in TABLE: raise``), following a re-export (``from .x import
    f`` in a package, at most 3 levels), else None."""
    path, name = found
    module = parse(snapshot, path)
    if module is None or depth > 3:
        return None
    imports = _imports(module, module_name(path), path.endswith("/__init__.py"))
    defined = any(isinstance(n, ast.FunctionDef) and n.name == name for n in module.body)
    if not defined and name in imports and imports[name].startswith("quark."):
        origin = _defining_module(snapshot, imports[name])
        return _refusing_table(snapshot, origin, depth + 1) if origin is not None and origin[1] else None
    for node in module.body:
        if not (isinstance(node, ast.FunctionDef) and node.name == name and node.args.args):
            continue
        param = node.args.args[0].arg
        for test in ast.walk(node):
            if (
                isinstance(test, ast.If)
                and isinstance(test.test, ast.Compare)
                and isinstance(test.test.left, ast.Name)
                and test.test.left.id == param
                and len(test.test.ops) == 1
                and isinstance(test.test.ops[0], ast.NotIn)
                and isinstance(test.test.comparators[0], ast.Name)
                and any(isinstance(b, ast.Raise) for b in test.body)
            ):
                return named_strings(snapshot, path, module, imports, test.test.comparators[0].id)
    return None


def _compared_strings(tree: ast.Module, dest: str) -> list[str]:
    """The strings ``tree`` compares ``<x>.<dest>`` with (``args.config == "MATMUL_NBITS"``), in order."""
    out: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Attribute)
            and node.left.attr == dest
            and len(node.comparators) == 1
            and isinstance(node.comparators[0], ast.Constant)
            and isinstance(node.comparators[0].value, str)
        ):
            out.append(node.comparators[0].value)
    return out


def named_strings(
    snapshot: Snapshot, path: str, tree: ast.Module, imports: dict[str, str], name: str, depth: int = 0
) -> tuple[list[str], str] | None:
    """The string constants a module-level ``name = [...]`` (list, tuple, set, a dict's keys, ``+`` of
    those, ``list(...)``/``X.keys()`` of those, other such names) holds, in order and without repeats, with ``"<file>:<line>"`` of the assignment; the
    name may be imported from another ``quark`` module (followed at most 3 levels). None when the value
    is not built from string literals alone."""
    if depth > 3:
        return None
    for node in tree.body:
        assigned = assigned_name(node)
        if assigned is None or assigned[0] != name:
            continue
        strings: list[str] = []
        if not _collect_strings(snapshot, path, tree, imports, assigned[1], strings, depth):
            return None
        return list(dict.fromkeys(strings)), f"{path}:{node.lineno}"
    origin = imports.get(name, "")
    found = _defining_module(snapshot, origin) if origin.startswith("quark.") else None
    if found is None or found[1] is None:
        return None
    other = parse(snapshot, found[0])
    if other is None:
        return None
    other_imports = _imports(other, module_name(found[0]), found[0].endswith("/__init__.py"))
    return named_strings(snapshot, found[0], other, other_imports, found[1], depth + 1)


def _collect_strings(
    snapshot: Snapshot,
    path: str,
    tree: ast.Module,
    imports: dict[str, str],
    node: ast.AST,
    out: list[str],
    depth: int,
) -> bool:
    if (text := str_const(node)) is not None:
        out.append(text)
        return True
    if isinstance(node, ast.Starred):  # ``(*NAMES, "all")``: the names unpacked in place
        return _collect_strings(snapshot, path, tree, imports, node.value, out, depth)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return all(_collect_strings(snapshot, path, tree, imports, e, out, depth) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _collect_strings(snapshot, path, tree, imports, node.left, out, depth) and _collect_strings(
            snapshot, path, tree, imports, node.right, out, depth
        )
    if isinstance(node, ast.Dict):  # a dict's keys (``list(DEPRECATED_QUANT_SCHEME.keys())``)
        return all(
            k is not None and _collect_strings(snapshot, path, tree, imports, k, out, depth)
            for k in node.keys
        )
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("list", "tuple", "sorted") and len(node.args) == 1:
            return _collect_strings(snapshot, path, tree, imports, node.args[0], out, depth)
        if isinstance(func, ast.Attribute) and func.attr == "keys" and not node.args:
            return _collect_strings(snapshot, path, tree, imports, func.value, out, depth)
        return False
    if isinstance(node, ast.Name):
        inner = named_strings(snapshot, path, tree, imports, node.id, depth + 1)
        if inner is None:
            return False
        out.extend(inner[0])
        return True
    return False


def console_scripts(snapshot: Snapshot) -> dict[str, str]:
    """``{script name: "module:function"}`` of the release's ``[console_scripts]`` entry points
    (wheel/installed ``entry_points.txt``, or a checkout's ``[project.scripts]``)."""
    text = read(snapshot, ENTRY_POINTS_PATH)
    if text is not None:
        parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        try:
            parser.read_string(text)
        except configparser.Error:
            return {}
        return dict(parser["console_scripts"]) if parser.has_section("console_scripts") else {}
    pyproject = read(snapshot, "pyproject.toml")
    if pyproject is None:
        return {}
    scripts = (project_table(pyproject) or {}).get("scripts", {})
    return {str(k): str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}


def subcommands(snapshot: Snapshot, path: str) -> dict[str, str]:
    """``{subcommand: module path}`` of a main module that registers subparsers, read statically:
    ``x = subparsers.add_parser("name", ...)`` followed by a call passing ``x`` (``Cls.register_subcommand(x)``
    or ``mod.Cls.register_subcommand(x)``) whose receiver is imported from a quark module."""
    tree = parse(snapshot, path)
    if tree is None:
        return {}
    imports = _imports(tree, module_name(path), path.endswith("/__init__.py"))
    parsers: dict[str, str] = {}
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "add_parser"
            and (sub := str_const(node.value.args[0] if node.value.args else None))
        ):
            parsers[node.targets[0].id] = sub
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Name):
            continue
        sub = parsers.get(node.args[0].id)
        receiver = node.func
        while isinstance(receiver, ast.Attribute):
            receiver = receiver.value
        if sub is None or not isinstance(receiver, ast.Name) or receiver.id not in imports:
            continue
        found = _defining_module(snapshot, imports[receiver.id])
        if found is not None:
            out.setdefault(sub, found[0])
    return out


def commands(snapshot: Snapshot) -> dict[str, str]:
    """``{command label: module path}`` for every CLI of the release: each console script, and for a
    script with subcommands each ``"<script> <sub>"`` (``quark-cli torch-llm-ptq``)."""
    out: dict[str, str] = {}
    for script, target in sorted(console_scripts(snapshot).items()):
        path = _module_path(snapshot, target.split(":", 1)[0].strip())
        if path is None:
            continue
        subs = subcommands(snapshot, path)
        for sub, module in sorted(subs.items()):
            out[f"{script} {sub}"] = module
        if not subs:
            out[script] = path
    if snapshot.exists(PACKAGED_CLI) and PACKAGED_CLI not in out.values():
        out[SCRIPTS[PACKAGED_CLI]] = PACKAGED_CLI  # a release without entry points we can read
    return out


def scheme_choices(items: Iterable[FactItem]) -> frozenset[str]:
    """Every string value a scheme flag accepts (``choices`` of a flag whose option names a scheme:
    ``--quant_scheme``, ``--kv_cache_quant_scheme``) among ``cli_flags`` ``items``: the schemes a release's
    CLI takes, which need not be its config API's (0.10's ``quark-cli torch-llm-ptq`` took ``w_*`` names)."""
    out: set[str] = set()
    for item in items:
        options = item.attrs.get("options") or [item.name]
        choices = item.attrs.get("choices")
        if any("scheme" in str(o) for o in options) and isinstance(choices, list):
            out.update(c for c in choices if isinstance(c, str))
    return frozenset(out)


def option_names(item: FactItem) -> set[str]:
    """A flag fact's name and every alias its attrs record (``--kv_cache_dtype``, ``--kv_cache_quant_scheme``)."""
    names = {item.name}
    for key in ("option_strings", "options", "aliases"):
        value = item.attrs.get(key)
        if isinstance(value, list | tuple):
            names.update(str(v) for v in value)
    return names


def command_labels(items: Iterable[FactItem]) -> frozenset[str]:
    """The command labels (``quark-cli torch-llm-ptq``, ``quark-quant-perf``) the ``cli_flags`` ``items``
    belong to: every command the release's CLIs register flags for."""
    return frozenset(str(i.attrs["script"]) for i in items if i.attrs.get("script"))


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Flag items of every CLI the release holds (see :func:`commands`) and of any ``quantize_quark.py``,
    plus unavailable script paths. ``attrs["script"]`` is the command label."""
    items: list[FactItem] = []
    unavailable: list[str] = []
    for label, path in commands(snapshot).items():
        items.extend(_flags_of(snapshot, path, label))
    if not snapshot.exists(PACKAGED_CLI) and not snapshot.covers(PACKAGED_CLI):
        unavailable.append(PACKAGED_CLI)
    examples = [p for p in snapshot.files() if p.rsplit("/", 1)[-1] == EXAMPLE_SCRIPT_NAME]
    for path in examples:
        tree = parse(snapshot, path)
        if tree is not None:
            items.extend(flags_in(tree, path, SCRIPTS[EXAMPLE_SCRIPT_NAME]))
    if not examples and not snapshot.covers(EXAMPLE_SCRIPT):
        unavailable.append(EXAMPLE_SCRIPT)
    return sorted(items), sorted(unavailable)
