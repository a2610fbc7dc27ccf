"""Baselines: a stored upstream state (FactSet + file list) and the diff between two releases.

Calibration writes ``reports/baselines/<version>.json``::

    {"format": "quarkci-baseline/1", "spec": ..., "kind": ..., "complete": false,
     "extractor": {"digest": "<facts code digest>", "kinds": [<fact kinds present>]},
     "facts": <FactSet.to_json()>, "files": [...], "sha256": "<hex of the canonical JSON of the rest>"}

The ``sha256`` guards against hand edits and truncation: a file whose content does not match is bad
input. ``extractor`` is the version of the fact extractors that made it: the digest of the facts
package's code (:func:`quarkci.facts.cache.code_digest`, the facts cache key) and the fact kinds it
holds. A baseline made by other extractors (another digest, other kinds, or none recorded: files older
than this field) is *stale*: its facts were read differently, so comparing them field by field with
the running extractor's would report every difference of reading as a release change. :func:`read`
says so (:attr:`Stored.stale`); the sync rebuilds such a baseline from its release
(:attr:`Stored.rebuild_spec`) or refuses it. :func:`diff` turns two views into :class:`Change`
records (added / removed / changed item per fact kind, plus removed and added files) and maps each to
the skills it touches.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.version import Version

from quarkci.core.atomic import atomic_write_text
from quarkci.core.documents import load_document
from quarkci.core.errors import BadInputError
from quarkci.facts.base import FACT_KINDS, FactItem, FactSet
from quarkci.facts.cache import code_digest
from quarkci.skills.model import CLAIM_KINDS, Claim, Skill
from quarkci.sync.state import UpstreamView
from quarkci.upstream.fetch import PROJECT

FORMAT = "quarkci-baseline/1"
# Attributes compared to decide that an item "changed" (line numbers and help wording do not count).
_IGNORED_ATTRS = {"help", "statement", "raw"}
# Fact kinds whose items are requirements (version ranges) rather than named things.
_RANGE_KINDS = {"python", "torch_matrix"}
# Fact kinds whose items are per-package requirements: a change touches the skills stating that package.
_PACKAGE_KINDS = {"compat", "dependencies"}


def canonical(data: Any) -> str:
    """The canonical JSON text used for hashing and writing (sorted keys, 2-space indent, final newline)."""
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def extractor_version(facts: FactSet | None = None) -> dict[str, Any]:
    """``{"digest": <facts code digest>, "kinds": [...]}``: the running extractor, with the kinds of
    ``facts`` (default: every kind of :data:`FACT_KINDS`), in FACT_KINDS order."""
    kinds = [k for k in FACT_KINDS if facts is None or k in facts.kinds]
    return {"digest": code_digest(), "kinds": kinds}


def to_json(view: UpstreamView) -> dict[str, Any]:
    """The baseline document of ``view`` (without file-system effects)."""
    body = {
        "format": FORMAT,
        "spec": view.spec,
        "kind": view.kind,
        "complete": view.complete,
        "extractor": extractor_version(view.facts),
        "facts": view.facts.to_json(),
        "files": sorted(view.files),
    }
    body["sha256"] = hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()
    return body


def save(view: UpstreamView, directory: Path) -> Path:
    """Write ``<directory>/<version>.json`` atomically, only when its content changed. Returns the path."""
    path = directory / f"{view.version}.json"
    text = canonical(to_json(view))
    try:
        if path.read_text(encoding="utf-8") == text:
            return path
    except (OSError, UnicodeDecodeError):
        pass
    return atomic_write_text(path, text)


@dataclass(frozen=True)
class Stored:
    """A baseline file as read: ``view`` its release, ``stale`` why it cannot be compared with the
    running extractor's facts (None when it was made by the running extractor)."""

    path: Path
    view: UpstreamView
    stale: str | None

    @property
    def rebuild_spec(self) -> str | None:
        """The upstream spec that rebuilds this baseline: the PyPI wheel of its version
        (``amd-quark==X``) for a wheel baseline; None for a checkout or installed snapshot, which PyPI
        cannot give back, or a version that is not PEP 440."""
        if self.view.kind != "wheel":
            return None
        try:
            Version(self.view.version)
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits (int() limit)
            return None
        return f"{PROJECT}=={self.view.version}"


