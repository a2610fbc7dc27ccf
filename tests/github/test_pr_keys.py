"""``gh pr --key``: PRs of two keys (the skill-sync drift PR and a ``verify-<lib>`` corrections PR)
coexist; creating, updating or closing one never writes to the other (asserted on the fake's recorded
writes and on the other PR's stored state); the default key is the drift PR of before keys existed."""

from __future__ import annotations

import copy
import json

import pytest

from quarkci.github.markers import first_line_marker, sync_branch
from tests.github.reports import FIXED_TEXT, SKILL_FILE, finding, make_report

R = "/repos/octo/skills"
DRIFT = "quarkci/skill-sync/0.13"
KEY = "verify-quark-kernels"
VERIFY = f"quarkci/{KEY}/0.13"
MAP_FILE = ".cursor/skills/verify-quark-kernels/features/map.json"
MAP_TEXT = '{"map_version": 1, "families": ["mx"]}\n'


def _drift(version: str = "0.13") -> dict:
    return make_report(
        [finding("mechanical", "w_int4"), finding("breaking", "--old-flag")], [SKILL_FILE], version=version
    )


def _verify(version: str = "0.13", fixed: bool = True) -> dict:
    """A ``verify maintain --fix`` report: its fixes applied, the feature-map files changed."""
    report = make_report(
        [finding("breaking", "entry point gone", rule="entry-point-removed")],
        [MAP_FILE] if fixed else [],
        version=version,
    )
    report["skills_root"] = ".cursor/skills"
    report["applied_fixes"] = ["tolerance-changed: mx atol 0.01 -> 0.02"] if fixed else []
    return report


def _pull(fake, branch: str) -> tuple[str, dict]:
    found = [(n, i) for n, i in fake.state.issues.items() if (i.get("pull") or {}).get("head") == branch]
    assert len(found) == 1, found
    return found[0]


def _touches(writes: list[tuple[str, str]], number: str, branch: str) -> list[tuple[str, str]]:
    return [
        w
        for w in writes
        if w[1]
        in (
            f"{R}/pulls/{number}",
            f"{R}/issues/{number}",
            f"{R}/issues/{number}/comments",
            f"{R}/git/refs/heads/{branch}",
        )
    ]


def _run_both(ws, gh_run, fake, drift: dict, verify: dict, verify_text: str = MAP_TEXT) -> None:
    ws.write(drift, {SKILL_FILE: FIXED_TEXT})
    assert gh_run(ws.pr_args())[1].startswith("pr: created")
    ws.write(verify, {MAP_FILE: verify_text})
    assert gh_run(ws.pr_args("--key", KEY))[1].startswith("pr: created")


def test_a_verify_pr_and_the_drift_pr_coexist_and_never_touch_each_other(fake, ws, gh_run):
    ws.write(_drift(), {SKILL_FILE: FIXED_TEXT})
    assert gh_run(ws.pr_args())[1].startswith("pr: created")
    drift_no, _ = _pull(fake, DRIFT)
    drift_ref = fake.state.refs[f"refs/heads/{DRIFT}"]
    drift_before = copy.deepcopy(fake.state.issues[drift_no])

    # create the corrections PR: its own branch and marker; no write reaches the drift PR or branch
    fake.clear_log()
    ws.write(_verify(), {MAP_FILE: MAP_TEXT})
    code, out, _ = gh_run(ws.pr_args("--key", KEY))
    assert code == 0 and out.startswith("pr: created")
    verify_no, verify_pr = _pull(fake, VERIFY)
    assert verify_no != drift_no
    assert first_line_marker(verify_pr["body"]) == (KEY, "0.13")
    assert verify_pr["labels"] == ["quarkci", KEY]
    assert verify_pr["title"] == f"quarkci: {KEY} corrections for 0.13 (1 mechanical fixes)"
    assert ("POST", f"{R}/git/refs") in fake.writes() and _touches(fake.writes(), drift_no, DRIFT) == []
    assert fake.state.issues[drift_no] == drift_before and fake.state.refs[f"refs/heads/{DRIFT}"] == drift_ref
    files = fake.state.flatten(fake.state.commits[fake.state.refs[f"refs/heads/{VERIFY}"]]["tree"])
    assert fake.state.blob(files[MAP_FILE][1]).decode() == MAP_TEXT

    # update it (the map changed again): a fast-forward of its own branch only
    fake.clear_log()
    ws.write(_verify(), {MAP_FILE: MAP_TEXT.replace("mx", "mx-tqt")})
    assert gh_run(ws.pr_args("--key", KEY))[1].startswith("pr: updated")
    assert fake.writes()[-1] == ("PATCH", f"{R}/git/refs/heads/{VERIFY}")
    assert _touches(fake.writes(), drift_no, DRIFT) == [] and fake.state.issues[drift_no] == drift_before

    # close the drift PR (drift gone): the corrections PR stays open, untouched
    verify_before = copy.deepcopy(fake.state.issues[verify_no])
    verify_ref = fake.state.refs[f"refs/heads/{VERIFY}"]
    fake.clear_log()
    ws.write(make_report([finding("breaking", "--old-flag")], []))
    assert gh_run(ws.pr_args())[1].startswith("pr: closed")
    assert fake.writes() == [("PATCH", f"{R}/pulls/{drift_no}")]
    assert fake.state.issues[drift_no]["state"] == "closed"
    assert (
        fake.state.issues[verify_no] == verify_before
        and fake.state.refs[f"refs/heads/{VERIFY}"] == verify_ref
    )

    # close the corrections PR: one PATCH on it, the (closed) drift PR untouched
    drift_closed = copy.deepcopy(fake.state.issues[drift_no])
    fake.clear_log()
    ws.write(_verify(fixed=False))
    assert gh_run(ws.pr_args("--key", KEY))[1].startswith("pr: closed")
    assert fake.writes() == [("PATCH", f"{R}/pulls/{verify_no}")]
    assert fake.state.issues[verify_no]["state"] == "closed" and fake.state.issues[drift_no] == drift_closed


