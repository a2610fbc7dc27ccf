"""GitHub Actions rendering of a ``quarkci sync`` report directory: outputs, job summary, annotations.

Reads ``REPORT_DIR/validation_report.json`` (the wire contract in quarkci/core/schemas/
validation_report.schema.json), published only when this run wrote it (its ``run_id``,
:mod:`quarkci.report.provenance`), then:

- appends step outputs to ``$GITHUB_OUTPUT``: status, breaking, semantic, mechanical, unverifiable,
  upstream-version, changed-files (a JSON array), report-md, report-json;
- appends the Markdown report, re-rendered from the JSON through the one escaper (never the ``.md``
  on disk: no raw HTML), to ``$GITHUB_STEP_SUMMARY`` (cut at GitHub's 1 MiB step-summary limit, with a
  pointer to the artifact);
- prints at most 10 workflow-command annotations (``::error file=...,line=...``) for findings that
  point at a skill file present in the workspace, most severe first;
- with ``--stage-changed DIR``, copies the files ``--fix`` rewrote into DIR (relative paths kept) so
  that a later job can deliver them;
- outside Actions (``$GITHUB_OUTPUT`` / ``$GITHUB_STEP_SUMMARY`` not set) prints what it would have
  written there instead (:func:`outside_actions`).

Run as ``quarkci report github --report-dir DIR [--stage-changed DIR]`` by the ``skill-sync``
composite action; the workflow YAML only calls it. Exit code 0 once arguments parse (a missing report
is reported in the summary, and the action's next step fails on the sync exit code); 2 for bad
arguments or a changed file outside the workspace.
"""

# No `from __future__ import annotations`: this module's public `annotations()` would shadow it.
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from quarkci.core.documents import json_path, read_artifact
from quarkci.core.errors import BadInputError
from quarkci.core.escape import escape_data, escape_property, log_line, plain, shorten
from quarkci.core.levels import annotation_level
from quarkci.core.paths import check_inside, check_output_outside_skills, check_path_name, check_relative_file
from quarkci.core.step_outputs import write_outputs
from quarkci.report.lines import emit_command
from quarkci.report.markdown import render_json
from quarkci.report.provenance import current_run_id, stale_reason

MAX_ANNOTATIONS = 10
# GitHub rejects a step summary over 1 MiB; keep a margin for the truncation note.
SUMMARY_LIMIT_BYTES = 1_000_000
MESSAGE_LIMIT_CHARS = 400
KINDS = ("breaking", "semantic", "mechanical", "unverifiable")
ANNOTATED_KINDS = ("breaking", "semantic", "mechanical")  # unverifiable claims are not drift


def _workspace_path(skills_root: str, file: str, workspace: Path) -> str | None:
    """Return the finding's file as a POSIX path relative to ``workspace``, or None when it is not a
    file inside the workspace (bundled skills, absolute paths elsewhere, ``..`` escapes)."""
    candidate = (workspace / skills_root / file).resolve()
    try:
        rel = candidate.relative_to(workspace.resolve())
    except ValueError:
        return None
    return rel.as_posix() if candidate.is_file() else None


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


def check_report_paths(report: dict[str, Any], where: str) -> dict[str, Any]:
    """Check every path a contract-valid report names: each changed file a normalised relative file
    path, each finding's file name one the file system can look up (no component over 255 bytes).
    A problem names ``where`` and the field's JSON path (``$.changed_files[0]``,
    :func:`quarkci.core.documents.json_path`).

    Returns ``report``. Raises :class:`BadInputError` with the first problem.
    """
    for index, name in enumerate(report.get("changed_files") or []):
        check_relative_file(name, f"{where}: {json_path(['changed_files', index])}")
    for index, finding in enumerate(report.get("findings") or []):
        for key in ("skill_location", "source_location", "fix"):
            file = (finding.get(key) or {}).get("file")
            if file:
                check_path_name(file, f"{where}: {json_path(['findings', index, key, 'file'])}")
    if report.get("skills_root"):
        check_path_name(str(report["skills_root"]), f"{where}: {json_path(['skills_root'])}")
    return report


