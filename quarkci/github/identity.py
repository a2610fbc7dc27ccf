"""Who the token belongs to: the only author whose comments, issues and PRs quarkci edits or deletes.

A marker on the first line of a comment says what the comment is *about*, not who wrote it: any
user can paste ``<!-- quarkci:report:ci -->`` into a comment. So quarkci edits, deletes, closes or
counts as its own only what the token's identity authored. The login is found, in this order:

1. ``--login LOGIN`` (or ``QUARKCI_GH_LOGIN``): given explicitly, used as is;
2. ``--app-slug SLUG`` (or ``QUARKCI_GH_APP_SLUG``): a GitHub App installation token acts as the
   app's bot, ``SLUG[bot]`` (``GET /user`` is refused for installation tokens, and ``GET /app``
   needs the app's private key, so the slug must be given);
3. a token starting ``ghs_`` (an installation token) with neither: the Actions ``GITHUB_TOKEN``,
   whose author is ``github-actions[bot]``;
4. any other token (``ghp_``, ``github_pat_``, ``gho_``, ``ghu_``: a user's token): ``GET /user``.

Logins are compared case-insensitively, as GitHub does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from github.Repository import Repository

from quarkci.core.errors import BadInputError, GitHubError
from quarkci.github.client import Target, github_errors

ACTIONS_BOT = "github-actions[bot]"
INSTALLATION_PREFIX = "ghs_"
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

    ``repo`` is None for an offline dry run: then only rules 1-3 apply and a user token yields
    ``"(token owner)"``. Raises :class:`BadInputError` when ``GET /user`` is refused for a token that
    is not recognisably an installation token (pass ``--login``).
    """
    if login:
        return login
    if app_slug:
        return f"{app_slug}[bot]"
    if target.token.startswith(INSTALLATION_PREFIX):
        return ACTIONS_BOT
    if repo is None:
        return "(token owner)"
    try:
        with github_errors(target, "GET /user (the token's login)"):
            return str(repo._requester.requestJsonAndCheck("GET", "/user")[1]["login"])  # noqa: SLF001
    except GitHubError as exc:
        raise BadInputError(f"{exc}; pass --login with the login the token acts as") from None


def same_login(a: str | None, b: str) -> bool:
    """GitHub logins are case-insensitive."""
    return bool(a) and a.lower() == b.lower()  # type: ignore[union-attr]


__all__ = ["ACTIONS_BOT", "check_login_flags", "same_login", "token_login"]
