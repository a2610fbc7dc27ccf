"""The shape of ``validation_report`` (Quark's keys). Conventions: :mod:`quarkci.core.shapes`."""

from typing import NotRequired, TypedDict


class ValidationReport(TypedDict):
    """``validation_report``: the keys Quark 0.13 defines. The contract is open; the keys of quarkci's
    own report kinds (``report_version``, ``kind``, ``findings``, ...) are written by
    :mod:`quarkci.report` from its own DTO and are not part of this shape."""

    status: str  # success | partial | failed
    summary: str
    evidence: list[str]
    next_actions: list[str]
    applied_fixes: NotRequired[list[str]]
