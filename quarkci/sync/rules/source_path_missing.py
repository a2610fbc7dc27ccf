"""source-path-missing: a file the skill depends on is gone from a snapshot that holds its tree."""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.skills.model import Claim
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules._content import content_home, kind_home, stated_kinds
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


def likely_new_home(
    path: str, view: UpstreamView, baseline: UpstreamView | None, releases: tuple[UpstreamView, ...] = ()
) -> tuple[str | None, str]:
    """Where ``path`` most likely went: (new path or None, how it was found).

    1. by content (:func:`~quarkci.sync.rules._content.content_home`): the file that now defines most
       of the names ``path`` defined in the baseline (else in the first of ``releases`` holding it,
       e.g. the release the skills were bundled with), and holds the facts read from it there;
    2. only when no release at hand shows its content (none holds the file, or it is not Python): a
       file with the same basename elsewhere in the snapshot (closest common prefix wins), said to be
       a guess by name ("same file name"); of several, only one sharing a directory below the tree
       (no ``quark/__init__.py`` for ``quark/a/b/__init__.py``).
    """
    found = content_home(path, view, (baseline, *releases))
    if found is not None:
        home, version = found
        return home.path, home.how(version)
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
        if len(same) > 1 and shared(best) < 2:  # `quark/__init__.py` for `quark/a/b/__init__.py`: no guess
            return None, f"{len(same)} files share its name, none in a directory near it"
        return best, "same file name" + (f" ({len(same)} candidates)" if len(same) > 1 else "")
    return None, ""


def check(state: AuditState) -> list[Finding]:
    """One ``removed`` finding per upstream path claim whose tree the snapshot holds but whose file it lacks.

    The finding names where the file's content went (:func:`likely_new_home`) and, when a sentence of
    the skill says which facts it reads from the file ("check `X` for the supported model list"), the
    file the release defines those facts in (``config/template.py`` for model templates). A path its
    sentence says does not exist (``context["negative"]``) agrees with a release that lacks it.
    """
    view = state.upstream
    claims = list(state.claims_of("path"))
    stated: dict[tuple[str, str], tuple[tuple[str, ...], str]] = {}
    for claim in claims:  # what any sentence of the skill says the file holds
        said = stated_kinds(claim)
        if said is not None:
            stated.setdefault((claim.skill, claim.value), said)
    out = []
    for claim in claims:
        path = upstream_path(claim)
        if path is None or not view.covers(path) or view.exists(path):
            continue
        if any(f.startswith(path.rstrip("/") + "/") for f in view.files):
            continue  # a directory that exists
        if claim.context.get("negative"):
            continue  # "the `quark/.../template.py` module does not exist yet": said absent, and it is
        new, how = likely_new_home(path, view, state.baseline, state.releases)
        where = f"; most likely now `{new}` ({how})" if new else f"; {how or 'no file of that name remains'}"
        said = stated.get((claim.skill, claim.value))
        holder = kind_home(view, said[0]) if said is not None else None
        if said is not None and holder is not None and holder[0] != new:
            new = new or holder[0]
            where += (
                f"; the {said[1]} it reads there are defined in `{holder[0]}` ({holder[1]} of {holder[2]})"
            )
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
