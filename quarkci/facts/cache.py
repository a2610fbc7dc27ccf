"""A facts cache keyed by the wheel's sha256: extracting a release's facts is done once per wheel.

``facts_of(snapshot)`` returns :func:`quarkci.facts.extract_all` of ``snapshot``; for a wheel (and for the
installed release, keyed ``installed-<sha256 of its RECORD>``) it first looks in ``$QUARKCI_CACHE_DIR/facts``
(default ``~/.cache/quarkci/facts``) for
``<sha256 of the wheel>-<extractor code digest>.json`` (so a changed extractor never serves stale
facts) and writes it atomically after a cold extraction. An entry is
``{"format": "quarkci-facts-cache/1", "sha256": <hex>, "facts": <FactSet.to_json()>}``, the sha256
taken over the facts' canonical JSON (sorted keys, no spaces). An entry that fails that schema --
missing, unreadable, truncated, another format, a sha256 that does not match its facts, or facts
without the full :meth:`~quarkci.facts.base.FactSet.to_json` shape -- is a miss: the facts are
extracted again and the entry rewritten, never read as a release without facts. An unwritable cache
directory only costs the next run the time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from functools import cache
from pathlib import Path
from typing import Any

from quarkci.core.atomic import atomic_write_text
from quarkci.facts import extract_all
from quarkci.facts.base import FactSet
from quarkci.upstream.base import Snapshot

log = logging.getLogger(__name__)
MAX_ENTRY_BYTES = 64 * 1024 * 1024
ENTRY_FORMAT = "quarkci-facts-cache/1"


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
    """Where the facts of ``snapshot`` are cached: a wheel file by its sha256, the ``installed`` release by
    the sha256 of its RECORD (which lists every installed file's own hash); None for anything else (a
    checkout's files change without a record)."""
    if snapshot.kind == "installed":
        record = getattr(snapshot, "record_digest", None)
        digest = record() if callable(record) else None
        return cache_dir() / f"installed-{digest}-{code_digest()}.json" if isinstance(digest, str) else None
    path = getattr(snapshot, "path", None)
    if snapshot.kind != "wheel" or not isinstance(path, Path) or not path.is_file():
        return None
    return cache_dir() / f"{wheel_sha256(path)}-{code_digest()}.json"


def _facts_digest(facts_json: Any) -> str:
    """Hex sha256 of the canonical JSON of a facts document (sorted keys, compact separators)."""
    text = json.dumps(facts_json, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_text(facts: FactSet) -> str:
    """The cache entry of ``facts`` (see the module doc), one JSON line."""
    body = facts.to_json()
    envelope = {"format": ENTRY_FORMAT, "sha256": _facts_digest(body), "facts": body}
    return json.dumps(envelope) + "\n"  # key order kept: output is byte-stable


def read_entry(entry: Path) -> FactSet:
    """The facts of cache entry ``entry``. Raises ``OSError`` (absent, unreadable, over
    :data:`MAX_ENTRY_BYTES`) or ``ValueError`` (not UTF-8 JSON, another format, a sha256 that does
    not match, or facts without the full shape)."""
    if entry.stat().st_size > MAX_ENTRY_BYTES:
        raise OSError(f"over {MAX_ENTRY_BYTES} bytes")
    data = json.loads(entry.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != ENTRY_FORMAT:
        raise ValueError(f"not a {ENTRY_FORMAT} entry")
    if data.get("sha256") != _facts_digest(data.get("facts")):
        raise ValueError("sha256 does not match its facts (corrupted or edited)")
    return FactSet.from_json(data["facts"], strict=True)


def facts_of(snapshot: Snapshot) -> FactSet:
    """All facts of ``snapshot`` (see module doc); the label is always the snapshot's own."""
    entry = entry_path(snapshot)
    if entry is not None and entry.exists():
        try:
            facts = read_entry(entry)
            if facts.version != snapshot.version:
                raise ValueError(f"holds the facts of {facts.version}, not {snapshot.version}")
            return FactSet(
                version=facts.version,
                label=snapshot.label,
                coverage=facts.coverage,
                kinds=facts.kinds,
                unavailable=facts.unavailable,
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:  # UnicodeDecodeError is a ValueError
            log.warning("facts cache %s fails its schema (%s); extracting again", entry, exc)
    facts = extract_all(snapshot)
    if entry is not None:
        try:
            atomic_write_text(entry, entry_text(facts))
        except OSError as exc:
            log.warning("facts cache %s not written (%s)", entry, exc)
    return facts
