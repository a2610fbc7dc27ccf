"""skill-unreadable: a SKILL.md that cannot be read or parsed, so no agent can load the skill.

Discovery keeps such a skill as a value (``Skill.error``: binary, not UTF-8, oversized, malformed
frontmatter, unsafe ``source_knowledge`` path); this rule turns it into a finding of its own, so
``--fail-on`` decides the exit code like for any other finding. A run where no skill at all is
readable is refused earlier as bad input (exit 2): there is nothing to audit.
"""

from __future__ import annotations

from quarkci.core.findings import Finding, Location
from quarkci.sync.state import AuditState

ID = "skill-unreadable"
DESC = "A SKILL.md cannot be read or parsed (binary, not UTF-8, too large, or malformed frontmatter)"
CATEGORY = "skills"


def check(state: AuditState) -> list[Finding]:
    """One ``unreadable`` finding per skill whose SKILL.md discovery could not load (path order)."""
    return [
        Finding(
            rule=ID,
            change="unreadable",
            category=CATEGORY,
            skill=skill.name,
            subject=skill.path,
            skill_says=f"`{skill.path}` is a skill",
            source_says=skill.error or "unreadable",
            impact="the skill cannot be used: an agent cannot load it, and none of its claims were audited",
            skill_location=Location(skill.path, 1),
        )
        for skill in sorted(state.skills, key=lambda s: s.path)
        if skill.error
    ]
