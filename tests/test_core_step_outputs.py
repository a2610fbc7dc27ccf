"""core.step_outputs: the one $GITHUB_OUTPUT writer, read back with the runner's heredoc rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quarkci.core.errors import BadInputError
from quarkci.core.step_outputs import format_outputs, require_output_file, write_outputs
from tests.workflows.test_hardening import parse_outputs


def test_values_with_newlines_cannot_forge_another_output(tmp_path: Path) -> None:
    target = tmp_path / "out"
    forged = "0.13\nnew=true\nspec<<EOF\nevil\nEOF"
    assert write_outputs({"version": forged, "new": "false"}, str(target)) is True
    assert parse_outputs(target.read_text()) == {"version": forged, "new": "false"}
    # negative control: the same value written as name=value lines forges two outputs
    naive = tmp_path / "naive"
    naive.write_text(f"version={forged}\nnew=false\n")
    assert parse_outputs(naive.read_text())["spec"] == "evil"


def test_a_fresh_delimiter_per_value_and_appends(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_text("earlier=1\n")
    write_outputs({"a": "1", "b": ""}, str(target))
    text = target.read_text()
    delimiters = re.findall(r"^[ab]<<(quarkci_[0-9a-f]{32})$", text, re.M)
    assert len(set(delimiters)) == 2 and text.startswith("earlier=1\n")
    assert parse_outputs(text) == {"earlier": "1", "a": "1", "b": ""}


def test_outside_actions_nothing_is_written_and_the_flag_is_named(monkeypatch) -> None:
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    assert write_outputs({"a": "1"}) is False
    with pytest.raises(BadInputError, match=r"^--github-output: \$GITHUB_OUTPUT is not set"):
        require_output_file()


@pytest.mark.parametrize("name", ["", "a b", "a\nb", "x=y", "1a"])
def test_bad_output_names_are_refused(name: str) -> None:
    with pytest.raises(BadInputError, match="step output name"):
        format_outputs({name: "v"})
