"""Static view of a Hugging Face checkpoint: ``config.json`` and the safetensors headers.

Nothing here loads a tensor: :func:`read_checkpoint` reads every ``*.safetensors`` file's JSON header
with the standard library (:func:`read_header`, checked as the ``safetensors`` loader checks it) and
records each tensor's dtype and shape. Sizes are file sizes on disk, in bytes.

Linear layers are recognised from the header alone: a 2-D ``<module>.weight`` tensor whose module is
not an embedding (``embed_tokens``, ``wte``, ``wpe``, ``embed_positions``, ``*embedding*``). This is
the usual Hugging Face naming for decoder LLMs; fused 3-D expert tensors are reported separately.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from quarkci.core.documents import load_document, violations
from quarkci.core.errors import BadInputError
from quarkci.ptq.doc_types import DtypeCount

# bytes per element of each safetensors dtype (the header's spelling)
DTYPE_BYTES: dict[str, float] = {
    "F64": 8,
    "I64": 8,
    "U64": 8,
    "F32": 4,
    "I32": 4,
    "U32": 4,
    "F16": 2,
    "BF16": 2,
    "I16": 2,
    "U16": 2,
    "F8_E4M3": 1,
    "F8_E5M2": 1,
    "F8_E8M0": 1,
    "I8": 1,
    "U8": 1,
    "BOOL": 1,
    "F4": 0.5,
    "F6_E2M3": 0.75,
    "F6_E3M2": 0.75,
}
# weight files other than safetensors that a model directory may hold (they count towards its size)
OTHER_WEIGHT_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".gguf", ".h5", ".msgpack", ".npz", ".onnx")
_EMBEDDING_MARKERS = ("embed_tokens", "wte", "wpe", "embed_positions", "embedding")


@dataclass(frozen=True)
class TensorInfo:
    """One tensor of a safetensors header: name, dtype (``"F32"``, ``"F8_E4M3"``...), shape, file."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    file: str

    @property
    def numel(self) -> int:
        """Number of elements (``1`` for a scalar)."""
        return math.prod(self.shape)


@dataclass
class Checkpoint:
    """A model directory read statically: ``config`` (dict, ``{}`` when absent), tensors by name,
    ``files`` (safetensors file name -> bytes on disk) and ``other_weight_files`` (every other weight file:
    :data:`OTHER_WEIGHT_SUFFIXES`, name -> bytes on disk)."""

    path: Path
    config: Mapping[str, object]
    tensors: dict[str, TensorInfo] = field(default_factory=dict)
    files: dict[str, int] = field(default_factory=dict)
    other_weight_files: dict[str, int] = field(default_factory=dict)

    @property
    def safetensors_bytes(self) -> int:
        """Sum of the ``*.safetensors`` file sizes in bytes."""
        return sum(self.files.values())

    @property
    def weight_bytes(self) -> int:
        """Bytes of every weight file: ``*.safetensors`` plus :attr:`other_weight_files`."""
        return self.safetensors_bytes + sum(self.other_weight_files.values())

    def linear_layers(self) -> dict[str, TensorInfo]:
        """Module name -> weight tensor of every linear layer (see module docstring)."""
        out = {}
        for name, info in self.tensors.items():
            if not name.endswith(".weight") or len(info.shape) != 2:
                continue
            module = name[: -len(".weight")]
            if any(marker in module.rsplit(".", 1)[-1] for marker in _EMBEDDING_MARKERS):
                continue
            out[module] = info
        return dict(sorted(out.items()))

    def parameters_by_dtype(self) -> dict[str, DtypeCount]:
        """``{dtype: {"count": elements, "bytes": bytes}}`` over all tensors, sorted by dtype."""
        out: dict[str, DtypeCount] = {}
        for info in self.tensors.values():
            slot = out.setdefault(info.dtype, {"count": 0, "bytes": 0})
            slot["count"] += info.numel
            slot["bytes"] += int(info.numel * DTYPE_BYTES.get(info.dtype, 0))
        return dict(sorted(out.items()))


def _nullable(schema: dict[str, object]) -> dict[str, object]:
    """A JSON Schema node that also accepts ``null``."""
    return {**schema, "type": [schema["type"], "null"]}


EXPERT_KEYS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")
_COUNT = _nullable({"type": "integer", "minimum": 0})
# The fields of a Hugging Face ``config.json`` that quarkci reads, typed as ``transformers``'
# ``PretrainedConfig.to_json_string`` writes them (source: transformers/configuration_utils.py); a field
# absent here is not read, so it is not checked. A text model's fields may sit under ``text_config``.
_TEXT_FIELDS: dict[str, object] = {
    "model_type": {"type": "string"},
    "num_hidden_layers": _COUNT,
    "hidden_size": _COUNT,
    "intermediate_size": _COUNT,
    "num_attention_heads": _COUNT,
    "num_key_value_heads": _COUNT,
    "vocab_size": _COUNT,
    "max_position_embeddings": _COUNT,
    "tie_word_embeddings": _nullable({"type": "boolean"}),
    "dtype": _nullable({"type": "string"}),
    "torch_dtype": _nullable({"type": "string"}),
}
CONFIG_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        **_TEXT_FIELDS,
        "architectures": _nullable({"type": "array", "items": {"type": "string"}}),
        "text_config": _nullable({"type": "object", "properties": _TEXT_FIELDS}),
        "quantization_config": _nullable({"type": "object"}),
        "auto_map": _nullable({"type": "object"}),
        "transformers_version": {"type": "string"},
        **{key: _COUNT for key in EXPERT_KEYS},
    },
}
_CONFIG_VALIDATOR = Draft202012Validator(CONFIG_SCHEMA)


