"""Conventions every workflow and composite action of the suite follows, as one checker.

:func:`violations` returns one line per broken convention: top-level ``permissions: {}``, explicit
per-job permissions, a timeout on every job, third-party actions pinned to full commit SHAs with a
``# vX`` comment, checkouts with ``persist-credentials: false``, no ``${{ }}`` inside ``run:``
scripts, no ``pull_request_target``.
"""

from __future__ import annotations

import re

import yaml

from tests.workflows.conftest import steps_of

PINNED = re.compile(r"^(?P<action>[\w.-]+/[\w.-]+(?:/[\w./-]+)?)@(?P<sha>[0-9a-f]{40})$")
VERSION_COMMENT = re.compile(r"#\s*v\d+(\.\d+)*\s*$")


def uses_lines(text: str):
    for line in text.splitlines():
        match = re.match(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", line)
        if match:
            yield match.group(1), match.group(2)


def violations(text: str) -> list[str]:
    """Every convention a workflow or composite action (given as YAML text) breaks, one line each."""
    document = yaml.safe_load(text)
    if True in document:
        document["on"] = document.pop(True)
    found = []
    if "jobs" in document:
        if document.get("permissions") != {}:
            found.append("top-level permissions are not {}")
        if "pull_request_target" in (document.get("on") or {}):
            found.append("pull_request_target trigger")
        for name, job in document["jobs"].items():
            if "permissions" not in job:
                found.append(f"job {name}: no explicit permissions")
            if "uses" not in job and not (
                isinstance(job.get("timeout-minutes"), int) and 0 < job["timeout-minutes"] <= 360
            ):
                found.append(f"job {name}: no timeout-minutes (1..360)")
    for uses, rest in uses_lines(text):
        if uses.startswith(("./", "$/")):
            continue
        if not PINNED.match(uses):
            found.append(f"{uses}: not pinned to a full commit SHA")
        elif not VERSION_COMMENT.search(rest):
            found.append(f"{uses}: no '# vX' comment")
    for step in steps_of(document):
        if (
            str(step.get("uses", "")).startswith("actions/checkout@")
            and (step.get("with") or {}).get("persist-credentials") is not False
        ):
            found.append(f"step {step.get('name')}: checkout persists credentials")
        if "${{" in step.get("run", ""):
            found.append(f"step {step.get('name')}: expression inside run")
    return found
