"""Trigger a ``workflow_dispatch`` run (the upstream watch starts release workflows this way).

One request: ``POST /repos/{owner}/{repo}/actions/workflows/{file}/dispatches`` with ``ref`` and
``inputs``. A dispatch is an event, not an object: it cannot be deduplicated, so every real run
reports ``created`` and ``--dry-run`` reports what it would send.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from github.Repository import Repository

from quarkci.core.errors import BadInputError
from quarkci.github.client import Target, github_errors
from quarkci.github.result import Delivery, Item, Step

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_WORKFLOW = re.compile(r"^[A-Za-z0-9_.-]+\.ya?ml$|^[0-9]+$")
MAX_INPUTS = 25  # GitHub's limit for workflow_dispatch inputs


def parse_inputs(pairs: Sequence[str]) -> dict[str, str]:
    """``["k=v", ...]`` -> ``{"k": "v"}``. Values may contain ``=``.

    Raises :class:`BadInputError` for a pair without ``=``, a bad or repeated key, or more than 25.
    """
    inputs: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not _KEY.match(key):
            raise BadInputError(f"--input {pair!r} is not key=value with a key like [A-Za-z_][A-Za-z0-9_-]*")
        if key in inputs:
            raise BadInputError(f"--input {key!r} given twice")
        inputs[key] = value
    if len(inputs) > MAX_INPUTS:
        raise BadInputError(f"{len(inputs)} --input values; GitHub accepts at most {MAX_INPUTS}")
    return inputs


def deliver_dispatch(repo: Repository, target: Target, workflow: str, ref: str, inputs: dict[str, str], *,
                     dry_run: bool) -> Delivery:
    """Dispatch ``workflow`` (file name like ``release.yml`` or numeric id) on ``ref``.

    Raises :class:`BadInputError` for a malformed workflow name, :class:`GitHubError` when GitHub
    refuses (404 unknown workflow, 422 no ``workflow_dispatch`` trigger or unknown ref/input).
    """
    if not _WORKFLOW.match(workflow):
        raise BadInputError(f"--workflow {workflow!r} must be a workflow file name (*.yml) or id")
    if not ref.strip():
        raise BadInputError("--ref must not be empty")
    delivery = Delivery("dispatch", dry_run)
    step = Step("POST", f"/repos/{target.repo}/actions/workflows/{workflow}/dispatches",
                f"dispatch on {ref} with {len(inputs)} input(s)")
    delivery.steps.append(step)
    item = Item("workflow_dispatch", "created", key=f"{workflow}@{ref}")
    delivery.items.append(item)
    if dry_run:
        return delivery
    with github_errors(target, f"dispatch {workflow} on {ref}"):
        repo.get_workflow(workflow).create_dispatch(ref, inputs, throw=True)
    return delivery
