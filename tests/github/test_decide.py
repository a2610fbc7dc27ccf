"""The pure decisions: one test per branch of decide_pr, decide_issues/decide_summary, decide_comment."""

from __future__ import annotations

from quarkci.github.comment import ExistingComment, decide_comment
from quarkci.github.issues import ExistingIssue, WantIssue, compose, decide_issues, decide_summary
from quarkci.github.markers import CLOSED_MARKER, DUPLICATE_MARKER, title_hash
from quarkci.github.pr import BranchState, ForeignPull, PullState, PullWant, decide_pr

WANT = PullWant("title", "body", ("quarkci", "skill-sync"))
OURS = BranchState("aaa", by_quarkci=True, files_match=False)
OURS_MATCH = BranchState("aaa", by_quarkci=True, files_match=True)
HUMAN = BranchState("bbb", by_quarkci=False, files_match=False)


def _pull(open_=True, merged=False, head="aaa", title="title", body="body", labels=("quarkci", "skill-sync")):
    return PullState(7, open_, merged, head, title, body, frozenset(labels))


# --- decide_pr ---------------------------------------------------------------------------------------
def test_pr_no_drift_open_pull_is_closed():
    plan = decide_pr(False, None, _pull(), WANT)
    assert (plan.operation, plan.pull, plan.comment) == (
        "closed",
        "close",
        "none",
    )  # the reason goes in the body


def test_pr_no_drift_no_pull_is_unchanged():
    assert decide_pr(False, None, _pull(open_=False), WANT).operation == "unchanged"
    assert decide_pr(False, None, None, WANT).pull == "none"


def test_pr_missing_branch_creates_branch_and_pull():
    plan = decide_pr(True, None, None, WANT)
    assert (plan.operation, plan.branch, plan.pull, plan.add_labels) == (
        "created",
        "create",
        "create",
        WANT.labels,
    )


def test_pr_human_push_with_open_pull_comments_and_leaves_branch():
    plan = decide_pr(True, HUMAN, _pull(head="bbb"), WANT)
    assert (plan.operation, plan.branch, plan.comment, plan.pull) == ("commented", "none", "conflict", "none")


def test_pr_human_push_without_pull_is_left_alone():
    plan = decide_pr(True, HUMAN, None, WANT)
    assert (plan.operation, plan.branch, plan.pull, plan.comment) == ("unchanged", "none", "none", "none")


def test_pr_an_open_pull_by_another_author_on_the_branch_leaves_everything():
    for branch in (OURS, OURS_MATCH, HUMAN):
        plan = decide_pr(True, branch, None, WANT, ForeignPull(9, "dev"))
        assert (plan.operation, plan.branch, plan.pull, plan.comment) == ("unchanged", "none", "none", "none")
        assert "PR #9 from this branch is open by dev" in plan.reason
    # our own open PR on the branch wins over the foreign one (GitHub cannot hold both open anyway)
    assert decide_pr(True, OURS, _pull(), WANT, ForeignPull(9, "dev")).branch == "commit"
    # drift gone: nothing of ours to close, the foreign PR is not touched
    assert decide_pr(False, None, None, WANT, ForeignPull(9, "dev")).pull == "none"


def test_pr_changed_content_on_own_branch_commits_and_keeps_pull():
    plan = decide_pr(True, OURS, _pull(), WANT)
    assert (plan.operation, plan.branch, plan.pull) == ("updated", "commit", "none")


def test_pr_changed_content_without_open_pull_commits_and_opens_one():
    plan = decide_pr(True, OURS, _pull(open_=False), WANT)
    assert (plan.operation, plan.branch, plan.pull) == ("created", "commit", "create")


def test_pr_everything_matches_is_unchanged():
    plan = decide_pr(True, OURS_MATCH, _pull(), WANT)
    assert (plan.operation, plan.branch, plan.pull, plan.add_labels) == ("unchanged", "none", "none", ())


def test_pr_body_or_labels_differ_edits_pull():
    plan = decide_pr(True, OURS_MATCH, _pull(body="old", labels=("quarkci",)), WANT)
    assert (plan.operation, plan.pull, plan.edit, plan.add_labels) == (
        "updated",
        "edit",
        ("body",),
        ("skill-sync",),
    )


def test_pr_closed_by_human_at_this_head_is_respected():
    plan = decide_pr(True, OURS_MATCH, _pull(open_=False), WANT)
    assert (plan.operation, plan.pull) == ("unchanged", "none")
    assert "respected" in plan.reason


def test_pr_closed_by_quarkci_at_this_head_gets_a_new_pr_when_drift_returns():
    from quarkci.github.pr import CLOSED_NOTE_MARKER

    branch = BranchState("abc", by_quarkci=True, files_match=True)
    closed = PullState(
        7, False, False, "abc", "t", f"body\n{CLOSED_NOTE_MARKER}\n\n---\n_gone_\n", frozenset()
    )
    plan = decide_pr(True, branch, closed, PullWant("t", "b", ()))
    assert (plan.operation, plan.pull) == ("created", "create")


def test_pr_matching_branch_without_pull_opens_one():
    plan = decide_pr(True, OURS_MATCH, None, WANT)
    assert (plan.operation, plan.branch, plan.pull) == ("created", "none", "create")


def test_pr_human_push_that_matches_is_not_a_conflict():
    plan = decide_pr(True, BranchState("bbb", by_quarkci=False, files_match=True), _pull(head="bbb"), WANT)
    assert plan.operation == "unchanged" and plan.comment == "none"


# --- decide_issues -----------------------------------------------------------------------------------
def _want(key, body="b"):
    return WantIssue(key, f"t {key}", f"<!-- quarkci:finding:{key} -->\n{body}")


