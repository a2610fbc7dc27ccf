"""Goal -> route -> session_context: the router's decision, a pure function over the goal's
signals, the available contexts and the catalog's role map.

Decision order (first match wins; explicit early returns, one test per branch in the corpus):

1. ONNX failure -> onnx_debug; torch / quark cannot be imported -> torch_install / quark_install;
   broken torch build -> torch_install
2. file2file / quant-perf / shrink requests -> their skill
3. path questions -> workspace_validate; plan-only requests -> quant_plan; environment questions
   -> env_preflight
4. "can Quark quantize X", "is X supported", layer counts, architecture -> model_intake
5. validate an output -> result_validator; export -> the PTQ workflow (export is one of its steps)
6. an explicit request to quantize / PTQ -> the PTQ workflow (ONNX or PyTorch), never a direct script
7. evaluate / benchmark / accuracy -> eval; compare or serve/deploy -> no route (interpretations)
8. a scheme or "quantized" alone -> the PTQ workflow
9. install/set up PyTorch, ONNX Runtime, Quark -> kept apart; "set up Quark" alone is ambiguous
10. inspect / analyse -> model_intake; nothing recognised -> no route: 3 interpretations

Prerequisites (run first, recorded in open_questions): hardware facts unknown (no env_context, or
its accelerator is ``unknown``, and none stated in the goal) for a role that needs them ->
env_preflight; model path / output dir unvalidated (no workspace_context) -> workspace_validate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from quarkci.router.intent import signals
from quarkci.router.roles import ROLES

UNDECIDED = "undecided"


@dataclass(frozen=True)
class Facts:
    """What the router knows besides the goal: only presence and the accelerator value are read."""

    env_known: bool = False  # an env_context is available ...
    accelerator: str | None = None  # ... with this hardware.accelerator
    workspace_known: bool = False


@dataclass(frozen=True)
class Decision:
    """``role`` is None when no route is chosen; then ``interpretations`` holds 2-3 roles."""

    role: str | None
    reason: str
    interpretations: tuple[str, ...] = ()
    prerequisites: tuple[tuple[str, str], ...] = field(default=())  # (role, why)


def _pick(goal: str) -> tuple[str | None, str, tuple[str, ...]]:
    s = signals(goal)
    onnx = "onnx" in s

    def has(*keys: str) -> bool:
        return all(k in s for k in keys)

    if has("onnx", "debug"):
        return "onnx_debug", "an ONNX quantization failure: diagnose it", ()
    if has("import_error", "torch"):
        return "torch_install", "torch cannot be imported: install or repair PyTorch", ()
    if has("import_error", "quark"):
        return "quark_install", "the quark module cannot be imported: install or repair amd-quark", ()
    if has("torch_broken"):
        return "torch_install", "the PyTorch build does not match the accelerator", ()
    if has("file2file"):
        return "file2file", "a low-memory file2file quantization was asked for", ()
    if has("perf"):
        return "quant_perf", "a mixed-precision search with throughput validation was asked for", ()
    if has("shrink"):
        return "shrink_model", "a one-layer model for debugging was asked for", ()
    if has("workspace"):
        return "workspace_validate", "a question about model or output paths", ()
    if has("plan"):
        return "quant_plan", "a quantization plan without execution (smallest fit)", ()
    if has("env"):
        return "env_preflight", "a question about the machine's environment", ()
    if has("supported"):
        return ("onnx_model_intake" if onnx else "model_intake"), "whether the model is supported: inspect it first", ()
    if has("validate_out"):
        return ("onnx_result_validator" if onnx else "result_validator"), "validate an existing quantized output", ()
    if has("export"):
        return "ptq_workflow", "export is a step of the PTQ workflow (quantize, then export)", ()
    if has("quantize_verb"):
        return ("onnx_ptq_workflow" if onnx else "ptq_workflow"), "a request to quantize a model: the PTQ workflow", ()
    if has("eval"):
        return "eval", "an accuracy evaluation, not a quantization", ()
    if has("compare"):
        return None, "\"compare\" may mean model accuracy or the quantized outputs", ("eval", "result_validator")
    if has("serve"):
        return None, "Quark has no serving skill; serving is part of evaluation, or the goal is a model to serve", (
            "eval", "ptq_workflow")
    if has("quantize"):
        return ("onnx_ptq_workflow" if onnx else "ptq_workflow"), "a quantization scheme was named: the PTQ workflow", ()
    if has("install", "torch") or has("setup", "torch"):
        return "torch_install", "a PyTorch installation (kept apart from installing Quark)", ()
    if has("onnxruntime") and (has("install") or has("setup")):
        return "onnx_install", "an ONNX Runtime installation", ()
    if has("install", "quark") or has("install") and not has("inspect"):
        return "quark_install", "an amd-quark installation (kept apart from installing PyTorch)", ()
    if has("setup", "quark"):
        return None, "\"set up Quark\" may mean installing it, or installing it and then quantizing", (
            "quark_install", "ptq_workflow")
    if has("inspect"):
        return ("onnx_model_intake" if onnx else "model_intake"), "inspect the model (smallest fit)", ()
    return None, "the goal names no Quark task the router recognises", ("model_intake", "ptq_workflow", "quark_install")


def decide(goal: str, facts: Facts) -> Decision:
    """The routing decision for ``goal`` (non-empty) given ``facts``. Deterministic."""
    role, reason, interpretations = _pick(goal)
    if role is None:
        return Decision(None, reason, interpretations)
    spec = ROLES[role]
    prereq: list[tuple[str, str]] = []
    stated = "hardware_stated" in signals(goal)
    if spec.needs_hardware and not stated:
        if not facts.env_known:
            prereq.append(("env_preflight", "accelerator not known yet (no env_context); CUDA is not assumed"))
        elif facts.accelerator in (None, "unknown"):
            prereq.append(("env_preflight", "env_context reports the accelerator as unknown"))
    if spec.needs_workspace and not facts.workspace_known:
        prereq.append(("workspace_validate", "model path and output directory not validated yet (no workspace_context)"))
    return Decision(role, reason, (), tuple(prereq))
