"""The one producer of the ``validation_report`` artifact (``.md``, ``.json``, ``.sarif``).

Every format is rendered first (the JSON is validated against its schema while rendering), then
each file is written atomically - the JSON and Markdown through the one artifact writer
(``write_artifact_text("validation_report", ...)``) - so a failure leaves the previous report intact.
"""

from __future__ import annotations

from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import write_artifact_text
from quarkci.core.errors import BadInputError
from quarkci.report import json_report, markdown, sarif
from quarkci.report.provenance import current_run_id
from quarkci.sync.outcome import SyncOutcome

REPORT_MD = "validation_report.md"
REPORT_JSON = "validation_report.json"
REPORT_SARIF = "validation_report.sarif"


def write_reports(outcome: SyncOutcome, out: Path, prefix: str = "") -> tuple[str, str]:
    """Render and write ``out/validation_report.{json,md,sarif}``; return (json_text, md_text).

    ``prefix`` is prepended to skill paths in SARIF locations (repository-relative paths). The JSON
    records the CI run writing it (:func:`quarkci.report.provenance.current_run_id`), so a publisher can
    tell this run's report from a stale one.
    Raises ``jsonschema.ValidationError`` (a bug) before anything is written if the JSON breaks
    its schema, and :class:`~quarkci.core.errors.BadInputError` if ``out`` cannot be written.
    """
    json_text = json_report.render(outcome, current_run_id())
    md_text = markdown.render(outcome)
    sarif_text = sarif.render(outcome, prefix)
    try:
        write_artifact_text("validation_report", out / REPORT_JSON, json_text)
        write_artifact_text("validation_report", out / REPORT_MD, md_text)
        atomic_write_text(out / REPORT_SARIF, sarif_text)  # SARIF: a view for code scanning, not an artifact
    except OSError as exc:
        raise BadInputError(f"cannot write reports to {out}: {exc.strerror or exc}") from None
    return json_text, md_text
