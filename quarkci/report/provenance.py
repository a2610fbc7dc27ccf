"""Which CI run wrote a sync report, so that a publisher never shows another run's report as this one's.

A report directory can hold a stale ``validation_report.json``: one committed in the pull request, or
left by an earlier step or run on a self-hosted runner's workspace, when ``quarkci sync`` fails before
writing its own. ``sync`` records the run that wrote the report (``run_id``) and every publisher compares
it with the run it publishes for:

* the run id is ``$QUARKCI_RUN_ID`` when set (the ``skill-sync`` action sets one per invocation:
  ``<run id>.<attempt>.<random>``), else ``<GITHUB_RUN_ID>.<GITHUB_RUN_ATTEMPT>`` inside Actions, else
  none (a local run: nothing to compare);
* ``quarkci report github`` expects the id of its own run (the same rule), ``quarkci report markdown
  --expect-run RUN`` (publish-report.yml: the triggering run's ``<id>.<attempt>``) expects that run;
  an id equal to the expected one or starting with it and a ``.`` matches.

The PTQ and day-0 reports (written on a GPU runner that runs untrusted model code) also record the commit
their run ran on (``head_sha``, ``$GITHUB_SHA``); their publisher (``report markdown --expect-head-sha``)
refuses a report of another commit before the comment's PR head is checked against the same SHA.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

RUN_ID_ENV = "QUARKCI_RUN_ID"
MAX_RUN_ID = 200


def current_run_id(environ: Mapping[str, str] | None = None) -> str | None:
    """The id of the run this process belongs to (the rule in the module docstring), or None outside CI.
    A value is cut to :data:`MAX_RUN_ID` characters (the schema's bound)."""
    env = os.environ if environ is None else environ
    if value := env.get(RUN_ID_ENV, "").strip():
        return value[:MAX_RUN_ID]
    if run := env.get("GITHUB_RUN_ID", "").strip():
        return f"{run}.{env.get('GITHUB_RUN_ATTEMPT', '').strip() or '1'}"[:MAX_RUN_ID]
    return None


def current_head_sha(environ: Mapping[str, str] | None = None) -> str | None:
    """The commit this CI run runs on (``$GITHUB_SHA``, 40 lowercase hex digits), or None outside CI."""
    env = os.environ if environ is None else environ
    sha = env.get("GITHUB_SHA", "").strip().lower()
    return sha if re.fullmatch(r"[0-9a-f]{40}", sha) else None


def provenance(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{"run_id": ..., "head_sha": ...}`` of this run, each only when known (empty outside CI)."""
    found = {"run_id": current_run_id(environ), "head_sha": current_head_sha(environ)}
    return {key: value for key, value in found.items() if value}


def other_commit_reason(report: Mapping[str, Any], expected: str) -> str | None:
    """Why ``report`` is not commit ``expected``'s (a sentence), or None when it is or nothing is expected."""
    if not expected:
        return None
    written = report.get("head_sha")
    if not isinstance(written, str) or not written:
        return (
            f"it names no commit (expected {expected}): a report not written by the run it is published for"
        )
    if written != expected.strip().lower():
        return f"it was written for commit {written}, not for {expected}"
    return None


def run_matches(run_id: str, expected: str) -> bool:
    """Whether a report's ``run_id`` belongs to run ``expected`` (equal, or ``expected`` + ``.`` + more)."""
    return bool(expected) and (run_id == expected or run_id.startswith(expected + "."))


def stale_reason(report: Mapping[str, Any], expected: str | None) -> str | None:
    """Why ``report`` is not run ``expected``'s (a sentence), or None when it is, or nothing is expected."""
    if not expected:
        return None
    written = report.get("run_id")
    if not isinstance(written, str) or not written:
        return f"it names no run (expected run {expected}): a report not written by this run's quarkci sync"
    if not run_matches(written, expected):
        return f"it was written by run {written}, not by run {expected}"
    return None
