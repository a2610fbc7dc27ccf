"""A facts cache keyed by the wheel's sha256: extracting a release's facts is done once per wheel.

``facts_of(snapshot)`` returns :func:`quarkci.facts.extract_all` of ``snapshot``; for a wheel it
first looks in ``$QUARKCI_CACHE_DIR/facts`` (default ``~/.cache/quarkci/facts``) for
``<sha256 of the wheel>-<extractor code digest>.json`` (so a changed extractor never serves stale
facts) and writes it atomically after a cold extraction. A missing, unreadable or corrupt cache
entry is a miss, never an error; an unwritable cache directory only costs the next run the time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from functools import cache
from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.facts import extract_all
from quarkci.facts.base import FactSet
from quarkci.upstream.base import Snapshot

log = logging.getLogger(__name__)
MAX_ENTRY_BYTES = 64 * 1024 * 1024


def cache_dir() -> Path:
    """``$QUARKCI_CACHE_DIR/facts`` or ``~/.cache/quarkci/facts``."""
    root = os.environ.get("QUARKCI_CACHE_DIR")
    return (Path(root) if root else Path.home() / ".cache" / "quarkci") / "facts"


@cache
def code_digest() -> str:
    """First 12 hex digits of the sha256 over the source of the facts package (extractors included)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def wheel_sha256(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def entry_path(snapshot: Snapshot) -> Path | None:
    """Where the facts of ``snapshot`` are cached; None for anything but a wheel file."""
    path = getattr(snapshot, "path", None)
    if snapshot.kind != "wheel" or not isinstance(path, Path) or not path.is_file():
        return None
    return cache_dir() / f"{wheel_sha256(path)}-{code_digest()}.json"


def facts_of(snapshot: Snapshot) -> FactSet:
    """All facts of ``snapshot`` (see module doc); the label is always the snapshot's own."""
    entry = entry_path(snapshot)
    if entry is not None and entry.is_file() and entry.stat().st_size <= MAX_ENTRY_BYTES:
        try:
            facts = FactSet.from_json(json.loads(entry.read_text(encoding="utf-8")))
            return FactSet(
                version=facts.version,
                label=snapshot.label,
                coverage=facts.coverage,
                kinds=facts.kinds,
                unavailable=facts.unavailable,
            )
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            log.warning("facts cache %s unreadable (%s); extracting again", entry, exc)
    facts = extract_all(snapshot)
    if entry is not None:
        try:
            atomic_write_text(
                entry, json.dumps(facts.to_json()) + "\n"
            )  # key order kept: output is byte-stable
        except OSError as exc:
            log.warning("facts cache %s not written (%s)", entry, exc)
    return facts
