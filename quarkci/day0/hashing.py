"""Content hashes: a checkpoint directory's identity and the baseline cache key."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

_CHUNK = 1 << 20


def directory_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 over every regular file under ``path`` (sorted relative POSIX paths, each name then its
    bytes), so two directories with the same files hash equal wherever they sit. Symlinks are not
    followed (their target path is hashed). Raises ``OSError`` when ``path`` cannot be read."""
    root = Path(path)
    digest = hashlib.sha256()
    for file in sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink()):
        rel = file.relative_to(root).as_posix()
        digest.update(rel.encode() + b"\0")
        if file.is_symlink():
            digest.update(b"link:" + os.readlink(file).encode())
        else:
            with open(file, "rb") as fh:
                while chunk := fh.read(_CHUNK):
                    digest.update(chunk)
        digest.update(b"\0")
    return digest.hexdigest()


def baseline_key(source_sha256: str, config: Mapping[str, object]) -> str:
    """The baseline cache key: the source model's content hash + the eval config without the model
    path (task config hash, lm-eval version, sampling parameters, backend, dtype, batch size)."""
    identity = {k: v for k, v in config.items() if k not in ("model_path", "served_name")}
    text = json.dumps({"source": source_sha256, "config": identity}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()
