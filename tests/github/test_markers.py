from __future__ import annotations

import pytest

from quarkci.core.errors import BadInputError
from quarkci.github import markers


def test_markers_round_trip_on_the_first_line_only():
    body = markers.finding_marker("0123456789abcdef") + "\ntext"
    assert markers.first_line_marker(body) == ("finding", "0123456789abcdef")
    assert markers.first_line_marker("text\n" + body) is None
    assert markers.first_line_marker(markers.report_marker("ci-report") + "\nx") == ("report", "ci-report")
    assert markers.first_line_marker(markers.SUMMARY_MARKER) == ("finding-summary", "")


@pytest.mark.parametrize("bad", ["", "-x", "a b", "x" * 65, "a/b"])
def test_bad_comment_names_are_refused(bad):
    with pytest.raises(BadInputError):
        markers.report_marker(bad)


@pytest.mark.parametrize("bad", ["0.13..1", "../x", "v.lock", "a b", ""])
def test_bad_versions_cannot_name_a_branch(bad):
    with pytest.raises(BadInputError):
        markers.sync_branch(bad)


def test_trailer_recognises_quarkci_commits_only():
    assert markers.is_quarkci_commit("subject\n\nbody\n\nQuarkci-Sync: 0.13\n")
    assert not markers.is_quarkci_commit(
        "fix typo\n\nmentions Quarkci-Sync: 0.13 in the body\n\nSigned-off-by: a"
    )
    assert not markers.is_quarkci_commit("Quarkci-Sync: 0.13")  # a subject line is not a trailer paragraph