def _written(key, body="b", title=None):
    """The body quarkci writes for ``_want(key, body)`` (marker, recorded title, rest)."""
    return compose(_want(key, body), title_hash(title or f"t {key}"))


def _issue(number, key, open_=True, body=None, title=None):
    return ExistingIssue(number, key, open_, title or f"t {key}", _written(key) if body is None else body)


def _acts(actions):
    return [(a.action, a.key, a.number) for a in actions]


def test_issues_new_finding_is_created():
    actions, overflow = decide_issues([_want("a")], [], max_new=10)
    assert _acts(actions) == [("create", "a", None)] and overflow == []


def test_issues_same_content_is_kept():
    actions, _ = decide_issues([_want("a")], [_issue(3, "a")], 10)
    assert _acts(actions) == [("keep", "a", 3)]


def test_issues_changed_content_is_edited():
    actions, _ = decide_issues([_want("a", body="new")], [_issue(3, "a", body=_written("a", "old"))], 10)
    assert _acts(actions) == [("edit", "a", 3)] and actions[0].body == _written("a", "new")


def test_issues_human_title_and_note_above_the_marker_are_kept():
    """Case 5: a renamed issue keeps its title; a note written above the marker survives an edit."""
    human = "Human title"
    body = "Triage note: ours.\n\n" + _written("a", "old")
    actions, _ = decide_issues([_want("a", body="new")], [_issue(3, "a", title=human, body=body)], 10)
    (edit,) = actions
    assert (edit.action, edit.title) == ("edit", human)
    assert edit.body == "Triage note: ours.\n\n" + _written("a", "new")
    again, _ = decide_issues([_want("a", body="new")], [_issue(3, "a", title=human, body=edit.body)], 10)
    assert _acts(again) == [("keep", "a", 3)]  # the next run writes nothing: the human title stays


def test_issues_duplicates_keep_the_oldest_and_close_the_rest():
    actions, _ = decide_issues([_want("a")], [_issue(9, "a"), _issue(3, "a"), _issue(5, "a")], 10)
    assert _acts(actions) == [("keep", "a", 3), ("close-duplicate", "a", 5), ("close-duplicate", "a", 9)]
    assert actions[1].body.endswith(DUPLICATE_MARKER + "\n") and "#3" in actions[1].body


def test_issues_closed_by_quarkci_is_reopened():
    actions, _ = decide_issues(
        [_want("a")], [_issue(3, "a", open_=False, body=_written("a") + "\n" + CLOSED_MARKER)], 10
    )
    assert _acts(actions) == [("reopen", "a", 3)] and CLOSED_MARKER not in actions[0].body


def test_issues_closed_by_human_is_respected():
    actions, _ = decide_issues([_want("a")], [_issue(3, "a", open_=False)], 10)
    assert _acts(actions) == [("keep", "a", 3)] and "human" in actions[0].reason


def test_issues_closed_duplicates_are_ignored():
    actions, _ = decide_issues([_want("a")], [_issue(3, "a", open_=False, body="b\n" + DUPLICATE_MARKER)], 10)
    assert _acts(actions) == [("create", "a", None)]


def test_issues_max_new_overflows():
    actions, overflow = decide_issues([_want(k) for k in "abcd"], [_issue(1, "b")], max_new=2)
    assert _acts(actions) == [("create", "a", None), ("keep", "b", 1), ("create", "c", None)]
    assert [w.key for w in overflow] == ["d"]


def test_issues_disappeared_finding_is_closed():
    actions, _ = decide_issues([], [_issue(4, "gone"), _issue(2, "old", open_=False)], 10)
    assert _acts(actions) == [("close", "gone", 4)]
    assert actions[0].body.endswith(CLOSED_MARKER + "\n") and "no longer reports" in actions[0].body


def test_issues_closes_are_capped_per_run():
    """Case 8: at most --max-close stale issues are closed per run, oldest first; the rest wait."""
    actions, _ = decide_issues([], [_issue(n, f"k{n}") for n in range(1, 8)], 10, max_close=3)
    assert [a.number for a in actions if a.action == "close"] == [1, 2, 3]
    assert [a.number for a in actions if a.action == "keep"] == [4, 5, 6, 7]


def test_summary_created_kept_and_closed():
    s = WantIssue("summary", "t summary", "<!-- quarkci:finding-summary -->\nlist")
    assert _acts(decide_summary(s, [])) == [("create", "summary", None)]
    kept = compose(s, title_hash("t summary"))
    assert _acts(decide_summary(s, [_issue(8, "summary", title="t summary", body=kept)])) == [
        ("keep", "summary", 8)
    ]
    assert _acts(decide_summary(None, [_issue(8, "summary")])) == [("close", "summary", 8)]
    assert decide_summary(None, [_issue(8, "summary", open_=False)]) == []


# --- decide_comment ----------------------------------------------------------------------------------
def test_comment_none_creates():
    assert decide_comment([], "x").create is True


def test_comment_same_body_is_unchanged():
    plan = decide_comment([ExistingComment(5, "x")], "x")
    assert (plan.operation, plan.create, plan.update_id, plan.delete_ids) == ("unchanged", False, None, ())


def test_comment_changed_body_updates_in_place():
    plan = decide_comment([ExistingComment(5, "old")], "x")
    assert (plan.operation, plan.update_id) == ("updated", 5)


def test_comment_extras_are_deleted_and_oldest_kept():
    plan = decide_comment([ExistingComment(9, "x"), ExistingComment(5, "old")], "x")
    assert (plan.operation, plan.update_id, plan.delete_ids) == ("updated", 5, (9,))
