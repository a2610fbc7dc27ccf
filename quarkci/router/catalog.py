"""The skills catalog the router resolves roles against: names, descriptions and the "not for"
lines of each skill, from ``--skills DIR|bundled:SPEC`` or the small embedded default.

This is a thin adapter over :mod:`quarkci.skills` (``open_skills`` + ``discover``); only the
fields routing needs are kept, so the skills package can change without touching the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from quarkci.core.errors import BadInputError

DEFAULT_LABEL = "embedded default catalog (Quark 0.13 skill names)"
_NEGATIVE = re.compile(r"(?i)\b(not for|does not|do not use|not an? |never)\b")


@dataclass(frozen=True)
class CatalogSkill:
    """One routable skill: ``positive`` is what it is for, ``negative`` its "not for" sentences."""

    name: str
    positive: str
    negative: str
    layer: str = ""
    depth: int = 0  # directory depth in the bundle: a top-level skill wins a tie over a legacy copy

    @property
    def tokens(self) -> frozenset[str]:
        return frozenset(self.name.lower().split("-"))


def split_description(description: str) -> tuple[str, str]:
    """Split a skill description into (what it is for, what it is not for), lower-cased."""
    sentences = re.split(r"(?<=[.;])\s+|\s+(?=(?:not for|does not|NOT)\b)", " ".join(description.split()))
    pos = [s for s in sentences if not _NEGATIVE.search(s)]
    neg = [s for s in sentences if _NEGATIVE.search(s)]
    return " ".join(pos).lower(), " ".join(neg).lower()


_LAYER_DIR = re.compile(r"(?:^|/)(l\d-[a-z-]+|meta)/")


def _entry(name: str, description: str, layer: str, depth: int = 0) -> CatalogSkill:
    pos, neg = split_description(description)
    return CatalogSkill(name=name, positive=pos, negative=neg, layer=layer, depth=depth)


@cache
def _default() -> tuple[CatalogSkill, ...]:
    data = yaml.safe_load(
        resources.files("quarkci.router").joinpath("default_catalog.yaml").read_text("utf-8")
    )
    skills = [_entry(s["name"], s["description"], s.get("layer", "")) for s in data["skills"]]
    return tuple(sorted(skills, key=lambda s: s.name))


def load_catalog(spec: str | None) -> tuple[list[CatalogSkill], str]:
    """The catalog for ``spec`` (``None``: the embedded default) and its label.

    Skills sharing a name (an adapter and its implementation) are kept once, the shallowest first.
    Raises :class:`BadInputError` when the spec names no directory/release or holds no skills.
    """
    if spec is None:
        return list(_default()), DEFAULT_LABEL
    from quarkci.skills import discover, open_skills

    source = open_skills(spec)
    found = sorted(discover(source), key=lambda s: (s.path.count("/"), s.path))
    seen: dict[str, CatalogSkill] = {}
    for skill in found:
        if skill.error or skill.name in seen:
            continue
        desc = skill.frontmatter.get("description")
        layer = skill.frontmatter.get("layer")
        if not isinstance(
            layer, str
        ):  # Quark's bundle files skills under their layer: _legacy_impl/l1-atomic/...
            from_path = _LAYER_DIR.search(skill.path)
            layer = from_path.group(1) if from_path else ""
        seen[skill.name] = _entry(
            skill.name, desc if isinstance(desc, str) else "", layer, skill.path.count("/")
        )
    if not seen:
        raise BadInputError(f"--skills {spec}: no readable SKILL.md found")
    return sorted(seen.values(), key=lambda s: s.name), source.label
