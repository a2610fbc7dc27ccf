"""The fake's repository state: git objects with real SHA-1s, refs, issues/PRs, comments, labels.

Everything is plain JSON-serialisable data (:meth:`RepoState.to_json` / :meth:`RepoState.from_json`)
so the standalone server can persist it to ``--state FILE`` and a test can inspect it.
Git objects are hashed exactly like git (``blob <len>\\0``, ``tree`` entries, ``commit`` text), so a
client comparing locally computed blob SHA-1s with a tree sees what it would see on GitHub.
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any


def now_iso(clock: float | None = None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(clock if clock is not None else time.time()))


def _sha1(kind: str, payload: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(payload)}\0".encode() + payload, usedforsecurity=False).hexdigest()


@dataclass
class RepoState:
    """One repository ``owner/name`` plus the users/tokens allowed to call it."""

    owner: str = "octo"
    name: str = "skills"
    default_branch: str = "main"
    tokens: dict[str, str] = field(default_factory=dict)  # token -> login
    bot_logins: list[str] = field(default_factory=list)  # logins of type Bot
    blobs: dict[str, str] = field(default_factory=dict)  # sha -> base64 content
    trees: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # sha -> [{mode,type,name,sha}]
    commits: dict[str, dict[str, Any]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)  # "refs/heads/main" -> commit sha
    issues: dict[str, dict[str, Any]] = field(default_factory=dict)  # str(number) -> issue (PRs too)
    comments: dict[str, dict[str, Any]] = field(default_factory=dict)  # str(id) -> comment
    labels: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> label
    workflows: dict[str, dict[str, Any]] = field(default_factory=dict)  # file -> workflow
    dispatches: list[dict[str, Any]] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)  # workflow runs started by dispatches
    counters: dict[str, int] = field(
        default_factory=lambda: {"issue": 0, "comment": 1000, "label": 100, "id": 5000, "run": 9000}
    )

    # --- persistence -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RepoState:
        return cls(**data)

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    def next(self, counter: str) -> int:
        self.counters[counter] += 1
        return self.counters[counter]

    # --- git objects -----------------------------------------------------------------------------
    def put_blob(self, data: bytes) -> str:
        sha = _sha1("blob", data)
        self.blobs[sha] = base64.b64encode(data).decode("ascii")
        return sha

    def blob(self, sha: str) -> bytes:
        return base64.b64decode(self.blobs[sha])

    def put_tree(self, entries: list[dict[str, str]]) -> str:
        """Store a tree of direct entries ``{mode, type, name, sha}``; returns its git SHA-1."""

        def order(e: dict[str, str]) -> bytes:
            return (e["name"] + ("/" if e["type"] == "tree" else "")).encode()

        entries = sorted(entries, key=order)
        payload = b"".join(f"{e['mode']} {e['name']}\0".encode() + bytes.fromhex(e["sha"]) for e in entries)
        sha = _sha1("tree", payload)
        self.trees[sha] = entries
        return sha

    def flatten(self, tree_sha: str, prefix: str = "") -> dict[str, tuple[str, str]]:
        """``{path: (mode, blob sha)}`` of every blob under ``tree_sha``."""
        out: dict[str, tuple[str, str]] = {}
        for e in self.trees[tree_sha]:
            path = prefix + e["name"]
            if e["type"] == "tree":
                out.update(self.flatten(e["sha"], path + "/"))
            else:
                out[path] = (e["mode"], e["sha"])
        return out

    def walk(self, tree_sha: str, prefix: str = "") -> list[dict[str, str]]:
        """Every entry (trees and blobs) under ``tree_sha`` with full paths, git's recursive order."""
        out: list[dict[str, str]] = []
        for e in self.trees[tree_sha]:
            entry = {**e, "path": prefix + e["name"]}
            out.append(entry)
            if e["type"] == "tree":
                out += self.walk(e["sha"], entry["path"] + "/")
        return out

    def build_tree(self, files: dict[str, tuple[str, str]]) -> str:
        """Store nested trees for ``{path: (mode, blob sha)}``; returns the root tree SHA-1."""
        here: list[dict[str, str]] = []
        subdirs: dict[str, dict[str, tuple[str, str]]] = {}
        for path, (mode, sha) in files.items():
            head, sep, rest = path.partition("/")
            if sep:
                subdirs.setdefault(head, {})[rest] = (mode, sha)
            else:
                here.append({"mode": mode, "type": "blob", "name": head, "sha": sha})
        for name, sub in subdirs.items():
            here.append({"mode": "40000", "type": "tree", "name": name, "sha": self.build_tree(sub)})
        return self.put_tree(here)

    def put_commit(
        self,
        tree: str,
        parents: list[str],
        message: str,
        author: dict[str, str],
        committer: dict[str, str] | None = None,
    ) -> str:
        committer = committer or author
        stamp = int(time.mktime(time.strptime(author["date"], "%Y-%m-%dT%H:%M:%SZ")))
        text = f"tree {tree}\n" + "".join(f"parent {p}\n" for p in parents)
        text += f"author {author['name']} <{author['email']}> {stamp} +0000\n"
        text += f"committer {committer['name']} <{committer['email']}> {stamp} +0000\n\n{message}"
        sha = _sha1("commit", text.encode())
        self.commits[sha] = {
            "tree": tree,
            "parents": parents,
            "message": message,
            "author": author,
            "committer": committer,
        }
        return sha

    def file_at(self, ref: str, path: str) -> str | None:
        """The blob SHA-1 of ``path`` on branch or tag ``ref`` (None when absent)."""
        for full in (f"refs/heads/{ref}", f"refs/tags/{ref}", ref):
            if full in self.refs:
                return self.flatten(self.commits[self.refs[full]]["tree"]).get(path, ("", None))[1]
        return None

    def is_ancestor(self, old: str, new: str) -> bool:
        """True when commit ``old`` is reachable from ``new`` (a fast-forward from old to new)."""
        todo, seen = [new], set()
        while todo:
            sha = todo.pop()
            if sha == old:
                return True
            if sha in seen or sha not in self.commits:
                continue
            seen.add(sha)
            todo += self.commits[sha]["parents"]
        return False

    # --- seeding and out-of-band actions (a human pushing, for tests) ------------------------------
    def commit_files(
        self,
        branch: str,
        files: dict[str, bytes],
        message: str,
        author: str = "A Human",
        email: str = "human@example.com",
    ) -> str:
        """Commit ``files`` on top of ``branch`` (created from nothing if absent); moves the ref."""
        ref = f"refs/heads/{branch}"
        parent = self.refs.get(ref)
        flat = self.flatten(self.commits[parent]["tree"]) if parent else {}
        for path, data in files.items():
            flat[path] = ("100644", self.put_blob(data))
        who = {"name": author, "email": email, "date": now_iso()}
        sha = self.put_commit(self.build_tree(flat), [parent] if parent else [], message, who)
        self.refs[ref] = sha
        return sha

    def push_external(self, branch: str, sha: str) -> None:
        """A human's ``git push`` of commit ``sha`` (made outside the fake, e.g. the checkout a workflow runs
        on) to ``branch``, on top of the default branch: the fake records the commit with the default
        branch's tree (it does not model the pushed content) and moves the branch to it. Raises ValueError
        for a SHA that is not 40 lowercase hex digits."""
        if not re.fullmatch(r"[0-9a-f]{40}", sha):
            raise ValueError(f"not a commit SHA: {sha!r}")
        parent = self.refs[f"refs/heads/{self.default_branch}"]
        if sha not in self.commits:
            base = self.commits[parent]
            self.commits[sha] = {**base, "parents": [parent], "message": f"pushed {sha[:7]}"}
        self.refs[f"refs/heads/{branch}"] = sha


