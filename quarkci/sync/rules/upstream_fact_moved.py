"""upstream-fact-moved: a file the skill cites still exists, but the facts it reads there are elsewhere."""

from __future__ import annotations

from collections import Counter

from quarkci.core.findings import Finding, Location
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules._content import kind_home, stated_kinds
from quarkci.sync.rules.source_path_missing import upstream_path
from quarkci.sync.state import AuditState

ID = "upstream-fact-moved"
DESC = "A file the skill cites no longer holds the facts it reads there (they moved, or live elsewhere)"
CATEGORY = "paths"


def moves(state: AuditState) -> dict[str, tuple[str, int, str]]:
    """old file -> (new file, how many facts moved, fact kind) between the baseline and upstream
    (empty without a baseline)."""
    if state.baseline is None:
        return {}
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
    """One ``moved`` finding per (skill, cited file) that exists but does not hold what the skill reads:

    1. **stated** (no baseline needed): the sentence citing the file says which facts it holds ("check
       `quark/torch/utils/llm/model_preparation.py` for the model template list"), and the release
       reads none of them from it: the finding names the file it does read them from, found by the
       facts themselves (``config/template.py`` for model templates), never by a file name;
    2. **moved** (with a baseline): facts the baseline read from the file now come from another file.

    A cited file that is gone is ``source-path-missing``'s (with where its content went).
    """
    moved = moves(state)
    view = state.upstream
    out = []
    for claim in state.claims_of("path"):
        path = upstream_path(claim)
        if path is None or not view.covers(path) or not view.exists(path):
            continue
        finding = _stated(state, claim, path)
        if finding is None and path in moved and state.baseline is not None:
            new, count, kind = moved[path]
            finding = make(
                ID,
                CATEGORY,
                "moved",
                claim,
                subject=f"{path} -> {new}",
                skill_says=f"reads {kind.replace('_', ' ')} from `{path}`",
                source_says=f"{release(view)}: {count} {kind} facts that amd-quark "
                f"{state.baseline.version} defined there now come from `{new}`",
                impact="the skill reads a file that no longer holds the facts it needs",
                source=Location(new, 0),
            )
        if finding is not None:
            out.append(finding)
    return out


def _stated(state: AuditState, claim: Claim, path: str) -> Finding | None:
    """The finding for a file the text says holds facts of a kind the release reads elsewhere."""
    view = state.upstream
    stated = stated_kinds(claim)
    if stated is None:
        return None
    kinds, noun = stated
    if any(view.unavailable(kind) for kind in kinds):
        return None  # the kind may come from a file the snapshot does not hold
    home = kind_home(view, kinds)
    if home is None or any(i.file == path for kind in kinds for i in view.items(kind)):
        return None
    if "schemes" in kinds and any(
        str(i.attrs.get("choices_from") or "").split(":", 1)[0] == path for i in view.items("cli_flags")
    ):
        return None  # 0.10's CLI scheme list: `--quant_scheme` choices come from this file's list
    new, count, total = home
    return make(
        ID,
        CATEGORY,
        "moved",
        claim,
        subject=f"{path} -> {new}",
        skill_says=f"reads the {noun} from `{path}`",
        source_says=f"{release(view)} defines none of its {total} {noun} in `{path}`; "
        f"{count} are defined in `{new}`",
        impact=f"an agent reading `{path}` for the {noun} finds none and may conclude there are none",
        source=Location(new, 0),
    )
