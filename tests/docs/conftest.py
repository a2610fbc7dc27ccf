"""Miniature repositories for the generated README blocks: actions, workflows and a README, under tmp_path."""

from __future__ import annotations

import re
from pathlib import Path

from quarkci.core.documents import parse_document

ROOT = Path(__file__).resolve().parents[2]
README_STUB = "# x\n\nbefore\n\n<!-- generated: actions-tables -->\n<!-- /generated -->\n\nmiddle\n\n" + (
    "<!-- generated: permissions-table -->\nstale\n<!-- /generated -->\n\nafter\n"
)


def make_tree(
    root: Path, actions: dict[str, str] | None = None, workflows: dict[str, str] | None = None
) -> Path:
    """A repository under ``root`` with ``actions/<name>/action.yml`` and ``.github/workflows/<file>``."""
    for name, text in (actions or {}).items():
        (root / "actions" / name).mkdir(parents=True)
        (root / "actions" / name / "action.yml").write_text(text, encoding="utf-8")
    (root / ".github" / "workflows").mkdir(parents=True, exist_ok=True)
    for name, text in (workflows or {}).items():
        (root / ".github" / "workflows" / name).write_text(text, encoding="utf-8")
    (root / "README.md").write_text(README_STUB, encoding="utf-8")
    return root


def block(text: str, name: str) -> str:
    """The content of generated block ``name`` in ``text``."""
    start = f"<!-- generated: {name} -->\n"
    return text.split(start, 1)[1].split("<!-- /generated -->", 1)[0]


def cells(row: str) -> list[str]:
    """A Markdown table row's cells, split on the pipes that are not backslash-escaped."""
    assert row.startswith("| ") and row.endswith(" |"), row
    return [c.strip() for c in re.split(r"(?<!\\)\|", row[1:-1])]


def load(path: Path) -> dict:
    """A workflow or action file as GitHub reads it."""
    return parse_document(path.read_text(encoding="utf-8"), str(path), fmt="workflow")
