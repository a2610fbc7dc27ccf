"""Resolve a ``python_name`` claim against a release's ``public_api`` facts (shared by
``python-import-unresolved`` and ``api-name-removed``)."""

from __future__ import annotations

import re
from collections.abc import Callable
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


_SEGMENT = re.compile(r"^[a-z_][a-z0-9_]*$")


def unknown_module(claim: Claim, index: ApiIndex, known: Callable[[str], bool]) -> str | None:
    """The module path ``claim`` names when neither this release (``index``) nor any other (``known(path)``:
    some release of the vocabulary has that module) has it, else None.

    ``from M import X`` and ``import M`` name ``M``. A dotted reference names a module when the part past
    this release's longest module prefix is a run of module-like segments (lower case) followed by more
    (``quark.torch.quantisation.config``, ``quark.torch.quantization.confg.QConfig``), and the module
    prefix does not define the first of them; a lone lower-case last part (``quark.torch.export_safetensorz``)
    may be a function, so it is no module path. A module some release had (removed, renamed) is drift, not a
    misspelling: None.
    """
    form = claim.context.get("form")
    if form in ("from", "import"):
        module = str(claim.context.get("module")) if form == "from" else claim.value
        if not module.startswith("quark.") or index.has_module(module) or known(module):
            return None
        return module
    if form != "dotted":
        return None
    split = index.split(claim.value)
    if split is None:
        return None
    prefix, rest = split
    run: list[str] = []
    for part in rest:
        if not _SEGMENT.match(part):
            break
        run.append(part)
    if not run or len(run) == len(rest) == 1 or index.resolves(prefix, run[0]) is not False:
        return None
    module = ".".join([prefix, *run])
    if known(module) or known(f"{prefix}.{run[0]}"):
        return None
    return module


# A parameter's name gives the role of the literal passed to it: which vocabulary kind (and fact kind of
# the audited release) must hold the value. Source: the parameter names of amd-quark's own signatures,
# ``LLMTemplate.get(model_type)`` and ``LLMTemplate.get_config(scheme, ...)`` (quark/torch/quantization/
# config/template.py, 0.10 … 0.13).
ROLES: dict[str, tuple[str, str, str]] = {
    "scheme": ("scheme", "schemes", "scheme"),
    "model_type": ("model_template", "model_templates", "model template"),
}


@dataclass(frozen=True)
class Role:
    """What a ``python_argument`` claim's literal must be: ``parameter`` it is passed to, the vocabulary
    ``kind``, the audited release's ``fact_kind`` and the ``noun`` findings use."""

    parameter: str
    kind: str
    fact_kind: str
    noun: str


def argument_role(claim: Claim, index: ApiIndex) -> Role | None:
    """The role of a ``python_argument`` claim: its ``keyword``, or the parameter at its ``position`` of
    the callable's signature in the release of ``index``; None when that parameter has no role in
    :data:`ROLES` or the signature cannot be read, and for the model type passed to a class (its
    constructor registers a new template under that name)."""
    keyword = claim.context.get("keyword")
    if not isinstance(keyword, str):
        position = claim.context.get("position")
        callee = claim.context.get("callable")
        if not isinstance(position, int) or not isinstance(callee, str):
            return None
        params = index.signature(callee)
        if params is None or position >= len(params) or params[position] == "**":
            return None
        keyword = params[position]
    found = ROLES.get(keyword)
    callee = str(claim.context.get("callable") or "")
    if keyword == "model_type" and callee.rsplit(".", 1)[-1][:1].isupper():
        return None  # `LLMTemplate(model_type="my_llama", ...)` defines a template: the name is new by design
    return Role(keyword, *found) if found is not None else None


def callable_key(dotted: str) -> str:
    """The key a callable has in its module's ``signatures``/``literals`` facts: ``Class.method`` when the
    part before the last is a class (CamelCase), else the last part (``export_safetensors``)."""
    parts = dotted.split(".")
    return ".".join(parts[-2:]) if len(parts) > 1 and parts[-2][:1].isupper() else parts[-1]


def closed_parameter(claim: Claim, index: ApiIndex) -> tuple[str, list[str]] | None:
    """``(parameter, accepted values)`` when a ``python_argument`` claim passes its literal to a parameter
    whose values the callable closes in the release of ``index`` (:meth:`ApiIndex.literals`), else None."""
    callee = claim.context.get("callable")
    if not isinstance(callee, str):
        return None
    literals = index.literals(callee)
    if not literals:
        return None
    keyword = claim.context.get("keyword")
    if not isinstance(keyword, str):
        position = claim.context.get("position")
        params = index.signature(callee)
        if not isinstance(position, int) or params is None or position >= len(params):
            return None
        keyword = params[position]
    return (keyword, literals[keyword]) if keyword in literals else None
