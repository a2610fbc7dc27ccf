"""JSON shapes the fake returns, built by hand to GitHub's documented schemas.

Every URL is built from the server's own base URL (``api``), so PyGithub, which follows ``url``
fields (e.g. ``PATCH ref.url``, ``POST pull.issue_url + "/labels"``), always comes back to the fake.
"""

from __future__ import annotations

import zlib
from typing import Any

from tests.fakegithub.state import RepoState, now_iso

EPOCH = "2026-01-01T00:00:00Z"
# Repository URL templates exactly as GitHub returns them (suffix after /repos/{owner}/{repo}).
_REPO_URLS = {
    "archive_url": "/{archive_format}{/ref}",
    "assignees_url": "/assignees{/user}",
    "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}",
    "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}",
    "commits_url": "/commits{/sha}",
    "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}",
    "contributors_url": "/contributors",
    "deployments_url": "/deployments",
    "downloads_url": "/downloads",
    "events_url": "/events",
    "forks_url": "/forks",
    "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}",
    "git_tags_url": "/git/tags{/sha}",
    "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}",
    "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}",
    "keys_url": "/keys{/key_id}",
    "labels_url": "/labels{/name}",
    "languages_url": "/languages",
    "merges_url": "/merges",
    "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}",
    "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}",
    "stargazers_url": "/stargazers",
    "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers",
    "subscription_url": "/subscription",
    "tags_url": "/tags",
    "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}


def user(api: str, login: str, bot: bool = False) -> dict[str, Any]:
    """A ``simple-user``."""
    u = f"{api}/users/{login}"
    return {
        "login": login,
        "id": zlib.crc32(login.encode()) % 10**7 + 1,
        "node_id": f"U_{login}",
        "avatar_url": f"{api}/avatars/{login}",
        "gravatar_id": "",
        "url": u,
        "html_url": f"{api}/{login}",
        "followers_url": f"{u}/followers",
        "following_url": f"{u}/following{{/other_user}}",
        "gists_url": f"{u}/gists{{/gist_id}}",
        "starred_url": f"{u}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{u}/subscriptions",
        "organizations_url": f"{u}/orgs",
        "repos_url": f"{u}/repos",
        "events_url": f"{u}/events{{/privacy}}",
        "received_events_url": f"{u}/received_events",
        "type": "Bot" if bot else "User",
        "site_admin": False,
        "user_view_type": "public",
    }


def repository(api: str, s: RepoState, full: bool = True) -> dict[str, Any]:
    """A ``full-repository`` (``full=True``) or ``repository`` (inside PR head/base)."""
    base = f"{api}/repos/{s.full_name}"
    repo: dict[str, Any] = {
        "id": 424242,
        "node_id": "R_fake",
        "name": s.name,
        "full_name": s.full_name,
        "owner": user(api, s.owner),
        "private": False,
        "html_url": f"{api}/{s.full_name}",
        "description": "fake repository",
        "fork": False,
        "url": base,
        **{k: base + v for k, v in _REPO_URLS.items()},
        "clone_url": f"{api}/{s.full_name}.git",
        "git_url": f"git://127.0.0.1/{s.full_name}.git",
        "ssh_url": f"git@127.0.0.1:{s.full_name}.git",
        "svn_url": f"{api}/{s.full_name}",
        "mirror_url": None,
        "homepage": None,
        "language": "Markdown",
        "forks_count": 0,
        "forks": 0,
        "stargazers_count": 0,
        "watchers_count": 0,
        "watchers": 0,
        "size": 1,
        "default_branch": s.default_branch,
        "open_issues_count": 0,
        "open_issues": 0,
        "is_template": False,
        "topics": [],
        "has_issues": True,
        "has_projects": False,
        "has_wiki": False,
        "has_pages": False,
        "has_downloads": True,
        "has_discussions": False,
        "archived": False,
        "disabled": False,
        "visibility": "public",
        "pushed_at": EPOCH,
        "created_at": EPOCH,
        "updated_at": EPOCH,
        "license": None,
        "allow_forking": True,
        "web_commit_signoff_required": False,
    }
    if full:
        repo.update(network_count=0, subscribers_count=0)
    return repo


def git_ref(api: str, s: RepoState, ref: str) -> dict[str, Any]:
    sha = s.refs[ref]
    base = f"{api}/repos/{s.full_name}"
    return {
        "ref": ref,
        "node_id": f"REF_{sha[:8]}",
        "url": f"{base}/git/{ref}",
        "object": {"type": "commit", "sha": sha, "url": f"{base}/git/commits/{sha}"},
    }


def git_commit(api: str, s: RepoState, sha: str) -> dict[str, Any]:
    c = s.commits[sha]
    base = f"{api}/repos/{s.full_name}"
    return {
        "sha": sha,
        "node_id": f"C_{sha[:8]}",
        "url": f"{base}/git/commits/{sha}",
        "html_url": f"{api}/{s.full_name}/commit/{sha}",
        "author": c["author"],
        "committer": c["committer"],
        "tree": {"sha": c["tree"], "url": f"{base}/git/trees/{c['tree']}"},
        "message": c["message"],
        "parents": [
            {"sha": p, "url": f"{base}/git/commits/{p}", "html_url": f"{api}/{s.full_name}/commit/{p}"}
            for p in c["parents"]
        ],
        "verification": {
            "verified": False,
            "reason": "unsigned",
            "signature": None,
            "payload": None,
            "verified_at": None,
        },
    }


def git_tree(api: str, s: RepoState, sha: str, recursive: bool) -> dict[str, Any]:
    base = f"{api}/repos/{s.full_name}"
    entries = s.walk(sha) if recursive else [{**e, "path": e["name"]} for e in s.trees[sha]]
    out = []
    for e in entries:
        item = {
            "path": e["path"],
            "mode": e["mode"],
            "type": e["type"],
            "sha": e["sha"],
            "url": f"{base}/git/{'trees' if e['type'] == 'tree' else 'blobs'}/{e['sha']}",
        }
        if e["type"] == "blob":
            item["size"] = len(s.blob(e["sha"]))
        out.append(item)
    return {"sha": sha, "url": f"{base}/git/trees/{sha}", "tree": out, "truncated": False}


def label(api: str, s: RepoState, name: str) -> dict[str, Any]:
    lab = s.labels[name]
    return {
        "id": lab["id"],
        "node_id": f"L_{lab['id']}",
        "url": f"{api}/repos/{s.full_name}/labels/{name}",
        "name": name,
        "description": lab.get("description"),
        "color": lab["color"],
        "default": False,
    }


def issue(api: str, s: RepoState, number: int) -> dict[str, Any]:
    """An ``issue`` (a PR appears as an issue with ``pull_request``)."""
    i = s.issues[str(number)]
    base = f"{api}/repos/{s.full_name}"
    kind = "pull" if i.get("pull") else "issues"
    out = {
        "id": i["id"],
        "node_id": f"I_{i['id']}",
        "url": f"{base}/issues/{number}",
        "repository_url": base,
        "labels_url": f"{base}/issues/{number}/labels{{/name}}",
        "comments_url": f"{base}/issues/{number}/comments",
        "events_url": f"{base}/issues/{number}/events",
        "html_url": f"{api}/{s.full_name}/{kind}/{number}",
        "number": number,
        "state": i["state"],
        "state_reason": i.get("state_reason"),
        "title": i["title"],
        "body": i["body"],
        "user": user(api, i["user"], i["user"] in s.bot_logins),
        "labels": [label(api, s, n) for n in i["labels"]],
        "assignee": None,
        "assignees": [],
        "milestone": None,
        "locked": False,
        "active_lock_reason": None,
        "comments": sum(1 for c in s.comments.values() if c["issue"] == number),
        "closed_at": i.get("closed_at"),
        "created_at": i["created_at"],
        "updated_at": i["updated_at"],
        "closed_by": None,
        "author_association": "MEMBER",
    }
    if i.get("pull"):
        out["pull_request"] = {
            "url": f"{base}/pulls/{number}",
            "html_url": f"{api}/{s.full_name}/pull/{number}",
            "diff_url": f"{api}/{s.full_name}/pull/{number}.diff",
            "patch_url": f"{api}/{s.full_name}/pull/{number}.patch",
            "merged_at": i["pull"].get("merged_at"),
        }
    return out


def pull(api: str, s: RepoState, number: int, full: bool) -> dict[str, Any]:
    """A ``pull-request`` (``full=True``) or ``pull-request-simple`` (list endpoint)."""
    i = s.issues[str(number)]
    p = i["pull"]
    base = f"{api}/repos/{s.full_name}"
    html = f"{api}/{s.full_name}/pull/{number}"
    head_sha = s.refs.get(f"refs/heads/{p['head']}", p["head_sha"])

    def side(ref: str, sha: str) -> dict[str, Any]:
        return {
            "label": f"{s.owner}:{ref}",
            "ref": ref,
            "sha": sha,
            "user": user(api, s.owner),
            "repo": repository(api, s, full=False),
        }

    out = {
        "url": f"{base}/pulls/{number}",
        "id": i["id"],
        "node_id": f"PR_{i['id']}",
        "html_url": html,
        "diff_url": f"{html}.diff",
        "patch_url": f"{html}.patch",
        "issue_url": f"{base}/issues/{number}",
        "commits_url": f"{base}/pulls/{number}/commits",
        "review_comments_url": f"{base}/pulls/{number}/comments",
        "review_comment_url": f"{base}/pulls/comments{{/number}}",
        "comments_url": f"{base}/issues/{number}/comments",
        "statuses_url": f"{base}/statuses/{head_sha}",
        "number": number,
        "state": i["state"],
        "locked": False,
        "title": i["title"],
        "user": user(api, i["user"], i["user"] in s.bot_logins),
        "body": i["body"],
        "labels": [label(api, s, n) for n in i["labels"]],
        "milestone": None,
        "active_lock_reason": None,
        "created_at": i["created_at"],
        "updated_at": i["updated_at"],
        "closed_at": i.get("closed_at"),
        "merged_at": p.get("merged_at"),
        "merge_commit_sha": None,
        "assignee": None,
        "assignees": [],
        "requested_reviewers": [],
        "requested_teams": [],
        "head": side(p["head"], head_sha),
        "base": side(p["base"], s.refs.get(f"refs/heads/{p['base']}", "")),
        "_links": {
            k: {"href": v}
            for k, v in {
                "self": f"{base}/pulls/{number}",
                "html": html,
                "issue": f"{base}/issues/{number}",
                "comments": f"{base}/issues/{number}/comments",
                "review_comments": f"{base}/pulls/{number}/comments",
                "review_comment": f"{base}/pulls/comments{{/number}}",
                "commits": f"{base}/pulls/{number}/commits",
                "statuses": f"{base}/statuses/{head_sha}",
            }.items()
        },
        "author_association": "MEMBER",
        "auto_merge": None,
        "draft": False,
    }
    if full:
        out.update(
            merged=bool(p.get("merged_at")),
            mergeable=True,
            rebaseable=True,
            mergeable_state="clean",
            merged_by=None,
            comments=sum(1 for c in s.comments.values() if c["issue"] == number),
            review_comments=0,
            maintainer_can_modify=p.get("maintainer_can_modify", False),
            commits=1,
            additions=1,
            deletions=1,
            changed_files=1,
        )
    return out


def comment(api: str, s: RepoState, cid: int) -> dict[str, Any]:
    c = s.comments[str(cid)]
    base = f"{api}/repos/{s.full_name}"
    kind = "pull" if s.issues[str(c["issue"])].get("pull") else "issues"
    return {
        "id": cid,
        "node_id": f"IC_{cid}",
        "url": f"{base}/issues/comments/{cid}",
        "html_url": f"{api}/{s.full_name}/{kind}/{c['issue']}#issuecomment-{cid}",
        "body": c["body"],
        "user": user(api, c["user"], c["user"] in s.bot_logins),
        "created_at": c["created_at"],
        "updated_at": c["updated_at"],
        "issue_url": f"{base}/issues/{c['issue']}",
        "author_association": "MEMBER",
    }


def workflow(api: str, s: RepoState, file: str) -> dict[str, Any]:
    w = s.workflows[file]
    return {
        "id": w["id"],
        "node_id": f"W_{w['id']}",
        "name": w["name"],
        "path": f".github/workflows/{file}",
        "state": "active",
        "created_at": w["created_at"],
        "updated_at": w["created_at"],
        "url": f"{api}/repos/{s.full_name}/actions/workflows/{w['id']}",
        "html_url": f"{api}/{s.full_name}/blob/main/.github/workflows/{file}",
        "badge_url": f"{api}/{s.full_name}/workflows/{w['name']}/badge.svg",
    }


def public_user(api: str, login: str, bot: bool = False) -> dict[str, Any]:
    """A ``public-user`` (``GET /user`` for a user token)."""
    return {
        **user(api, login, bot),
        "name": None,
        "company": None,
        "blog": "",
        "location": None,
        "email": None,
        "hireable": None,
        "bio": None,
        "public_repos": 1,
        "public_gists": 0,
        "followers": 0,
        "following": 0,
        "created_at": EPOCH,
        "updated_at": EPOCH,
    }


def workflow_run(api: str, s: RepoState, run: dict[str, Any]) -> dict[str, Any]:
    """A ``workflow-run`` as ``GET /actions/workflows/{id}/runs`` lists it."""
    base = f"{api}/repos/{s.full_name}"
    rid = run["id"]
    url = f"{base}/actions/runs/{rid}"
    commit = s.commits.get(run["head_sha"], {})
    who = {"name": "Octo Cat", "email": "octo@example.com"}
    return {
        "id": rid,
        "node_id": f"WFR_{rid}",
        "name": run["name"],
        "head_branch": run["head_branch"],
        "head_sha": run["head_sha"],
        "path": f".github/workflows/{run['workflow']}",
        "run_number": run["number"],
        "display_title": run["display_title"],
        "event": "workflow_dispatch",
        "status": run.get("status", "queued"),  # a test moves a run on by setting these in the state
        "conclusion": run.get("conclusion"),
        "workflow_id": s.workflows[run["workflow"]]["id"],
        "url": url,
        "html_url": f"{api}/{s.full_name}/actions/runs/{rid}",
        "pull_requests": [],
        "created_at": run["created_at"],
        "updated_at": run["created_at"],
        "run_attempt": 1,
        "jobs_url": f"{url}/jobs",
        "logs_url": f"{url}/logs",
        "check_suite_url": f"{base}/check-suites/{rid}",
        "artifacts_url": f"{url}/artifacts",
        "cancel_url": f"{url}/cancel",
        "rerun_url": f"{url}/rerun",
        "workflow_url": f"{base}/actions/workflows/{s.workflows[run['workflow']]['id']}",
        "head_commit": {
            "id": run["head_sha"],
            "tree_id": commit.get("tree", run["head_sha"]),
            "message": commit.get("message", ""),
            "timestamp": run["created_at"],
            "author": who,
            "committer": who,
        },
        "repository": repository(api, s, full=False),
        "head_repository": repository(api, s, full=False),
    }


def content_file(api: str, s: RepoState, path: str, sha: str, ref: str) -> dict[str, Any]:
    """A ``content-file`` (base64), as ``GET /contents/{path}`` returns a file."""
    import base64

    data = s.blob(sha)
    url = f"{api}/repos/{s.full_name}/contents/{path}?ref={ref}"
    git = f"{api}/repos/{s.full_name}/git/blobs/{sha}"
    html = f"{api}/{s.full_name}/blob/{ref}/{path}"
    return {
        "type": "file",
        "encoding": "base64",
        "size": len(data),
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "content": base64.b64encode(data).decode("ascii"),
        "sha": sha,
        "url": url,
        "git_url": git,
        "html_url": html,
        "download_url": f"{api}/raw/{s.full_name}/{ref}/{path}",
        "_links": {"self": url, "git": git, "html": html},
    }


def error(message: str, status: int, errors: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``basic-error`` (or ``validation-error`` with ``errors``) as GitHub sends them."""
    doc = "https://docs.github.com/rest"
    body: dict[str, Any] = {"message": message, "documentation_url": doc, "status": str(status)}
    if errors is not None:
        body["errors"] = errors
    return body


__all__ = [
    "comment",
    "content_file",
    "public_user",
    "workflow_run",
    "error",
    "git_commit",
    "git_ref",
    "git_tree",
    "issue",
    "label",
    "now_iso",
    "pull",
    "repository",
    "user",
    "workflow",
]
