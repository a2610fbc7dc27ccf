"""Roles: what a skill is for (PTQ workflow, export, debug, ...), matched to the skills of the catalog
given, by each skill's frontmatter description, name and layer. No skill name is written here.

A skill *qualifies* for a role when the first sentence of its description says what the role does
(:attr:`Role.lead`, e.g. "Export ..." for export, "Diagnose ..." for debug) or its name carries all the
role's name tokens; it is *excluded* when its "do not use for" part names the role's work, when its
backend (PyTorch or ONNX) differs, or when it is a meta/maintainer skill or a router (only the roles marked
``meta``, skill creation and skill audit, take a meta skill: maintainers route there on purpose).
Qualifying skills
are ranked by a name match, depth in the bundle (a top-level skill before a legacy copy), lexical
similarity between the role's summary and the description (BM25, ``bm25s``), then name.

A catalog without a skill for a role leaves the role unresolved: the router then asks instead of
guessing (see :mod:`quarkci.router.route`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from quarkci.router.catalog import CatalogSkill
from quarkci.router.lexical import index_for


@dataclass(frozen=True)
class Role:
    """``lead``: a pattern on the first sentence of a skill description; ``name_all``: tokens a skill
    name must all carry; ``backend``: "torch", "onnx" or "" (either); ``alternatives``: roles offered
    when the catalog has no skill for this one (a PTQ workflow whose description covers export)."""

    id: str
    summary: str
    lead: str
    name_all: frozenset[str]
    backend: str = "torch"
    needs_hardware: bool = False
    needs_workspace: bool = False
    alternatives: tuple[str, ...] = ()
    meta: bool = False  # a maintainer role: meta skills (skill creator, skill sync) qualify


def _r(
    id: str,
    summary: str,
    lead: str,
    name: str,
    backend: str = "torch",
    hw: bool = False,
    ws: bool = False,
    alt: tuple[str, ...] = (),
    meta: bool = False,
) -> Role:
    return Role(id, summary, lead, frozenset(name.split()), backend, hw, ws, alt, meta)


_INSTALL = r"^(installs?|install or verify|installs or verifies)\b"
ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        _r(
            "ptq_workflow",
            "quantize the model end to end (intake, plan, manifest, confirmed run)",
            r"^(runs? )?(an )?end-to-end\b.*\b(post-training quantization|ptq)\b",
            "ptq",
            hw=True,
            ws=True,
        ),
        _r(
            "onnx_ptq_workflow",
            "quantize the .onnx model end to end",
            r"^(runs? )?(an )?end-to-end\b.*\b(post-training quantization|ptq)\b",
            "ptq",
            "onnx",
            True,
            True,
        ),
        _r(
            "env_preflight",
            "collect hardware and environment facts",
            r"^collect\w*\b.*\benvironment facts\b",
            "preflight",
            "",
        ),
        _r(
            "workspace_validate",
            "validate the model path and output directory",
            r"^validat\w*\b.{0,40}\b(model paths?|workspace)\b",
            "workspace",
            "",
        ),
        _r(
            "torch_install",
            "install or repair PyTorch for the accelerator",
            _INSTALL + r".{0,20}\b(the )?(correct )?pytorch\b",
            "torch install",
            hw=True,
        ),
        _r(
            "quark_install",
            "install or verify amd-quark",
            _INSTALL + r".{0,5}\b(amd[- ]quark|amd quark)\b",
            "quark install",
            "",
            hw=True,
        ),
        _r(
            "onnx_install",
            "install ONNX Runtime",
            _INSTALL + r".{0,20}\bonnx runtime\b",
            "onnx install",
            "onnx",
            hw=True,
        ),
        _r(
            "model_intake",
            "inspect the model (architecture, quantizable layers, risks)",
            r"^inspect\w*\b",
            "intake",
            ws=True,
        ),
        _r("onnx_model_intake", "inspect the .onnx model", r"^inspect\w*\b", "intake", "onnx", ws=True),
        _r(
            "onnx_quant_plan",
            "plan the ONNX quantization (preset, calibration, algorithms) without running it",
            r"^(build|create|choose|make)\w*\b.{0,40}\bquantization plan\b",
            "plan",
            "onnx",
            alt=("onnx_ptq_workflow",),
        ),
        _r(
            "quant_plan",
            "plan the quantization (scheme, exclusions, algorithm) without running it",
            r"^(build|create|choose|make)\w*\b.{0,40}\bquantization plan\b",
            "plan",
        ),
        _r(
            "result_validator",
            "validate a quantized output",
            r"^validat\w*\b.{0,40}\bquantiz\w* output\b",
            "validator",
            ws=True,
        ),
        _r(
            "onnx_result_validator",
            "validate a quantized .onnx output",
            r"^validat\w*\b.{0,40}\bquantiz\w* output\b",
            "validator",
            "onnx",
            ws=True,
        ),
        _r(
            "export",
            "export or package an already-quantized model (ONNX, GGUF, hf_format, a serving engine)",
            r"^(export|package|convert)\w*\b",
            "export",
            ws=True,
            alt=("ptq_workflow",),
        ),
        _r(
            "debug",
            "diagnose a failed or misbehaving PyTorch quantization (errors, out of memory, wrong output)",
            r"^(diagnos|debug|troubleshoot)\w*\b",
            "debug",
            alt=("result_validator", "ptq_workflow"),
        ),
        _r(
            "onnx_debug",
            "diagnose a failed ONNX quantization",
            r"^(diagnos|debug|troubleshoot)\w*\b",
            "debug",
            "onnx",
        ),
        _r(
            "eval",
            "evaluate or benchmark model accuracy",
            r"^(end-to-end )?(llm )?(accuracy evaluation|evaluat\w*)\b",
            "eval",
            hw=True,
        ),
        _r("shrink_model", "shrink the model to one layer for debugging", r"^shrink\w*\b", "shrink", ws=True),
        _r(
            "file2file",
            "low-memory file2file quantization of a huge checkpoint",
            r"\bfile2file\b",
            "file2file",
            hw=True,
        ),
        _r(
            "quant_perf",
            "mixed-precision search with accuracy and throughput validation",
            r"\bquant-perf\b|\bmixed-precision search\b",
            "perf",
            hw=True,
        ),
        _r(
            "graph_rewrite",
            "apply existing ShapeShifter graph passes to an .onnx model "
            "(fold, fuse, simplify, opset, layout)",
            r"^apply\w*\b.{0,40}\bpass(es)?\b",
            "shapeshifter run",
            "onnx",
            ws=True,
        ),
        _r(
            "pass_authoring",
            "write a new ShapeShifter graph-transformation pass (ONNX or PyTorch)",
            r"^author\w*\b.{0,60}\bpass\b",
            "create shapeshifter pass",
            "",
        ),
        _r(
            "partition",
            "partition an .onnx graph into named functional subgraphs",
            r"^partition\w*\b",
            "partitioner",
            "onnx",
            ws=True,
        ),
        _r(
            "autosearch",
            "search quantization configs of an .onnx model for the best one (AutoSearchPro)",
            r"\bautosearch\w*\b",
            "autosearch",
            "onnx",
            hw=True,
        ),
        _r(
            "skill_creation",
            "author or restructure a Quark agent skill (maintainers)",
            r"^(author|create|scaffold)\w*\b.{0,40}\bskill\b",
            "skill creator",
            "",
            meta=True,
        ),
        _r(
            "skill_audit",
            "audit the skills against upstream Quark changes (maintainers)",
            r"^detect\w*\b.{0,40}\bchanges\b.{0,40}\bskill",
            "skill sync",
            meta=True,
        ),
        _r(
            "onnx_skill_audit",
            "audit the ONNX skills against upstream Quark ONNX changes (maintainers)",
            r"^detect\w*\b.{0,40}\bchanges\b.{0,40}\bskill",
            "skill sync",
            "onnx",
            meta=True,
        ),
    )
}

_NOT_TARGETS = frozenset({"router", "runner", "sync", "drift", "creator"})
_ONNX = re.compile(r"\bonnx\b|\.onnx\b")


def first_sentence(skill: CatalogSkill) -> str:
    """The first sentence of the skill's "use when" part (lower-case)."""
    return re.split(r"(?<=[.;])\s", skill.positive, maxsplit=1)[0]


