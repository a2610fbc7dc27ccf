"""The interfaces of this repository's composite actions and workflows, read from their YAML files.

An action's interface is its ``inputs`` and ``outputs`` (GitHub's ``action.yml`` metadata syntax); a
workflow's is, per trigger that takes inputs (``workflow_call``, ``workflow_dispatch``), its ``inputs``,
plus the ``outputs`` and ``secrets`` of ``workflow_call`` (GitHub's workflow syntax, ``on.<trigger>``).
Files are read through :func:`quarkci.core.documents.parse_document` with ``fmt="workflow"`` (``on`` is a
string key, as GitHub reads it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quarkci.core.documents import parse_document
from quarkci.core.errors import BadInputError

ACTIONS_DIR = "actions"
WORKFLOWS_DIR = ".github/workflows"
TRIGGERS_WITH_INPUTS = ("workflow_call", "workflow_dispatch")


@dataclass(frozen=True)
class Field:
    """One input, output or secret as declared; ``has_default`` tells an absent default from ``""``."""

    name: str
    description: str = ""
    required: bool = False
    has_default: bool = False
    default: Any = None
    type: str = ""  # workflow inputs only: string, boolean, number, choice, environment
    options: tuple[str, ...] = ()  # a choice input's options


@dataclass(frozen=True)
class Interface:
    """What one action or workflow file declares.

    ``path`` is relative to the repository root with ``/`` separators: ``actions/<name>`` for an action
    (its ``uses:`` path), ``.github/workflows/<file>`` for a workflow. ``inputs`` maps a trigger
    (``"action"`` for an action) to its inputs, in file order; ``triggers`` lists every ``on:`` key.
    ``document`` is the parsed file, for readers of other keys (jobs and their permissions).
    """

    path: str
    kind: str  # "action" or "workflow"
    name: str
    description: str
    triggers: tuple[str, ...]
    inputs: dict[str, tuple[Field, ...]]
    outputs: tuple[Field, ...] = ()
    secrets: tuple[Field, ...] = ()
    document: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def reusable(self) -> bool:
        """True for a workflow another workflow can call (``on: workflow_call``)."""
        return "workflow_call" in self.triggers

    @property
    def dispatchable(self) -> bool:
        """True for a workflow with ``on: workflow_dispatch``."""
        return "workflow_dispatch" in self.triggers


def load(path: Path, where: str) -> dict[str, Any]:
    """The action or workflow file at ``path`` as a mapping (``where`` names it in errors).

    Raises :class:`BadInputError` (one line) when it is unreadable, not YAML or not a mapping.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{where}: cannot read: {exc}") from None
    document = parse_document(text, where, fmt="workflow")
    if not isinstance(document, dict):
        raise BadInputError(f"{where}: not a mapping")
    return document


def triggers(document: dict[str, Any]) -> dict[str, Any]:
    """``on:`` as a mapping of trigger -> its settings (``on: push``, ``on: [push]``: ``{"push": None}``)."""
    on = document.get("on")
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return {str(e): None for e in on}
    return dict(on) if isinstance(on, dict) else {}


def read_action(root: Path, directory: str) -> Interface:
    """The interface of ``actions/<directory>/action.yml`` (``action.yaml`` too) under ``root``."""
    base = root / ACTIONS_DIR / directory
    path = base / "action.yml" if (base / "action.yml").is_file() else base / "action.yaml"
    where = path.relative_to(root).as_posix()
    document = load(path, where)
    return Interface(
        path=f"{ACTIONS_DIR}/{directory}",
        kind="action",
        name=str(document.get("name", directory)),
        description=str(document.get("description") or ""),
        triggers=(),
        inputs={"action": _fields(document.get("inputs"), f"{where}: inputs")},
        outputs=_fields(document.get("outputs"), f"{where}: outputs"),
        document=document,
    )


def read_workflow(root: Path, filename: str) -> Interface:
    """The interface of ``.github/workflows/<filename>`` under ``root``."""
    where = f"{WORKFLOWS_DIR}/{filename}"
    document = load(root / WORKFLOWS_DIR / filename, where)
    on = triggers(document)
    inputs = {
        t: _fields((on[t] or {}).get("inputs"), f"{where}: on.{t}.inputs")
        for t in TRIGGERS_WITH_INPUTS
        if t in on and isinstance(on[t] or {}, dict)
    }
    call = on.get("workflow_call") or {}
    if not isinstance(call, dict):
        raise BadInputError(f"{where}: on.workflow_call is not a mapping")
    return Interface(
        path=where,
        kind="workflow",
        name=str(document.get("name", filename)),
        description="",
        triggers=tuple(on),
        inputs=inputs,
        outputs=_fields(call.get("outputs"), f"{where}: on.workflow_call.outputs"),
        secrets=_fields(call.get("secrets"), f"{where}: on.workflow_call.secrets"),
        document=document,
    )


def read_all(root: Path) -> tuple[list[Interface], list[Interface]]:
    """Every action (sorted by directory) and every workflow (sorted by file name) under ``root``.

    Raises :class:`BadInputError` naming the file when one cannot be read.
    """
    actions_dir = root / ACTIONS_DIR
    actions = [
        read_action(root, p.name)
        for p in sorted(actions_dir.iterdir() if actions_dir.is_dir() else [])
        if (p / "action.yml").is_file() or (p / "action.yaml").is_file()
    ]
    workflows_dir = root / WORKFLOWS_DIR
    workflows = [
        read_workflow(root, p.name)
        for p in sorted(workflows_dir.iterdir() if workflows_dir.is_dir() else [])
        if p.suffix in (".yml", ".yaml") and p.is_file()
    ]
    return actions, workflows


def _fields(section: Any, where: str) -> tuple[Field, ...]:
    if section is None:
        return ()
    if not isinstance(section, dict):
        raise BadInputError(f"{where}: not a mapping")
    out = []
    for name, spec in section.items():
        spec = spec if isinstance(spec, dict) else {}
        options = spec.get("options") or ()
        if not isinstance(options, list | tuple):
            raise BadInputError(f"{where}.{name}.options: not a list")
        out.append(
            Field(
                name=str(name),
                description=str(spec.get("description") or ""),
                required=spec.get("required") is True,
                has_default="default" in spec,
                default=spec.get("default"),
                type=str(spec.get("type") or ""),
                options=tuple(str(o) for o in options),
            )
        )
    return tuple(out)
