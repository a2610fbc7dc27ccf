"""What each workflow job's ``GITHUB_TOKEN`` needs, and what a job calling a reusable workflow must grant.

GitHub's rules (docs.github.com, "Reusing workflows": "Access and permissions" and "Supported keywords
for jobs that call a reusable workflow"; "Workflow syntax": ``permissions``):

* a job's token gets the job's ``permissions:``, else the workflow's top-level ``permissions:``, else the
  repository default (or, in a called workflow, whatever its caller grants);
* a called workflow can only keep or lower what its calling job grants: GitHub checks every called job's
  ``permissions:`` against the caller when the run starts, **before** any job's ``if:`` is evaluated,
  so a caller must grant the union over every job, optional ones included;
* levels are ordered ``none`` < ``read`` < ``write``; ``read-all`` / ``write-all`` set every scope,
  ``{}`` sets none.

A job that calls another workflow of this repository (``uses: ./...`` or ``$/...``) without a
``permissions:`` of its own needs what that workflow needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from quarkci.core.errors import BadInputError

LEVELS = {"none": 0, "read": 1, "write": 2}
# every scope ``permissions:`` accepts (docs.github.com, "Workflow syntax", ``permissions``)
SCOPES = (
    "actions",
    "attestations",
    "checks",
    "contents",
    "deployments",
    "discussions",
    "id-token",
    "issues",
    "models",
    "packages",
    "pages",
    "pull-requests",
    "repository-projects",
    "security-events",
    "statuses",
)
WRITE_ONLY = {"id-token": ("write", "none")}  # scopes without a read level
LOCAL_PREFIXES = ("./", "$/")

Grant = dict[str, str]  # scope -> "read" | "write" (scopes at "none" are left out)


@dataclass(frozen=True)
class JobNeed:
    """One job's need: ``permissions`` is ``None`` when nothing bounds it (no ``permissions:`` anywhere:
    the job gets all its caller has); ``source`` says where it came from (``job``, ``workflow``,
    ``calls <path>`` or ``unset``); ``condition`` is the job's ``if:`` (``""`` when it has none)."""

    job: str
    permissions: Grant | None
    source: str
    condition: str = ""


def normalise(value: Any, where: str) -> Grant:
    """A ``permissions:`` value as a grant: ``{scope: level}`` without ``none`` levels.

    Raises :class:`BadInputError` naming ``where`` for an unknown scope, level or form.
    """
    if value == "read-all":
        return {s: "read" for s in SCOPES if s not in WRITE_ONLY}
    if value == "write-all":
        return {s: "write" for s in SCOPES}
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadInputError(f"{where}: permissions must be a mapping, read-all or write-all")
    out: Grant = {}
    for scope, level in value.items():
        if scope not in SCOPES:
            raise BadInputError(f"{where}: unknown permission scope {scope!r}")
        if level not in LEVELS or level not in WRITE_ONLY.get(scope, tuple(LEVELS)):
            raise BadInputError(f"{where}: {scope}: level {level!r} is not one of {list(LEVELS)}")
        if level != "none":
            out[str(scope)] = str(level)
    return dict(sorted(out.items()))


def union(grants: Iterable[Grant]) -> Grant:
    """The least grant that covers each of ``grants`` (per scope the highest level), sorted by scope."""
    out: Grant = {}
    for grant in grants:
        for scope, level in grant.items():
            if LEVELS[level] > LEVELS[out.get(scope, "none")]:
                out[scope] = level
    return dict(sorted(out.items()))


def covers(granted: Mapping[str, str], needed: Mapping[str, str]) -> list[str]:
    """The scopes of ``needed`` that ``granted`` does not cover (``"scope: level"``, empty when it does)."""
    return [
        f"{scope}: {level}"
        for scope, level in needed.items()
        if LEVELS[granted.get(scope, "none")] < LEVELS[level]
    ]


def job_needs(
    document: Mapping[str, Any], where: str, called: Mapping[str, Grant | None] | None = None
) -> list[JobNeed]:
    """Every job of a workflow ``document`` with what its token needs, in file order.

    ``called`` maps a local reusable workflow's path (``.github/workflows/x.yml``) to its union, for jobs
    that call one without a ``permissions:`` of their own. Raises :class:`BadInputError` naming ``where``.
    """
    jobs = document.get("jobs")
    if not isinstance(jobs, dict):
        raise BadInputError(f"{where}: no jobs mapping")
    top = document.get("permissions")
    out = []
    for name, job in jobs.items():
        if not isinstance(job, dict):
            raise BadInputError(f"{where}: jobs.{name} is not a mapping")
        raw = job.get("if", "")
        condition = " ".join((str(raw).lower() if isinstance(raw, bool) else str(raw)).split())
        if "permissions" in job:
            need: JobNeed = JobNeed(name, normalise(job["permissions"], f"{where}: jobs.{name}"), "job")
        elif "permissions" in document:
            need = JobNeed(name, normalise(top, f"{where}: permissions"), "workflow")
        else:
            need = _called_need(name, job, called or {})
        out.append(JobNeed(need.job, need.permissions, need.source, condition))
    return out


def caller_union(needs: Iterable[JobNeed]) -> Grant | None:
    """What a calling job must grant: the union over every job (``None`` when a job is unbounded)."""
    grants = []
    for need in needs:
        if need.permissions is None:
            return None
        grants.append(need.permissions)
    return union(grants)


def _called_need(name: str, job: Mapping[str, Any], called: Mapping[str, Grant | None]) -> JobNeed:
    uses = str(job.get("uses", ""))
    if uses.startswith(LOCAL_PREFIXES):
        target = uses[2:].split("@", 1)[0]
        if target in called:
            return JobNeed(name, called[target], f"calls {target}")
    return JobNeed(name, None, "unset")
