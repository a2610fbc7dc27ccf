"""transformers-version-mismatch: a transformers statement contradicts what the release declares or gates on."""

from __future__ import annotations

import re

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from quarkci.core.findings import Finding
from quarkci.facts.base import FactItem
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._versions import exact_pin, mismatch, spec_of, stated_of
from quarkci.sync.state import AuditState

ID = "transformers-version-mismatch"
DESC = "A transformers version range in the skill contradicts the release's pin or its version gates"
CATEGORY = "compat"
_MAJORS = (4, 5, 6)


def _gate_version(item: FactItem) -> Version | None:
    """The version of an ``is_transformers_version_higher_or_equal("X")`` call-site fact."""
    func = str(item.attrs.get("function") or item.attrs.get("call") or item.name)
    if "is_transformers_version" not in func or "lower" in func:
        return None
    raw = item.attrs.get("version")
    try:
        return Version(str(raw)) if raw else None
    except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
        return None


def _pins(state: AuditState) -> list[tuple[FactItem, SpecifierSet]]:
    """Every transformers pin of the release (core and per extra), the core first, then the ``cli`` extra's,
    then the others by extra name (0.13 pins it in ``cli`` and in ``quant-perf``)."""

    def rank(pin: tuple[FactItem, SpecifierSet]) -> tuple[int, str]:
        extra = pin[0].attrs.get("extra")
        return (0 if extra is None else 1 if extra == "cli" else 2, str(extra))

    pins = [
        (i, spec)
        for i in state.upstream.items("compat")
        if i.name == "transformers" and (spec := spec_of(i)) is not None and len(spec)
    ]
    return sorted(pins, key=rank)


def evidence(state: AuditState) -> tuple[str, FactItem, SpecifierSet | Version] | None:
    """What the release says about transformers: ("pin", item, spec) or ("gate", item, newest gated version)."""
    items = state.upstream.items("compat")
    pins = _pins(state)
    if pins:
        item, spec = pins[0]  # the core requirement first, then the packaged CLI's extra (see _pins)
        return "pin", item, spec
    gates = [(v, i) for i in items if (v := _gate_version(i)) is not None]
    if gates:
        version, item = max(gates, key=lambda g: (g[0], g[1].file, g[1].line))
        return "gate", item, version
    return None


# "It pulls `transformers>=4.40`", "Requires-Dist: transformers>=4.37.2": a floor stated as Quark's own requirement
# (Quark itself the subject: "FP8 KV cache requires transformers>=4.45" is a feature's minimum)
_REQUIREMENT_WORDS = re.compile(
    r"\b(?:amd-quark|quark|the wheel|the package|it|0\.\d+(?:\.\d+)?(?:\.post\d+)?)\s+(?:also\s+)?"
    r"(?:pulls?(?: in)?|requires|depends on|declares|asks for|needs|pins|installs)\b|\bRequires-Dist\b",
    re.IGNORECASE,
)


def check(state: AuditState) -> list[Finding]:
    """Only claims stating an upper bound, not tied to a model type, are compared, and against a pin a
    floor said as Quark's own requirement ("It pulls `transformers>=4.40`").

    Pin: compare the stated bounds (fix in the statement's style). Gate: the stated range must
    admit the newest transformers version the release has a code path for (no fix: a human decides
    the new bound)."""
    found = evidence(state)
    if found is None:
        return []
    mode, item, value = found
    out = []
    for claim in state.claims_of("transformers_version"):
        stated = stated_of(claim, state)
        # A per-model minimum ("llama4 needs transformers >= 4.51") is not the package's range; only
        # statements with an upper bound say which transformers releases Quark works with.
        if stated is None or claim.context.get("model_types"):
            continue
        if not stated.upper and not (
            mode == "pin" and _REQUIREMENT_WORDS.search(state.line(claim.file, claim.line) or "")
        ):
            continue  # a floor alone is a feature's minimum, unless the sentence says what Quark requires
        if mode == "gate" and exact_pin(stated.spec) is not None:
            continue  # one version the user chose: a code path for a newer one does not make it wrong
        if mode == "pin" and isinstance(value, SpecifierSet):
            # a range one extra's pin agrees with is that extra's (0.13: `cli` >5,<5.17, `quant-perf`
            # >=5.5.3,<5.14): reported against the first pin only when it agrees with none
            found_per_pin = [
                mismatch(
                    state,
                    claim,
                    stated,
                    spec,
                    pin,
                    rule=ID,
                    category=CATEGORY,
                    product="transformers",
                    major=_MAJORS,
                )
                for pin, spec in _pins(state)
            ]
            finding = None if any(f is None for f in found_per_pin) else found_per_pin[0]
        elif isinstance(value, Version) and stated.upper and value not in stated.spec:
            finding = make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"transformers {stated.text or claim.value} in {claim.file}",
                skill_says=f"transformers {stated.text}",
                source_says=f"{release(state.upstream)} has code paths for transformers >= {value}",
                impact="the skill rules out transformers versions the release supports",
                source=source_loc(item),
            )
        else:
            finding = None
        if finding is not None:
            out.append(finding)
    return out
