"""python-version-mismatch: a Python version statement contradicts the release's Requires-Python."""

from __future__ import annotations

from dataclasses import replace

from quarkci.core.findings import Finding
from quarkci.facts.base import FactItem
from quarkci.skills.claims.phrases import Stated, minors
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._versions import mismatch, spec_of, stated_of
from quarkci.sync.state import AuditState

ID = "python-version-mismatch"
DESC = "A Python version range in the skill differs from the release's Requires-Python"
CATEGORY = "python"


def check(state: AuditState) -> list[Finding]:
    """Compare each ``python_version`` claim with ``requires-python`` (METADATA or pyproject.toml).

    Only the bounds the sentence states are compared ("3.10+" states a lower bound only).
    """
    item = next((i for i in state.upstream.items("python") if i.name == "requires-python"), None)
    upstream = spec_of(item) if item is not None else None
    if item is None or upstream is None:
        return []
    classifiers = sorted(
        (i.name for i in state.upstream.items("python") if i.attrs.get("source") == "classifier"),
        key=lambda v: tuple(int(p) for p in v.split(".")),
    )
    admitted = minors(upstream, 3)
    disagree = bool(classifiers) and [v for v in admitted if v in classifiers] != admitted
    out = []
    for claim in state.claims_of("python_version"):
        unsupported = claim.context.get("unsupported")
        if isinstance(unsupported, str):  # "Python 3.13 is not supported": false when the release admits it
            if unsupported in admitted:
                out.append(_single(claim, unsupported, item, state, supported=False))
            continue
        supported = claim.context.get("supported")
        if isinstance(supported, str):  # "Python 3.13 is supported": false when the release excludes it
            if supported not in admitted and admitted:
                out.append(_single(claim, supported, item, state, supported=True))
            continue
        stated = stated_of(claim, state)
        if stated is None:
            continue
        if claim.context.get("source") == "classifier":
            # "the classifiers name Python 3.10, 3.11 and 3.12": compared with the classifiers, not the range
            out.extend(_classifiers(claim, stated, classifiers, state))
            continue
        if claim.context.get("negative") and stated.upper:
            # "Not supported: Python 3.14+" (read as `<3.14`) is false only when the release admits one of
            # those versions; so is "Python 3.9 and 3.10 are not supported" (read as `>=3.9,<3.11`)
            said_unsupported = set(minors(stated.spec, 3))
            if not stated.lower:
                said_unsupported ^= set(minors(upstream.__class__(""), 3))
            if not said_unsupported & set(admitted):
                continue
        found = mismatch(
            state, claim, stated, upstream, item, rule=ID, category=CATEGORY, product="Python", major=3
        )
        if found is not None and disagree:
            # Requires-Python admits versions the classifiers do not list (0.11.2: 3.9 allowed, yet
            # `import quark.torch` fails there): say so, and make no fix rather than pick the looser one
            found = replace(
                found,
                fix=None,
                source_says=found.source_says
                + f"; its classifiers list only Python {', '.join(classifiers)}: the two disagree",
            )
        if found is not None:
            out.append(found)
    return out


def _classifiers(claim: Claim, stated: Stated, listed: list[str], state: AuditState) -> list[Finding]:
    """``changed`` when the skill says the trove classifiers list Python versions (``stated``: "3.10 to
    3.12", or "3.10+" for the lowest only) other than the release's METADATA lists (``listed``, from
    ``Programming Language :: Python :: 3.X``); empty when they agree or the release lists none. No fix:
    the classifiers are the release's metadata, and the sentence may mean the range."""
    named = minors(stated.spec, 3)
    if not listed or not named or not stated.lower:
        return []
    if (named == listed) if stated.upper else (named[0] == listed[0]):
        return []
    said = ", ".join(named) if stated.upper else f"{named[0]}+"
    item = next(i for i in state.upstream.items("python") if i.attrs.get("source") == "classifier")
    finding = make(
        ID,
        CATEGORY,
        "changed",
        claim,
        skill_says=f"the classifiers list Python {said}",
        source_says=f"{release(state.upstream)} classifiers list Python {', '.join(listed)}",
        impact="readers expect support for versions the release's metadata does not name",
        source=source_loc(item),
    )
    return [finding]


def _single(claim: Claim, version: str, item: FactItem, state: AuditState, *, supported: bool) -> Finding:
    """``changed``: the skill says Python ``version`` is (``supported``) or is not supported, and the
    release's Requires-Python says the opposite. No fix: the sentence names one version, and which sentence
    is wrong (this one, or a range elsewhere) is the author's call."""
    if supported:
        says, verb = f"Python {version} is supported", "excludes"
        impact = f"users on Python {version} install a release that refuses it"
    else:
        says, verb = f"Python {version} is not supported", "admits"
        impact = f"users on Python {version} are turned away although the release supports it"
    return make(
        ID,
        CATEGORY,
        "changed",
        claim,
        skill_says=says,
        source_says=f"{release(state.upstream)} Requires-Python `{item.attrs.get('specifier')}` {verb} "
        f"Python {version}",
        impact=impact,
        source=source_loc(item),
    )
