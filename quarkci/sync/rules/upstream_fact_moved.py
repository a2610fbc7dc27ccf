"""upstream-fact-moved: facts a skill's source_knowledge file held now come from another file."""

from __future__ import annotations

from collections import Counter

from quarkci.core.findings import Finding, Location
from quarkci.sync.rules import Skip
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules.source_path_missing import upstream_path
from quarkci.sync.state import AuditState

ID = "upstream-fact-moved"
DESC = "Facts the baseline read from a source_knowledge file now come from a different file"
CATEGORY = "paths"


def moves(state: AuditState) -> dict[str, tuple[str, int, str]]:
    """old file -> (new file, how many facts moved, fact kind) between the baseline and upstream."""
    if state.baseline is None:
        raise Skip("needs a baseline")
    found: dict[str, Counter[tuple[str, str]]] = {}
    for kind, items in state.baseline.facts.kinds.items():
        now: dict[str, set[str]] = {}
        for item in state.upstream.items(kind):
            now.setdefault(item.name, set()).add(item.file)
        for item in items:
            files = now.get(item.name)
            if files and item.file not in files:
                found.setdefault(item.file, Counter()).update((f, kind) for f in files)
    out = {}
    for old, counter in found.items():
        (new, kind), count = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        out[old] = (new, count, kind)
    return out


def check(state: AuditState) -> list[Finding]:
    """One ``moved`` finding per (skill, source_knowledge file) whose facts moved elsewhere.

    Skipped when the old file is gone (source-path-missing reports it, with the new home).
    """
    moved = moves(state)
    assert state.baseline is not None  # moves() skips the rule without one
    out = []
    for claim in state.claims_of("path"):
        path = upstream_path(claim)
        if path is None or path not in moved or not state.upstream.exists(path):
            continue
        new, count, kind = moved[path]
        out.append(
            make(
                ID,
                CATEGORY,
                "moved",
                claim,
                subject=f"{path} -> {new}",
                skill_says=f"reads {kind.replace('_', ' ')} from `{path}`",
                source_says=f"{release(state.upstream)}: {count} {kind} facts that amd-quark "
                f"{state.baseline.version} defined there now come from `{new}`",
                impact="the skill reads a file that no longer holds the facts it needs",
                source=Location(new, 0),
            )
        )
    return out
