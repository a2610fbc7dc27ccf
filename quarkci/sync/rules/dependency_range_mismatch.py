"""dependency-range-mismatch: a dependency range the skill states contradicts the release's Requires-Dist."""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from quarkci.core.findings import Finding, Fix
from quarkci.facts.base import FactItem
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release, source_loc
from quarkci.sync.rules._versions import exact_pin
from quarkci.sync.state import AuditState

ID = "dependency-range-mismatch"
DESC = (
    "A version range the skill states for a dependency (onnx, onnxruntime, ...) disagrees with the "
    "release's Requires-Dist pin on a bound the skill states"
)
CATEGORY = "dependencies"


def _bounds(spec: SpecifierSet) -> tuple[list[Version], list[Version]]:
    lower, upper = [], []
    for clause in spec:
        try:
            version = Version(clause.version.rstrip(".*"))
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
            continue
        if clause.operator in (">=", ">", "==", "~=", "==="):
            lower.append(version)
        if clause.operator in ("<=", "<", "==", "~=", "==="):
            upper.append(version)
    return lower, upper


def _probes(version: Version) -> list[Version]:
    """``version`` and its neighbours one micro release below and above."""
    release = list(version.release) + [0] * (3 - len(version.release))
    out = [Version(".".join(map(str, release))), Version(".".join(map(str, release[:2] + [release[2] + 1])))]
    if release[2] > 0:
        out.append(Version(".".join(map(str, release[:2] + [release[2] - 1]))))
    elif release[1] > 0:
        out.append(Version(f"{release[0]}.{release[1] - 1}.999"))
    elif release[0] > 0:  # x.0.0: the last release before it (a floor of `>=2.0` excludes 1.26.4)
        out.append(Version(f"{release[0] - 1}.999.999"))
    return out


def disagrees(stated: SpecifierSet, pinned: SpecifierSet) -> bool:
    """True when the two ranges admit different versions near a bound that ``stated`` states
    (a floor-only statement is compared on floors, a cap-only one on caps); a pinned version
    (``==1.22.0``, :func:`._versions.exact_pin`) disagrees only when ``pinned`` excludes it."""
    version = exact_pin(stated)
    if version is not None:
        return not pinned.contains(version, prereleases=True)
    s_lower, s_upper = _bounds(stated)
    p_lower, p_upper = _bounds(pinned)
    probes: list[Version] = []
    if s_lower:
        probes += [p for v in s_lower + p_lower for p in _probes(v)]
    if s_upper:
        probes += [p for v in s_upper + p_upper for p in _probes(v)]
    return any(stated.contains(v, prereleases=True) != pinned.contains(v, prereleases=True) for v in probes)


def _as_words_mean(stated: SpecifierSet, pinned: SpecifierSet, words: str) -> SpecifierSet:
    """``stated`` with a cap said in words ("0.2.4 up to 0.3", "1.18 to 1.22": ``<=B``) read as the
    pin's own ``<B`` when the pin caps at that very version: prose does not say whether the bound is
    included. A cap written as a specifier (``<=0.3``) is kept as written."""
    if "<" in words:
        return stated
    caps = {Version(p.version) for p in pinned if p.operator == "<"}
    parts = [f"<{s.version}" if s.operator == "<=" and Version(s.version) in caps else str(s) for s in stated]
    return SpecifierSet(",".join(parts))


def _pins(state: AuditState, package: str) -> list[tuple[FactItem, SpecifierSet]]:
    out = []
    for item in state.upstream.items("dependencies"):
        if item.name != package or not item.attrs.get("specifier"):
            continue
        try:
            out.append((item, SpecifierSet(str(item.attrs["specifier"]))))
        except InvalidSpecifier:
            continue
    return out


# "## Install", "### Installation and set-up", "## Requirements": a section saying what installing Quark brings
_INSTALL_SECTION = re.compile(r"\b(?:install\w*|set-?up|requirements)\b", re.IGNORECASE)


def _about_installing(claim: Claim) -> bool:
    """True when the claim stands in an install skill, or in prose under a heading about installing Quark
    ("The extra pins `onnxruntime` to ..."): there a range of a package only an extra needs is what the
    extra pins. A ``pip install "lm-eval>=0.4.3"`` line of another skill installs the reader's own copy."""
    section = str(claim.context.get("section") or "").rsplit(" > ", 1)[-1]
    if "install" in claim.skill:
        return True
    return claim.context.get("where") != "code" and bool(_INSTALL_SECTION.search(section))


def check(state: AuditState) -> list[Finding]:
    """``changed`` per ``dependency`` claim that disagrees with every pin of its package (a package
    pinned differently per extra agrees when one pin agrees). A claim whose clause names an extra
    ("the `lint` extra pins `mypy==1.17.0`") is compared with that extra's pin when the extra pins the
    package. A package the release needs only through an extra (``onnxruntime`` in ``cli``, ``lm-eval`` in
    ``quant-perf``), stated without naming the extra, is checked only in install skills. The fix rewrites
    the stated specifier to the release's whole range (both bounds) only when there is one pin and the text
    is on the line."""
    out = []
    for claim in state.claims_of("dependency"):
        package = str(claim.context.get("package", ""))
        pins = _pins(state, package)
        extra = claim.context.get("extra")
        named = [(i, s) for i, s in pins if extra and i.attrs.get("extra") == extra]
        if named:
            pins = named
        elif pins and all(i.attrs.get("extra") for i, _ in pins) and not _about_installing(claim):
            continue  # needed only by an extra: a range in a skill not about installing Quark is its own choice
        try:
            stated = SpecifierSet(claim.value)
        except InvalidSpecifier:
            continue
        words = str(claim.context.get("text") or "")
        if (
            not pins
            or not any(True for _ in stated)
            or not all(disagrees(_as_words_mean(stated, spec, words), spec) for _, spec in pins)
        ):
            continue
        item, spec = pins[0]
        extras = ", ".join(
            sorted({f"'{i.attrs['extra']}'" if i.attrs.get("extra") else "core" for i, _ in pins})
        )
        fix = None
        line = state.line(claim.file, claim.line)
        text = str(claim.context.get("text", ""))
        if (
            len(pins) == 1
            and exact_pin(stated) is None
            and line is not None
            and text
            and line.count(text) == 1
        ):
            fix = Fix(
                claim.file,
                claim.line,
                line,
                line.replace(text, str(spec), 1),
                description=f"{package} {text} -> {spec}",
            )
        out.append(
            make(
                ID,
                CATEGORY,
                "changed",
                claim,
                subject=f"{package} {claim.value} in {claim.file}:{claim.line}",
                skill_says=f"{package} {text or claim.value}",
                source_says=f"{release(state.upstream)} requires {package} `{spec}` ({extras}; "
                f"{item.file}:{item.line})",
                impact=f"users install {package} versions the release does not accept, or reject ones it needs",
                source=source_loc(item),
                fix=fix,
            )
        )
    return out
