"""The hidden markers and trailers by which quarkci recognises what it wrote on GitHub.

A marker is an HTML comment on a line of its own. Comments and PRs are recognised by the marker on
their **first line**; finding issues by the marker on **any** line (:func:`body_marker`), so a note a
human writes above it keeps the issue recognised. Untrusted text can never carry a marker
(:mod:`quarkci.core.escape` defuses ``<!--``), and only bodies authored by the token's
identity are read (:mod:`quarkci.github.identity`).

===============================================  =================================================
marker / trailer                                 meaning
===============================================  =================================================
``<!-- quarkci:report:<name> -->``               sticky comment ``name`` (docs/architecture.md "Conventions")
``<!-- quarkci:finding:<fingerprint> -->``       the issue for one breaking finding
``<!-- quarkci:finding-summary -->``             the one issue summarising findings over --max-new
``<!-- quarkci:skill-sync:<version> -->``        the drift pull request for one upstream version
``<!-- quarkci:<key>:<version> -->``             the pull request of another ``gh pr --key`` (e.g.
                                                 ``verify-quark-kernels``), branch ``quarkci/<key>/<version>``
``<!-- quarkci:skills-root:<root> -->`` (line 2)  the skills root a drift PR belongs to
``<!-- quarkci:title:<sha1-12> -->`` (any line)  the title quarkci last wrote (a human's edit is kept)
``<!-- quarkci:closed -->`` (a later line)       quarkci closed this issue (the finding went away)
``<!-- quarkci:duplicate -->`` (a later line)    quarkci closed this issue as a duplicate
``Quarkci-Sync: <version>`` (commit trailer)     a commit quarkci made on its sync branch
===============================================  =================================================
"""

from __future__ import annotations

import hashlib
import re

from quarkci.core.errors import BadInputError

SUMMARY_MARKER = "<!-- quarkci:finding-summary -->"
CLOSED_MARKER = "<!-- quarkci:closed -->"
DUPLICATE_MARKER = "<!-- quarkci:duplicate -->"
TRAILER_KEY = "Quarkci-Sync"
DEFAULT_PR_KEY = "skill-sync"
BRANCH_PREFIX = "quarkci/skill-sync/"
# Marker kinds quarkci already writes: a PR key may not take one (its PR would read as a comment/issue).
RESERVED_KEYS = frozenset(
    {"report", "finding", "finding-summary", "skills-root", "title", "closed", "duplicate"}
)

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")
_FIRST_LINE = re.compile(r"^<!-- quarkci:([a-z0-9-]+)(?::([A-Za-z0-9._+-]+))? -->$")
_KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


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


def pr_key(key: str) -> str:
    """``key`` checked as a ``gh pr --key``: 1-40 of ``[a-z0-9-]``, starting with a letter or digit, not
    one of :data:`RESERVED_KEYS`. Raises :class:`BadInputError` naming ``--key`` otherwise."""
    if not isinstance(key, str) or not _KEY.match(key) or key in RESERVED_KEYS:
        raise BadInputError(
            f"--key {key!r} must be 1-40 of [a-z0-9-] starting with a letter or digit, "
            f"and not one of {', '.join(sorted(RESERVED_KEYS))}"
        )
    return key


def branch_prefix(key: str = DEFAULT_PR_KEY) -> str:
    """``quarkci/<key>/``: every branch of PR key ``key`` starts with it (:data:`BRANCH_PREFIX` by default)."""
    return f"quarkci/{pr_key(key)}/"


def sync_marker(version: str, key: str = DEFAULT_PR_KEY) -> str:
    """``<!-- quarkci:<key>:<version> -->``, first line of the PR body (``skill-sync``: the drift PR)."""
    return f"<!-- quarkci:{pr_key(key)}:{version} -->"


def first_line_marker(body: str | None) -> tuple[str, str] | None:
    """``(kind, value)`` of the marker on the first line of ``body``, else None.

    ``"<!-- quarkci:finding:0123456789abcdef -->\\n..."`` -> ``("finding", "0123456789abcdef")``;
    ``"<!-- quarkci:finding-summary -->"`` -> ``("finding-summary", "")``.
    """
    if not body:
        return None
    match = _FIRST_LINE.match(body.split("\n", 1)[0].rstrip("\r"))
    return (match.group(1), match.group(2) or "") if match else None


def body_marker(
    body: str | None, kinds: tuple[str, ...] = ("finding", "finding-summary")
) -> tuple[str, str] | None:
    """``(kind, value)`` of the first line anywhere in ``body`` that is a marker of one of ``kinds``."""
    for line in (body or "").replace("\r\n", "\n").split("\n"):
        match = _FIRST_LINE.match(line.strip())
        if match and match.group(1) in kinds:
            return match.group(1), match.group(2) or ""
    return None


def title_hash(title: str) -> str:
    """12 hex digits of the SHA-1 of ``title``: what ``<!-- quarkci:title:<sha1-12> -->`` records
    (written by :func:`quarkci.github.issues.compose`), so a human's later edit of the title is seen."""
    return hashlib.sha1(title.encode("utf-8"), usedforsecurity=False).hexdigest()[:12]


def recorded_title(body: str | None) -> str | None:
    """The title hash recorded in ``body`` (``<!-- quarkci:title:<sha1-12> -->``), else None."""
    found = body_marker(body, ("title",))
    return found[1] if found else None


def skills_root_marker(root: str) -> str:
    """``<!-- quarkci:skills-root:<root> -->`` with ``root`` reduced to ``[A-Za-z0-9._+-]`` (``/`` -> ``+``)."""
    return f"<!-- quarkci:skills-root:{re.sub(r'[^A-Za-z0-9._+-]', '+', root or '.')} -->"


def has_line(body: str | None, marker: str) -> bool:
    """True when ``marker`` is a whole line of ``body`` (used for the closed/duplicate markers)."""
    return bool(body) and marker in (body or "").replace("\r\n", "\n").split("\n")


def sync_branch(version: str, key: str = DEFAULT_PR_KEY) -> str:
    """The PR branch ``quarkci/<key>/<version>`` (``quarkci/skill-sync/<version>``: the drift PR).
    Raises :class:`BadInputError` for a version that is not a safe ref component (``[A-Za-z0-9._+-]``,
    no ``..``, not ending in ``.lock``) or a bad ``key`` (:func:`pr_key`)."""
    if (
        not re.match(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$", version)
        or ".." in version
        or version.endswith(".lock")
    ):
        raise BadInputError(f"upstream version {version!r} cannot name a branch")
    return branch_prefix(key) + version


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
