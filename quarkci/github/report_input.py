"""Read the sync output that delivery consumes: ``validation_report.json`` and the files ``--fix`` changed.

The report is validated against the ``validation_report`` contract (JSON Schema Draft 2020-12,
``quarkci/core/schemas/validation_report.schema.json``). Delivery needs, beyond Quark's own
keys: ``upstream.version`` (names the drift branch), ``findings`` and ``changed_files``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quarkci.core.documents import json_path, read_artifact, read_capped
from quarkci.core.errors import BadInputError
from quarkci.core.paths import check_relative_file


@dataclass(frozen=True)
class SyncReport:
    """The parts of a validation report that delivery uses. ``findings`` are the contract's dicts."""

    path: str
    version: str
    baseline: str | None
    mode: str
    summary: str
    findings: tuple[dict[str, Any], ...]
    changed_files: tuple[str, ...]
    applied_fixes: tuple[str, ...] = ()
    skills_root: str = ""

    @property
    def blocked(self) -> bool:
        """A blocked audit (upstream unreachable) says nothing about drift: deliver nothing."""
        return self.mode == "blocked"

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.findings if f["kind"] == kind]


def load_report(path: str | Path) -> SyncReport:
    """Load and validate the report at ``path`` (:func:`quarkci.core.documents.read_artifact`, the one
    reading path: bounded load, the ``validation_report`` contract, ``$.path`` in every message).

    Raises :class:`BadInputError` (exit 2) when the file is unreadable, not JSON, not valid against
    the contract, or lacks ``upstream.version`` (unless the report is a blocked audit).
    """
    data = read_artifact("validation_report", path)
    mode = data.get("mode") or "audit"
    version = (data.get("upstream") or {}).get("version") or ""
    if not version and mode != "blocked":
        raise BadInputError(
            f"{path}: {json_path(['upstream', 'version'])}: missing; the drift branch is named after it"
        )
    baseline = (data.get("baseline") or {}).get("version")
    return SyncReport(
        path=str(path),
        version=version,
        baseline=baseline,
        mode=mode,
        summary=data["summary"],
        findings=tuple(data.get("findings") or ()),
        changed_files=tuple(data.get("changed_files") or ()),
        applied_fixes=tuple(data.get("applied_fixes") or ()),
        skills_root=str(data.get("skills_root") or ""),
    )


MAX_CHANGED_FILE_BYTES = 2 * 1024 * 1024  # a file --fix rewrote is a SKILL.md; skills are read up to this too


def read_changed_files(report: SyncReport, root: str | Path) -> dict[str, bytes]:
    """``{repo path: content}`` of the files ``--fix`` rewrote, read from ``root`` (the checkout).

    Each file is at most :data:`MAX_CHANGED_FILE_BYTES` (the skill-file cap) and must be a
    regular file that resolves inside ``root`` (a symbolic link to ``/dev/zero`` or out of the checkout is
    refused). Raises :class:`BadInputError` for a name :func:`quarkci.core.paths.check_relative_file`
    refuses (absolute, ``.``/``..``, a NUL byte, a component over 255 bytes), a path leaving ``root``
    through a link, a missing, special or oversized file.
    """
    files: dict[str, bytes] = {}
    base = Path(root).resolve()
    for name in report.changed_files:
        rel = check_relative_file(name, f"{report.path}: changed file")  # the one name check (NUL, 255 bytes)
        path = (base / rel).resolve()
        if not path.is_relative_to(base):
            raise BadInputError(f"{report.path}: changed file {name!r} resolves outside the repo")
        where = f"{report.path}: changed file {name!r}"
        if not path.is_file():
            raise BadInputError(f"{where}: not a regular file")
        files[rel.as_posix()] = read_capped(path, MAX_CHANGED_FILE_BYTES, where)
    return dict(sorted(files.items()))
