"""The hidden markers and trailers by which quarkci recognises what it wrote on GitHub.

A marker is an HTML comment on the **first line** of a body; only the first line is read, so a
marker-looking string quoted further down (untrusted text, see :mod:`quarkci.core.escape`)
never counts.

===============================================  =================================================
marker / trailer                                 meaning
===============================================  =================================================
``<!-- quarkci:report:<name> -->``               sticky comment ``name`` (docs/architecture.md "Conventions")
``<!-- quarkci:finding:<fingerprint> -->``       the issue for one breaking finding
``<!-- quarkci:finding-summary -->``             the one issue summarising findings over --max-new
``<!-- quarkci:skill-sync:<version> -->``        the drift pull request for one upstream version
``<!-- quarkci:closed -->`` (a later line)       quarkci closed this issue (the finding went away)
``<!-- quarkci:duplicate -->`` (a later line)    quarkci closed this issue as a duplicate
``Quarkci-Sync: <version>`` (commit trailer)     a commit quarkci made on its sync branch
===============================================  =================================================
"""

from __future__ import annotations

import re

from quarkci.core.errors import BadInputError

SUMMARY_MARKER = "<!-- quarkci:finding-summary -->"
CLOSED_MARKER = "<!-- quarkci:closed -->"
DUPLICATE_MARKER = "<!-- quarkci:duplicate -->"
TRAILER_KEY = "Quarkci-Sync"
BRANCH_PREFIX = "quarkci/skill-sync/"

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")
_FIRST_LINE = re.compile(r"^<!-- quarkci:([a-z-]+)(?::([A-Za-z0-9._+-]+))? -->$")


def report_marker(name: str) -> str:
    """``<!-- quarkci:report:<name> -->``. Raises :class:`BadInputError` for a name outside
    ``[A-Za-z0-9._-]`` (1-64 characters, starting with a letter or digit)."""
    if not _NAME.match(name):
        raise BadInputError(f"comment name {name!r} must match [A-Za-z0-9][A-Za-z0-9._-]{{0,63}}")
    return f"<!-- quarkci:report:{name} -->"


def finding_marker(fingerprint: str) -> str:
    """``<!-- quarkci:finding:<fingerprint> -->``; ``fingerprint`` is 16 lowercase hex digits."""
    if not _FINGERPRINT.match(fingerprint):
        raise BadInputError(f"finding fingerprint {fingerprint!r} is not 16 lowercase hex digits")
    return f"<!-- quarkci:finding:{fingerprint} -->"


def sync_marker(version: str) -> str:
    """``<!-- quarkci:skill-sync:<version> -->``, first line of the drift PR body."""
    return f"<!-- quarkci:skill-sync:{version} -->"


def first_line_marker(body: str | None) -> tuple[str, str] | None:
    """``(kind, value)`` of the marker on the first line of ``body``, else None.

    ``"<!-- quarkci:finding:0123456789abcdef -->\\n..."`` -> ``("finding", "0123456789abcdef")``;
    ``"<!-- quarkci:finding-summary -->"`` -> ``("finding-summary", "")``.
    """
    if not body:
        return None
    match = _FIRST_LINE.match(body.split("\n", 1)[0].rstrip("\r"))
    return (match.group(1), match.group(2) or "") if match else None


def has_line(body: str | None, marker: str) -> bool:
    """True when ``marker`` is a whole line of ``body`` (used for the closed/duplicate markers)."""
    return bool(body) and marker in body.replace("\r\n", "\n").split("\n")


def sync_branch(version: str) -> str:
    """The drift branch ``quarkci/skill-sync/<version>``. Raises :class:`BadInputError` for a version
    that is not a safe ref component (``[A-Za-z0-9._+-]``, no ``..``, not ending in ``.lock``)."""
    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$", version) or ".." in version or version.endswith(".lock"):
        raise BadInputError(f"upstream version {version!r} cannot name a branch")
    return BRANCH_PREFIX + version


def trailer(version: str) -> str:
    """The commit-message trailer line marking a quarkci commit: ``Quarkci-Sync: <version>``."""
    return f"{TRAILER_KEY}: {version}"


def is_quarkci_commit(message: str) -> bool:
    """True when the last paragraph (not the subject) of a commit message holds a ``Quarkci-Sync:`` line."""
    paragraphs = message.strip().split("\n\n")
    if len(paragraphs) < 2:
        return False
    last = paragraphs[-1]
    return any(line.startswith(f"{TRAILER_KEY}: ") for line in last.splitlines())
