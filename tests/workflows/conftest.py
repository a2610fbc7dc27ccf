"""Shared helpers for the workflow tests: the repository's workflows and actions, parsed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from quarkci.core.documents import parse_document

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONS = sorted((ROOT / "actions").glob("*/action.yml"))


def load(path: Path) -> dict[str, Any]:
    """Parse a workflow or action file as GitHub reads it (the product's own parser: ``on`` is a string key)."""
    data: dict[str, Any] = parse_document(path.read_text(encoding="utf-8"), str(path), fmt="workflow")
    return data


def steps_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a workflow (all jobs) or of a composite action."""
    if "jobs" in document:
        return [step for job in document["jobs"].values() for step in job.get("steps", [])]
    return list((document.get("runs") or {}).get("steps", []))


@pytest.fixture(scope="session")
def workflows() -> dict[str, dict[str, Any]]:
    return {path.name: load(path) for path in WORKFLOWS}


@pytest.fixture(scope="session")
def actions() -> dict[str, dict[str, Any]]:
    return {path.parent.name: load(path) for path in ACTIONS}
