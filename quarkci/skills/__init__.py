"""quarkci.skills: skill discovery (:func:`discover`) and claim extraction.

Data flows one way: a :class:`SkillSource` (directory or upstream snapshot) -> :func:`discover`
-> [:class:`Skill`] -> claim extraction -> [:class:`Claim`] for the sync audit.
"""

from quarkci.skills.discover import discover
from quarkci.skills.model import CLAIM_KINDS, Claim, Skill
from quarkci.skills.source import DirectorySource, SkillFileError, SkillSource, SnapshotSource, open_skills

__all__ = [
    "CLAIM_KINDS",
    "Claim",
    "DirectorySource",
    "Skill",
    "SkillFileError",
    "SkillSource",
    "SnapshotSource",
    "discover",
    "open_skills",
]
