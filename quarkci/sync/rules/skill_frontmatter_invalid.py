"""skill-frontmatter-invalid: a frontmatter entry that strict YAML refuses, read as the text meant.

Maintainers often write a description holding ``: `` unquoted (``description: Use when: ...``). Strict
YAML loaders refuse the whole block, so an agent runtime that loads skills with one cannot use the
skill; lenient ones read the line as plain text. Discovery reads such one-line entries as the string
written (:func:`quarkci.skills.frontmatter.parse`) so the skill's claims are still audited, and this rule
reports each one with the quoted line as a fix: strict YAML reads the fixed line as exactly that string.
Multi-line values and anything else malformed stay ``skill-unreadable``.
"""

from __future__ import annotations

from quarkci.core.findings import Finding, Fix, Location
from quarkci.sync.state import AuditState

ID = "skill-frontmatter-invalid"
DESC = "A frontmatter entry is not valid YAML as written (an unquoted ': ' in a value); quoting it fixes it"
CATEGORY = "skills"


def check(state: AuditState) -> list[Finding]:
    """One ``changed`` finding per leniently read frontmatter entry (path, then line order)."""
    return [
        Finding(
            rule=ID,
            change="changed",
            category=CATEGORY,
            skill=skill.name,
            subject=f"{repair.key} (frontmatter)",
            skill_says=f"`{repair.old[:120]}`",
            source_says=f"not YAML as written ({repair.reason.strip()}); quoted, it reads as the text meant",
            impact="a skill loader that parses frontmatter as strict YAML cannot load the skill",
            skill_location=Location(skill.path, repair.line),
            fix=Fix(skill.path, repair.line, repair.old, repair.new, description=f"quote {repair.key}"),
        )
        for skill in sorted(state.skills, key=lambda s: s.path)
        for repair in skill.frontmatter_repairs
    ]
