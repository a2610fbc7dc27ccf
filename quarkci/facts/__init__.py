"""Facts: static, provenance-carrying statements about one upstream release.

:data:`EXTRACTORS` is the one explicit, ordered registry (kind -> module); every module exposes
``KIND`` and ``extract(snapshot) -> (items, unavailable_paths)``. :func:`extract_all` runs them all.
"""

from __future__ import annotations

from types import ModuleType

from quarkci.facts import (
    cli_flags,
    cli_models,
    compat,
    dependencies,
    export_formats,
    model_templates,
    public_api,
    python,
    schemes,
    torch_matrix,
)
from quarkci.facts.base import FACT_KINDS, FactItem, FactSet
from quarkci.upstream.base import Snapshot

EXTRACTORS: dict[str, ModuleType] = {
    python.KIND: python,
    torch_matrix.KIND: torch_matrix,
    schemes.KIND: schemes,
    model_templates.KIND: model_templates,
    cli_flags.KIND: cli_flags,
    export_formats.KIND: export_formats,
    compat.KIND: compat,
    cli_models.KIND: cli_models,
    public_api.KIND: public_api,
    dependencies.KIND: dependencies,
}
assert tuple(EXTRACTORS) == FACT_KINDS, "EXTRACTORS must list every fact kind, in FACT_KINDS order"


def extract_all(snapshot: Snapshot, kinds: tuple[str, ...] | list[str] | None = None) -> FactSet:
    """Run the extractors of ``kinds`` (default: all, in registry order) on ``snapshot``.

    Returns a :class:`FactSet` whose items per kind are sorted and whose ``unavailable`` lists, per kind,
    the paths the snapshot cannot show. Raises ``KeyError`` for an unknown kind.
    """
    selected = list(kinds) if kinds else list(EXTRACTORS)
    found: dict[str, list[FactItem]] = {}
    unavailable: dict[str, list[str]] = {}
    for kind in selected:
        items, missing = EXTRACTORS[kind].extract(snapshot)
        found[kind] = sorted(items)
        unavailable[kind] = sorted(set(missing))
    return FactSet(
        version=snapshot.version,
        label=snapshot.label,
        coverage=snapshot.coverage,
        kinds=found,
        unavailable=unavailable,
    )


__all__ = ["EXTRACTORS", "FactItem", "FactSet", "extract_all"]
