"""The fake GitHub REST server: routing, auth, GitHub's semantics, faults, OpenAPI checks, call log.

Semantics kept from GitHub (each has a test in ``tests/github/test_fake_server.py``):

* ``401 Requires authentication`` without ``Authorization``; ``401 Bad credentials`` for an unknown token;
* ``422`` for a duplicate open PR (same head and base), an existing ref on ``POST /git/refs``, a
  non-fast-forward ``PATCH /git/refs`` without ``force``, a body over 65,536 characters;
* ``Link`` header pagination (``per_page`` default 30, max 100; ``rel="next"``, ``"last"``,
  ``"first"``, ``"prev"``) on list endpoints;
* ``GET /pulls?head=`` filters only with an ``owner:branch`` value; without the ``owner:`` prefix
  the filter is silently ignored (every PR is returned), exactly as GitHub does;
* every ``url`` in a response points back at this server;
* ``POST /graphql`` ``viewer { login }`` answers the token's login for every token kind (REST
  ``GET /user`` is refused for installation tokens, ``ghs_...``);
* ``GET /issues`` lists pull requests too (with ``pull_request``); default order newest first.

Fault injection (:class:`Fault`): ``500``/``502``/``503``/``504`` (answered before processing),
``secondary-rate-limit`` (403 + ``Retry-After``), ``primary-rate-limit`` (403 +
``X-RateLimit-Remaining: 0`` + ``X-RateLimit-Reset``), ``422`` (a validation error, not processed),
``timeout`` (the server sleeps ``delay`` seconds, then processes: the client has given up and
retried, and the late original still lands), ``lost-response`` (processed, then the server
sleeps past the client's timeout: the write happened but the client never hears of it) and
``barrier`` (the first ``times`` matching requests wait for each other, at most ``delay`` seconds,
then are processed: two concurrent runs are forced to read the same state before either writes),
``403`` (a permission the token lacks, not a rate limit) and ``404`` (not visible to the token).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.fakegithub import shapes
from tests.fakegithub.openapi import OpenApi
from tests.fakegithub.state import RepoState, now_iso

BODY_LIMIT = 65536
FAULT_KINDS = (
    "500",
    "502",
    "503",
    "504",
    "secondary-rate-limit",
    "primary-rate-limit",
    "429",
    "422",
    "timeout",
    "lost-response",
    "barrier",
    "403",
    "404",
)
_OPENAPI: OpenApi | None = None


def openapi() -> OpenApi:
    """The OpenAPI subset, loaded once per process."""
    global _OPENAPI
    if _OPENAPI is None:
        _OPENAPI = OpenApi()
    return _OPENAPI


@dataclass
class Fault:
    """Inject ``kind`` into requests whose ``METHOD path`` matches ``method`` and ``path`` (a regex
    searched in the path), skipping the first ``skip`` matches, ``times`` times in all."""

    kind: str
    method: str = "*"
    path: str = ""
    times: int = 1
    skip: int = 0
    delay: float = 1.0
    seen: int = 0
    fired: int = 0

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}")
        self.barrier = threading.Barrier(self.times) if self.kind == "barrier" else None

    def take(self, method: str, path: str) -> bool:
        if self.fired >= self.times or self.method not in ("*", method) or not re.search(self.path, path):
            return False
        self.seen += 1
        if self.seen <= self.skip:
            return False
        self.fired += 1
        return True


@dataclass(frozen=True)
class Call:
    """One request as the fake saw it."""

    method: str
    path: str
    query: str
    status: int
    fault: str | None = None


class HttpError(Exception):
    def __init__(self, status: int, message: str, errors: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.errors = status, message, errors


def _not_found() -> HttpError:
    return HttpError(404, "Not Found")


def _invalid(message: str, resource: str = "", field_: str = "", code: str = "custom") -> HttpError:
    err = {"resource": resource, "code": code, "field": field_, "message": message}
    return HttpError(422, "Validation Failed", [{k: v for k, v in err.items() if v}])


@dataclass
class FakeGitHub:
    """A stateful fake of the GitHub REST endpoints quarkci's ``gh`` commands call.

    Use as a context manager (``with FakeGitHub(seeded()) as gh: gh.url``). ``calls``, ``faults``
    and ``violations`` (OpenAPI mismatches, unrouted requests) are inspectable from tests.
    ``after_write``: callables run with the state after each write GitHub accepted, inside the
    lock (no other request is processed meanwhile): a test records an invariant at every moment.
    """

    state: RepoState
    host: str = "127.0.0.1"
    port: int = 0
    state_file: Path | None = None
    calls: list[Call] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    after_write: list[Callable[[RepoState], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lock = threading.RLock()
        self.api = openapi()
        self._server: ThreadingHTTPServer | None = None

    # --- lifecycle -------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://{self.host}:{self._server.server_address[1]}"

    def start(self) -> FakeGitHub:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                fake._handle(self)

            do_POST = do_PATCH = do_PUT = do_DELETE = do_GET

        self._server = ThreadingHTTPServer((self.host, self.port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True, name="fakegithub").start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- inspection helpers ----------------------------------------------------------------------
    def sequence(self) -> list[tuple[str, str]]:
        """``(method, path)`` of every answered request (faulted ones included), in order."""
        return [(c.method, c.path) for c in self.calls]

    def writes(self) -> list[tuple[str, str]]:
        """The write requests; ``POST /graphql`` is not one (the fake serves only the ``viewer`` query)."""
        return [
            (m, p) for m, p in self.sequence() if m in ("POST", "PATCH", "PUT", "DELETE") and p != "/graphql"
        ]

    def clear_log(self) -> None:
        with self.lock:
            self.calls.clear()

    def installation_logins(self) -> set[str]:
        """Logins of installation tokens (``ghs_...``: the Actions token, a GitHub App's token)."""
        return {login for token, login in self.state.tokens.items() if token.startswith("ghs_")}

    def faults_injected(self) -> int:
        return sum(f.fired for f in self.faults)

    def persist(self) -> None:
        if self.state_file is not None:
            from quarkci.core.atomic import atomic_write_text

            atomic_write_text(self.state_file, json.dumps(self.state.to_json(), indent=1, sort_keys=True))

    # --- HTTP plumbing ---------------------------------------------------------------------------
    def _send(self, h: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str]) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json; charset=utf-8")
            h.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        parsed = urllib.parse.urlsplit(h.path)
        path = urllib.parse.unquote(parsed.path)
        query = dict(urllib.parse.parse_qsl(parsed.query, keep_blank_values=True))
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        method = h.command
        if path.startswith("/_fake/"):
            return self._control(h, method, path, raw)
        status, body, headers, fault = self._process(h, method, path, query, raw)
        with self.lock:
            self.calls.append(Call(method, path, parsed.query, status, fault.kind if fault else None))
        if fault is not None and fault.kind == "lost-response":
            time.sleep(fault.delay)
        self._send(h, status, body, headers)

    def _process(
        self, h: BaseHTTPRequestHandler, method: str, path: str, query: dict[str, str], raw: bytes
    ) -> tuple[int, Any, dict[str, str], Fault | None]:
        if path == "/graphql":
            return self._graphql(h, method, raw)
        routed = self.api.route(method, path)
        if routed is None:
            with self.lock:
                self.violations.append(f"unrouted request {method} {path}")
            return 404, shapes.error("Not Found", 404), {}, None
        op, params = routed
        auth = h.headers.get("Authorization", "")
        scheme, _, token = auth.partition(" ")
        if not auth:
            return self._checked(op, 401, shapes.error("Requires authentication", 401), {}, None)
        if scheme.lower() not in ("token", "bearer") or token not in self.state.tokens:
            return self._checked(op, 401, shapes.error("Bad credentials", 401), {}, None)
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            return self._checked(op, 400, shapes.error("Problems parsing JSON", 400), {}, None)
        problems = self.api.check_request(op, params, query, body)
        if problems:
            with self.lock:
                self.violations += [f"request {method} {path}: {p}" for p in problems]
            return (
                422,
                shapes.error("Invalid request.", 422, [{"code": "invalid", "message": p} for p in problems]),
                {},
                None,
            )
        fault = self._take_fault(method, path)
        if fault is not None and fault.kind not in ("timeout", "lost-response", "barrier"):
            status, err, headers = self._fault_response(fault)
            return self._checked(op, status, err, headers, fault)
        if fault is not None and fault.kind == "timeout":
            time.sleep(fault.delay)
        if fault is not None and fault.barrier is not None:
            with contextlib.suppress(threading.BrokenBarrierError):
                fault.barrier.wait(timeout=fault.delay)
        login = self.state.tokens[token]
        with self.lock:
            try:
                status, out, headers = self._dispatch(op.method, op.template, params, query, body, login)
            except HttpError as exc:
                status, out, headers = exc.status, shapes.error(exc.message, exc.status, exc.errors), {}
            if method != "GET" and status < 400:
                self.persist()
                for hook in self.after_write:
                    hook(self.state)
        return self._checked(op, status, out, headers, fault)

    def _graphql(
        self, h: BaseHTTPRequestHandler, method: str, raw: bytes
    ) -> tuple[int, Any, dict[str, str], Fault | None]:
        """``POST /graphql`` (GraphQL is outside the REST description): only ``viewer { login }`` is
        served, answering the token's login for every kind of token, as GitHub does (an App
        installation token gets ``SLUG[bot]``, the Actions token ``github-actions[bot]``). Another
        query gets GitHub's 200 answer with ``errors``; faults apply as to REST requests."""
        scheme, _, token = h.headers.get("Authorization", "").partition(" ")
        if method != "POST":
            return 404, shapes.error("Not Found", 404), {}, None
        if scheme.lower() not in ("token", "bearer") or token not in self.state.tokens:
            return 401, shapes.error("Bad credentials", 401), {}, None
        fault = self._take_fault(method, "/graphql")
        if fault is not None and fault.kind not in ("timeout", "lost-response", "barrier"):
            status, err, headers = self._fault_response(fault)
            return status, err, headers, fault
        try:
            query = str((json.loads(raw) or {}).get("query", ""))
        except (json.JSONDecodeError, AttributeError):
            return 400, shapes.error("Problems parsing JSON", 400), {}, None
        if re.fullmatch(r"\s*(?:query\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*", query):
            return 200, {"data": {"viewer": {"login": self.state.tokens[token]}}}, {}, fault
        with self.lock:
            self.violations.append(f"unsupported GraphQL query {query!r}")
        return 200, {"errors": [{"message": "the fake serves only viewer { login }"}]}, {}, fault

    def _checked(
        self, op: Any, status: int, body: Any, headers: dict[str, str], fault: Fault | None
    ) -> tuple[int, Any, dict[str, str], Fault | None]:
        problems = self.api.check_response(op, status, body)
        if problems:
            with self.lock:
                self.violations += [f"response {op.method} {op.template} {status}: {p}" for p in problems]
        return status, body, headers, fault

    def _take_fault(self, method: str, path: str) -> Fault | None:
        with self.lock:
            return next((f for f in self.faults if f.take(method, path)), None)

    def _fault_response(self, fault: Fault) -> tuple[int, Any, dict[str, str]]:
        if fault.kind in ("500", "502", "503", "504"):
            return int(fault.kind), shapes.error("Server Error", int(fault.kind)), {}
        if fault.kind == "403":  # a permission the token lacks (not a rate limit)
            return 403, shapes.error("Resource not accessible by integration", 403), {}
        if fault.kind == "404":
            return 404, shapes.error("Not Found", 404), {}
        if fault.kind == "secondary-rate-limit":
            msg = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
            return 403, shapes.error(msg, 403), {"Retry-After": "1"}
        if fault.kind == "429":  # too many requests (GitHub answers it for some secondary limits)
            return 429, shapes.error("Too Many Requests", 429), {"Retry-After": "1"}
        if fault.kind == "primary-rate-limit":
            headers = {
                "X-RateLimit-Limit": "5000",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": str(int(time.time())),
                "X-RateLimit-Resource": "core",
            }
            return 403, shapes.error("API rate limit exceeded for installation ID 1.", 403), headers
        return 422, shapes.error("Validation Failed", 422, [{"code": "custom", "message": "injected"}]), {}

    def _control(self, h: BaseHTTPRequestHandler, method: str, path: str, raw: bytes) -> None:
        """Test-control endpoints (not GitHub's): state, call log, violations, faults, and ``push`` (a git
        push of a commit made outside the fake, e.g. the act runner's checkout: ``State.push_external``)."""
        with self.lock:
            if method == "GET" and path == "/_fake/state":
                return self._send(h, 200, self.state.to_json(), {})
            if method == "GET" and path == "/_fake/calls":
                return self._send(h, 200, [c.__dict__ for c in self.calls], {})
            if method == "GET" and path == "/_fake/violations":
                return self._send(h, 200, self.violations, {})
            if method == "POST" and path == "/_fake/faults":
                try:
                    self.faults = [Fault(**f) for f in json.loads(raw or b"[]")]
                except (TypeError, ValueError) as exc:
                    return self._send(h, 400, {"message": str(exc)}, {})
                return self._send(h, 200, {"faults": len(self.faults)}, {})
            if method == "POST" and path == "/_fake/clear-calls":
                self.calls.clear()
                return self._send(h, 200, {}, {})
            if method == "POST" and path == "/_fake/push":
                try:
                    body = json.loads(raw or b"{}")
                    self.state.push_external(str(body["branch"]), str(body["sha"]))
                except (KeyError, TypeError, ValueError) as exc:
                    return self._send(h, 400, {"message": str(exc)}, {})
                return self._send(h, 200, {"ref": f"refs/heads/{body['branch']}", "sha": body["sha"]}, {})
        return self._send(h, 404, {"message": "Not Found"}, {})

    # --- GitHub semantics ------------------------------------------------------------------------
    def _dispatch(
        self, method: str, template: str, p: dict[str, str], q: dict[str, str], body: Any, login: str
    ) -> tuple[int, Any, dict[str, str]]:
        s = self.state
        if template == "/user":
            if login.endswith("[bot]") or login in self.installation_logins():
                raise HttpError(403, "Resource not accessible by integration")
            return 200, shapes.public_user(self.url, login, login in s.bot_logins), {}
        if (p.get("owner"), p.get("repo")) != (s.owner, s.name):
            raise _not_found()
        route = template.removeprefix("/repos/{owner}/{repo}") or "/repo"
        handler = getattr(
            self, "_" + method.lower() + re.sub(r"[^a-z]+", "_", route.replace("{", "").replace("}", ""))
        )
        return handler(p, q, body or {}, login)

    # repository
    def _get_repo(self, p, q, b, login):
        return 200, shapes.repository(self.url, self.state), {}

    # git data
    def _post_git_blobs(self, p, q, b, login):
        import base64

        content = b["content"]
        data = base64.b64decode(content) if b.get("encoding") == "base64" else content.encode()
        sha = self.state.put_blob(data)
        return 201, {"url": f"{self.url}/repos/{self.state.full_name}/git/blobs/{sha}", "sha": sha}, {}

    def _get_git_commits_commit_sha(self, p, q, b, login):
        if p["commit_sha"] not in self.state.commits:
            raise _not_found()
        return 200, shapes.git_commit(self.url, self.state, p["commit_sha"]), {}

    def _post_git_commits(self, p, q, b, login):
        s = self.state
        if b["tree"] not in s.trees:
            raise _invalid("Tree SHA does not exist")
        for parent in b.get("parents", []):
            if parent not in s.commits:
                raise _invalid("Parent SHA does not exist or is not a commit object")
        who = {"name": login, "email": f"{login}@users.noreply.github.com", "date": now_iso()}
        author = {**who, **(b.get("author") or {})}
        sha = s.put_commit(
            b["tree"], list(b.get("parents", [])), b["message"], author, {**who, **(b.get("committer") or {})}
        )
        return 201, shapes.git_commit(self.url, s, sha), {}

    def _get_git_ref_ref(self, p, q, b, login):
        ref = "refs/" + p["ref"]
        if ref not in self.state.refs:
            raise _not_found()
        return 200, shapes.git_ref(self.url, self.state, ref), {}

    def _post_git_refs(self, p, q, b, login):
        s, ref = self.state, b["ref"]
        if not ref.startswith("refs/") or ref.count("/") < 2:
            raise _invalid("Reference name is invalid")
        if ref in s.refs:
            raise _invalid("Reference already exists")
        if b["sha"] not in s.commits:
            raise _invalid("Object does not exist")
        s.refs[ref] = b["sha"]
        return 201, shapes.git_ref(self.url, s, ref), {}

    def _patch_git_refs_ref(self, p, q, b, login):
        s, ref = self.state, "refs/" + p["ref"]
        if ref not in s.refs:
            raise _invalid("Reference does not exist")
        if b["sha"] not in s.commits:
            raise _invalid("Object does not exist")
        if not b.get("force", False) and not s.is_ancestor(s.refs[ref], b["sha"]):
            raise _invalid("Update is not a fast forward")
        s.refs[ref] = b["sha"]
        return 200, shapes.git_ref(self.url, s, ref), {}

    def _get_git_trees_tree_sha(self, p, q, b, login):
        if p["tree_sha"] not in self.state.trees:
            raise _not_found()
        return 200, shapes.git_tree(self.url, self.state, p["tree_sha"], "recursive" in q), {}

    def _post_git_trees(self, p, q, b, login):
        s = self.state
        flat: dict[str, tuple[str, str]] = {}
        if b.get("base_tree"):
            if b["base_tree"] not in s.trees:
                raise _invalid("base_tree is not a valid tree")
            flat = s.flatten(b["base_tree"])
        for e in b["tree"]:
            path = e["path"].strip("/")
            if "content" in e:
                flat[path] = (e.get("mode", "100644"), s.put_blob(e["content"].encode()))
            elif e.get("sha") is None:
                flat = {k: v for k, v in flat.items() if k != path and not k.startswith(path + "/")}
            elif e.get("type") == "tree":
                if e["sha"] not in s.trees:
                    raise _invalid(f"tree.sha {e['sha']} is not a valid tree")
                flat.update({f"{path}/{k}": v for k, v in s.flatten(e["sha"]).items()})
            else:
                if e["sha"] not in s.blobs:
                    raise _invalid(f"tree.sha {e['sha']} is not a valid blob")
                flat[path] = (e.get("mode", "100644"), e["sha"])
        sha = s.build_tree(flat)
        return 201, shapes.git_tree(self.url, s, sha, recursive=False), {}

    # pull requests
    def _paginate(self, items: list[Any], q: dict[str, str], path: str) -> tuple[list[Any], dict[str, str]]:
        per_page = min(int(q.get("per_page", 30)), 100)
        page = max(int(q.get("page", 1)), 1)
        last = max((len(items) + per_page - 1) // per_page, 1)

        def link(n: int) -> str:
            return f"{self.url}{path}?" + urllib.parse.urlencode({**q, "page": n, "per_page": per_page})

        rels = []
        if page < last:
            rels += [f'<{link(page + 1)}>; rel="next"', f'<{link(last)}>; rel="last"']
        if page > 1:
            rels += [f'<{link(1)}>; rel="first"', f'<{link(page - 1)}>; rel="prev"']
        return items[(page - 1) * per_page : page * per_page], ({"Link": ", ".join(rels)} if rels else {})

    def _pulls(self) -> list[tuple[int, dict[str, Any]]]:
        return [(int(n), i) for n, i in self.state.issues.items() if i.get("pull")]

    def _get_pulls(self, p, q, b, login):
        s, state = self.state, q.get("state", "open")
        chosen = [n for n, i in self._pulls() if state == "all" or i["state"] == state]
        head = q.get("head")
        if head and ":" in head:  # GitHub ignores a head filter without the owner: prefix
            owner, _, branch = head.partition(":")
            chosen = [n for n in chosen if owner == s.owner and s.issues[str(n)]["pull"]["head"] == branch]
        if q.get("base"):
            chosen = [n for n in chosen if s.issues[str(n)]["pull"]["base"] == q["base"]]
        chosen.sort(reverse=q.get("direction", "desc") == "desc")
        page, headers = self._paginate(chosen, q, f"/repos/{s.full_name}/pulls")
        return 200, [shapes.pull(self.url, s, n, full=False) for n in page], headers

    def _check_body(self, text: str | None) -> None:
        if text is not None and len(text) > BODY_LIMIT:
            raise _invalid(f"body is too long (maximum is {BODY_LIMIT} characters)", "Issue", "body")

    def _new_issue(
        self, title: str, body: str | None, labels: list[str], login: str, pull: dict[str, Any] | None = None
    ) -> int:
        s = self.state
        self._check_body(body)
        for name in labels:
            s.labels.setdefault(name, {"id": s.next("label"), "color": "ededed", "description": ""})
        number = s.next("issue")
        stamp = now_iso()
        s.issues[str(number)] = {
            "id": s.next("id"),
            "title": title,
            "body": body,
            "labels": list(dict.fromkeys(labels)),
            "state": "open",
            "user": login,
            "created_at": stamp,
            "updated_at": stamp,
            "closed_at": None,
            "state_reason": None,
            "pull": pull,
        }
        return number

    def _open_pull_for(self, head: str, base: str) -> int | None:
        return next(
            (
                n
                for n, i in self._pulls()
                if i["state"] == "open" and (i["pull"]["head"], i["pull"]["base"]) == (head, base)
            ),
            None,
        )

    def _post_pulls(self, p, q, b, login):
        s = self.state
        head = b["head"].split(":", 1)[-1]
        base = b["base"]
        if f"refs/heads/{base}" not in s.refs:
            raise _invalid("base is invalid", "PullRequest", "base", "invalid")
        if f"refs/heads/{head}" not in s.refs:
            raise _invalid("head is invalid", "PullRequest", "head", "invalid")
        if self._open_pull_for(head, base) is not None:
            raise _invalid(f"A pull request already exists for {s.owner}:{head}.", "PullRequest")
        head_sha = s.refs[f"refs/heads/{head}"]
        if s.is_ancestor(head_sha, s.refs[f"refs/heads/{base}"]):
            raise _invalid(f"No commits between {base} and {head}", "PullRequest")
        number = self._new_issue(
            b["title"],
            b.get("body"),
            [],
            login,
            pull={
                "head": head,
                "base": base,
                "head_sha": head_sha,
                "merged_at": None,
                "maintainer_can_modify": bool(b.get("maintainer_can_modify")),
            },
        )
        return 201, shapes.pull(self.url, s, number, full=True), {}

    def _pull(self, number: str) -> dict[str, Any]:
        i = self.state.issues.get(number)
        if not i or not i.get("pull"):
            raise _not_found()
        return i

    def _get_pulls_pull_number(self, p, q, b, login):
        self._pull(p["pull_number"])
        return 200, shapes.pull(self.url, self.state, int(p["pull_number"]), full=True), {}

    def _patch_pulls_pull_number(self, p, q, b, login):
        i = self._pull(p["pull_number"])
        self._check_body(b.get("body"))
        reopen = b.get("state") == "open" and i["state"] == "closed"
        if reopen and self._open_pull_for(i["pull"]["head"], i["pull"]["base"]) is not None:
            raise _invalid("A pull request already exists", "PullRequest")
        self._edit_issue(i, b)
        return 200, shapes.pull(self.url, self.state, int(p["pull_number"]), full=True), {}

    # issues
    def _edit_issue(self, i: dict[str, Any], b: dict[str, Any]) -> None:
        for key in ("title", "body"):
            if key in b:
                i[key] = b[key]
        if "labels" in b:
            i["labels"] = []
            self._add_labels(i, [lab if isinstance(lab, str) else lab["name"] for lab in b["labels"]])
        if "state" in b and b["state"] != i["state"]:
            i["state"] = b["state"]
            i["closed_at"] = now_iso() if b["state"] == "closed" else None
            i["state_reason"] = b.get("state_reason") or (
                "completed" if b["state"] == "closed" else "reopened"
            )
            if i.get("pull") and b["state"] == "closed":
                i["pull"]["head_sha"] = self.state.refs.get(
                    f"refs/heads/{i['pull']['head']}", i["pull"]["head_sha"]
                )
        i["updated_at"] = now_iso()

    def _add_labels(self, i: dict[str, Any], names: list[str]) -> None:
        for name in names:
            self.state.labels.setdefault(
                name, {"id": self.state.next("label"), "color": "ededed", "description": ""}
            )
            if name not in i["labels"]:
                i["labels"].append(name)

    def _get_issues(self, p, q, b, login):
        s, state = self.state, q.get("state", "open")
        wanted = [x for x in q.get("labels", "").split(",") if x]
        creator = q.get("creator")
        chosen = [
            int(n)
            for n, i in s.issues.items()
            if (state == "all" or i["state"] == state)
            and all(w in i["labels"] for w in wanted)
            and (creator is None or i["user"] == creator)
        ]
        chosen.sort(reverse=q.get("direction", "desc") == "desc")
        page, headers = self._paginate(chosen, q, f"/repos/{s.full_name}/issues")
        return 200, [shapes.issue(self.url, s, n) for n in page], headers

    def _post_issues(self, p, q, b, login):
        labels = [lab if isinstance(lab, str) else lab["name"] for lab in b.get("labels", [])]
        number = self._new_issue(str(b["title"]), b.get("body"), labels, login)
        return 201, shapes.issue(self.url, self.state, number), {}

    def _issue(self, number: str) -> dict[str, Any]:
        if number not in self.state.issues:
            raise _not_found()
        return self.state.issues[number]

    def _get_issues_issue_number(self, p, q, b, login):
        self._issue(p["issue_number"])
        return 200, shapes.issue(self.url, self.state, int(p["issue_number"])), {}

    def _patch_issues_issue_number(self, p, q, b, login):
        i = self._issue(p["issue_number"])
        self._check_body(b.get("body"))
        self._edit_issue(i, b)
        return 200, shapes.issue(self.url, self.state, int(p["issue_number"])), {}

    def _get_issues_issue_number_comments(self, p, q, b, login):
        s = self.state
        self._issue(p["issue_number"])
        ids = sorted(int(c) for c, v in s.comments.items() if v["issue"] == int(p["issue_number"]))
        page, headers = self._paginate(ids, q, f"/repos/{s.full_name}/issues/{p['issue_number']}/comments")
        return 200, [shapes.comment(self.url, s, c) for c in page], headers

    def _post_issues_issue_number_comments(self, p, q, b, login):
        s = self.state
        self._issue(p["issue_number"])
        self._check_body(b["body"])
        cid = s.next("comment")
        stamp = now_iso()
        s.comments[str(cid)] = {
            "issue": int(p["issue_number"]),
            "body": b["body"],
            "user": login,
            "created_at": stamp,
            "updated_at": stamp,
        }
        return 201, shapes.comment(self.url, s, cid), {}

    def _patch_issues_comments_comment_id(self, p, q, b, login):
        c = self.state.comments.get(p["comment_id"])
        if c is None:
            raise _not_found()
        self._check_body(b["body"])
        c["body"], c["updated_at"] = b["body"], now_iso()
        return 200, shapes.comment(self.url, self.state, int(p["comment_id"])), {}

    def _delete_issues_comments_comment_id(self, p, q, b, login):
        if self.state.comments.pop(p["comment_id"], None) is None:
            raise _not_found()
        return 204, None, {}

    # actions
    def _workflow(self, key: str) -> str:
        """The workflow file named or numbered ``key``; as on GitHub, a ``.github/workflows/`` file committed
        to the default branch is a workflow (registered on first use, with the next id)."""
        for file, w in self.state.workflows.items():
            if key in (file, str(w["id"])):
                return file
        if re.fullmatch(r"[A-Za-z0-9_.-]+\.ya?ml", key):
            declared = self._declared(key, self.state.default_branch)
            if declared is not None:
                ids = [int(w["id"]) for w in self.state.workflows.values()] or [161334]
                self.state.workflows[key] = {
                    "id": max(ids) + 1,
                    "name": str(declared.get("name") or key),
                    "dispatch": bool(declared["dispatch"]),
                    "created_at": now_iso(),
                }
                return key
        raise _not_found()

    def _get_actions_workflows_workflow_id(self, p, q, b, login):
        return 200, shapes.workflow(self.url, self.state, self._workflow(p["workflow_id"])), {}

    def _declared(self, file: str, ref: str) -> dict[str, Any] | None:
        """``{"inputs": {...}, "run_name": str|None}`` from the workflow file on ``ref``; None when absent."""
        import yaml

        sha = self.state.file_at(ref, f".github/workflows/{file}")
        if sha is None:
            return None
        doc = yaml.safe_load(self.state.blob(sha)) or {}
        on = doc.get("on", doc.get(True)) or {}
        if isinstance(on, list) or "workflow_dispatch" not in on:
            return {"dispatch": False, "inputs": {}, "run_name": doc.get("run-name"), "name": doc.get("name")}
        inputs = (on.get("workflow_dispatch") or {}).get("inputs") or {}
        return {"dispatch": True, "inputs": inputs, "run_name": doc.get("run-name"), "name": doc.get("name")}

    def _post_actions_workflows_workflow_id_dispatches(self, p, q, b, login):
        s = self.state
        file = self._workflow(p["workflow_id"])
        ref = b["ref"].removeprefix("refs/heads/").removeprefix("refs/tags/")
        if f"refs/heads/{ref}" not in s.refs and f"refs/tags/{ref}" not in s.refs:
            raise HttpError(422, f"No ref found for: {b['ref']}")
        declared = self._declared(file, ref)
        if (
            declared is None
            and not s.workflows[file]["dispatch"]
            or declared is not None
            and not declared["dispatch"]
        ):
            raise HttpError(422, "Workflow does not have 'workflow_dispatch' trigger")
        given = {k: str(v) for k, v in (b.get("inputs") or {}).items()}
        values: dict[str, str] = {}
        if declared is not None:
            unexpected = sorted(set(given) - set(declared["inputs"]))
            if unexpected:
                raise HttpError(422, f"Unexpected inputs provided: {unexpected}")
            for key, spec in declared["inputs"].items():
                spec = spec or {}
                if key not in given and spec.get("required") and spec.get("default") in (None, ""):
                    raise HttpError(422, f"Required input '{key}' not provided")
                values[key] = given.get(key, str(spec.get("default", "")))
        s.dispatches.append({"workflow": file, "ref": b["ref"], "inputs": b.get("inputs") or {}, "by": login})
        name = (declared or {}).get("name") or s.workflows[file]["name"]
        title = (declared or {}).get("run_name") or name
        title = re.sub(
            r"\$\{\{\s*(?:github\.event\.)?inputs\.([A-Za-z0-9_-]+)\s*\}\}",
            lambda m: values.get(m.group(1), ""),
            str(title),
        )
        run = {
            "id": s.next("run"),
            "workflow": file,
            "name": name,
            "display_title": title,
            "head_branch": ref,
            "head_sha": s.refs.get(f"refs/heads/{ref}") or s.refs[f"refs/tags/{ref}"],
            "created_at": now_iso(),
            "number": sum(1 for r in s.runs if r["workflow"] == file) + 1,
            "inputs": values,
        }
        s.runs.append(run)
        if b.get("return_run_details"):
            base = f"{self.url}/repos/{s.full_name}/actions/runs/{run['id']}"
            return (
                200,
                {
                    "workflow_run_id": run["id"],
                    "run_url": base,
                    "html_url": f"{self.url}/{s.full_name}/actions/runs/{run['id']}",
                },
                {},
            )
        return 204, None, {}

    def _get_actions_workflows_workflow_id_runs(self, p, q, b, login):
        s = self.state
        file = self._workflow(p["workflow_id"])
        runs = [
            r
            for r in reversed(s.runs)
            if r["workflow"] == file
            and q.get("event", "workflow_dispatch") == "workflow_dispatch"
            and (not q.get("branch") or r["head_branch"] == q["branch"])
        ]
        page, headers = self._paginate(
            runs, q, f"/repos/{s.full_name}/actions/workflows/{p['workflow_id']}/runs"
        )
        return (
            200,
            {"total_count": len(runs), "workflow_runs": [shapes.workflow_run(self.url, s, r) for r in page]},
            headers,
        )

    def _get_contents_path(self, p, q, b, login):
        s = self.state
        ref = q.get("ref") or s.default_branch
        sha = s.file_at(ref, p["path"])
        if sha is None:
            raise _not_found()
        return 200, shapes.content_file(self.url, s, p["path"], sha, ref), {}