def plan_staging(changed_files: list[str], workspace: Path) -> list[tuple[Path, str]]:
    """The copies :func:`stage_changed` would make, as ``(source file, relative path)``, all checked
    before the first one is made.

    The report is untrusted (a fork PR's checkout is the workspace), so each path is checked as
    ``gh pr`` checks the files it commits (:func:`quarkci.github.report_input.read_changed_files`): a
    relative file path (:func:`quarkci.core.paths.check_relative_file`: no ``..``, no over-long name),
    resolving inside ``workspace`` with symbolic links followed (:func:`quarkci.core.paths.check_inside`:
    ``link/secret.txt`` under a link ``link -> ..`` is refused), a regular file. Raises
    :class:`~quarkci.core.errors.BadInputError` naming ``--stage-changed`` and the file otherwise.
    """
    base = workspace.resolve()
    plan: list[tuple[Path, str]] = []
    for name in changed_files:
        where = f"--stage-changed: changed file {name!r}"
        if not isinstance(name, str):
            raise BadInputError(f"{where}: not a path")
        rel = check_relative_file(name, where)
        source = check_inside(base / rel, base, where)
        try:
            regular = source.is_file()
        except OSError:
            regular = False
        if not regular:
            raise BadInputError(f"{where}: not a regular file in the workspace")
        plan.append((source, rel.as_posix()))
    return plan


def stage_changed(changed_files: list[str], workspace: Path, dest: Path) -> list[str]:
    """Copy each changed file (relative to ``workspace``) to ``dest`` keeping its relative path. The whole
    plan is checked first (:func:`plan_staging`), so a bad name copies nothing; each copy must resolve
    inside ``dest`` too (a link planted there is refused).

    Returns the paths copied. Raises :class:`~quarkci.core.errors.BadInputError` naming
    ``--stage-changed`` for a bad name, and when ``dest`` cannot be written.
    """
    plan = plan_staging(changed_files, workspace)
    copied = []
    try:
        dest.mkdir(parents=True, exist_ok=True)
        dest_root = dest.resolve()
        for source, rel in plan:
            target = check_inside(dest_root / rel, dest_root, f"--stage-changed: copy of {rel!r}")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
            copied.append(rel)
    except OSError as exc:
        raise BadInputError(f"--stage-changed {dest}: cannot write ({exc.strerror or exc})") from None
    return copied


def outside_actions(
    values: dict[str, str], summary_text: str, report_json: Path | None, env: dict[str, str] | None = None
) -> list[str]:
    """What ``report github`` would have written, as lines to print, for each of ``$GITHUB_OUTPUT``
    and ``$GITHUB_STEP_SUMMARY`` that is not set (a run outside GitHub Actions): every step output as
    ``name=value`` (a JSON string where the value spans lines), and the job summary's size, first
    line and the command that writes it in full. Empty inside Actions (both set)."""
    env = dict(os.environ) if env is None else env
    lines: list[str] = []
    if not env.get("GITHUB_OUTPUT"):
        lines.append(
            "quarkci: GITHUB_OUTPUT is not set (not a GitHub Actions step); the step outputs would be:"
        )
        lines += [
            f"  {key}={json.dumps(value) if chr(10) in value or chr(13) in value else value}"
            for key, value in values.items()
        ]
    if not env.get("GITHUB_STEP_SUMMARY"):
        first = next(
            (line for line in summary_text.splitlines() if line.strip() and not line.startswith("<!--")), ""
        )
        size = len(summary_text.encode("utf-8"))
        lines.append(
            f"quarkci: GITHUB_STEP_SUMMARY is not set; the job summary would be {size} bytes of Markdown "
            f"({len(summary_text.splitlines())} lines) starting: {first}"
        )
        if report_json is not None:
            lines.append(
                f"  write it in full with: quarkci report markdown --report-json {report_json} --output FILE"
            )
    return lines