def test_closing_the_corrections_pr_leaves_an_open_drift_pr_open(fake, ws, gh_run):
    _run_both(ws, gh_run, fake, _drift(), _verify())
    drift_no, _ = _pull(fake, DRIFT)
    verify_no, _ = _pull(fake, VERIFY)
    before = copy.deepcopy(fake.state.issues[drift_no])
    fake.clear_log()
    ws.write(_verify(fixed=False))
    assert gh_run(ws.pr_args("--key", KEY))[1].startswith("pr: closed")
    assert fake.writes() == [("PATCH", f"{R}/pulls/{verify_no}")]
    assert fake.state.issues[drift_no] == before and before["state"] == "open"


def test_a_newer_release_under_one_key_never_supersedes_the_other_keys_pr(fake, ws, gh_run):
    """Same skills root, newer version: the drift PR's "close older releases" rule stays within its key."""
    ws.write(_drift("0.13"), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())
    drift_no, _ = _pull(fake, DRIFT)
    before = copy.deepcopy(fake.state.issues[drift_no])
    report = _verify("0.14")
    report["skills_root"] = "skills"  # the drift PR's root: only the key keeps them apart
    ws.write(report, {MAP_FILE: MAP_TEXT})
    fake.clear_log()
    assert gh_run(ws.pr_args("--key", KEY))[1].startswith("pr: created")
    assert _touches(fake.writes(), drift_no, DRIFT) == [] and fake.state.issues[drift_no] == before
    # and the other way round: a drift PR for 0.14 closes the drift PR for 0.13, not the 0.14 corrections PR
    verify_no, _ = _pull(fake, f"quarkci/{KEY}/0.14")
    verify_before = copy.deepcopy(fake.state.issues[verify_no])
    ws.write(_drift("0.14"), {SKILL_FILE: FIXED_TEXT})
    fake.clear_log()
    assert gh_run(ws.pr_args())[1].startswith("pr: created")
    assert fake.state.issues[drift_no]["state"] == "closed"  # superseded within its key
    assert fake.state.issues[verify_no] == verify_before


def test_a_rerun_with_the_same_corrections_writes_nothing(fake, ws, gh_run):
    _run_both(ws, gh_run, fake, _drift(), _verify())
    fake.clear_log()
    code, out, _ = gh_run(ws.pr_args("--key", KEY))
    assert code == 0 and out.startswith("pr: unchanged") and fake.writes() == []
    code, out, _ = gh_run(ws.pr_args("--key", KEY, "--json"))
    result = json.loads(out)
    assert code == 0 and result["operation"] == "unchanged" and result["items"][0]["key"] == VERIFY
    assert fake.writes() == []


def test_the_default_key_is_todays_drift_pr_and_another_key_does_not_find_it(fake, ws, gh_run):
    assert sync_branch("0.13") == sync_branch("0.13", "skill-sync") == DRIFT
    ws.write(_drift(), {SKILL_FILE: FIXED_TEXT})
    gh_run(ws.pr_args())  # no --key: today's invocation
    number, pr = _pull(fake, DRIFT)
    assert pr["body"].split("\n", 1)[0] == "<!-- quarkci:skill-sync:0.13 -->"
    assert pr["title"] == "quarkci: sync skills with amd-quark 0.13 (1 mechanical fixes)"
    assert pr["labels"] == ["quarkci", "skill-sync"]
    assert "`quarkci sync --fix` made" in pr["body"]

    # the explicit default key finds that PR: nothing to write
    fake.clear_log()
    assert gh_run(ws.pr_args("--key", "skill-sync"))[1].startswith("pr: unchanged")
    assert fake.writes() == []

    # negative control: another key with the same report does not find the drift PR; it opens its own
    before = copy.deepcopy(fake.state.issues[number])
    fake.clear_log()
    assert gh_run(ws.pr_args("--key", "skill-sync-2"))[1].startswith("pr: created")
    other, _ = _pull(fake, "quarkci/skill-sync-2/0.13")
    assert other != number and fake.state.issues[number] == before
    assert _touches(fake.writes(), number, DRIFT) == []


@pytest.mark.parametrize(
    "key", ["", "Verify", "verify_x", "-verify", "a" * 41, "finding", "report", "x/y", "é"]
)
def test_a_bad_key_is_refused_at_parse_time_with_exit_2(ws, gh_run, key):
    ws.write(_drift(), {SKILL_FILE: FIXED_TEXT})
    code, out, err = gh_run(ws.pr_args("--key", key, "--dry-run"))
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "--key" in err