def staleness(data: dict[str, Any]) -> str | None:
    """Why the baseline document ``data`` was made by other fact extractors than the running one, or
    None when it was made by the running one (same code digest, same fact kinds)."""
    running = extractor_version()
    recorded = data.get("extractor")
    if not isinstance(recorded, dict):
        facts = data.get("facts")
        held = [k for k in FACT_KINDS if isinstance(facts, dict) and k in facts]
        missing = [k for k in FACT_KINDS if k not in held]
        lacks = f", without the fact kinds {', '.join(missing)}" if missing else ""
        return f"made by an older fact extractor (no extractor version recorded{lacks})"
    kinds = recorded.get("kinds")
    if isinstance(kinds, list) and kinds != running["kinds"]:
        missing = [k for k in running["kinds"] if k not in kinds]
        if missing:
            return f"made by another fact extractor (without the fact kinds {', '.join(missing)})"
        return f"made by another fact extractor (fact kinds {', '.join(map(str, kinds))})"
    if recorded.get("digest") != running["digest"]:
        return f"made by fact extractor {recorded.get('digest')!s}, not the running {running['digest']}"
    return None


def read(path: Path) -> Stored:
    """Read a baseline file and say whether the running extractor made it (:class:`Stored`).

    Raises :class:`BadInputError` naming ``--baseline`` when it is unreadable, not a baseline, or its
    ``sha256`` does not match its content."""
    try:
        data = load_document(path)
    except BadInputError as exc:
        raise BadInputError(f"--baseline {path}: cannot read ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInputError(f"--baseline {path}: not a quarkci baseline (format {FORMAT})")
    stored = data.pop("sha256", None)
    if hashlib.sha256(canonical(data).encode("utf-8")).hexdigest() != stored:
        raise BadInputError(f"--baseline {path}: sha256 does not match its content (edited or truncated)")
    try:
        facts = FactSet.from_json(data["facts"])
        view = UpstreamView(
            spec=str(data["spec"]),
            kind=str(data["kind"]),
            facts=facts,
            files=frozenset(str(f) for f in data["files"]),
            complete=bool(data["complete"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BadInputError(f"--baseline {path}: malformed ({exc!r})") from None
    return Stored(path, view, staleness(data))


def load(path: Path) -> UpstreamView:
    """The release view of baseline file ``path``, whichever extractor made it (:func:`read` tells);
    raises as :func:`read`."""
    return read(path).view


@dataclass(frozen=True)
class Change:
    """One difference between the baseline and the upstream release.

    ``category`` is a fact kind or ``files``; ``before``/``after`` are short descriptions (None for
    added/removed); ``skills`` are the names of the skills it touches, sorted.
    """

    category: str
    change: str  # added | removed | changed
    name: str
    before: str | None
    after: str | None
    skills: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "change": self.change,
            "name": self.name,
            "before": self.before,
            "after": self.after,
            "skills": list(self.skills),
        }


def _key(kind: str, item: FactItem) -> str:
    """Identity of an item across releases: the name, plus the script for CLI flags."""
    if kind == "cli_flags":
        return f"{item.attrs.get('script', item.file)} {item.name}"
    return item.name


def _api_change(old: FactItem, new: FactItem) -> tuple[str, str]:
    """(before, after) of a module whose public names changed: the removed and the added names."""
    was, now = set(old.attrs.get("public", [])), set(new.attrs.get("public", []))
    removed, added = sorted(was - now), sorted(now - was)
    return (
        f"{new.name}: removed {', '.join(removed) or 'nothing'}",
        f"{new.name}: added {', '.join(added) or 'nothing'}",
    )


def _describe(kind: str, item: FactItem) -> str:
    if kind == "public_api":
        names = item.attrs.get("public", [])
        return f"{item.file} ({len(names)} public names)"
    attrs = {
        k: v for k, v in sorted(item.attrs.items()) if k not in _IGNORED_ATTRS and v not in (None, "", [])
    }
    shown = ", ".join(f"{k}={v!r}" for k, v in attrs.items() if k != "script")
    return f"{item.file}:{item.line}" + (f" ({shown})" if shown else "")


def _comparable(item: FactItem) -> dict[str, Any]:
    return {k: v for k, v in item.attrs.items() if k not in _IGNORED_ATTRS}


def _index(kind: str, items: Iterable[FactItem]) -> dict[str, FactItem]:
    out: dict[str, FactItem] = {}
    for item in sorted(items):
        out.setdefault(_key(kind, item), item)
    return out


def _touches(
    skill_refs: dict[str, set[str]],
    skill_claims: dict[str, set[tuple[str, str]]],
    kind: str,
    name: str,
    files: set[str],
) -> tuple[str, ...]:
    """Skills whose source_knowledge names one of ``files`` or whose claims name the item."""
    plain = name.rsplit(" ", 1)[-1] if kind == "cli_flags" else name
    hit = {s for s, refs in skill_refs.items() if refs & files}
    if kind in _RANGE_KINDS:  # a requirement change touches every skill stating that requirement
        hit |= {s for s, claims in skill_claims.items() if any(k == kind for k, _ in claims)}
    elif kind in _PACKAGE_KINDS:  # only skills stating a range for that very package (not lint's mypy pin)
        package = re.split(r"[<>=!~ ]", name, maxsplit=1)[0]
        hit = {s for s, claims in skill_claims.items() if ("package", package) in claims}
    elif kind == "public_api":  # a module's names changed: skills importing from or referencing it
        hit |= {
            s
            for s, claims in skill_claims.items()
            if any(k == kind and (v == name or v.startswith(name + ".")) for k, v in claims)
        }
    else:
        hit |= {s for s, claims in skill_claims.items() if (kind, plain) in claims}
    return tuple(sorted(hit))


def diff(base: UpstreamView, current: UpstreamView, skills: list[Skill], claims: list[Claim]) -> list[Change]:
    """Every fact and file change from ``base`` to ``current``, each with the skills it touches.

    A skill is touched by a change when its ``source_knowledge`` names the file the item lives in
    (before or after), or one of its claims names the item (a flag, scheme, model type...).
    """
    skill_refs = {s.id: set(s.source_knowledge) for s in skills}
    for claim in claims:
        if claim.kind == "path":
            skill_refs.setdefault(claim.skill, set()).add(claim.value)
    skill_claims: dict[str, set[tuple[str, str]]] = {}
    for claim in claims:
        fact_kind = CLAIM_KINDS.get(claim.kind, "")
        if fact_kind:
            skill_claims.setdefault(claim.skill, set()).add((fact_kind, claim.value))
        package = claim.context.get("package")
        if claim.kind in ("transformers_version", "dependency") and isinstance(package, str):
            skill_claims.setdefault(claim.skill, set()).add(("package", package))
    out: list[Change] = []
    for kind in FACT_KINDS:
        before = _index(kind, base.facts.kinds.get(kind, []))
        after = _index(kind, current.facts.kinds.get(kind, []))
        for name in sorted(set(before) | set(after)):
            old, new = before.get(name), after.get(name)
            files = {i.file for i in (old, new) if i is not None}
            if old is None and new is not None:
                out.append(
                    Change(
                        kind,
                        "added",
                        name,
                        None,
                        _describe(kind, new),
                        _touches(skill_refs, skill_claims, kind, name, files),
                    )
                )
            elif new is None and old is not None:
                out.append(
                    Change(
                        kind,
                        "removed",
                        name,
                        _describe(kind, old),
                        None,
                        _touches(skill_refs, skill_claims, kind, name, files),
                    )
                )
            elif kind == "public_api" and old is not None and new is not None:
                if set(old.attrs.get("public", [])) != set(new.attrs.get("public", [])):
                    before_text, after_text = _api_change(old, new)
                    out.append(
                        Change(
                            kind,
                            "changed",
                            name,
                            before_text,
                            after_text,
                            _touches(skill_refs, skill_claims, kind, name, files),
                        )
                    )
            elif (
                old is not None
                and new is not None
                and (old.file != new.file or _comparable(old) != _comparable(new))
            ):
                out.append(
                    Change(
                        kind,
                        "changed",
                        name,
                        _describe(kind, old),
                        _describe(kind, new),
                        _touches(skill_refs, skill_claims, kind, name, files),
                    )
                )
    # Files a skill names: only trees both snapshots hold, so wheel-vs-checkout invents no removals.
    common = [f for f in sorted(base.files | current.files) if base.covers(f) and current.covers(f)]
    for path in common:
        if (path in base.files) == (path in current.files):
            continue
        touched = tuple(sorted(s for s, refs in skill_refs.items() if path in refs))
        if not touched:  # a file no skill names is not a skill concern
            continue
        if path in base.files:
            out.append(Change("files", "removed", path, path, None, touched))
        else:
            out.append(Change("files", "added", path, None, path, touched))
    return out
