"""skill-link-broken: a relative Markdown link of a skill points at a file that does not exist.

Two places a link can point (see :mod:`quarkci.skills.claims.links` for what is a link):

* **inside the skills tree**: the target must be a file (or directory) of the tree. A dead one is
  ``removed`` (breaking), with the nearest file of the same name as the suggestion; when exactly one
  file of that name exists the link has a known successor: ``renamed`` (mechanical) with a ``--fix``
  edit that points the link at it.
* **out of the tree, into amd/Quark** (``../../docs/agent_skills/README.md`` from
  ``_legacy_impl/README.md``): resolved as if the skills root were the repository's ``skills/`` (where
  the wheel's ``quark/_bundled_skills/`` comes from). A snapshot that holds that tree (a checkout;
  ``quark/`` in a wheel) checks it like a path; one that does not makes it ``not_shown``
  (unverifiable). A link that leaves the repository too, or lands outside its trees, is not checked.

The links of a Markdown file a skill links to outside its own directory (a shared guide) are checked
too, as the linking skill's (transitively, each file once per skill). README and CONTRIBUTING files
are never read as skills.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from quarkci.core.findings import Finding, Fix
from quarkci.core.rules import Skip
from quarkci.skills.claims import links
from quarkci.skills.model import Claim
from quarkci.skills.source import SkillFileError
from quarkci.sync.rules._common import make, release
from quarkci.sync.rules.source_path_missing import UPSTREAM_TREES
from quarkci.sync.state import AuditState

ID = "skill-link-broken"
DESC = "A relative Markdown link of a skill points at a file missing from the skills tree (or from amd/Quark)"
CATEGORY = "paths"

UPSTREAM_SKILLS_ROOT = "skills"  # amd/Quark's skills/ tree, bundled in the wheel as quark/_bundled_skills/
_MARKDOWN = (".md", ".markdown")


def check(state: AuditState) -> list[Finding]:
    """One finding per (linking file, destination) that does not resolve (see the module docstring).

    Skipped when a skill links somewhere and the state does not list the skills tree
    (``AuditState.skill_files`` is None).
    """
    claims = list(state.claims_of(links.KIND))
    if not claims:
        return []
    if state.skill_files is None:
        raise Skip("needs the skills tree's file list")
    tree = _Tree(state.skill_files)
    out: list[Finding] = []
    for claim in _link_claims(state, tree, claims):
        if claim.value == ".." or claim.value.startswith("../"):
            finding = _upstream(state, claim)
        elif tree.exists(claim.value):
            continue
        else:
            finding = _in_tree(state, tree, claim)
        if finding is not None:
            out.append(finding)
    return out


class _Tree:
    """The skills tree's files and directories, and both by basename."""

    def __init__(self, files: frozenset[str]) -> None:
        self.files = files
        self.dirs = {posixpath.dirname(f) for f in files}
        for directory in list(self.dirs):
            while directory:
                directory = posixpath.dirname(directory)
                self.dirs.add(directory)
        self.by_name: dict[str, list[str]] = {}
        for path in sorted(files | self.dirs):
            if path:
                self.by_name.setdefault(posixpath.basename(path), []).append(path)

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.dirs

    def named(self, path: str) -> list[str]:
        """Files and directories of the tree with the basename of ``path``."""
        return self.by_name.get(posixpath.basename(path), [])


def nearest(target: str, candidates: list[str], origin: str = "") -> list[str]:
    """``candidates`` (paths named like ``target``) ordered nearest first: most leading directories
    shared with ``target`` plus most trailing ones (``shared/contracts/x`` for a link one level off),
    then the fewest ``..`` from ``origin``'s directory, then path order."""
    want = target.split("/")[:-1]

    def score(path: str) -> tuple[int, int, str]:
        have = path.split("/")[:-1]
        lead = next(
            (i for i, (a, b) in enumerate(zip(want, have, strict=False)) if a != b), min(len(want), len(have))
        )
        tail = 0
        while tail < min(len(want), len(have)) - lead and want[-1 - tail] == have[-1 - tail]:
            tail += 1
        ups = posixpath.relpath(path, posixpath.dirname(origin) or ".").count("../")
        return (-(lead + tail), ups, path)

    return sorted((c for c in candidates if c != target), key=score)


