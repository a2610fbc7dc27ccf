"""Constraints stated in a goal: model, scheme, hardware, output path and execution mode.

Read from the goal text only (the raw text for names and paths, the normalised text for keywords);
values are recorded as stated (hardware is *stated*, not confirmed: environment preflight confirms it).
"""

from __future__ import annotations

import re
from typing import Any

from quarkci.router.intent import PATTERNS, Goal
from quarkci.router.text import CJK_RUN

_PATH = r"(?:~|\.{1,2})?/[\w.@+-]+(?:/[\w.@+-]+)*/?"
_OUTPUT = re.compile(
    r"(?i)\b(?:output(?: dir(?:ectory)?)?(?: to| in| at|:)?|save(?: it| them| the \w+)?(?: under| to| in| as| into)"
    r"|write(?: it| them)?(?: to| into| under)|store(?: it)?(?: in| under)|into|outputs? (?:in|to))\s+("
    + _PATH
    + ")"
)
_ANY_PATH = re.compile(r"(?<![\w/])(" + _PATH + ")")
_HF_ID = re.compile(r"(?<![\w/.])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/])")
_FAMILY = re.compile(
    r"(?i)(?<![\w/])((?:meta-)?(?:llama|qwen|mistral|mixtral|gemma|phi|deepseek|falcon|opt|gpt|bert|yi|baichuan|chatglm"
    r"|internlm|olmo|smollm|granite|command-r)[\w.-]*\d[\w.-]*)"
)
_SCHEME = re.compile(
    r"(?i)(?<![\w-])(fp8|int4|int8|mxfp4|mxfp6|mxint8|w4a16|w8a8|w4a8|a8w8|a16w8|xint8|bfp16|uint4|fp4|"
    r"nvfp4|ptpc-fp8)(?![\w-])"
)
_BITS = re.compile(r"(?i)\b(2|3|4|6|8)[- ]?bits?\b")
_HARDWARE = re.compile(r"(?i)(?<![.\w])(mi\d{3}[a-z]?|rocm|cuda|cu1\d\d|nvidia|radeon|npu|cpu-only)\b")
_PLAN_ONLY = re.compile(PATTERNS["plan_only"])  # on the whole goal: "plan only" spans a clause break
_BATCH = re.compile(r"(?i)\b(batch mode|batch_execute|non-interactive(ly)?|unattended)\b")
_INTERACTIVE = re.compile(r"(?i)\b(interactive(ly)?|interactive_execute|step by step)\b")


def extract(goal: str, understood: Goal) -> dict[str, Any]:
    """``constraints`` for ``goal``: keys ``model``, ``scheme``, ``hardware``, ``output_path``,
    ``execution_mode`` and ``offline``, each only when the goal states it."""
    out: dict[str, Any] = {}
    goal = CJK_RUN.sub(lambda m: f" {m.group(0)} ", goal)  # "Qwen3-8BをFP8に" -> words a pattern can bound
    output = _OUTPUT.search(goal)
    if output:
        out["output_path"] = output.group(1).rstrip(".,;")
    model = _model(goal, out.get("output_path"))
    if model:
        out["model"] = model
    scheme = _SCHEME.search(goal)
    bits = _BITS.search(goal)
    if scheme:
        out["scheme"] = scheme.group(1).lower()
    elif bits:
        out["scheme"] = f"{bits.group(1)}-bit"
    hardware = _HARDWARE.search(goal)
    if hardware:
        out["hardware"] = hardware.group(1).lower()
    if (
        "plan_only" in understood.active
        or "plan_only" in understood.negated
        or _PLAN_ONLY.search(understood.text)
    ):
        out["execution_mode"] = "plan_only"
    elif _BATCH.search(goal):
        out["execution_mode"] = "batch_execute"
    elif _INTERACTIVE.search(goal):
        out["execution_mode"] = "interactive_execute"
    if understood.mentions("offline"):
        out["offline"] = True
    return out


def _model(goal: str, output: str | None) -> str | None:
    """A Hugging Face id (``org/name``), a local path that is not the output, or a family name with a size."""
    hf = _HF_ID.search(goal)
    if hf and not hf.group(1).lower().startswith(("rocm/", "cuda/")):
        return hf.group(1).rstrip(".,;")
    for m in _ANY_PATH.finditer(goal):
        path = m.group(1).rstrip(".,;")
        if path != output and not path.endswith((".py", ".json", ".log")):
            return path
    family = _FAMILY.search(goal)
    return family.group(1).rstrip(".,;") if family else None
