"""The one finding kind -> output level table (SARIF ``level`` and GitHub annotation command).

Every renderer that turns a finding's kind (``breaking``, ``semantic``, ``mechanical``, ``unverifiable``;
see :mod:`quarkci.core.findings`) into a level reads it here, so the SARIF log and the job-summary
annotations agree:

=============  ==========  ===================
kind           SARIF       workflow command
=============  ==========  ===================
breaking       error       ``::error``
semantic       warning     ``::warning``
mechanical     note        ``::notice``
unverifiable   none        ``::notice``
=============  ==========  ===================

SARIF 2.1.0 §3.27.10 defines the levels ``error``, ``warning``, ``note`` and ``none``; GitHub's workflow
commands are ``error``, ``warning`` and ``notice``. Which findings are annotated at all is the renderer's
choice (the job summary skips unverifiable claims: they are not drift).
"""

from __future__ import annotations

from typing import NamedTuple


class Level(NamedTuple):
    """The output levels of one finding kind."""

    sarif: str
    annotation: str


LEVELS: dict[str, Level] = {
    "breaking": Level("error", "error"),
    "semantic": Level("warning", "warning"),
    "mechanical": Level("note", "notice"),
    "unverifiable": Level("none", "notice"),
}


def sarif_level(kind: str) -> str:
    """SARIF ``result.level`` for a finding kind; raises KeyError for an unknown kind."""
    return LEVELS[kind].sarif


def annotation_level(kind: str) -> str:
    """Workflow-command name (``error``/``warning``/``notice``) for a finding kind; ``notice`` if unknown."""
    level = LEVELS.get(kind)
    return level.annotation if level else "notice"
