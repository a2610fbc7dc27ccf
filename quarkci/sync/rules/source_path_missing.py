"""source-path-missing: a file the skill depends on is gone from a snapshot that holds its tree."""

from __future__ import annotations

from collections import Counter

from quarkci.core.findings import Finding, Location
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release
from quarkci.sync.state import AuditState, UpstreamView

ID = "source-path-missing"
DESC = "A source_knowledge or inline upstream path does not exist in a snapshot that covers its tree"
CATEGORY = "paths"

# Trees of amd/Quark a skill may point into; other relative paths are the skill's own files.
UPSTREAM_TREES = frozenset(
    {
        "quark",
        "examples",
        "docs",
        "tools",
        "tutorials",
        "skills",
        "tests",
        "scripts",
        "benchmarks",
        "pyproject.toml",
        "requirements.txt",
        "setup.py",
        "setup.cfg",
    }
)


def upstream_path(claim: Claim) -> str | None:
    """The normalised upstream path a ``path`` claim names, or None when it is not one
    (skill-relative, absolute, or escaping with ``..``)."""
    path = claim.value.strip().strip("`").removeprefix("./")
    if not path or path.startswith("/") or ".." in path.split("/") or "://" in path:
        return None
    head = path.split("/", 1)[0]
    return path if head in UPSTREAM_TREES else None


def likely_new_home(path: str, view: UpstreamView, baseline: UpstreamView | None) -> tuple[str | None, str]:
    """Where ``path`` most likely went: (new path or None, how it was found).

    1. facts the baseline extracted from ``path`` now come from one file (the fact moved);
    2. a file with the same basename elsewhere in the snapshot (closest common prefix wins).
    """
    if baseline is not None:
        homes: Counter[str] = Counter()
        for kind, items in baseline.facts.kinds.items():
            moved = {i.name for i in items if i.file == path}
            homes.update(i.file for i in view.items(kind) if i.name in moved and i.file != path)
        if homes:
            best, count = sorted(homes.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            return best, f"{count} facts that amd-quark {baseline.version} read from it now come from there"
    name = path.rsplit("/", 1)[-1]
    same = [p for p in view.by_basename.get(name, []) if p != path]
    if same:

        def shared(p: str) -> int:
            n = 0
            for a, b in zip(p.split("/"), path.split("/"), strict=False):
                if a != b:
                    break
                n += 1
            return n

        best = sorted(same, key=lambda p: (-shared(p), p))[0]
        return best, "same file name" + (f" ({len(same)} candidates)" if len(same) > 1 else "")
    return None, ""


def check(state: AuditState) -> list[Finding]:
    """One ``removed`` finding per upstream path claim whose tree the snapshot holds but whose file it lacks."""
    view = state.upstream
    out = []
    for claim in state.claims_of("path"):
        path = upstream_path(claim)
        if path is None or not view.covers(path) or view.exists(path):
            continue
        if any(f.startswith(path.rstrip("/") + "/") for f in view.files):
            continue  # a directory that exists
        new, how = likely_new_home(path, view, state.baseline)
        where = f"; most likely now `{new}` ({how})" if new else "; no file of that name remains"
        field = claim.context.get("field")
        out.append(
            make(
                ID,
                CATEGORY,
                "removed",
                claim,
                subject=path,
                skill_says=f"depends on `{path}`"
                + (" (source_knowledge)" if field == "source_knowledge" else ""),
                source_says=f"{release(view)} has no `{path}`{where}",
                impact="the skill's knowledge source is gone; its guidance may describe removed code",
                source=Location(new, 0) if new else None,
            )
        )
    return out
