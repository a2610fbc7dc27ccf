"""Roles: what a skill is for (PTQ workflow, environment preflight, ...), resolved to the skill
names of a catalog, so the routing rules never name a skill and follow renames between releases.

A role matches a skill by name tokens first (``{"ptq"}`` in ``quark-torch-ptq``) and by its
description second; ``backend`` keeps PyTorch and ONNX skills apart; meta/maintainer skills and
the router itself are never routing targets. A keyword in a skill's "not for" sentence counts
against it.
"""

from __future__ import annotations

from dataclasses import dataclass

from quarkci.router.catalog import CatalogSkill


@dataclass(frozen=True)
class Role:
    """``name_all``: tokens the skill name must all carry; ``desc_any``: description keywords;
    ``backend``: "torch" (no ``onnx`` token), "onnx" (``onnx`` token) or "" (either)."""

    id: str
    summary: str
    name_all: frozenset[str]
    desc_any: tuple[str, ...]
    backend: str = "torch"
    needs_hardware: bool = False
    needs_workspace: bool = False


def _r(id: str, summary: str, name: str, desc: tuple[str, ...], backend: str = "torch", hw: bool = False,
       ws: bool = False) -> Role:
    return Role(id, summary, frozenset(name.split()), desc, backend, hw, ws)


ROLES: dict[str, Role] = {r.id: r for r in (
    _r("ptq_workflow", "quantize the model end to end (intake, plan, manifest, confirmed run)", "ptq",
       ("end-to-end post-training quantization", "quantization workflow"), hw=True, ws=True),
    _r("onnx_ptq_workflow", "quantize the .onnx model end to end", "ptq", ("onnx ptq workflow",), "onnx", True, True),
    _r("env_preflight", "collect hardware and environment facts", "preflight", ("environment facts",), ""),
    _r("workspace_validate", "validate the model path and output directory", "workspace",
       ("model paths",), ""),
    _r("torch_install", "install or repair PyTorch for the accelerator", "torch install", ("pytorch build",), hw=True),
    _r("quark_install", "install or verify amd-quark", "quark install",
       ("install or verify amd-quark", "installs or verifies amd quark"), hw=True),
    _r("onnx_install", "install ONNX Runtime", "onnx install", ("onnx runtime build",), "onnx", hw=True),
    _r("model_intake", "inspect the model (architecture, quantizable layers, risks)", "intake",
       ("inspect a hugging face model", "inspect a huggingface"), ws=True),
    _r("onnx_model_intake", "inspect the .onnx model", "intake",
       ("inspect an .onnx model", "inspect a target onnx model"), "onnx", ws=True),
    _r("quant_plan", "plan the quantization (scheme, exclusions, algorithm) without running it", "plan",
       ("build a quantization plan", "ptq quantization plan")),
    _r("result_validator", "validate a quantized output", "validator",
       ("validate quantized output", "torch quantization output"), ws=True),
    _r("onnx_result_validator", "validate a quantized .onnx output", "validator",
       ("quantized .onnx", "onnx quantization output"), "onnx", ws=True),
    _r("onnx_debug", "diagnose a failed ONNX quantization", "debug", ("diagnose",), "onnx"),
    _r("eval", "evaluate or benchmark model accuracy", "eval", ("accuracy evaluation",), hw=True),
    _r("shrink_model", "shrink the model to one layer for debugging", "shrink", ("one hidden layer", "1 hidden layer"), ws=True),
    _r("file2file", "low-memory file2file quantization of a huge checkpoint", "file2file", ("without loading",), hw=True),
    _r("quant_perf", "mixed-precision search with accuracy and throughput validation", "perf",
       ("mixed-precision search",), hw=True),
)}

_NOT_TARGETS = frozenset({"router", "runner", "sync", "drift", "creator"})


def _score(role: Role, skill: CatalogSkill) -> int:
    tokens = skill.tokens
    if skill.layer == "meta" or tokens & _NOT_TARGETS:
        return 0
    if role.backend == "torch" and "onnx" in tokens or role.backend == "onnx" and "onnx" not in tokens:
        return 0
    score = 10 if role.name_all <= tokens else 0
    for keyword in role.desc_any:
        if keyword in skill.positive:
            score += 4
        if keyword in skill.negative:
            score -= 6
    return score


def resolve_roles(catalog: list[CatalogSkill]) -> dict[str, str]:
    """Role id -> skill name for every role some catalog skill fits (score >= 4; ties by name).

    ``catalog`` must be sorted by name (as :func:`~quarkci.router.catalog.load_catalog` returns it)
    for a deterministic choice.
    """
    out: dict[str, str] = {}
    for role in ROLES.values():
        ranked = sorted((-_score(role, s), s.name) for s in catalog)
        if ranked and -ranked[0][0] >= 4:
            out[role.id] = ranked[0][1]
    return out
