"""Who the token belongs to: the only author whose comments, issues and PRs quarkci edits or deletes.

A marker on the first line of a comment says what the comment is *about*, not who wrote it: any
user can paste ``<!-- quarkci:report:ci -->`` into a comment. So quarkci edits, deletes, closes or
counts as its own only what the token's identity authored. The login is found, in this order:

1. ``--login LOGIN`` (or ``QUARKCI_GH_LOGIN``): given explicitly, used as is;
2. ``--app-slug SLUG`` (or ``QUARKCI_GH_APP_SLUG``): a GitHub App installation token acts as the
   app's bot, ``SLUG[bot]``;
3. otherwise GitHub is asked: GraphQL ``query { viewer { login } }`` answers for every kind of token
   (a user's ``ghp_``/``github_pat_``/``gho_``/``ghu_`` token: that user; a GitHub App installation
   token ``ghs_``: ``SLUG[bot]``; the Actions ``GITHUB_TOKEN``, also ``ghs_``: ``github-actions[bot]``),
   where REST ``GET /user`` is refused for installation tokens and ``GET /app`` needs the app's
   private key. The token's prefix is never used to guess: an App's ``ghs_`` token is not the
   Actions token, and guessing so made every run miss its own comments and issues.

Every create call's answer names its author: :func:`check_author` compares it with the login
found here, so a wrong ``--login``/``--app-slug`` fails at the first write (exit 2, naming the real
author) instead of leaving one more sticky comment or issue on every run.

Logins are compared case-insensitively, as GitHub does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from github.Repository import Repository

from quarkci.core.errors import BadInputError, GitHubError
from quarkci.github.client import Target, github_errors

ACTIONS_BOT = "github-actions[bot]"
VIEWER_QUERY = "query { viewer { login } }"
_LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,33}$")


def check_login_flags(
    login: str | None, app_slug: str | None, env: Mapping[str, str] = os.environ
) -> tuple[str | None, str | None]:
    """Validate ``--login`` / ``--app-slug`` (flag, else environment) before any request.

    Returns ``(login, app_slug)``. Raises :class:`BadInputError` naming the flag for a malformed value.
    """
    login = login or env.get("QUARKCI_GH_LOGIN") or None
    app_slug = app_slug or env.get("QUARKCI_GH_APP_SLUG") or None
    if login is not None and not _LOGIN.match(login):
        raise BadInputError(f"--login {login!r} is not a GitHub login (letters, digits, '-', optional [bot])")
    if app_slug is not None and not _SLUG.match(app_slug):
        raise BadInputError(
            f"--app-slug {app_slug!r} is not a GitHub App slug (lowercase letters, digits, '-')"
        )
    return login, app_slug


def token_login(repo: Repository | None, target: Target, login: str | None, app_slug: str | None) -> str:
    """The login of the token's identity (module docstring for the order).

    ``repo`` is None for an offline dry run (no token): then ``"(token owner)"`` unless given.
    Raises :class:`BadInputError` when GitHub answers the ``viewer`` query without a login (pass
    ``--login``); :class:`GitHubError` / :class:`UpstreamUnreachableError` when the request fails.
    """
    if login:
        return login
    if app_slug:
        return f"{app_slug}[bot]"
    if repo is None:
        return "(token owner)"
    try:
        with github_errors(target, "GraphQL viewer { login } (the token's login)"):
            _, data = repo._requester.graphql_query(VIEWER_QUERY, {})  # noqa: SLF001
    except GitHubError as exc:
        raise BadInputError(f"{exc}; pass --login with the login the token acts as") from None
    found = ((data.get("data") or {}).get("viewer") or {}).get("login")
    if not isinstance(found, str) or not _LOGIN.match(found):
        raise BadInputError(
            f"GraphQL viewer {{ login }} gave no login ({found!r}); "
            "pass --login with the login the token acts as"
        )
    return found


def check_author(created: Any, me: str, what: str) -> None:
    """Raise :class:`BadInputError` when ``created`` (a PyGithub object a create call returned, with
    ``user.login``) was not authored by ``me``: quarkci would not find it again on the next run and
    would create another. The message names the real author to pass as ``--login``."""
    user = getattr(created, "user", None)
    author = getattr(user, "login", None) if user is not None else None
    if author is None or same_login(author, me):
        return
    raise BadInputError(
        f"{what} was created by {author!r}, but quarkci took the token's identity to be {me!r}: "
        f"it would not recognise its own writes and would create more; "
        f"pass --login {author} (or neither flag: quarkci then asks GitHub)"
    )


def same_login(a: str | None, b: str) -> bool:
    """GitHub logins are case-insensitive."""
    return bool(a) and a.lower() == b.lower()  # type: ignore[union-attr]


__all__ = ["ACTIONS_BOT", "check_author", "check_login_flags", "same_login", "token_login"]