def read_config(model_dir: str | Path) -> dict[str, Any]:
    """Parse ``model_dir/config.json`` through the one document reader (size-bounded, huge integers and
    deep nesting refused) and check the fields quarkci reads against :data:`CONFIG_SCHEMA`.

    Raises :class:`BadInputError` (one line: the file, then ``$.path: problem``) if it is missing, not a
    JSON object, or a field quarkci reads has the wrong type (``"architectures": true``).
    """
    path = Path(model_dir) / "config.json"
    if not path.exists() and not path.is_symlink():
        raise BadInputError(f"{path}: not found (not a Hugging Face model directory)")
    data = load_document(path)
    problems = violations(_CONFIG_VALIDATOR, data)
    if problems:
        raise BadInputError(f"{path}: not a Hugging Face model config: {problems[0]}")
    if not isinstance(data, dict):  # the schema's "type": "object" has already refused it
        raise BadInputError(f"{path}: expected a JSON object")
    return data


MAX_HEADER_BYTES = 100 * 2**20  # the safetensors library's own cap on the JSON header


def read_header(file: Path) -> list[TensorInfo]:
    """The tensors of one safetensors file, from its header alone (format: an 8-byte little-endian
    header length, then a JSON object ``name -> {dtype, shape, data_offsets}`` and ``__metadata__``).

    Read with the standard library (no numpy, no torch) and checked the way the ``safetensors``
    loader checks it: the header length is bounded and fits the file, every entry has a known dtype,
    a shape of non-negative integers and ``data_offsets`` whose span matches the shape, and the data
    section holds every byte the header points to (a truncated file is refused). Raises
    :class:`BadInputError` naming the file and the first problem.
    """

    def bad(why: str) -> BadInputError:
        return BadInputError(f"{file}: unreadable safetensors header: {why}")

    size = file.stat().st_size
    with file.open("rb") as fh:
        prefix = fh.read(8)
        if len(prefix) < 8:
            raise bad("shorter than the 8-byte header length")
        length = int.from_bytes(prefix, "little")
        if length > MAX_HEADER_BYTES or 8 + length > size:
            raise bad(f"header length {length} does not fit the file ({size} bytes)")
        raw = fh.read(length)
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise bad(f"header is not JSON ({type(exc).__name__})") from None
    if not isinstance(header, dict):
        raise bad("header is not a JSON object")
    data_bytes = size - 8 - length
    tensors: list[TensorInfo] = []
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(entry, dict):
            raise bad(f"{name}: entry is not an object")
        dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
        if dtype not in DTYPE_BYTES:
            raise bad(f"{name}: unknown dtype {dtype!r}")
        if not (
            isinstance(shape, list)
            and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
        ):
            raise bad(f"{name}: shape {shape!r} is not a list of non-negative integers")
        if not (
            isinstance(offsets, list)
            and len(offsets) == 2
            and all(isinstance(o, int) for o in offsets)
            and 0 <= offsets[0] <= offsets[1]
        ):
            raise bad(f"{name}: data_offsets {offsets!r} invalid")
        if offsets[1] > data_bytes:
            raise bad(f"{name}: data ends at byte {offsets[1]} but the file holds {data_bytes} (truncated)")
        if offsets[1] - offsets[0] != math.ceil(math.prod(shape) * DTYPE_BYTES[dtype]):
            raise bad(f"{name}: {offsets[1] - offsets[0]} bytes for shape {shape} of {dtype}")
        tensors.append(TensorInfo(name, str(dtype), tuple(shape), file.name))
    return tensors


def read_checkpoint(model_dir: str | Path, require_config: bool = True) -> Checkpoint:
    """Read ``config.json`` and every ``*.safetensors`` header under ``model_dir`` (top level only),
    with :func:`read_header` (no numpy or torch import).

    Raises :class:`BadInputError` when the directory does not exist, when ``config.json`` is missing
    and ``require_config`` is true, or when a safetensors file is unreadable, corrupt or truncated.
    """
    root = Path(model_dir)
    if not root.is_dir():
        raise BadInputError(f"{root}: not a directory")
    config = read_config(root) if require_config or (root / "config.json").exists() else {}
    ckpt = Checkpoint(path=root, config=config)
    for file in sorted(root.glob("*.safetensors")):
        ckpt.files[file.name] = file.stat().st_size
        try:
            infos = read_header(file)
        except OSError as exc:
            raise BadInputError(f"{file}: unreadable: {exc.strerror}") from None
        for info in infos:
            ckpt.tensors[info.name] = info
    ckpt.other_weight_files = {
        p.name: p.stat().st_size
        for p in sorted(root.iterdir())
        if p.is_file() and p.suffix in OTHER_WEIGHT_SUFFIXES
    }
    return ckpt
