"""The example outputs Quark's skills document, checked against the contracts.

A skill documents its artifact under a heading ``## Outputs: <artifact>.json|.yaml`` followed by a
fenced ``json``/``yaml`` example. When that example breaks the release's own contract, producers
following the skill and consumers following the contract disagree: exactly the failure the
contracts exist to catch. Findings (category ``contracts``, ``skill`` = the documenting skill):

* ``contract-upstream-example-invalid`` (semantic): the example fails the release's own contract;
* ``contract-example-rejected`` (breaking): the example passes the release's contract but fails
  quarkci's, so quarkci would reject what upstream producers write.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from quarkci.core.artifacts import ARTIFACTS
from quarkci.core.documents import parse_document, validate_document, violations
from quarkci.core.errors import BadInputError
from quarkci.core.findings import Finding, Location
from quarkci.upstream.base import Snapshot

BUNDLED_ROOT = "quark/_bundled_skills/"
_HEADING = re.compile(r"^## Outputs: ([a-z0-9_]+)\.(json|ya?ml)\s*$", re.M)
_FENCE = re.compile(r"^```(json|ya?ml)[ \t]*\n(.*?)^```", re.M | re.S)
_NAME = re.compile(r"\A---\s*\n(?:.*\n)*?name:\s*([A-Za-z0-9_.-]+)\s*\n", re.M)


@dataclass(frozen=True)
class Example:
    """One documented example: ``path`` of the SKILL.md in the snapshot, 1-based ``line`` of the fence."""

    skill: str
    path: str
    line: int
    artifact: str
    document: object  # the parsed example (any JSON/YAML value), checked only by the contracts


def documented_examples(snapshot: Snapshot) -> Iterator[Example]:
    """Every parsable ``## Outputs: <artifact>`` example of a registered artifact in the bundled skills."""
    for path in snapshot.files(BUNDLED_ROOT):
        if not path.endswith("/SKILL.md"):
            continue
        try:
            text = snapshot.read_text(path)
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        name = _NAME.match(text)
        skill = name.group(1) if name else path.rsplit("/", 2)[-2]
        for heading in _HEADING.finditer(text):
            artifact = heading.group(1)
            if artifact not in ARTIFACTS:
                continue
            end = text.find("\n## ", heading.end())
            section = text[heading.end() : end if end != -1 else len(text)]
            fence = _FENCE.search(section)
            if not fence:
                continue
            line = text.count("\n", 0, heading.end() + fence.start()) + 1
            try:  # the one bounded loader: an alias bomb in a skill's example is skipped, not expanded
                document = parse_document(fence.group(2), f"{path}:{line}", fmt=fence.group(1))
            except BadInputError:
                continue
            yield Example(skill, path, line, artifact, document)


def example_findings(
    snapshot: Snapshot, upstream_schemas: Mapping[str, tuple[str, Mapping[str, object]]]
) -> list[Finding]:
    """Findings for documented examples; ``upstream_schemas``: artifact -> (contract path, schema)."""
    out: list[Finding] = []
    for ex in documented_examples(snapshot):
        where = Location(ex.path.removeprefix(BUNDLED_ROOT), ex.line)
        ours = validate_document(ex.document, ex.artifact)
        theirs = None
        contract_path = None
        if ex.artifact in upstream_schemas:
            contract_path, schema = upstream_schemas[ex.artifact]
            try:
                theirs = violations(Draft202012Validator(schema), ex.document)
            except SchemaError:
                theirs = None
        if theirs:
            more = f" (+{len(theirs) - 1} more)" if len(theirs) > 1 else ""
            out.append(
                Finding(
                    rule="contract-upstream-example-invalid",
                    change="changed",
                    category="contracts",
                    skill=ex.skill,
                    subject=f"{ex.artifact} example",
                    skill_location=where,
                    source_location=Location(contract_path) if contract_path else None,
                    skill_says=f"documents a {ex.artifact} example",
                    source_says=f"the release's own contract rejects it: {theirs[0]}{more}",
                    impact="producers following the skill write documents its consumers reject",
                    extra={"artifact": ex.artifact},
                )
            )
        elif ours:
            more = f" (+{len(ours) - 1} more)" if len(ours) > 1 else ""
            out.append(
                Finding(
                    rule="contract-example-rejected",
                    change="changed",
                    category="contracts",
                    skill=ex.skill,
                    subject=f"{ex.artifact} example",
                    skill_location=where,
                    source_location=Location(contract_path) if contract_path else None,
                    skill_says=f"documents a {ex.artifact} example valid under the release's contract",
                    source_says=f"quarkci's contract rejects it: {ours[0]}{more}",
                    impact="quarkci would reject documents upstream producers write",
                    extra={"artifact": ex.artifact},
                )
            )
    return out
