"""Compare quarkci's artifact contracts with the contracts shipped in a Quark release.

Quark bundles its contracts with its skills (from 0.13: ``quark/_bundled_skills/**/contracts/
<artifact>.schema.json``, one shared copy plus copies inside self-contained skills). For every
artifact both sides define, the schemas are walked in parallel (``properties``, ``items``,
``additionalProperties``; local ``$ref`` followed) and compared on what decides interoperability:
required fields, enum values and types, plus closed objects (``additionalProperties: false``).

Each finding id, its change and its kind (direction matters: who would reject whose documents) are one
table: :data:`quarkci.contracts.rules.CONTRACT_RULES`.

A difference our schema marks as deliberate (``x-quarkci-deviation`` on the node, with the
deliberate extra enum ``values``) is not reported by default (``include_deviations=True`` lists them).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from quarkci.contracts.behaviour import as_node
from quarkci.contracts.behaviour import resolve_ref as _resolve
from quarkci.contracts.rules import CHANGES
from quarkci.core.artifacts import ARTIFACTS, load_schema
from quarkci.core.documents import json_path, parse_document
from quarkci.core.errors import BadInputError
from quarkci.core.findings import Finding, Location
from quarkci.upstream.base import Snapshot

CATEGORY = "contracts"
BUNDLED_ROOT = "quark/_bundled_skills/"
OUR_SCHEMA_DIR = "quarkci/core/schemas"
_CONTRACT_FILE = re.compile(r"(^|/)contracts/([a-z0-9_]+)\.schema\.json$")
_JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")

# rule -> what changed (quarkci.core.findings.CHANGES). The kind is the policy's alone: its default per
# rule id (quarkci.sync.policy.RULE_KINDS) follows the classification table above.
RULE_CHANGE: dict[str, str] = CHANGES  # rule -> what changed: the one table, quarkci.contracts.rules


@dataclass(frozen=True)
class UpstreamContract:
    """One contract file shipped in the release (``path`` relative to the snapshot root)."""

    artifact: str
    path: str
    schema: Mapping[str, object]  # the parsed JSON Schema (open JSON; walked with isinstance narrowing)


def upstream_contracts(snapshot: Snapshot) -> tuple[dict[str, list[UpstreamContract]], list[Finding]]:
    """Every ``contracts/<artifact>.schema.json`` under the bundled skills, grouped by artifact.

    The shared ``_legacy_impl/shared/contracts`` copy sorts first when present. Files that are not
    JSON objects become ``contract-unreadable`` findings (unverifiable) instead of exceptions.
    """
    grouped: dict[str, list[UpstreamContract]] = {}
    problems: list[Finding] = []
    for path in snapshot.files(BUNDLED_ROOT):
        match = _CONTRACT_FILE.search(path)
        if not match:
            continue
        artifact = match.group(2)
        try:  # the one bounded reader: a huge integer or deep nesting is a finding, not a crash
            schema = parse_document(snapshot.read_text(path), path, fmt="json")
        except (UnicodeDecodeError, BadInputError) as exc:
            problems.append(
                _finding(
                    "contract-unreadable",
                    artifact,
                    path,
                    "$",
                    "a JSON Schema",
                    f"unreadable: {exc}",
                    "cannot compare this copy",
                    path,
                )
            )
            continue
        if not isinstance(schema, dict):
            problems.append(
                _finding(
                    "contract-unreadable",
                    artifact,
                    path,
                    "$",
                    "a JSON Schema object",
                    f"a {type(schema).__name__}",
                    "cannot compare this copy",
                    path,
                )
            )
            continue
        grouped.setdefault(artifact, []).append(UpstreamContract(artifact, path, schema))
    for copies in grouped.values():
        copies.sort(key=lambda c: ("/shared/contracts/" not in c.path, c.path))
    return grouped, problems


def diff_contracts(snapshot: Snapshot, include_deviations: bool = False) -> list[Finding]:
    """Findings for every difference between our contracts and those shipped in ``snapshot``.

    Sorted by (artifact, rule, subject); deterministic. Never raises for a malformed upstream
    contract (it becomes an ``unverifiable`` finding). Drift rule id prefix: ``contract-``.
    """
    grouped, findings = upstream_contracts(snapshot)
    if not grouped:
        findings.append(
            Finding(
                rule="contract-none-shipped",
                change=RULE_CHANGE["contract-none-shipped"],
                category=CATEGORY,
                skill="contract:*",
                subject=snapshot.version,
                skill_says=f"quarkci defines {len(ARTIFACTS)} artifact contracts",
                source_says=f"{snapshot.label} ships no contracts under {BUNDLED_ROOT}",
                impact="contracts cannot be compared with this release (Quark bundles skills from 0.13)",
            )
        )
        return _sorted(findings)
    for artifact, copies in grouped.items():
        if artifact not in ARTIFACTS:
            findings.append(
                _finding(
                    "contract-unknown-upstream",
                    artifact,
                    copies[0].path,
                    "$",
                    "no such artifact in the registry",
                    f"shipped as {copies[0].path}",
                    "quarkci cannot validate this artifact; register it with a schema",
                    None,
                )
            )
            continue
        ours = load_schema(artifact)
        per_copy = [list(_compare(ours, c.schema, artifact, c.path, include_deviations)) for c in copies]
        seen: set[tuple[str, str]] = set()
        for found in per_copy:
            for f in found:
                if (f.rule, f.subject) not in seen:
                    seen.add((f.rule, f.subject))
                    findings.append(f)
        for other in copies[1:]:
            if other.schema != copies[0].schema:
                findings.append(
                    _finding(
                        "contract-upstream-copies-differ",
                        artifact,
                        other.path,
                        other.path,
                        f"one {artifact} contract",
                        f"{copies[0].path} and {other.path} differ",
                        "producers and consumers inside the release may disagree on this artifact",
                        None,
                    )
                )
        findings.extend(behaviour_findings(artifact, ours, copies[0]))
    from quarkci.contracts.examples import example_findings

    shared = {a: (copies[0].path, copies[0].schema) for a, copies in grouped.items()}
    findings.extend(example_findings(snapshot, shared))
    for artifact in ARTIFACTS:
        if artifact not in grouped and not ARTIFACTS[artifact].own:  # quarkci's own: nothing upstream
            findings.append(
                _finding(
                    "contract-not-shipped",
                    artifact,
                    None,
                    "$",
                    f"quarkci defines {artifact}",
                    f"{snapshot.label} ships no {artifact} contract",
                    "this contract cannot be checked against the release",
                    None,
                )
            )
    return _sorted(findings)


def behaviour_findings(
    artifact: str, ours: Mapping[str, object], upstream: UpstreamContract
) -> list[Finding]:
    """Findings from comparing by behaviour (:mod:`quarkci.contracts.behaviour`): a document generated from
    upstream's schema that ours rejects is ``breaking`` (``contract-behaviour-rejected``, subject = the field);
    one generated from ours that upstream rejects is ``semantic`` (``contract-behaviour-extra``). A field our
    schema marks ``x-quarkci-deviation`` is listed as accepted (``contract-behaviour-accepted``, with the
    reason; ``extra["accepted"]``), which never fails a gate."""
    from quarkci.contracts.behaviour import compare, node_at

    out = []
    for d in compare(ours, upstream.schema):
        marked = [n["x-quarkci-deviation"] for n in node_at(ours, d.path)[1:] if "x-quarkci-deviation" in n]
        mark = as_node(marked[-1]) if marked else None
        reason = mark.get("reason") if mark is not None else None
        example = json.dumps(d.document, sort_keys=True, default=str)
        example = example if len(example) <= 160 else example[:157] + "..."
        if d.accepted_by == "upstream":
            ours_says, theirs = f"rejects it: {d.message}", f"accepts e.g. {example}"
            impact = f"a {artifact} document Quark accepts fails quarkci validation at {d.path}"
            rule = "contract-behaviour-rejected"
        else:
            ours_says, theirs = f"accepts e.g. {example}", f"rejects it: {d.message}"
            impact = f"a {artifact} document quarkci accepts fails Quark's validation at {d.path}"
            rule = "contract-behaviour-extra"
        if reason:
            rule = "contract-behaviour-accepted"
            impact = f"kept on purpose: {reason}"
        out.append(
            _finding(
                rule,
                artifact,
                upstream.path,
                d.path,
                ours_says,
                theirs,
                impact,
                upstream.path,
                accepted=reason,
            )
        )
    return out


def _sorted(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.skill, f.rule, f.subject))


def _finding(
    rule: str,
    artifact: str,
    source_file: str | None,
    subject: str,
    ours: str,
    theirs: str,
    impact: str,
    upstream_path: str | None,
    change: str | None = None,
    **extra: object,
) -> Finding:
    """A contract finding with what changed; its kind is left to the policy (quarkci.sync.policy)."""
    change = change or RULE_CHANGE[rule]
    if rule == "contract-enum-value-extra" and extra.get("successor"):
        change = "renamed"
    return Finding(
        rule=rule,
        change=change,
        category=CATEGORY,
        skill=f"contract:{artifact}",
        subject=subject,
        skill_says=ours,
        source_says=theirs,
        impact=impact,
        skill_location=Location(f"{OUR_SCHEMA_DIR}/{artifact}.schema.json"),
        source_location=Location(source_file) if source_file else None,
        extra={"artifact": artifact, **extra},
    )


# ---------------------------------------------------------------------------------------------
# Parallel walk


def _compare(
    ours: Mapping[str, object],
    theirs: Mapping[str, object],
    artifact: str,
    upstream_path: str,
    include_deviations: bool,
) -> Iterator[Finding]:
    for path, o, t in _pairs(ours, ours, theirs, theirs, "$"):
        for f in _compare_node(path, o, t, artifact, upstream_path):
            if include_deviations or not f.extra.get("deviation"):
                yield f


def _pairs(
    o: object, oroot: Mapping[str, object], t: object, troot: Mapping[str, object], path: str
) -> Iterator[tuple[str, Mapping[str, object], Mapping[str, object]]]:
    """(path, our node, their node) for every node both schemas define at the same place, ``$ref``
    followed; a place where either side is not a JSON object ends the walk there."""
    onode, tnode = as_node(_resolve(o, oroot)), as_node(_resolve(t, troot))
    if onode is None or tnode is None:
        return
    yield path, onode, tnode
    oprops, tprops = as_node(onode.get("properties", {})), as_node(tnode.get("properties", {}))
    if oprops is not None and tprops is not None:
        for key in sorted(set(oprops) & set(tprops)):
            yield from _pairs(oprops[key], oroot, tprops[key], troot, _child(path, key))
    oitems, titems = as_node(onode.get("items")), as_node(tnode.get("items"))
    if oitems is not None and titems is not None:
        yield from _pairs(oitems, oroot, titems, troot, path + "[]")
    oadd, tadd = as_node(onode.get("additionalProperties")), as_node(tnode.get("additionalProperties"))
    if oadd is not None and tadd is not None:
        yield from _pairs(oadd, oroot, tadd, troot, path + ".*")


def _child(path: str, key: str) -> str:
    """``path`` and one more key, in the one JSON-path form (:func:`quarkci.core.documents.json_path`)."""
    return path + json_path([key]).removeprefix("$")


def _types(node: Mapping[str, object]) -> set[str] | None:
    """The JSON types a node accepts (None: unconstrained). ``integer`` is implied by ``number``."""
    declared, enum = node.get("type"), node.get("enum")
    if isinstance(declared, str):
        out = {declared}
    elif isinstance(declared, list):
        out = {t for t in declared if isinstance(t, str)}
    elif isinstance(enum, list):
        out = {_json_type(v) for v in enum}
    elif "const" in node:
        out = {_json_type(node["const"])}
    else:
        return None
    if "number" in out:
        out.add("integer")
    return out


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _deviation(node: Mapping[str, object]) -> tuple[bool, set[object]]:
    """(marked deliberate, the deliberate enum values: ``{"*"}`` for all) of ``x-quarkci-deviation``."""
    dev = node.get("x-quarkci-deviation")
    if dev is None:
        return False, set()
    mark = as_node(dev)
    values = mark.get("values") if mark is not None else None
    return True, set(values) if isinstance(values, list) else {"*"}


def _fmt(values: Iterable[object]) -> str:
    return ", ".join(sorted(json.dumps(v) if not isinstance(v, str) else v for v in values))


class _Make(Protocol):
    """The finding factory :func:`_compare_node` hands to :func:`_enum_findings`."""

    def __call__(
        self,
        rule: str,
        subject: str,
        ours: str,
        theirs: str,
        impact: str,
        dev: bool = False,
        successor: str | None = None,
        change: str | None = None,
    ) -> Finding: ...


def _strings(node: Mapping[str, object], key: str) -> set[str]:
    """The string items of array keyword ``key`` (``required``), ``set()`` when it is not an array."""
    value = node.get(key)
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def _compare_node(
    path: str, o: Mapping[str, object], t: Mapping[str, object], artifact: str, up: str
) -> Iterator[Finding]:
    deliberate, deliberate_values = _deviation(o)

    def make(
        rule: str,
        subject: str,
        ours: str,
        theirs: str,
        impact: str,
        dev: bool = False,
        successor: str | None = None,
        change: str | None = None,
    ) -> Finding:
        return _finding(
            rule, artifact, up, subject, ours, theirs, impact, up, change, deviation=dev, successor=successor
        )

    # types
    otypes, ttypes = _types(o), _types(t)
    if ttypes is not None:
        if otypes is not None and ttypes - otypes:
            lost = sorted(ttypes - otypes)
            yield make(
                "contract-type-narrowed",
                f"{path} type",
                f"accepts {', '.join(sorted(otypes))}",
                f"also accepts {', '.join(lost)}",
                f"a document upstream writes with {path} as {lost[0]} fails quarkci validation",
            )
        extra = sorted((otypes or set(_JSON_TYPES)) - ttypes - ({"integer"} if "number" in ttypes else set()))
        if extra:
            yield make(
                "contract-type-widened",
                f"{path} type",
                f"also accepts {', '.join(extra)}",
                f"accepts only {', '.join(sorted(ttypes))}",
                f"a document quarkci accepts with {path} as {extra[0]} fails upstream validation",
                dev=deliberate,
            )
    # enums
    tenum, oenum, opattern = t.get("enum"), o.get("enum"), o.get("pattern")
    if isinstance(tenum, list):
        if isinstance(oenum, list):
            yield from _enum_findings(path, oenum, tenum, deliberate, deliberate_values, make, closed=True)
        elif isinstance(opattern, str):
            pattern = re.compile(opattern)
            rejected = [v for v in tenum if isinstance(v, str) and not pattern.search(v)]
            for v in rejected:
                yield make(
                    "contract-enum-value-rejected",
                    f"{path} = {v}",
                    f"pattern {opattern}",
                    f"allows {v!r}",
                    f"upstream documents with {path} = {v!r} fail quarkci validation",
                )
            yield make(
                "contract-enum-opened",
                f"{path} enum",
                f"any value matching {opattern}",
                f"one of {_fmt(tenum)}",
                f"quarkci may write {path} values that upstream consumers reject",
                dev=deliberate,
            )
            examples = o.get("examples")
            known: list[object] = examples if isinstance(examples, list) else []
            yield from _enum_findings(
                path,
                known,
                [v for v in tenum if v not in rejected],
                deliberate,
                deliberate_values,
                make,
                closed=False,
            )
    elif isinstance(oenum, list):
        yield make(
            "contract-enum-added",
            f"{path} enum",
            f"one of {_fmt(oenum)}",
            "any value",
            f"upstream documents with other {path} values fail quarkci validation",
            dev=deliberate,
        )
    # required fields and modelled properties (objects only)
    oreq, treq = _strings(o, "required"), _strings(t, "required")
    oprops = as_node(o.get("properties")) or {}
    tprops = as_node(t.get("properties")) or {}
    for name in sorted(treq - oreq):
        field = _child(path, name)
        if name in oprops:
            yield make(
                "contract-required-optional",
                f"{field} required",
                f"{field} is optional",
                f"{field} is required",
                f"a quarkci producer may omit {field}; upstream consumers reject that",
            )
        else:
            yield make(
                "contract-required-unknown",
                f"{field} required",
                f"{field} is not defined",
                f"{field} is required",
                f"quarkci never writes {field}; upstream consumers reject every such document",
            )
    for name in sorted(oreq - treq):
        field = _child(path, name)
        yield make(
            "contract-required-extra",
            f"{field} required",
            f"{field} is required",
            f"{field} is optional",
            f"upstream documents without {field} fail quarkci validation",
            dev=deliberate,
        )
    oclosed, tclosed = o.get("additionalProperties") is False, t.get("additionalProperties") is False
    for name in sorted(set(tprops) - set(oprops)):
        field = _child(path, name)
        # a closed object rejects what upstream documents carry ("removed"); an open one just skips it
        yield make(
            "contract-property-unmodelled",
            field,
            f"{field} is not modelled",
            f"{field} is defined",
            "quarkci does not check this field"
            if not oclosed
            else f"upstream documents with {field} fail quarkci validation (closed object)",
            change="removed" if oclosed else None,
        )
    if tclosed and not oclosed and (tprops or oprops):
        yield make(
            "contract-object-opened",
            f"{path} additionalProperties",
            "extra fields allowed",
            "extra fields rejected",
            f"quarkci may accept {path} fields that upstream rejects",
            dev=deliberate,
        )
    if oclosed and not tclosed and (tprops or oprops):
        yield make(
            "contract-object-closed",
            f"{path} additionalProperties",
            "extra fields rejected",
            "extra fields allowed",
            f"upstream documents with extra {path} fields fail quarkci validation",
        )


def _enum_findings(
    path: str,
    ours: list[object],
    theirs: list[object],
    deliberate: bool,
    deliberate_values: set[object],
    make: _Make,
    closed: bool,
) -> Iterator[Finding]:
    """Enum value differences. ``closed``: ours is an enum (missing values are rejected); otherwise
    ``ours`` lists the known values of an open field (missing values are merely unknown)."""
    ours_set, theirs_set = {json.dumps(v) for v in ours}, {json.dumps(v) for v in theirs}
    for raw in sorted(theirs_set - ours_set):
        value = json.loads(raw)
        if closed:
            yield make(
                "contract-enum-value-missing",
                f"{path} = {value}",
                f"one of {_fmt(ours)}",
                f"also allows {value!r}",
                f"upstream documents with {path} = {value!r} fail quarkci validation",
            )
        else:
            yield make(
                "contract-enum-value-unknown",
                f"{path} = {value}",
                f"known values {_fmt(ours)}",
                f"allows {value!r}",
                f"quarkci accepts {value!r} but does not list it as a known value",
            )
    for raw in sorted(ours_set - theirs_set):
        value = json.loads(raw)
        dev = deliberate and ("*" in deliberate_values or value in deliberate_values)
        closest = difflib.get_close_matches(str(value), [str(v) for v in theirs], n=1, cutoff=0.6)
        hint = f"; closest upstream value: {closest[0]!r}" if closest else ""
        yield make(
            "contract-enum-value-extra",
            f"{path} = {value}",
            f"{'allows' if closed else 'knows'} {value!r}",
            f"one of {_fmt(theirs)}{hint}",
            f"a document with {path} = {value!r} fails upstream validation",
            dev=dev,
            successor=closest[0] if closest else None,
        )


__all__ = ["UpstreamContract", "diff_contracts", "upstream_contracts"]
