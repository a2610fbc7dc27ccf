"""Skills and the claims they make.

A :class:`Skill` is one ``SKILL.md`` (YAML frontmatter + Markdown body) plus its reference files.
A :class:`Claim` is one checkable statement a skill makes, with its location and context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Claim kinds, closed set. Each maps to the fact kind it is checked against.
CLAIM_KINDS: dict[str, str] = {
    "cli_flag": "cli_flags",          # "--quant_scheme" used in a command block / prose
    "scheme": "schemes",              # "w_mxfp4_a_mxfp4" named as a Quark scheme
    "scheme_count": "schemes",        # "Available Quantization Schemes (21 total)"
    "model_type": "model_templates",  # "llama", "qwen3" named as supported model templates
    "python_version": "python",       # "Python 3.9-3.12", "requires Python >= 3.10"
    "torch_version": "torch_matrix",  # "PyTorch 2.5", "rocm6.2" index-url tags
    "transformers_version": "compat",  # "transformers < 4.50"
    "export_format": "export_formats",  # "hf_format", "onnx", "gguf"
    "path": "",                       # source_knowledge entries and inline upstream paths
}


@dataclass(frozen=True)
class Claim:
    """One statement of a skill.

    ``context`` says where the claim sits, e.g. ``{"command": "quark-cli torch-llm-ptq"}`` for a flag
    inside a fenced block invoking the packaged CLI, ``{"command": "quantize_quark.py"}`` for the
    example script, ``{"section": "Available Quantization Schemes", "enumerates": True}`` for a list
    the skill claims is complete, ``{"field": "source_knowledge"}`` for frontmatter paths.
    ``file`` is relative to the skills root; ``line`` is 1-based.
    """

    kind: str
    value: str
    skill: str
    file: str
    line: int
    context: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Skill:
    """One SKILL.md.

    ``name`` comes from the frontmatter (falling back to the directory name); ``path`` is the
    SKILL.md path relative to the skills root; ``references`` are other files of the skill
    directory (relative to the root). ``error`` is set, and claims empty, when the file could not
    be parsed (parse failures are values, not exceptions).
    """

    name: str
    path: str
    frontmatter: dict[str, Any]
    body: str
    body_line: int  # 1-based line of the first body line in SKILL.md
    references: tuple[str, ...] = ()
    source_knowledge: tuple[str, ...] = ()
    error: str | None = None
