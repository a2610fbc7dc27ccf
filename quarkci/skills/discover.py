"""Skill discovery: every ``SKILL.md`` of a :class:`~quarkci.skills.source.SkillSource`.

A skill is a directory holding ``SKILL.md``; its reference files are the other files of that
directory tree, excluding nested skill directories. Parse failures are values (``Skill.error``).
"""

from __future__ import annotations

import posixpath

import quarkci.skills.frontmatter as frontmatter
import quarkci.skills.markdown as markdown
from quarkci.core.paths import SKILL_FILE
from quarkci.skills.model import Skill
from quarkci.skills.source import SkillFileError, SkillSource

_ADAPTER_MAX_BLOCKS = 3  # a thin adapter body is one short paragraph with one link to a SKILL.md


def discover(source: SkillSource) -> list[Skill]:
    """Return every skill in ``source``, sorted by SKILL.md path (deterministic).

    Never raises for a bad skill file: malformed or missing frontmatter, binary / non-UTF-8 /
    oversized files and unsafe ``source_knowledge`` paths yield a :class:`Skill` whose ``error``
    is one line naming the skill and the field. ``FileNotFoundError``/``OSError`` from the source
    itself (e.g. a vanished directory) propagate.
    """
    files = source.files()
    skill_dirs = sorted({_dirname(p) for p in files if posixpath.basename(p) == SKILL_FILE})
    references: dict[str, list[str]] = {d: [] for d in skill_dirs}
    for path in files:
        if posixpath.basename(path) == SKILL_FILE and _dirname(path) in references:
            continue
        owner = _owner(_dirname(path), references)
        if owner is not None:
            references[owner].append(path)
    return [_load(source, d, tuple(references[d])) for d in skill_dirs]


def _load(source: SkillSource, directory: str, refs: tuple[str, ...]) -> Skill:
    path = _join(directory, SKILL_FILE)
    fallback = posixpath.basename(directory) if directory else "."
    try:
        text = source.read_text(path)
    except SkillFileError as exc:
        return Skill(fallback, path, {}, "", 1, refs, error=f"skill {fallback!r}: {exc}")
    try:
        parsed = frontmatter.parse(text)
    except frontmatter.FrontmatterError as exc:
        return Skill(fallback, path, {}, "", 1, refs, error=f"skill {fallback!r} ({path}): {exc}")
    name = parsed.data.get("name")
    name = name if isinstance(name, str) and name.strip() else fallback
    return Skill(
        name=name,
        path=path,
        frontmatter=parsed.data,
        body=parsed.body,
        body_line=parsed.body_line,
        references=refs,
        source_knowledge=parsed.source_knowledge,
        source_knowledge_lines=parsed.source_knowledge_lines,
        delegates_to=_delegation(parsed.body, directory),
        frontmatter_repairs=parsed.repairs,
    )


def _delegation(body: str, directory: str) -> str | None:
    """The root-relative SKILL.md a thin adapter body points at, or None for a real skill body."""
    if SKILL_FILE not in body and "&" not in body and "\\" not in body:
        return None  # no link can name a SKILL.md (only an entity or an escape could spell it): no parse
    doc = markdown.parse(body)
    blocks = [t for t in doc.tokens if t.level == 0 and t.nesting in (0, 1)]
    if not blocks or len(blocks) > _ADAPTER_MAX_BLOCKS:
        return None
    targets = [
        href for href, _ in markdown.links(doc) if posixpath.basename(href.split("#")[0]) == SKILL_FILE
    ]
    if len(targets) != 1 or "://" in targets[0]:
        return None
    target = posixpath.normpath(_join(directory, targets[0].split("#")[0]))
    return None if target.startswith("../") or target == ".." else target


def _owner(directory: str, skill_dirs: dict[str, list[str]]) -> str | None:
    """Nearest ancestor-or-self of ``directory`` that is a skill directory."""
    current = directory
    while True:
        if current in skill_dirs:
            return current
        if not current:
            return None
        current = _dirname(current)


def _dirname(path: str) -> str:
    return posixpath.dirname(path)


def _join(directory: str, name: str) -> str:
    return posixpath.join(directory, name) if directory else name
