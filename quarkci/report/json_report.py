"""``validation_report.json``: the DTO, checked against the ``validation_report`` contract before it is
written (:func:`quarkci.core.documents.check_produced`, the one validator)."""

from __future__ import annotations

from quarkci.core.documents import check_produced, dump_json
from quarkci.report.dto import build
from quarkci.sync.outcome import SyncOutcome


def render(outcome: SyncOutcome, run_id: str | None = None) -> str:
    """The JSON text: schema-valid, sorted keys, 2-space indent, final newline; byte-identical for
    identical input. ``run_id`` (:mod:`quarkci.report.provenance`) is recorded when given. Raises
    ``ValueError`` (a bug in the DTO: :func:`quarkci.core.documents.check_produced`) when the DTO breaks the
    contract."""
    document = build(outcome).to_json()
    if run_id:
        document["run_id"] = run_id
    check_produced(document, "validation_report")
    return dump_json(document)