RELEASE_YML = b"""\
name: release
run-name: release ${{ inputs.amd-quark }} [${{ inputs.correlation-id }}]
on:
  workflow_dispatch:
    inputs:
      amd-quark:
        description: amd-quark version to install
        required: true
        type: string
      scheme:
        type: choice
        options: [fp8, int8]
        default: fp8
      correlation-id:
        type: string
        default: ""
jobs: {}
"""
CI_YML = b"name: ci\non: [push]\njobs: {}\n"


def seeded(
    token: str = "fake-token",
    login: str = "quarkci-bot",
    owner: str = "octo",
    name: str = "skills",
    files: dict[str, bytes] | None = None,
) -> RepoState:
    """A repository with one commit on ``main`` and two workflows (``release.yml`` dispatchable).

    The workflow files are committed under ``.github/workflows/``; the fake reads their
    ``workflow_dispatch.inputs`` and ``run-name`` from the dispatched ref, as GitHub does.
    """
    state = RepoState(owner=owner, name=name, tokens={token: login}, bot_logins=[login])
    state.commit_files(
        "main",
        files
        or {
            "README.md": b"# skills\n",
            "skills/quark-torch-ptq/SKILL.md": b"---\nname: quark-torch-ptq\n---\nUse `--quant_scheme w_int4`.\n",
            ".github/workflows/release.yml": RELEASE_YML,
            ".github/workflows/ci.yml": CI_YML,
        },
        "initial commit",
        author="Octo Cat",
        email="octo@example.com",
    )
    state.workflows["release.yml"] = {
        "id": 161335,
        "name": "release",
        "dispatch": True,
        "created_at": now_iso(),
    }
    state.workflows["ci.yml"] = {"id": 161336, "name": "ci", "dispatch": False, "created_at": now_iso()}
    return state