def check_stage_dir(stage_to: Path, report_dir: Path, workspace: Path) -> None:
    """Check, before anything is written, that staging into ``stage_to`` cannot replace what this command
    reads: it is not, and does not contain, ``--workspace`` or ``--report-dir`` (the changed files or the
    report would be overwritten by their own copies), and inside the workspace it is not inside a skill
    (:func:`~quarkci.core.paths.check_output_outside_skills`: the copies would become that skill's files).
    A directory beside the report (``reports/changed-files``) is fine.

    Raises :class:`BadInputError` naming ``--stage-changed``.
    """
    check_output_outside_skills(stage_to, "--stage-changed", workspace, "--workspace")
    stage, folder = stage_to.resolve(), report_dir.resolve()
    if stage == folder or stage in folder.parents:
        relation = "is" if stage == folder else "contains"
        raise BadInputError(f"--stage-changed {stage_to}: {relation} the --report-dir directory {report_dir}")


def publish(report_dir: Path, workspace: Path, stage_to: str = "") -> int:
    """Write outputs and the job summary (when ``$GITHUB_OUTPUT`` / ``$GITHUB_STEP_SUMMARY`` are set),
    print the annotations, and stage the files ``--fix`` changed into ``stage_to`` (when given).

    Only this run's report is published: one whose ``run_id`` is another run's, or that names no run
    while this process runs in CI (:mod:`quarkci.report.provenance`: a stale report committed in a PR or
    left in the directory), is treated as no report and the summary says why. The summary is the
    Markdown re-rendered from the JSON through the one escaper (:func:`quarkci.report.markdown.render_json`),
    never ``validation_report.md`` as it is on disk, so it renders no raw HTML.

    Everything is read and checked before the first write: the report against its contract
    (:func:`~quarkci.core.documents.read_artifact`), its paths (:func:`check_report_paths`) and the
    staging plan (:func:`plan_staging`). Returns 0. Raises
    :class:`~quarkci.core.errors.BadInputError` (nothing written) for an unreadable or invalid report JSON
    (shared loader: size cap, nesting limit) and for a changed file that is not a relative file path,
    outside the workspace or missing from it.
    """
    report_json = report_dir / "validation_report.json"
    report = (
        check_report_paths(read_artifact("validation_report", report_json), str(report_json))
        if report_json.is_file()
        else None
    )
    stale = stale_reason(report, current_run_id()) if report is not None else None
    if stale is not None:
        report = None
    markdown = render_json(report, str(report_json)) if report is not None else None
    changed = list(report.get("changed_files") or []) if report is not None else []
    if stage_to:
        check_path_name(stage_to, "--stage-changed")
        check_stage_dir(Path(stage_to), report_dir, workspace)
        plan_staging(changed, workspace)  # refused here, before any output is written

    values = outputs(report, report_dir)
    if markdown is not None:
        summary_text = summary(markdown)
    elif stale is not None:
        summary_text = (
            "**quarkci sync wrote no report for this run**: the report in the report directory is "
            f"not this run's ({plain(stale)}); it is not published. See the step log for the error.\n"
        )
    else:
        summary_text = "**quarkci sync wrote no report**: see the step log for the error.\n"
    write_outputs(values)  # the one step-output writer (heredocs with a random delimiter)
    if summary_file := os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(summary_file, "a", encoding="utf-8") as fh:
            fh.write(summary_text)
    for line in outside_actions(values, summary_text, report_json if markdown is not None else None):
        print(log_line(line))
    if report is None:
        reason = (
            f"{report_dir}: the report there is not this run's: {stale}"
            if stale
            else f"no report in {report_dir}"
        )
        print(log_line(f"quarkci: {reason}"), file=sys.stderr)
        return 0
    for line in annotations(report, workspace):
        emit_command(line)  # the deliberate commands, escaped; everything else is guarded
    if stage_to:
        copied = stage_changed(changed, workspace, Path(stage_to))
        print(log_line(f"quarkci: staged {len(copied)} changed file(s) in {stage_to}"))
    return 0