def backend(skill: CatalogSkill) -> str:
    """ "onnx" when the name carries ``onnx`` or the first sentence is about ONNX models, else "torch"."""
    if "onnx" in skill.tokens:
        return "onnx"
    if "torch" in skill.tokens or "pytorch" in first_sentence(skill):
        return "torch"
    return "onnx" if _ONNX.search(first_sentence(skill)) else "torch"


def routable(skill: CatalogSkill) -> bool:
    """False for meta/maintainer skills and routers: never a routing target of an end-user role."""
    return skill.layer != "meta" and not skill.tokens & _NOT_TARGETS


def qualifies(role: Role, skill: CatalogSkill) -> bool:
    """Whether ``skill`` can play ``role`` (see the module docstring)."""
    if "router" in skill.tokens or "runner" in skill.tokens:
        return False
    if not role.meta and not routable(skill):
        return False
    if role.backend and backend(skill) != role.backend:
        return False
    lead = re.compile(role.lead)
    if lead.search(skill.negative):
        return False
    return bool(lead.search(first_sentence(skill))) or role.name_all <= skill.tokens


def resolve_roles(catalog: list[CatalogSkill]) -> dict[str, str]:
    """Role id -> skill name for every role some catalog skill qualifies for (see :func:`_resolve`)."""
    return dict(_resolve(tuple(catalog)))


@lru_cache(maxsize=8)
def _resolve(catalog: tuple[CatalogSkill, ...]) -> tuple[tuple[str, str], ...]:
    """Role id -> skill name for every role some catalog skill qualifies for. Deterministic.

    Several qualifying skills: a name match first, then the shallower skill, then the highest BM25
    similarity between the role summary and the description, then the name.
    """
    index = index_for(tuple(s.positive for s in catalog))
    out: dict[str, str] = {}
    for role in ROLES.values():
        scores = index.scores(role.summary)
        ranked = sorted(
            (not role.name_all <= s.tokens, s.depth, -scores[i], s.name)
            for i, s in enumerate(catalog)
            if qualifies(role, s)
        )
        if ranked:
            out[role.id] = ranked[0][3]
    return tuple(out.items())
