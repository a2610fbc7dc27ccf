"""Static view of a Hugging Face checkpoint: ``config.json`` and the safetensors headers.

Nothing here loads a tensor: :func:`read_checkpoint` opens every ``*.safetensors`` file with the
``safetensors`` library (``safe_open``, which memory-maps the file and parses only its JSON header)
and records each tensor's dtype and shape. Sizes are file sizes on disk, in bytes.

Linear layers are recognised from the header alone: a 2-D ``<module>.weight`` tensor whose module is
not an embedding (``embed_tokens``, ``wte``, ``wpe``, ``embed_positions``, ``*embedding*``). This is
the usual Hugging Face naming for decoder LLMs; fused 3-D expert tensors are reported separately.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quarkci.core.errors import BadInputError

# bytes per element of each safetensors dtype (the header's spelling)
DTYPE_BYTES: dict[str, float] = {
    "F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2, "I16": 2, "U16": 2,
    "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I8": 1, "U8": 1, "BOOL": 1, "F4": 0.5, "F6_E2M3": 0.75,
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
    config: dict[str, Any]
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

    def parameters_by_dtype(self) -> dict[str, dict[str, int]]:
        """``{dtype: {"count": elements, "bytes": bytes}}`` over all tensors, sorted by dtype."""
        out: dict[str, dict[str, int]] = {}
        for info in self.tensors.values():
            slot = out.setdefault(info.dtype, {"count": 0, "bytes": 0})
            slot["count"] += info.numel
            slot["bytes"] += int(info.numel * DTYPE_BYTES.get(info.dtype, 0))
        return dict(sorted(out.items()))


def read_config(model_dir: str | Path) -> dict[str, Any]:
    """Parse ``model_dir/config.json``. Raises :class:`BadInputError` if missing or not a JSON object."""
    path = Path(model_dir) / "config.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInputError(f"{path}: not found (not a Hugging Face model directory)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInputError(f"{path}: unreadable: {exc}") from None
    if not isinstance(data, dict):
        raise BadInputError(f"{path}: expected a JSON object")
    return data


def read_checkpoint(model_dir: str | Path, require_config: bool = True) -> Checkpoint:
    """Read ``config.json`` and every ``*.safetensors`` header under ``model_dir`` (top level only).

    Raises :class:`BadInputError` when the directory does not exist, when ``config.json`` is missing
    and ``require_config`` is true, when a safetensors header cannot be parsed, or when the
    ``safetensors`` package is not installed.
    """
    try:
        from safetensors import safe_open
    except ImportError:
        raise BadInputError("reading safetensors headers needs the 'safetensors' package (pip install -e '.[ml]')") \
            from None

    root = Path(model_dir)
    if not root.is_dir():
        raise BadInputError(f"{root}: not a directory")
    config = read_config(root) if require_config or (root / "config.json").exists() else {}
    ckpt = Checkpoint(path=root, config=config)
    for file in sorted(root.glob("*.safetensors")):
        ckpt.files[file.name] = file.stat().st_size
        try:
            with safe_open(str(file), framework="numpy") as fh:
                for name in fh.keys():  # noqa: SIM118 - safe_open is not a mapping
                    piece = fh.get_slice(name)
                    ckpt.tensors[name] = TensorInfo(name, piece.get_dtype(), tuple(piece.get_shape()), file.name)
        except Exception as exc:  # safetensors raises its own SafetensorError and OSError
            raise BadInputError(f"{file}: unreadable safetensors header: {exc}") from None
    ckpt.other_weight_files = {p.name: p.stat().st_size for p in sorted(root.iterdir())
                               if p.is_file() and p.suffix in OTHER_WEIGHT_SUFFIXES}
    return ckpt
