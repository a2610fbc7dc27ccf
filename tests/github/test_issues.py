"""quarkci.github.issues under faults: a finding has at most one open issue at every moment.

The fake records, after every write it accepts (inside its lock, so no request lands in between),
how many open issues carry each finding marker; the tests assert the highest count, not only the
final state. A lost response after ``POST /issues`` is looked up by fingerprint before the create is
sent again, and runs inside one repository's delivery concurrency group (``skill-sync-deliver.yml``)
run one after another.
"""

from __future__ import annotations

import json
import threading
from collections import Counter

import pytest

import quarkci.github.issues as issues
from quarkci.cli import main
from quarkci.github.markers import body_marker
from tests.fakegithub import Fault
from tests.github.conftest import record_open
from tests.github.reports import finding, make_report

pytestmark = pytest.mark.usefixtures("tight_timeout")  # faults sleep past a 1 s client timeout

CREATE = ("POST", "/repos/octo/skills/issues")


def _report(ws, n: int = 1):
    breaking = [finding("breaking", f"--flag-{k}") for k in range(n)]
    ws.write(make_report(breaking))
    return [f["fingerprint"] for f in breaking]


def _open(fake) -> Counter[str]:
    return Counter(
        body_marker(i["body"])[1]
        for i in fake.state.issues.values()
        if i["state"] == "open" and body_marker(i["body"])
    )


@pytest.mark.parametrize(
    ("kind", "posts"),
    [
        ("lost-response", 1),  # processed, the answer lost: found by fingerprint, not sent again
        ("timeout", 1),  # processed after the client gave up: found once GitHub has settled
        ("502", 2),  # answered before processing (as the fake does): looked up, nothing, sent again
        ("secondary-rate-limit", 2),  # refused: sent again after the wait, no lookup needed
    ],
)
def test_a_failed_create_leaves_one_open_issue_at_every_moment(fake, ws, gh_run, kind, posts):
    (fp,) = _report(ws)
    high = record_open(fake)
    fake.faults = [Fault(kind, method="POST", path="/issues$", delay=1.3)]
    code, out, err = gh_run([*ws.issues_args(), "--json"])
    assert code == 0, err
    assert fake.faults_injected() == 1
    assert high == {fp: 1}  # never two open issues for the finding, at any write
    assert fake.writes().count(CREATE) == posts
    assert {n: i["state"] for n, i in fake.state.issues.items()} == {"1": "open"}  # no closed duplicate
    (item,) = json.loads(out)["items"]
    assert (item["operation"], item["number"]) == ("created", 1)
    if posts == 1:
        assert "not sent again" in item["note"]
    fake.clear_log()
    assert gh_run(ws.issues_args())[0] == 0 and fake.writes() == []  # idempotent per fingerprint


@pytest.mark.parametrize("disabled", ["lookup", "create-once"])
def test_negative_control_without_the_lookup_a_lost_response_opens_two(
    fake, ws, gh_run, monkeypatch, disabled
):
    """``lookup``: the fingerprint lookup finds nothing; ``create-once``: urllib3 resends the POST itself
    (as before issue 23), so the lookup is never asked."""
    (fp,) = _report(ws)
    if disabled == "lookup":
        monkeypatch.setattr(issues, "find_open_issue", lambda *a: None)
    else:
        monkeypatch.setattr(issues, "CREATE_ONCE", ())
    high = record_open(fake)
    fake.faults = [Fault("lost-response", method="POST", path="/issues$", delay=1.3)]
    code, _, err = gh_run(ws.issues_args())
    assert code == 0, err
    assert high == {fp: 2}  # the resent create opened a second issue before the recovery closed it
    assert fake.writes().count(CREATE) == 2
    assert _open(fake) == {fp: 1}  # only the after-the-run state is right without the lookup


def test_a_lost_summary_create_is_looked_up_too(fake, ws, gh_run):
    _report(ws, 2)
    high = record_open(fake)
    fake.faults = [Fault("lost-response", method="POST", path="/issues$", skip=1, delay=1.3)]
    code, _, err = gh_run([*ws.issues_args("--max-new", "1")])
    assert code == 0, err
    assert fake.faults_injected() == 1 and max(high.values()) == 1
    assert fake.writes().count(CREATE) == 2  # one finding issue, one summary issue, none twice
    assert len(fake.state.issues) == 2


def test_three_runs_in_one_concurrency_group_open_three_issues_never_nine(fake, ws, gh_run):
    """Three runs started together inside the delivery group: GitHub starts the next only when the
    running one ended (``cancel-in-progress: false``), here a lock. The first run's first create
    also loses its response. Three findings -> three POSTs, three open issues, max one each."""
    fps = _report(ws, 3)
    high = record_open(fake)
    fake.faults = [Fault("lost-response", method="POST", path="/issues$", delay=1.3)]
    group = threading.Lock()
    codes: list[int] = []

    def run() -> None:
        with group:
            codes.append(main(ws.issues_args()))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert codes == [0, 0, 0]
    assert fake.faults_injected() == 1
    assert fake.writes() == [CREATE] * 3  # the second and third runs write nothing
    assert high == dict.fromkeys(fps, 1)
    assert _open(fake) == dict.fromkeys(fps, 1) and len(fake.state.issues) == 3


def test_negative_control_three_runs_outside_a_group_race(fake, ws, gh_run):
    """Without the group all three list before any creates (a barrier on the first listing): each
    creates what it did not see, so a finding has several open issues for a while; the recovery pass
    still leaves one per finding when the runs end. This is why the delivering workflows set the group."""
    fps = _report(ws, 3)
    high = record_open(fake)
    fake.faults = [Fault("barrier", method="GET", path="/issues$", times=3, delay=5)]
    codes: list[int] = []
    threads = [threading.Thread(target=lambda: codes.append(main(ws.issues_args()))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert codes == [0, 0, 0]
    assert fake.writes().count(CREATE) > 3  # up to 9 (each run creates all three on a loaded machine)
    assert max(high.values()) >= 2
    assert _open(fake) == dict.fromkeys(fps, 1)


def test_the_viewer_query_keeps_its_retries_on_the_issues_connection(fake, ws, gh_run, monkeypatch):
    """Only ``POST /issues`` is sent once: ``POST /graphql`` (the token's login, a read) is still retried."""
    monkeypatch.delenv("QUARKCI_GH_LOGIN")
    _report(ws)
    fake.faults = [Fault("502", method="POST", path="^/graphql$")]
    code, out, err = gh_run(ws.issues_args())
    assert code == 0, err
    assert fake.faults_injected() == 1 and fake.sequence().count(("POST", "/graphql")) == 2
    assert out.startswith("issues: created") and len(fake.state.issues) == 1
