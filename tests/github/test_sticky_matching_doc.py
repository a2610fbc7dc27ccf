"""docs/architecture.md says how sticky comments are matched, and it is what the code does: marker AND author."""

from __future__ import annotations

import re
from pathlib import Path

from quarkci.github.comment import ExistingComment, decide_comment, marked, with_marker

ROOT = Path(__file__).resolve().parents[2]


def test_the_design_of_record_says_marker_and_author() -> None:
    text = " ".join((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split())
    assert "Sticky comments are matched by marker **and** author" in text
    assert not re.search(r"matched by marker only", text)


def test_the_code_matches_marker_and_author() -> None:
    body = with_marker("report", "skill-sync")
    comments = [
        ExistingComment(1, body, "mallory"),  # the marker pasted by someone else: never ours
        ExistingComment(2, "no marker", "quarkci-bot[bot]"),  # ours, but not this sticky comment
        ExistingComment(3, body.replace("skill-sync", "ptq"), "quarkci-bot[bot]"),  # another name
        ExistingComment(4, body, "Quarkci-Bot[bot]"),  # ours (logins compare case-insensitively)
    ]
    assert [c.id for c in marked(comments, "skill-sync", "quarkci-bot[bot]")] == [4]
    # negative control: matching by marker alone would pick mallory's comment first and edit it
    by_marker_only = [c for c in comments if c.body.split("\n", 1)[0] == body.split("\n", 1)[0]]
    assert decide_comment(by_marker_only, with_marker("new", "skill-sync")).update_id == 1
    assert (
        decide_comment(
            marked(comments, "skill-sync", "quarkci-bot[bot]"), with_marker("new", "skill-sync")
        ).update_id
        == 4
    )
