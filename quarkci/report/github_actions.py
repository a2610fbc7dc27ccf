"""GitHub Actions rendering of a ``quarkci sync`` report directory: outputs, job summary, annotations.

Reads ``REPORT_DIR/validation_report.json`` (the wire contract in quarkci/core/schemas/
validation_report.schema.json) and ``validation_report.md``, then:

- appends step outputs to ``$GITHUB_OUTPUT``: status, breaking, semantic, mechanical, unverifiable,
  upstream-version, changed-files (a JSON array), report-md, report-json;
- appends the Markdown report to ``$GITHUB_STEP_SUMMARY`` (cut at GitHub's 1 MiB step-summary limit,
  with a pointer to the artifact);
- prints at most 10 workflow-command annotations (``::error file=...,line=...``) for findings that
  point at a skill file present in the workspace, most severe first;
- with ``--stage-changed DIR``, copies the files ``--fix`` rewrote into DIR (relative paths kept) so
  that a later job can deliver them.

Run as ``quarkci report github --report-dir DIR [--stage-changed DIR]`` by the ``skill-sync``
composite action; the workflow YAML only calls it. Exit code 0 once arguments parse (a missing report
is reported in the summary, and the action's next step fails on the sync exit code); 2 for bad
arguments, a report that breaks its contract or names an impossible path, or a changed file outside the
workspace: all checked before anything is written.
"""

# No `from __future__ import annotations`: this module's public `annotations()` would shadow it.
import json
import os
import secrets
import shutil
import sys
from pathlib import Path
from typing import Any

from quarkci.core.documents import check_document, load_document
from quarkci.core.errors import BadInputError
from quarkci.core.escape import escape_data, escape_property, shorten
from quarkci.core.levels import annotation_level
from quarkci.core.paths import check_path_name, check_relative_file
from quarkci.report.lines import emit_command

MAX_ANNOTATIONS = 10
# GitHub rejects a step summary over 1 MiB; keep a margin for the truncation note.
SUMMARY_LIMIT_BYTES = 1_000_000
MESSAGE_LIMIT_CHARS = 400
KINDS = ("breaking", "semantic", "mechanical", "unverifiable")
ANNOTATED_KINDS = ("breaking", "semantic", "mechanical")  # unverifiable claims are not drift


def _workspace_path(skills_root: str, file: str, workspace: Path) -> str | None:
    """Return the finding's file as a POSIX path relative to ``workspace``, or None when it is not a
    file inside the workspace (bundled skills, absolute paths elsewhere, ``..`` escapes, a link loop or a
    name the file system refuses)."""
    try:
        candidate = (workspace / skills_root / file).resolve()
        rel = candidate.relative_to(workspace.resolve())
        return rel.as_posix() if candidate.is_file() else None
    except (ValueError, OSError, RuntimeError):  # RuntimeError: Path.resolve() of a symlink loop (3.11, 3.12)
        return None


def annotations(report: dict[str, Any], workspace: Path, limit: int = MAX_ANNOTATIONS) -> list[str]:
    """Build at most ``limit`` workflow-command lines for the report's findings.

    Only breaking, semantic and mechanical findings whose ``skill_location`` names a file inside
    ``workspace`` are annotated (unverifiable claims are not drift). Order: the report's own order,
    which is severity first. Every untrusted string is escaped.
    """
    lines: list[str] = []
    skills_root = str(report.get("skills_root") or ".")
    for finding in report.get("findings", []):
        kind = finding.get("kind", "")
        location = finding.get("skill_location") or {}
        if kind not in ANNOTATED_KINDS or not location.get("file"):
            continue
        path = _workspace_path(skills_root, str(location["file"]), workspace)
        if path is None:
            continue
        line = int(location.get("line") or 1)
        title = f"quarkci {finding['kind']}: {finding.get('rule', '')}"
        message = f"{finding.get('skill', '')}: {finding.get('skill_says', '')}; upstream: {finding.get('source_says', '')}"
        message = shorten(message, MESSAGE_LIMIT_CHARS)
        lines.append(
            f"::{annotation_level(kind)} file={escape_property(path)},line={line},title={escape_property(title)}::"
            f"{escape_data(message)}"
        )
        if len(lines) == limit:
            break
    return lines


def summary(markdown: str, limit_bytes: int = SUMMARY_LIMIT_BYTES) -> str:
    """Return the Markdown report, cut at a line boundary to fit ``limit_bytes`` (UTF-8) with a note."""
    data = markdown.encode("utf-8")
    if len(data) <= limit_bytes:
        return markdown
    cut = data[:limit_bytes].decode("utf-8", errors="ignore").rsplit("\n", 1)[0]
    return cut + "\n\n_Report cut to fit the job summary; the full report is in the workflow artifact._\n"


def outputs(report: dict[str, Any] | None, report_dir: Path) -> dict[str, str]:
    """Map a report (None when none was written) to the action's step outputs."""
    if report is None:
        return {"status": "", "changed-files": "[]", "report-md": "", "report-json": ""}
    counts = report.get("counts") or {}
    upstream = report.get("upstream") or {}
    values = {kind: str(int(counts.get(kind, 0))) for kind in KINDS}
    values.update(
        {
            "status": str(report.get("status", "")),
            "upstream-version": str(upstream.get("version", "")),
            "changed-files": json.dumps(list(report.get("changed_files") or []), separators=(",", ":")),
            "report-md": str(report_dir / "validation_report.md"),
            "report-json": str(report_dir / "validation_report.json"),
        }
    )
    return values


