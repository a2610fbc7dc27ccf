"""Resolve a ``python_name`` claim against a release's ``public_api`` facts (shared by
``python-import-unresolved`` and ``api-name-removed``)."""

from __future__ import annotations

from dataclasses import dataclass

from quarkci.facts.public_api import ApiIndex
from quarkci.skills.model import Claim
from quarkci.sync.state import UpstreamView


@dataclass(frozen=True)
class Resolved:
    """``status``: ``ok`` | ``no_module`` | ``no_name`` | ``dynamic`` (module ``__getattr__``) | ``skip``.
    ``module``/``name``: what was looked up (``name`` None for a module import)."""

    status: str
    module: str
    name: str | None
    file: str = ""


_INDEXES: dict[int, tuple[UpstreamView, ApiIndex]] = {}


def index_of(view: UpstreamView) -> ApiIndex:
    """The :class:`ApiIndex` of a view (cached per view object; the view is kept alive with it)."""
    hit = _INDEXES.get(id(view))
    if hit is None or hit[0] is not view:
        if len(_INDEXES) > 32:
            _INDEXES.clear()
        hit = (view, ApiIndex(view.items("public_api")))
        _INDEXES[id(view)] = hit
    return hit[1]


def public_names(view: UpstreamView, top_level: bool = False) -> dict[str, str]:
    """``{public name: first module exporting it}`` of a release; with ``top_level`` only the framework
    packages users import from (``quark``, ``quark.torch``, ``quark.onnx``...: packages at most two deep)."""
    out: dict[str, str] = {}
    for item in sorted(view.items("public_api")):
        if top_level and not (item.file.endswith("/__init__.py") and item.name.count(".") <= 1):
            continue
        for name in item.attrs.get("public", []):
            out.setdefault(str(name), item.name)
    return out


def resolve(claim: Claim, index: ApiIndex) -> Resolved:
    """Where ``claim`` (a ``from``/``import``/``dotted`` python_name) stands in the release of ``index``."""
    form = claim.context.get("form")
    if form == "from":
        module, name = str(claim.context.get("module")), str(claim.context.get("name"))
    elif form == "import":
        module, name = claim.value, None
    elif form == "dotted":
        split = index.split(claim.value)
        if split is None:  # not even `quark.<first>` is a module: that first package is what is missing
            return Resolved("no_module", ".".join(claim.value.split(".")[:2]), None)
        module, rest = split
        name = rest[0] if rest else None
    else:
        return Resolved("skip", "", None)
    if not index.has_module(module):
        return Resolved("no_module", module, name)
    file = index.modules[module].file
    if name is None:
        return Resolved("ok", module, None, file)
    found = index.resolves(module, name)
    if found is None:
        return Resolved("dynamic", module, name, file)
    return Resolved("ok" if found else "no_name", module, name, file)
