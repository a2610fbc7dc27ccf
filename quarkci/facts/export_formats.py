"""Export formats and API: what ``quark.torch.export`` offers and what the CLI can export to.

Sources (all parsed with :mod:`ast`):

* ``__all__`` of ``quark/torch/__init__.py``, ``quark/torch/export/__init__.py`` and
  ``quark/torch/export/api.py`` -> items ``kind="api"`` with ``module``;
* module-level ``def export_*`` functions under ``quark/torch/export/`` -> ``kind="function"``;
* classes named ``*Exporter`` under ``quark/torch/export/`` -> ``kind="exporter"`` (with ``bases``);
* ``--model_export`` / ``--export_format`` ``choices`` of the CLI scripts -> ``kind="format"`` with
  ``script`` (e.g. ``hf_format``, ``onnx``, ``gguf`` in 0.10's ``quark-cli torch-llm-ptq``).
"""

from __future__ import annotations

import ast

import quarkci.facts.cli_flags as cli_flags
from quarkci.facts.base import FactItem
from quarkci.facts.source import assigned_name, parse_text, read
from quarkci.upstream.base import Snapshot

KIND = "export_formats"
ALL_MODULES = ("quark/torch/__init__.py", "quark/torch/export/__init__.py", "quark/torch/export/api.py")
EXPORT_TREE = "quark/torch/export/"
FORMAT_FLAGS = {"--model_export", "--export_format", "--export_formats"}


def _module_name(path: str) -> str:
    module = path.removesuffix(".py").replace("/", ".")
    return module.removesuffix(".__init__")


def _all_items(tree: ast.Module, path: str) -> list[FactItem]:
    items = []
    for node in tree.body:
        found = assigned_name(node)
        if found and found[0] == "__all__" and isinstance(found[1], ast.List | ast.Tuple):
            for element in found[1].elts:
                if isinstance(element, ast.Constant) and isinstance(element.value, str):
                    items.append(
                        FactItem(
                            element.value, path, element.lineno, {"kind": "api", "module": _module_name(path)}
                        )
                    )
    return items


def _definitions(tree: ast.Module, path: str) -> list[FactItem]:
    items = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("export_"):
            items.append(
                FactItem(node.name, path, node.lineno, {"kind": "function", "module": _module_name(path)})
            )
        elif isinstance(node, ast.ClassDef) and node.name.endswith("Exporter"):
            items.append(
                FactItem(
                    node.name,
                    path,
                    node.lineno,
                    {
                        "kind": "exporter",
                        "module": _module_name(path),
                        "bases": [ast.unparse(b) for b in node.bases],
                    },
                )
            )
    return items


def _cli_formats(snapshot: Snapshot) -> list[FactItem]:
    items: list[FactItem] = []
    flags, _ = cli_flags.extract(snapshot)
    for flag in flags:
        if not FORMAT_FLAGS & set(flag.attrs.get("options", [])):
            continue
        choices = flag.attrs.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            if isinstance(choice, str):
                items.append(
                    FactItem(
                        choice,
                        flag.file,
                        flag.line,
                        {"kind": "format", "flag": flag.name, "script": flag.attrs["script"]},
                    )
                )
    return items


def extract(snapshot: Snapshot) -> tuple[list[FactItem], list[str]]:
    """Export API/format items; unavailable paths are those of the CLI scripts the snapshot cannot show."""
    items: list[FactItem] = []
    for path in ALL_MODULES:
        text = read(snapshot, path)
        tree = parse_text(text, path) if text is not None else None
        if tree is not None:
            items += _all_items(tree, path)
    for path in snapshot.files(EXPORT_TREE):
        if path.endswith(".py"):
            text = read(snapshot, path) or ""
            if "def export_" in text or "Exporter" in text:
                tree = parse_text(text, path)
                if tree is not None:
                    items += _definitions(tree, path)
    items += _cli_formats(snapshot)
    unavailable = [] if snapshot.covers(cli_flags.EXAMPLE_SCRIPT) else [cli_flags.EXAMPLE_SCRIPT]
    return sorted(items), sorted(unavailable)