def check_report(report: Any, where: str) -> dict[str, Any]:
    """Check a parsed ``validation_report.json`` before anything is written from it: its contract (the
    JSON Schema ``quarkci/core/schemas/validation_report.schema.json``: integer counts, ``findings`` an
    array of findings with integer lines, ``changed_files`` an array of strings...), then every path it
    names: each changed file a normalised relative file path, each finding's file name one the file
    system can look up (no component over 255 bytes).

    Returns ``report``. Raises :class:`BadInputError` with the first problem, naming ``where``.
    """
    check_document(report, "validation_report", where)
    assert isinstance(report, dict)  # the contract's root is an object
    for index, name in enumerate(report.get("changed_files") or []):
        check_relative_file(name, f"{where}: changed_files[{index}]")
    for index, finding in enumerate(report.get("findings") or []):
        for key in ("skill_location", "source_location", "fix"):
            file = (finding.get(key) or {}).get("file")
            if file:
                check_path_name(file, f"{where}: findings[{index}].{key}.file")
    if report.get("skills_root"):
        check_path_name(str(report["skills_root"]), f"{where}: skills_root")
    return report


def plan_staging(changed_files: list[str], workspace: Path) -> list[tuple[Path, str]]:
    """The copies :func:`stage_changed` would make, as ``(source file, relative path)``, all checked
    before the first one is made: each name a relative file path (:func:`check_relative_file`), its file
    inside ``workspace`` once symbolic links are resolved, and a regular file.

    Raises :class:`BadInputError` naming the file otherwise.
    """
    root = workspace.resolve()
    plan: list[tuple[Path, str]] = []
    for name in changed_files:
        rel = check_relative_file(name, "changed file")
        source = workspace / rel
        try:
            resolved = source.resolve()
            inside = resolved.is_relative_to(root)
            regular = inside and resolved.is_file()
        except (OSError, RuntimeError):  # RuntimeError: a symlink loop
            inside = regular = False
        if not inside:
            raise BadInputError(f"changed file {name!r}: outside the workspace {workspace}")
        if not regular:
            raise BadInputError(f"changed file {name!r}: not a regular file in the workspace {workspace}")
        plan.append((source, rel.as_posix()))
    return plan


def stage_changed(changed_files: list[str], workspace: Path, dest: Path) -> list[str]:
    """Copy each changed file (relative to ``workspace``) to ``dest`` keeping its relative path; the whole
    plan is checked first (:func:`plan_staging`), so a bad name copies nothing.

    Returns the paths copied. Raises :class:`BadInputError` for a name that is not a relative file path,
    leaves the workspace or is not a regular file there, and when ``dest`` cannot be written.
    """
    plan = plan_staging(changed_files, workspace)
    copied = []
    for source, rel in plan:
        target = dest / rel
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        except OSError as exc:
            raise BadInputError(
                f"--stage-changed {dest}: cannot write {rel} ({exc.strerror or exc})"
            ) from None
        copied.append(rel)
    return copied


def read_summary(report_md: Path, limit_bytes: int = SUMMARY_LIMIT_BYTES) -> str | None:
    """The job summary from ``report_md`` (None when there is none): at most ``limit_bytes`` (+ the cut
    note) read, undecodable bytes replaced, so a huge or binary file costs nothing.

    Raises :class:`BadInputError` when the file exists but cannot be read.
    """
    if not report_md.is_file():
        return None
    try:
        with open(report_md, "rb") as fh:
            data = fh.read(limit_bytes + 1)
    except OSError as exc:
        raise BadInputError(f"{report_md}: cannot read ({exc.strerror})") from None
    return summary(data.decode("utf-8", errors="replace"), limit_bytes)


def _append_outputs(path: str, values: dict[str, str]) -> None:
    # The heredoc form with a random delimiter: a value holding a newline cannot forge another output.
    with open(path, "a", encoding="utf-8") as fh:
        for key, value in values.items():
            delimiter = f"ghadelimiter_{secrets.token_hex(8)}"
            fh.write(f"{key}<<{delimiter}\n{value}\n{delimiter}\n")


def publish(report_dir: Path, workspace: Path, stage_to: str = "") -> int:
    """Write outputs and the job summary (when ``$GITHUB_OUTPUT`` / ``$GITHUB_STEP_SUMMARY`` are set),
    print the annotations, and stage the files ``--fix`` changed into ``stage_to`` (when given).

    Everything is read and checked before the first write: the report against its contract and its
    paths (:func:`check_report`), the Markdown summary (bounded) and the staging plan
    (:func:`plan_staging`). Returns 0. Raises :class:`~quarkci.core.errors.BadInputError` (nothing
    written) for an unreadable or invalid report JSON (shared loader: size cap, nesting limit) and for a
    changed file that is not a relative file path, outside the workspace or missing from it.
    """
    report_json = report_dir / "validation_report.json"
    report_md = report_dir / "validation_report.md"
    report = check_report(load_document(report_json), str(report_json)) if report_json.is_file() else None
    markdown = read_summary(report_md)
    changed = list(report.get("changed_files") or []) if report is not None else []
    if stage_to:
        check_path_name(stage_to, "--stage-changed")
        plan_staging(changed, workspace)  # refused here, before any output is written

    if output_file := os.environ.get("GITHUB_OUTPUT"):
        _append_outputs(output_file, outputs(report, report_dir))
    if summary_file := os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(summary_file, "a", encoding="utf-8") as fh:
            if markdown is not None:
                fh.write(markdown)
            else:
                fh.write("**quarkci sync wrote no report**: see the step log for the error.\n")
    if report is None:
        print(f"quarkci: no report in {report_dir}", file=sys.stderr)
        return 0
    for line in annotations(report, workspace):
        emit_command(line)  # the deliberate commands, escaped; everything else is guarded
    if stage_to:
        copied = stage_changed(changed, workspace, Path(stage_to))
        print(f"quarkci: staged {len(copied)} changed file(s) in {stage_to}")
    return 0
