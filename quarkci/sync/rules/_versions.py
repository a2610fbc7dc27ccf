"""Shared logic of the *-version-mismatch rules: compare a stated range with an upstream range."""

from __future__ import annotations

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from quarkci.core.findings import Finding, Fix
from quarkci.facts.base import FactItem
from quarkci.skills.claims.phrases import Stated, minors, parse_statement, render
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.state import AuditState

# example-document keys whose value is exactly the range of the product (pyproject.toml, setup.cfg)
EXACT_KEYS = frozenset({"requires-python", "requires_python", "python_requires", "python-requires"})


def stated_of(claim: Claim, state: AuditState) -> Stated | None:
    """The range a version claim states: its value (the extractor's normalised specifier) gives the
    meaning; the original wording (context ``text``, else the line) is used only when it states the
    same range, so a fix can rewrite it in place ("Python 3.14+" under a "not supported" heading
    has the value ``<3.14`` and no rewritable wording)."""
    meaning = parse_statement(claim.value) if isinstance(claim.value, str) else None
    for text in (claim.context.get("text"), state.line(claim.file, claim.line)):
        worded = parse_statement(text) if isinstance(text, str) else None
        if worded is not None and (
            meaning is None
            or worded.spec == meaning.spec
            or ((worded.lower, worded.upper) == (meaning.lower, meaning.upper) and _same(worded, meaning))
        ):
            return worded
    if meaning is not None:
        return Stated(meaning.spec, meaning.lower, meaning.upper, "", meaning.style)
    return None


def _same(a: Stated, b: Stated) -> bool:
    """True when two stated ranges admit the same minor releases of majors 2-6."""
    return minors(a.spec, (2, 3, 4, 5, 6)) == minors(b.spec, (2, 3, 4, 5, 6))


def spec_of(item: FactItem) -> SpecifierSet | None:
    raw = item.attrs.get("specifier")
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        return SpecifierSet(raw)
    except InvalidSpecifier:
        return None


def exact_pin(spec: SpecifierSet) -> Version | None:
    """The one version ``spec`` pins (``==4.52.4``, ``===1.22.0``), else None (a range, a wildcard
    ``==1.22.*``, several clauses). A pin in an install command or a lock file is the user's choice of one
    version: it contradicts a release only when the release's own range excludes it, never because the
    range admits others too."""
    clauses = list(spec)
    if len(clauses) != 1 or clauses[0].operator not in ("==", "===") or clauses[0].version.endswith("*"):
        return None
    try:
        return Version(clauses[0].version)
    except InvalidVersion:
        return None


def compare(
    stated: Stated, upstream: SpecifierSet, major: int | tuple[int, ...]
) -> tuple[list[str], list[str]] | None:
    """(claimed minors, upstream minors) when they differ on the bounds the claim states, else None."""
    claimed, actual = minors(stated.spec, major), minors(upstream, major)
    if not claimed or not actual:
        return None
    if stated.lower and stated.upper:
        differs = claimed != actual
    elif stated.lower:
        differs = claimed[0] != actual[0]
    else:
        differs = claimed[-1] != actual[-1]
    return (claimed, actual) if differs else None


def mismatch(
    state: AuditState,
    claim: Claim,
    stated: Stated,
    upstream: SpecifierSet,
    item: FactItem,
    *,
    rule: str,
    category: str,
    product: str,
    major: int | tuple[int, ...],
) -> Finding | None:
    """A ``changed`` finding with a fix rewriting the statement in its own style, or None if it agrees.
    A pinned version (:func:`exact_pin`) agrees when the release's range admits it, and is never rewritten."""
    pinned = exact_pin(stated.spec)
    if pinned is not None and upstream.contains(pinned, prereleases=True):
        return None
    diff = compare(stated, upstream, major)
    if diff is None and pinned is None:
        return None
    actual = diff[1] if diff is not None else minors(upstream, major)
    shown = (
        actual
        if stated.lower and stated.upper
        else ([actual[0]] + ([actual[-1]] if len(actual) > 1 else []) if stated.lower else actual)
    )
    new_text = render(stated, shown if stated.style != "open" else [actual[0]], upstream)
    line = state.line(claim.file, claim.line)
    fix = None
    # a statement scoped to some releases ("for amd-quark>=0.11,<0.12") is never rewritten to this one;
    # a range inside an example document (a model's `transformers_version_required`) mixes the model's own
    # floor with Quark's cap: no exact rewrite exists, so none is made; a `requires-python` key states the
    # release's own range, rewritten like prose
    if (
        line is not None
        and pinned is None
        and stated.text
        and stated.text in line
        and new_text != stated.text
        and not claim.context.get("releases")
        and (claim.context.get("where") != "example" or claim.context.get("key") in EXACT_KEYS)
    ):
        fix = Fix(
            claim.file,
            claim.line,
            line,
            line.replace(stated.text, new_text, 1),
            description=f"{product} {stated.text} -> {new_text}",
        )
    return make(
        rule,
        category,
        "changed",
        claim,
        subject=f"{product} {stated.text or claim.value} in {claim.file}",
        skill_says=f"{product} {stated.text}",
        source_says=f"{release(state.upstream)} declares {product} `{upstream}`"
        + (f" for extra '{item.attrs['extra']}'" if item.attrs.get("extra") else "")
        + f" ({item.file}:{item.line})",
        impact=f"users install or reject {product} versions the release does not support",
        source=source_loc(item),
        fix=fix,
    )
