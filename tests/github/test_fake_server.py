"""The fake keeps GitHub's semantics, and its OpenAPI check catches shapes GitHub never returns."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import requests

from tests.fakegithub import FakeGitHub, seeded
from tests.fakegithub.openapi import OpenApi, normalise
from tests.github.conftest import TOKEN

R = "/repos/octo/skills"
AUTH = {"Authorization": f"token {TOKEN}"}


@pytest.fixture
def srv():
    with FakeGitHub(seeded(token=TOKEN)) as gh:
        yield gh
    assert gh.violations == []


def _call(srv, method, path, body=None, auth=AUTH, **params):
    return requests.request(method, srv.url + path, json=body, headers=auth, params=params, timeout=5)


def test_401_without_or_with_bad_auth(srv):
    assert _call(srv, "GET", R, auth={}).json()["message"] == "Requires authentication"
    r = _call(srv, "GET", R, auth={"Authorization": "token nope"})
    assert (r.status_code, r.json()["message"]) == (401, "Bad credentials")
    assert _call(srv, "GET", R).status_code == 200


def test_every_url_points_back_at_the_server(srv):
    def urls(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, str) and (k == "url" or k.endswith("_url")) and v.startswith("http"):
                    yield v
                yield from urls(v)
        elif isinstance(node, list):
            for v in node:
                yield from urls(v)

    main = srv.state.refs["refs/heads/main"]
    srv.state.commit_files("feature", {"f.md": b"f\n"}, "f")
    pr = _call(srv, "POST", f"{R}/pulls", {"title": "t", "head": "feature", "base": "main"}).json()
    bodies = [
        _call(srv, "GET", R).json(),
        _call(srv, "GET", f"{R}/git/ref/heads/main").json(),
        _call(srv, "GET", f"{R}/git/commits/{main}").json(),
        pr,
        _call(srv, "GET", f"{R}/pulls").json(),
    ]
    found = [u for b in bodies for u in urls(b)]
    assert len(found) > 100 and all(u.startswith(srv.url) for u in found)


def test_422_duplicate_pr_existing_ref_and_non_fast_forward(srv):
    main = srv.state.refs["refs/heads/main"]
    srv.state.refs["refs/heads/feature"] = main
    other = srv.state.commit_files("feature", {"f.md": b"f\n"}, "f")
    r = _call(srv, "POST", f"{R}/git/refs", {"ref": "refs/heads/feature", "sha": main})
    assert (r.status_code, r.json()["errors"][0]["message"]) == (422, "Reference already exists")
    r = _call(srv, "PATCH", f"{R}/git/refs/heads/main", {"sha": other})  # feature descends from main: ok
    assert r.status_code == 200
    r = _call(srv, "PATCH", f"{R}/git/refs/heads/main", {"sha": main})  # going back is not a fast forward
    assert (r.status_code, r.json()["errors"][0]["message"]) == (422, "Update is not a fast forward")
    assert _call(srv, "PATCH", f"{R}/git/refs/heads/main", {"sha": main, "force": True}).status_code == 200
    assert (
        _call(srv, "POST", f"{R}/pulls", {"title": "a", "head": "feature", "base": "main"}).status_code == 201
    )
    r = _call(srv, "POST", f"{R}/pulls", {"title": "b", "head": "octo:feature", "base": "main"})
    assert r.status_code == 422 and "A pull request already exists" in r.json()["errors"][0]["message"]


def test_head_filter_needs_the_owner_prefix(srv):
    for name in ("a", "b"):
        srv.state.commit_files(name, {f"{name}.md": b"x\n"}, name)
        _call(srv, "POST", f"{R}/pulls", {"title": name, "head": name, "base": "main"})
    assert [p["title"] for p in _call(srv, "GET", f"{R}/pulls", head="octo:a").json()] == ["a"]
    assert len(_call(srv, "GET", f"{R}/pulls", head="a").json()) == 2  # silently ignored, as on GitHub
    assert _call(srv, "GET", f"{R}/pulls", head="someone:a").json() == []


def test_link_header_pagination(srv):
    for n in range(5):
        _call(srv, "POST", f"{R}/issues", {"title": f"i{n}"})
    r = _call(srv, "GET", f"{R}/issues", per_page=2)
    assert [i["number"] for i in r.json()] == [5, 4]  # newest first
    assert r.links["next"]["url"].startswith(srv.url) and "page=2" in r.links["next"]["url"]
    assert "page=3" in r.links["last"]["url"]
    last = requests.get(r.links["last"]["url"], headers=AUTH, timeout=5)
    assert [i["number"] for i in last.json()] == [1] and "next" not in last.links and "prev" in last.links


def test_body_limit_is_enforced(srv):
    r = _call(srv, "POST", f"{R}/issues", {"title": "t", "body": "x" * 65537})
    assert r.status_code == 422 and "too long" in r.json()["errors"][0]["message"]


def test_request_violations_are_caught_and_refused():
    with FakeGitHub(seeded(token=TOKEN)) as gh:
        r = _call(gh, "PATCH", f"{R}/git/refs/heads/main", {"sha": 1, "force": "yes"})
        r2 = _call(gh, "GET", f"{R}/issues", bogus="1")
    assert r.status_code == 422 and r2.status_code == 422
    assert any("force" in v and "boolean" in v for v in gh.violations)
    assert any("'bogus' is not declared" in v for v in gh.violations)


def test_response_violations_are_caught(monkeypatch):
    from tests.fakegithub import shapes

    real = shapes.pull

    def broken(*a, **k):
        out = real(*a, **k)
        del out["number"]
        out["state"] = 3
        return out

    monkeypatch.setattr(shapes, "pull", broken)
    with FakeGitHub(seeded(token=TOKEN)) as gh:
        gh.state.commit_files("feature", {"f.md": b"f\n"}, "f")
        _call(gh, "POST", f"{R}/pulls", {"title": "t", "head": "feature", "base": "main"})
    assert any("'number' is a required property" in v for v in gh.violations)
    assert any("3 is not of type 'string'" in v for v in gh.violations)


def test_normalise_nullable_forms():
    api = OpenApi()
    assert normalise({"type": "string", "nullable": True}) == {"type": ["string", "null"]}
    assert normalise({"enum": ["a"], "type": "string", "nullable": True})["enum"] == ["a", None]
    assert normalise({"allOf": [{"$ref": "#/x"}], "nullable": True}) == {
        "anyOf": [{"allOf": [{"$ref": "#/x"}]}, {"type": "null"}]
    }
    assert '"nullable":' not in json.dumps(api.doc)  # the keyword, not schema names like nullable-user


def test_subset_is_small_and_traceable():
    path = Path(__file__).parents[1] / "fakegithub" / "openapi_subset.json"
    doc = json.loads(path.read_text())
    assert path.stat().st_size < 400_000
    assert doc["info"]["x-quarkci-trimmed-from"]["package"] == "@octokit/openapi"
    assert len(doc["paths"]) == 20


def test_standalone_process(tmp_path):
    state = tmp_path / "state.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.fakegithub",
            "--port",
            "0",
            "--state",
            str(state),
            "--print-url",
            "--token",
            TOKEN,
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        req = urllib.request.Request(
            f"{url}{R}/issues",
            data=json.dumps({"title": "hi"}).encode(),
            method="POST",
            headers={**AUTH, "Content-Type": "application/json"},
        )
        assert urllib.request.urlopen(req, timeout=5).status == 201
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
    saved = json.loads(state.read_text())
    assert [i["title"] for i in saved["issues"].values()] == ["hi"]


def test_a_commit_pushed_from_outside_can_head_a_pull_request(srv):
    """``/_fake/push``: the commit a workflow runs on (made by git, not through the API) as a PR's head."""
    sha = "c0ffee" + "1" * 34
    assert _call(srv, "POST", "/_fake/push", {"branch": "release", "sha": sha}).status_code == 200
    pr = _call(srv, "POST", f"{R}/pulls", {"title": "t", "head": "release", "base": "main"}).json()
    assert pr["head"]["sha"] == sha
    assert _call(srv, "GET", f"{R}/pulls/{pr['number']}").json()["head"]["sha"] == sha
    # negative control: no commit SHA, no push
    assert _call(srv, "POST", "/_fake/push", {"branch": "x", "sha": "HEAD"}).status_code == 400
    assert _call(srv, "GET", f"{R}/git/ref/heads/x").status_code == 404


def test_a_workflow_file_committed_to_the_default_branch_is_a_workflow(srv):
    """As on GitHub: committing .github/workflows/x.yml to main makes x.yml listable and dispatchable."""
    body = (
        b"name: X\non:\n  workflow_dispatch:\n    inputs:\n      v: {type: string, default: ''}\njobs: {}\n"
    )
    assert _call(srv, "GET", f"{R}/actions/workflows/x.yml").status_code == 404  # not there yet
    srv.state.commit_files("main", {".github/workflows/x.yml": body}, "add x")
    assert _call(srv, "GET", f"{R}/actions/workflows/x.yml").json()["name"] == "X"
    sent = _call(
        srv, "POST", f"{R}/actions/workflows/x.yml/dispatches", {"ref": "main", "inputs": {"v": "1"}}
    )
    assert sent.status_code == 204
    runs = _call(srv, "GET", f"{R}/actions/workflows/x.yml/runs").json()["workflow_runs"]
    assert len(runs) == 1 and runs[0]["name"] == "X"
