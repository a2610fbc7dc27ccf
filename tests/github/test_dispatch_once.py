"""gh dispatch against the fake GitHub: a rate-limit refusal of the POST is retried (GitHub started
nothing), and a second identical invocation finds the first run instead of starting another."""

from __future__ import annotations

import json

import pytest

from quarkci.github.dispatch import correlation_for
from tests.fakegithub import Fault

pytestmark = pytest.mark.usefixtures("tight_timeout")  # faults sleep past a 1 s client timeout

R = "/repos/octo/skills"
DISPATCH = [
    "gh",
    "dispatch",
    "--workflow",
    "release.yml",
    "--ref",
    "main",
    "--input",
    "amd-quark=0.13",
    "--json",
]


def _plain_workflow(fake) -> None:
    """plain.yml: dispatchable, no correlation-id input (no lookup possible)."""
    fake.state.commit_files(
        "main", {".github/workflows/plain.yml": b"on:\n  workflow_dispatch:\njobs: {}\n"}, "wf"
    )
    fake.state.workflows["plain.yml"] = {
        "id": 7,
        "name": "plain",
        "dispatch": True,
        "created_at": "2026-01-01T00:00:00Z",
    }


def _posts(fake) -> int:
    return [c.method for c in fake.calls].count("POST")


# --- a rate-limit refusal is an answer: retried, with or without a correlation id ----------------------


@pytest.mark.parametrize("kind", ["secondary-rate-limit", "429", "primary-rate-limit"])
def test_a_rate_limited_post_without_correlation_is_retried_not_dropped(fake, gh_run, kind) -> None:
    _plain_workflow(fake)
    fake.faults = [Fault(kind, method="POST", path="/dispatches$")]
    code, out, err = gh_run(["gh", "dispatch", "--workflow", "plain.yml", "--ref", "main", "--json"])
    assert code == 0, err
    assert fake.faults_injected() == 1 and _posts(fake) == 2
    (run,) = fake.state.runs  # one run: the refused POST started nothing, the second one did
    (item,) = json.loads(out)["items"]
    assert item["number"] == run["id"] and "POST refused (HTTP " in item["note"]


def test_negative_control_a_lost_post_without_correlation_is_still_not_retried(fake, gh_run) -> None:
    _plain_workflow(fake)
    fake.faults = [Fault("lost-response", method="POST", path="/dispatches$", delay=1.3)]
    code, _, err = gh_run(["gh", "dispatch", "--workflow", "plain.yml", "--ref", "main"])
    assert code == 3 and "may have started" in err and _posts(fake) == 1


def test_a_rate_limited_post_with_correlation_is_sent_again_without_a_lookup(fake, gh_run) -> None:
    fake.faults = [Fault("secondary-rate-limit", method="POST", path="/dispatches$")]
    code, out, err = gh_run(DISPATCH)
    assert code == 0, err
    (run,) = fake.state.runs
    lookups = [c for c in fake.calls if c.path.endswith("/runs")]
    assert _posts(fake) == 2 and len(lookups) == 1  # only the check before the first POST
    assert json.loads(out)["items"][0]["number"] == run["id"]


def test_refused_every_time_is_exit_3_saying_no_run_started(fake, gh_run) -> None:
    fake.faults = [Fault("429", method="POST", path="/dispatches$", times=99)]
    code, _, err = gh_run(DISPATCH)
    assert code == 3 and fake.state.runs == []
    (line,) = err.strip().splitlines()
    assert "refused the POST 5 times" in line and "HTTP 429" in line and "no run was started" in line
    assert _posts(fake) == 5  # FAST policy: total=4, so 5 attempts


# --- the correlation id: derived from the dispatch; a second identical invocation reuses the run -----


def test_correlation_id_is_derived_from_workflow_ref_and_inputs() -> None:
    a = correlation_for("release.yml", "main", {"amd-quark": "0.13", "scheme": "fp8"})
    assert a == correlation_for(
        "release.yml", "main", {"scheme": "fp8", "amd-quark": "0.13", "correlation-id": "x"}
    )
    assert a.startswith("qc-") and len(a) == 19
    others = {
        correlation_for("release.yml", "main", {"amd-quark": "0.14", "scheme": "fp8"}),
        correlation_for("release.yml", "v1", {"amd-quark": "0.13", "scheme": "fp8"}),
        correlation_for("ptq.yml", "main", {"amd-quark": "0.13", "scheme": "fp8"}),
    }
    assert a not in others and len(others) == 3


def test_a_second_identical_dispatch_finds_the_first_run(fake, gh_run) -> None:
    code, out, _ = gh_run(DISPATCH)
    assert code == 0
    (first,) = fake.state.runs
    cid = first["inputs"]["correlation-id"]
    assert cid == correlation_for("release.yml", "main", {"amd-quark": "0.13"})  # what was sent
    for status, conclusion in (("queued", None), ("in_progress", None), ("completed", "success")):
        first["status"], first["conclusion"] = status, conclusion
        fake.calls.clear()
        code, out, _ = gh_run(DISPATCH)
        assert code == 0 and _posts(fake) == 0 and len(fake.state.runs) == 1, status
        result = json.loads(out)
        (item,) = result["items"]
        assert result["operation"] == "unchanged" and item["number"] == first["id"] and result["steps"] == []
        assert f"already dispatched as run {first['id']}" in item["note"]
    # negative control: a failed (or cancelled) run is dispatched anew, with the same id
    first["status"], first["conclusion"] = "completed", "failure"
    code, out, _ = gh_run(DISPATCH)
    assert code == 0 and json.loads(out)["operation"] == "created" and len(fake.state.runs) == 2
    assert fake.state.runs[1]["inputs"]["correlation-id"] == cid


def test_other_inputs_or_a_new_correlation_id_dispatch_anew(fake, gh_run) -> None:
    assert gh_run(DISPATCH)[0] == 0
    assert gh_run([*DISPATCH, "--input", "scheme=int8"])[0] == 0  # another dispatch: another id
    assert gh_run([*DISPATCH, "--correlation-id", "force-812-1"])[0] == 0  # forced anew
    assert gh_run([*DISPATCH, "--correlation-id", "force-812-1"])[0] == 0  # ... once
    ids = [r["inputs"]["correlation-id"] for r in fake.state.runs]
    assert len(ids) == 3 and len(set(ids)) == 3 and ids[2] == "force-812-1"


def test_the_id_is_matched_as_a_whole_word(fake, gh_run) -> None:
    assert gh_run([*DISPATCH, "--correlation-id", "force-812-10"])[0] == 0
    assert gh_run([*DISPATCH, "--correlation-id", "force-812-1"])[0] == 0  # not found inside "force-812-10"
    assert [r["inputs"]["correlation-id"] for r in fake.state.runs] == ["force-812-10", "force-812-1"]


def test_a_dry_run_reports_the_earlier_run(fake, gh_run) -> None:
    assert gh_run(DISPATCH)[0] == 0
    fake.calls.clear()
    code, out, _ = gh_run([*DISPATCH, "--dry-run"])
    assert code == 0 and json.loads(out)["operation"] == "unchanged" and _posts(fake) == 0


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, "a\n::set-output name=x::y"])
def test_a_bad_correlation_id_is_exit_2_before_any_write(fake, gh_run, bad) -> None:
    code, _, err = gh_run([*DISPATCH, "--correlation-id", bad])
    (line,) = err.strip().splitlines()
    assert code == 2 and line.startswith("quarkci: error: --correlation-id") and _posts(fake) == 0