def _link_claims(state: AuditState, tree: _Tree, claims: list[Claim]) -> Iterator[Claim]:
    """The skills' ``link`` claims, then those of the Markdown files they link to that no skill owns."""
    owned = {s.path for s in state.skills} | {r for s in state.skills for r in s.references}
    queue = list(claims)
    followed: set[tuple[str, str]] = set()
    while queue:
        claim = queue.pop(0)
        yield claim
        target = claim.value
        key = (claim.skill, target)
        if (
            key in followed
            or target in owned
            or target not in tree.files
            or not target.lower().endswith(_MARKDOWN)
            or not links.is_skill_file(target)
            or state.read_skill_file is None
        ):
            continue
        followed.add(key)
        try:
            text = state.read_skill_file(target)
        except (SkillFileError, OSError, UnicodeDecodeError, KeyError):
            continue
        queue.extend(
            Claim(
                found.kind, found.value, claim.skill, target, found.line, {**found.context, "via": claim.file}
            )
            for found in links.links_in(target, text)
        )


def _in_tree(state: AuditState, tree: _Tree, claim: Claim) -> Finding:
    href = str(claim.context.get("href", claim.value))
    directory = bool(claim.context.get("directory"))
    same = nearest(
        claim.value, [p for p in tree.named(claim.value) if (p in tree.dirs) == directory], claim.file
    )
    name = posixpath.basename(claim.value)
    if same:
        many = (
            f" (nearest of {len(same)} files of that name)"
            if len(same) > 1
            else " (the only file of that name)"
        )
        where = f"; nearest file of that name: `{same[0]}`{many}"
    else:
        where = f"; no file named `{name}` exists anywhere in the skills tree"
    fix = _fix(state, claim, href, same[0]) if len(same) == 1 else None
    via = f" (a file `{claim.context['via']}` links to)" if claim.context.get("via") else ""
    return make(
        ID,
        CATEGORY,
        "renamed" if len(same) == 1 else "removed",
        claim,
        subject=f"{claim.file}: {href}",
        skill_says=f"links to `{href}`{via}, which is `{claim.value}` in the skills tree",
        source_says=f"the skills tree has no `{claim.value}`{where}",
        impact="an agent following the link finds nothing, so it never reads the file the skill relies on",
        fix=fix,
    )


def _upstream(state: AuditState, claim: Claim) -> Finding | None:
    view = state.upstream
    href = str(claim.context.get("href", claim.value))
    path = posixpath.normpath(posixpath.join(UPSTREAM_SKILLS_ROOT, claim.value))
    head = path.split("/", 1)[0]
    if path == ".." or path.startswith("../") or head not in UPSTREAM_TREES:
        return None  # leaves amd/Quark, or lands outside its trees: nothing the release can say
    subject = f"{claim.file}: {href}"
    skill_says = f"links to `{href}`, which is `{path}` in amd/Quark (skills under `{UPSTREAM_SKILLS_ROOT}/`)"
    if not view.covers(path):
        return make(
            ID,
            CATEGORY,
            "not_shown",
            claim,
            subject=subject,
            skill_says=skill_says,
            source_says=f"{release(view)} ({view.kind}) does not hold `{head}/`; cannot tell",
            impact="not checked; audit against a git checkout of amd/Quark to verify it",
        )
    if view.exists(path) or any(f.startswith(path + "/") for f in view.files):
        return None
    same = nearest(path, view.by_basename.get(posixpath.basename(path), []))
    where = f"; nearest file of that name: `{same[0]}`" if same else "; no file of that name remains"
    fix = None
    if len(same) == 1:
        fix = _fix(state, claim, href, posixpath.relpath(same[0], UPSTREAM_SKILLS_ROOT))
    return make(
        ID,
        CATEGORY,
        "renamed" if len(same) == 1 else "removed",
        claim,
        subject=subject,
        skill_says=skill_says,
        source_says=f"{release(view)} has no `{path}`{where}",
        impact="an agent following the link finds nothing, so it never reads the file the skill relies on",
        fix=fix,
    )


def _fix(state: AuditState, claim: Claim, href: str, target: str) -> Fix | None:
    """The edit pointing the link at ``target`` (skills-root-relative), or None when the line does not
    write ``href`` exactly once as a destination."""
    line = state.line(claim.file, claim.line)
    if line is None:
        return None
    new = posixpath.relpath(target, posixpath.dirname(claim.file) or ".")
    if claim.context.get("directory"):
        new += "/"
    for before in (f"({href}", f"(<{href}", f"]: {href}", f"]: <{href}"):
        if line.count(before) == 1:
            after = before[: -len(href)] + new
            return Fix(
                claim.file, claim.line, line, line.replace(before, after), description=f"link -> {new}"
            )
    return None
