"""``quarkci step-output``: the workflows' shell steps write step outputs through the one writer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quarkci.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _entries(text: str) -> dict[str, str]:
    """Parse ``$GITHUB_OUTPUT`` heredoc entries the way the runner does (name<<D / value / D)."""
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines) and lines[i]:
        name, _, marker = lines[i].partition("<<")
        end = lines.index(marker, i + 1)
        out[name] = "\n".join(lines[i + 1 : end])
        i = end + 1
    return out


def test_values_are_written_as_heredoc_entries_that_a_newline_cannot_forge(tmp_path, monkeypatch):
    target = tmp_path / "out"
    monkeypatch.setenv("GITHUB_OUTPUT", str(target))
    forged = "x\nnumber<<EOF\n666\nEOF"
    assert main(["step-output", "number=12", f"title={forged}", "empty="]) == 0
    assert _entries(target.read_text(encoding="utf-8")) == {"number": "12", "title": forged, "empty": ""}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["step-output", "noequals"], "has no '='"),
        (["step-output", "a=1", "a=2"], "is given twice"),
        (["step-output", "bad name=1"], "must match"),
        (["step-output", "big=" + "x" * ((1 << 20) + 1)], "exceed"),
    ],
)
def test_bad_arguments_are_exit_2_and_write_nothing(tmp_path, monkeypatch, capsys, argv, message):
    target = tmp_path / "out"
    monkeypatch.setenv("GITHUB_OUTPUT", str(target))
    assert main(argv) == 2
    assert message in capsys.readouterr().err and not target.exists()


def test_outside_a_step_it_is_exit_2(monkeypatch, capsys):
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    assert main(["step-output", "a=1"]) == 2
    assert "$GITHUB_OUTPUT is not set" in capsys.readouterr().err


# The one place a step writes $GITHUB_OUTPUT by hand: setup-quarkci, which runs before quarkci is installed.
HAND_WRITTEN_ALLOWED = {"actions/setup-quarkci/action.yml", "actions/setup-quarkci/install.sh"}
_HAND_WRITE = re.compile(r">>\s*\"?\$GITHUB_OUTPUT")


def test_no_workflow_or_action_writes_step_outputs_by_hand_but_the_installer():
    files = [
        *ROOT.glob(".github/workflows/*.yml"),
        *ROOT.glob("actions/*/action.yml"),
        *ROOT.glob("actions/*/*.sh"),
    ]
    found = {str(p.relative_to(ROOT)) for p in files if _HAND_WRITE.search(p.read_text(encoding="utf-8"))}
    assert found == HAND_WRITTEN_ALLOWED
    # negative control: the pattern sees the forms the workflows used
    for line in ('} >> "$GITHUB_OUTPUT"', "printf 'a<<%s' x >> $GITHUB_OUTPUT", '} >>"$GITHUB_OUTPUT"'):
        assert _HAND_WRITE.search(line), line
    assert not _HAND_WRITE.search('cat "$WORK/report.md" >> "$GITHUB_STEP_SUMMARY"')
