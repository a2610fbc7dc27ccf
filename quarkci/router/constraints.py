"""Constraints stated in a goal: model, scheme, hardware, output path, execution mode and offline.

Names and paths are read from the raw goal (as written, case kept); the words around them (families,
schemes, output verbs in each language) come from ``lexicon.yaml``; the execution mode and "offline" from
the parse. Values are recorded as stated (hardware is *stated*, not confirmed: environment preflight
confirms it).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from quarkci.router.lexicon import lexicon
from quarkci.router.parse import Parse
from quarkci.router.text import CJK_RUN, invisible_free

_PATH = r"(?:~|\.{1,2})?/[\w.@+-]+(?:/[\w.@+-]+)*/?"
_ANY_PATH = re.compile(r"(?<![\w/])(" + _PATH + ")")
_HF_ID = re.compile(r"(?<![\w/.])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?![\w/])")
_BITS = re.compile(r"(?i)\b(2|3|4|6|8)[- ]?bits?\b")
_NOT_MODELS = ("rocm/", "cuda/", "q/", "a/")  # "ROCm/CUDA", "Q/DQ", "A/B" are no hub ids
_MODES = ("plan_only", "batch_execute", "interactive_execute")  # first found wins


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    objects = lexicon().objects
    families = objects["families"].pattern
    return {
        "output": re.compile(
            rf"(?i)(?:{objects['output_before'].pattern})({_PATH})|({_PATH})(?:{objects['output_after'].pattern})"
        ),
        # a family name with a version or size, written as one token or with spaces ("Llama 3 8B")
        "family": re.compile(
            rf"(?i)(?<![\w/])({families}(?:[\w.-]*\d[\w.-]*)?"
            r"(?:[ ](?:v?\d[\w.-]*)(?![ -]?bits?\b))*(?:[ ](?:instruct|chat|base|it)\b)?)"
        ),
        "scheme": re.compile(objects["schemes"].pattern, re.IGNORECASE),
        "hardware": re.compile(objects["hardware"].pattern, re.IGNORECASE),
    }


def extract(goal: str, p: Parse) -> dict[str, Any]:
    """``constraints`` for ``goal`` (its parse ``p``): keys ``model``, ``scheme``, ``hardware``,
    ``output_path``, ``execution_mode`` and ``offline``, each only when the goal states it."""
    rx = _patterns()
    out: dict[str, Any] = {}
    goal = CJK_RUN.sub(
        lambda m: f" {m.group(0)} ", invisible_free(goal)
    )  # "Qwen3-8BをFP8に" -> bounded words
    output = rx["output"].search(goal)
    if output:
        out["output_path"] = (output.group(1) or output.group(2)).rstrip(".,;")
    model = _model(goal, out.get("output_path"))
    if model:
        out["model"] = model
    scheme = rx["scheme"].search(goal)
    if scheme and not _BITS.fullmatch(scheme.group(1)):
        out["scheme"] = scheme.group(1).lower()
    elif bits := _BITS.search(goal):
        out["scheme"] = f"{bits.group(1)}-bit"
    hardware = rx["hardware"].search(goal)
    if hardware:
        out["hardware"] = hardware.group(1).lower()
    mode = next((m for m in _MODES if m in p.modes), None)
    if mode:
        out["execution_mode"] = mode
    if "offline" in p.text.split():
        out["offline"] = True
    return out


def _model(goal: str, output: str | None) -> str | None:
    """A Hugging Face id (``org/name``), a local path that is not the output, or a family name with a
    version or size (``Llama-3.1-8B``, ``Llama 3 8B``)."""
    for hf in _HF_ID.finditer(goal):
        if not hf.group(1).lower().startswith(_NOT_MODELS):
            return hf.group(1).rstrip(".,;")
    for m in _ANY_PATH.finditer(goal):
        path = m.group(1).rstrip(".,;")
        if path != output and not path.endswith((".py", ".json", ".log")):
            return path
    for family in _patterns()["family"].finditer(goal):
        name = family.group(1).rstrip(".,;- ")
        if any(c.isdigit() for c in name):
            return name
    return None
