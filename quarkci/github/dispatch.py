"""Trigger a ``workflow_dispatch`` run exactly once, with inputs the target workflow declares.

A dispatch is an event, not an object: GitHub has no idempotency key for it, so a ``POST`` retried
after its response was lost starts a second run (two GPU PTQ runs). quarkci therefore

1. reads the target workflow file on ``ref`` through the API (``GET /contents/.github/workflows/F``)
   and checks the inputs against its ``on.workflow_dispatch.inputs`` (unknown keys, missing
   required inputs, a ``choice`` outside its options, a ``boolean`` that is not true/false) before
   dispatching: one line and exit 2, no write. ``--offer KEY=VALUE`` inputs are sent only when the
   target declares them, so a caller (the upstream watch) can dispatch any workflow without knowing
   its inputs;
2. sends a **correlation id** in the input ``correlation-id`` (the target declares it and shows it in
   its ``run-name``): ``--correlation-id`` when given, else one derived from the dispatch itself
   (:func:`correlation_for`: the workflow, the ref and the inputs sent, the release among them), so
   two invocations with the same inputs carry the same id;
3. before the first ``POST``, looks for a run of the workflow on ``ref`` whose title carries that id
   and that is queued, in progress or completed successfully: a second identical invocation reports
   that run (``unchanged``) instead of starting another; a failed or cancelled run is dispatched anew
   (a new ``--correlation-id``, e.g. the watch's ``force``, always is);
4. never retries the ``POST`` blindly (it connects with ``retry_writes=False``;
   :func:`quarkci.github.client.write_once`): after a failed or unanswered ``POST`` it looks the run up by the correlation id; only when none is there is the
   ``POST`` sent again. A ``429``, or a ``403`` for a primary or secondary rate limit, is an answer:
   GitHub refused the request and started nothing, so it is retried after ``Retry-After`` (or the
   rate-limit reset, or an exponential backoff; each capped by the retry policy), with or without a
   correlation id; when GitHub still refuses, the command exits 3 saying no run was started;
5. reports the run's URL (from ``return_run_details``, else from the same lookup).

A target that does not declare ``correlation-id`` gets no lookup: if its ``POST`` fails without an
answer (a timeout, a lost response, a 5xx) the outcome is unknown, it is not retried, and the command
exits 3 saying so.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import requests
from github.Repository import Repository

from quarkci.core.documents import parse_document
from quarkci.core.errors import BadInputError, GitHubError, UpstreamUnreachableError
from quarkci.github import client
from quarkci.github.client import (
    RetryPolicy,
    Target,
    github_errors,
)
from quarkci.github.result import Delivery, Item, Step

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_WORKFLOW = re.compile(r"^[A-Za-z0-9_.-]+\.ya?ml$|^[0-9]+$")
MAX_INPUTS = 25  # GitHub's limit for workflow_dispatch inputs
MAX_WORKFLOW_BYTES = 512 * 1024
CORRELATION_INPUT = "correlation-id"
_CORRELATION = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")  # what every quarkci workflow accepts in its run name
# A run in one of these states, or completed successfully, is what a repeated dispatch asked for.
LIVE_STATUSES = frozenset({"queued", "in_progress", "waiting", "requested", "pending"})


def parse_inputs(pairs: Sequence[str], flag: str = "--input") -> dict[str, str]:
    """``["k=v", ...]`` -> ``{"k": "v"}``. Values may contain ``=``.

    Raises :class:`BadInputError` (naming ``flag``) for a pair without ``=``, a bad or repeated key,
    or more than 25.
    """
    inputs: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not _KEY.match(key):
            raise BadInputError(f"{flag} {pair!r} is not key=value with a key like [A-Za-z_][A-Za-z0-9_-]*")
        if key in inputs:
            raise BadInputError(f"{flag} {key!r} given twice")
        if "\n" in value or "\r" in value:
            raise BadInputError(f"{flag} {key!r}: the value must be one line")
        inputs[key] = value
    if len(inputs) > MAX_INPUTS:
        raise BadInputError(f"{len(inputs)} {flag} values; GitHub accepts at most {MAX_INPUTS}")
    return inputs


def new_correlation_id() -> str:
    """``qc-`` and 16 random hex digits: unique per dispatch, safe in a run title."""
    return "qc-" + secrets.token_hex(8)


def correlation_for(workflow: str, ref: str, inputs: Mapping[str, str]) -> str:
    """``qc-`` and 16 hex digits of the sha256 of (workflow file name, ref, the inputs sent, sorted;
    ``correlation-id`` left out): the same dispatch always gets the same id, another one a different id."""
    sent = sorted((k, v) for k, v in inputs.items() if k != CORRELATION_INPUT)
    payload = json.dumps([workflow, ref, sent], separators=(",", ":"), ensure_ascii=False)
    return "qc-" + hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def check_correlation(value: str) -> str:
    """``--correlation-id``: 1-64 of ``[A-Za-z0-9_.-]`` (safe in every run name). Raises
    :class:`BadInputError` naming the flag otherwise."""
    if not _CORRELATION.match(value):
        raise BadInputError(f"--correlation-id {value!r}: 1-64 letters, digits, '_', '.' or '-'")
    return value


def declared_inputs(text: str, workflow: str) -> dict[str, dict[str, Any]]:
    """``on.workflow_dispatch.inputs`` of a workflow file's YAML ``text`` (``{}`` when it has none).

    Raises :class:`BadInputError` when the file is not YAML or has no ``workflow_dispatch`` trigger.
    """
    # bounded (size of the expanded graph, aliases, depth) like every document read from a repository
    doc = parse_document(text, f"--workflow {workflow}", fmt="workflow")
    if not isinstance(doc, dict):
        raise BadInputError(f"--workflow {workflow}: not a workflow file")
    on = doc.get("on")
    if isinstance(on, str):
        on = {on: None}
    elif isinstance(on, list):
        on = {str(e): None for e in on}
    if not isinstance(on, dict) or "workflow_dispatch" not in on:
        raise BadInputError(f"--workflow {workflow}: the workflow has no workflow_dispatch trigger")
    inputs = (on.get("workflow_dispatch") or {}).get("inputs") or {}
    if not isinstance(inputs, dict):
        raise BadInputError(f"--workflow {workflow}: workflow_dispatch.inputs is not a mapping")
    return {str(k): (v if isinstance(v, dict) else {}) for k, v in inputs.items()}


def check_inputs(declared: Mapping[str, Mapping[str, Any]], inputs: Mapping[str, str], workflow: str) -> None:
    """Refuse inputs ``workflow`` does not declare or accept (see the module docstring), one line.

    Raises :class:`BadInputError`.
    """
    unknown = sorted(set(inputs) - set(declared))
    if unknown:
        raise BadInputError(
            f"--input {', '.join(unknown)}: not declared by {workflow} "
            f"(it declares: {', '.join(sorted(declared)) or 'no inputs'})"
        )
    for key, spec in declared.items():
        if key not in inputs:
            if spec.get("required") and spec.get("default") in (None, "") and key != CORRELATION_INPUT:
                raise BadInputError(f"--input {key}=...: required by {workflow} and not given")
            continue
        value, kind = inputs[key], spec.get("type", "string")
        if kind == "choice" and value not in [str(o) for o in spec.get("options") or []]:
            raise BadInputError(
                f"--input {key}={value!r}: {workflow} accepts one of "
                f"{', '.join(str(o) for o in spec.get('options') or [])}"
            )
        if kind == "boolean" and value not in ("true", "false"):
            raise BadInputError(f"--input {key}={value!r}: {workflow} declares a boolean (true or false)")
        if kind == "number":
            try:
                float(value)
            except ValueError:
                raise BadInputError(f"--input {key}={value!r}: {workflow} declares a number") from None


@dataclass(frozen=True)
class Run:
    """A dispatched workflow run: its id, URL and (when listed) ``status`` / ``conclusion``."""

    id: int
    url: str
    status: str = ""
    conclusion: str = ""

    @property
    def reusable(self) -> bool:
        """Queued, in progress or completed successfully: what a repeated dispatch asked for."""
        return self.status in LIVE_STATUSES or (self.status == "completed" and self.conclusion == "success")


def _read_workflow(repo: Repository, target: Target, workflow: str, ref: str) -> tuple[str, str]:
    """(file name, YAML text) of ``workflow`` (a file name or numeric id) as it is on ``ref``."""
    with github_errors(target, f"workflow {workflow}"):
        if workflow.isdigit():
            workflow = repo.get_workflow(int(workflow)).path.rsplit("/", 1)[-1]
        content = repo.get_contents(f".github/workflows/{workflow}", ref=ref)
    if isinstance(content, list) or content.size > MAX_WORKFLOW_BYTES:
        raise BadInputError(
            f"--workflow {workflow}: not a workflow file of at most {MAX_WORKFLOW_BYTES} bytes"
        )
    return workflow, content.decoded_content.decode("utf-8", errors="replace")


def find_run(
    repo: Repository, target: Target, workflow: str, ref: str, correlation: str, *, reusable: bool = False
) -> Run | None:
    """The newest ``workflow_dispatch`` run of ``workflow`` on ``ref`` whose title holds ``correlation``
    as a whole word (GET .../actions/workflows/{workflow}/runs?event=workflow_dispatch&branch=ref, the
    newest 100); with ``reusable``, the newest such run that is :attr:`Run.reusable`."""
    with github_errors(target, f"runs of {workflow}"):
        _, data = repo._requester.requestJsonAndCheck(  # noqa: SLF001
            "GET",
            f"{repo.url}/actions/workflows/{workflow}/runs",
            parameters={"event": "workflow_dispatch", "branch": ref, "per_page": 100},
        )
    word = re.compile(rf"(?<![A-Za-z0-9_.-]){re.escape(correlation)}(?![A-Za-z0-9_.-])")
    for run in data.get("workflow_runs") or []:
        if word.search(str(run.get("display_title") or "")):
            found = Run(
                int(run["id"]),
                str(run["html_url"]),
                str(run.get("status") or ""),
                str(run.get("conclusion") or ""),
            )
            if found.reusable or not reusable:
                return found
    return None


def _post(repo: Repository, workflow: str, ref: str, inputs: Mapping[str, str]) -> dict[str, Any] | None:
    """One ``POST .../dispatches`` (``return_run_details``); the run details when GitHub sends them."""
    _, data = repo._requester.requestJsonAndCheck(  # noqa: SLF001
        "POST",
        f"{repo.url}/actions/workflows/{workflow}/dispatches",
        input={"ref": ref, "inputs": dict(inputs), "return_run_details": True},
    )
    return data if isinstance(data, dict) and data.get("workflow_run_id") else None


def dispatch_once(
    repo: Repository,
    target: Target,
    workflow: str,
    ref: str,
    inputs: Mapping[str, str],
    correlation: str | None,
    policy: RetryPolicy | None = None,
    log: list[str] | None = None,
) -> Run | None:
    """Start one run: POST, and after a failure look for the run by ``correlation`` before any retry.

    Returns the run (None when dispatched but not yet listed). Raises :class:`GitHubError` when
    GitHub refuses for good (a 4xx other than a rate limit), :class:`UpstreamUnreachableError` when it
    stays unreachable or rate-limits every attempt (no run was started), or, without a correlation id,
    when a POST failed without an answer (the outcome is unknown).
    """
    policy = policy or client.DEFAULT_POLICY  # looked up per call, as connect() does, not bound at import
    log = log if log is not None else []
    doing = f"dispatch {workflow} on {ref}"
    words = client.WriteRefused(
        doing,
        request=f"POST /repos/{target.repo}/actions/workflows/{workflow}/dispatches",
        nothing_done="no run was started; dispatch again later",
        unknown=f"{workflow} declares no {CORRELATION_INPUT} input to look the run up by: not retried "
        "(it may have started)",
    )
    posted: list[bool] = []

    def send() -> Run | None:
        details = _post(repo, workflow, ref, inputs)
        posted.append(True)
        return Run(int(details["workflow_run_id"]), str(details["html_url"])) if details else None

    def lookup() -> Run | None:
        return find_run(repo, target, workflow, ref, correlation) if correlation else None

    run = client.write_once(send, lookup if correlation else None, words, policy=policy, log=log)
    if run is not None or not posted or not correlation:
        return run
    for wait in (0.0, 1.0, 2.0, 4.0):  # the run is listed a moment after the 204
        time.sleep(min(wait, policy.backoff_max))
        found = find_run(repo, target, workflow, ref, correlation)
        if found is not None:
            return found
    return None


def deliver_dispatch(
    repo: Repository | None,
    target: Target,
    workflow: str,
    ref: str,
    inputs: dict[str, str],
    *,
    dry_run: bool,
    offers: Mapping[str, str] | None = None,
    correlation: str | None = None,
) -> Delivery:
    """Dispatch ``workflow`` (file name like ``release.yml`` or numeric id) on ``ref`` once.

    ``inputs`` must be declared by the workflow; ``offers`` are sent only where declared. ``correlation``
    (``--correlation-id``) defaults to :func:`correlation_for` of what is sent; a reusable run with it
    (queued, in progress, or completed successfully) is reported as ``unchanged`` and nothing is sent.
    ``repo`` is None for an offline dry run (the declared inputs are not read, and said so). ``repo``
    must be connected with ``retry_writes=False``. Raises :class:`BadInputError` for a malformed name,
    correlation id or refused inputs, :class:`GitHubError` when GitHub refuses.
    """
    if not _WORKFLOW.match(workflow):
        raise BadInputError(f"--workflow {workflow!r} must be a workflow file name (*.yml) or id")
    if not ref.strip() or not re.match(r"^[A-Za-z0-9._/+-]+$", ref) or ".." in ref:
        raise BadInputError(f"--ref {ref!r} is not a branch or tag name")
    if correlation is not None:
        check_correlation(correlation)
    delivery = Delivery("dispatch", dry_run)
    sent = dict(inputs)
    note = ""
    if repo is None:
        sent.update(offers or {})
        note = "no token: the workflow's declared inputs were not read or checked"
        declared: dict[str, dict[str, Any]] = {}
    else:
        workflow, text = _read_workflow(repo, target, workflow, ref)
        declared = declared_inputs(text, workflow)
        sent.update({k: v for k, v in (offers or {}).items() if k in declared and k not in sent})
        check_inputs(declared, sent, workflow)
    use_correlation = CORRELATION_INPUT in declared or repo is None
    correlation = correlation or correlation_for(workflow, ref, sent)
    if use_correlation:
        sent[CORRELATION_INPUT] = correlation
    delivery.steps.append(
        Step(
            "POST",
            f"/repos/{target.repo}/actions/workflows/{workflow}/dispatches",
            f"dispatch on {ref} with {len(sent)} input(s): {', '.join(sorted(sent))}",
            body="\n".join(f"{k}={v}" for k, v in sorted(sent.items())),
        )
    )
    item = Item(
        "workflow_dispatch",
        "created",
        key=f"{workflow}@{ref}",
        note=note
        or (
            f"correlation id {correlation}"
            if use_correlation
            else f"{workflow} declares no {CORRELATION_INPUT}: not retried"
        ),
    )
    delivery.items.append(item)
    if repo is not None and use_correlation:
        earlier = find_run(repo, target, workflow, ref, correlation, reusable=True)
        if earlier is not None:  # the same dispatch already ran or runs: not started again
            state = earlier.conclusion if earlier.status == "completed" else earlier.status.replace("_", " ")
            item.operation, item.number, item.url = "unchanged", earlier.id, earlier.url
            item.note = f"correlation id {correlation}: already dispatched as run {earlier.id} ({state}); not sent again"
            delivery.steps.clear()
            return delivery
    if dry_run or repo is None:
        return delivery
    log: list[str] = []
    try:
        run = dispatch_once(
            repo, target, workflow, ref, sent, correlation if use_correlation else None, log=log
        )
    except requests.RequestException as exc:
        raise UpstreamUnreachableError(
            f"dispatch {workflow} on {ref}: GitHub API unreachable: {type(exc).__name__}"
        ) from None
    if run is not None:
        item.number, item.url = run.id, run.url
    else:
        item.note += "; the run is not listed yet"
    if log:
        item.note += "; " + "; ".join(log)
    return delivery


__all__ = [
    "CORRELATION_INPUT",
    "GitHubError",
    "Run",
    "check_correlation",
    "check_inputs",
    "correlation_for",
    "declared_inputs",
    "deliver_dispatch",
    "dispatch_once",
    "find_run",
    "new_correlation_id",
    "parse_inputs",
]
