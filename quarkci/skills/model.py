"""Skills and the claims they make.

A :class:`Skill` is one ``SKILL.md`` (YAML frontmatter + Markdown body) plus its reference files.
A :class:`Claim` is one checkable statement a skill makes, with its location and context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Claim kinds, closed set. Each maps to the fact kind it is checked against.
CLAIM_KINDS: dict[str, str] = {
    "cli_flag": "cli_flags",  # "--quant_scheme" used in a command block / prose
    "scheme": "schemes",  # "w_mxfp4_a_mxfp4" named as a Quark scheme
    "scheme_count": "schemes",  # "Available Quantization Schemes (21 total)"
    "model_type": "model_templates",  # "llama", "qwen3" named as supported model templates
    "model_type_count": "model_templates",  # "built-in templates for 36 model families"
    "python_version": "python",  # "Python 3.9-3.12", "requires Python >= 3.10"
    "torch_version": "torch_matrix",  # "PyTorch 2.5", "rocm6.2" index-url tags
    "transformers_version": "compat",  # "transformers < 4.50"
    "export_format": "export_formats",  # "hf_format", "onnx", "gguf"
    "path": "",  # source_knowledge entries and inline upstream paths
    "python_name": "public_api",  # `from quark.torch import LLMTemplate`, `quark.torch.export.ModelExporter`
    "python_keyword": "public_api",  # `LLMTemplate.get_config(scheme=...)` in a parsed Python block
    "python_call": "public_api",  # `QConfig(exclude=[...])` in a parsed Python block: what the call passes
    "python_argument": "public_api",  # `LLMTemplate.get("llama")`: a literal passed to a Quark callable
    "python_default": "public_api",  # "`export_safetensors` leaves `weight_format` as `None` by default"
    "command": "cli_flags",  # `quark-cli torch-llm-ptq`, `quark-quant-perf` run in a shell block
    "dependency": "dependencies",  # "onnxruntime>=1.20" (packages other than python/torch/transformers)
    "cli_flag_default": "cli_flags",  # "`--num_calib_data` defaults to 128"
    "cli_flag_choices": "cli_flags",  # "`--dataset` takes pileval, wikitext or c4"
    "command_count": "cli_flags",  # "quark-cli offers nine subcommands", "3 console scripts"
    "onnx_config": "schemes",  # `XINT8`, `get_default_config("A8W8_ADAROUND")`: an ONNX configuration name
    "onnx_config_count": "public_api",  # "There are sixty-four preset names": DefaultConfigMapping's size
    "extra": "dependencies",  # `pip install "amd-quark[cli]"`, "the `lint` extra"
    "requirement": "dependencies",  # "`onnxslim` is installed as a dependency" (no range stated)
    "link": "",  # "[schema](../../shared/contracts/quant_plan.schema.json)": a file of the skills tree
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

    def to_json(self) -> dict[str, Any]:
        """JSON-serialisable form (keys sorted by the caller's ``json.dumps(sort_keys=True)``)."""
        return {
            "kind": self.kind,
            "value": self.value,
            "skill": self.skill,
            "file": self.file,
            "line": self.line,
            "context": dict(self.context),
        }


@dataclass(frozen=True)
class Repair:
    """A one-line frontmatter entry that is not YAML, read as the plain string a maintainer meant.

    ``line`` is its 1-based SKILL.md line; ``old`` the line as written; ``new`` the same entry with the
    value double-quoted (a JSON string is a YAML double-quoted scalar), which strict YAML reads as
    ``value``; ``reason`` the loader's message for the block as written.
    """

    line: int
    key: str
    value: str
    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class Skill:
    """One SKILL.md.

    ``name`` comes from the frontmatter (falling back to the directory name); ``path`` is the
    SKILL.md path relative to the skills root; ``references`` are other files of the skill
    directory (relative to the root), excluding nested skill directories. ``error`` is set, and
    claims empty, when the file could not be parsed (parse failures are values, not exceptions).

    ``source_knowledge`` holds the frontmatter's upstream paths (repository-relative, POSIX) and
    ``source_knowledge_lines`` the 1-based SKILL.md line of each entry. ``delegates_to`` is set for a
    thin adapter entry whose body only points at another SKILL.md (root-relative path of the target).
    Two skills may share a ``name`` (an adapter and its implementation); :attr:`id` is unique.
    """

    name: str
    path: str
    frontmatter: dict[str, Any]
    body: str
    body_line: int  # 1-based line of the first body line in SKILL.md
    references: tuple[str, ...] = ()
    source_knowledge: tuple[str, ...] = ()
    source_knowledge_lines: tuple[int, ...] = ()
    delegates_to: str | None = None
    error: str | None = None
    frontmatter_repairs: tuple[Repair, ...] = ()  # entries read leniently (frontmatter.Repair)

    @property
    def id(self) -> str:
        """Unique identity: the skill directory relative to the skills root ("." for the root)."""
        head, _, _ = self.path.rpartition("/")
        return head or "."

    def to_json(self) -> dict[str, Any]:
        """JSON-serialisable summary (no body)."""
        return {
            "id": self.id,
            "name": self.name,
            "path": self.path,
            "description": _text_or_none(self.frontmatter.get("description")),
            "references": list(self.references),
            "source_knowledge": list(self.source_knowledge),
            "delegates_to": self.delegates_to,
            "error": self.error,
        }


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
