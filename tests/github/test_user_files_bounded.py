"""Every user file a gh command reads is bounded in size, checked before any API call (issue 14)."""

from __future__ import annotations

import io
import sys

import pytest

from quarkci.cli import main
from quarkci.commands.gh import MAX_BODY_FILE_BYTES, read_body
from quarkci.core.errors import BadInputError
from quarkci.github.report_input import MAX_CHANGED_FILE_BYTES, SyncReport, read_changed_files


def test_body_file_over_the_cap_is_exit_2_naming_the_flag_before_the_token_is_read(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv(
        "GITHUB_TOKEN", ""
    )  # a token check would say something else: the flag is refused first
    big = tmp_path / "big.md"
    big.write_bytes(b"x" * (MAX_BODY_FILE_BYTES + 1))
    assert main(["gh", "comment", "--pr", "1", "--body-file", str(big), "--repo", "a/b"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1 and err[0].startswith("quarkci: error: --body-file") and "1048576-byte limit" in err[0]
    )
    fits = tmp_path / "fits.md"
    fits.write_bytes(b"x" * MAX_BODY_FILE_BYTES)  # negative control: at the cap it is read whole
    assert len(read_body(str(fits))) == MAX_BODY_FILE_BYTES


def test_body_from_stdin_is_bounded_while_reading(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"y" * 11)))
    with pytest.raises(BadInputError, match="^--body-file -: over the 10-byte limit"):
        read_body("-", limit=10)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("h\u00e9".encode())))
    assert read_body("-", limit=10) == "h\u00e9"


def test_the_help_states_the_bound(capsys):
    with pytest.raises(SystemExit):
        main(["gh", "comment", "--help"])
    assert f"at most {MAX_BODY_FILE_BYTES} bytes" in " ".join(capsys.readouterr().out.split())


def _report(*names: str) -> SyncReport:
    return SyncReport(
        path="r.json",
        version="0.13",
        baseline=None,
        mode="audit",
        summary="",
        findings=(),
        changed_files=names,
    )


def test_changed_files_are_bounded_regular_files_inside_the_checkout(tmp_path):
    (tmp_path / "ok.md").write_text("fine\n")
    assert read_changed_files(_report("ok.md"), tmp_path) == {"ok.md": b"fine\n"}
    (tmp_path / "zero.md").symlink_to("/dev/zero")
    (tmp_path / "out.md").symlink_to(tmp_path.parent)
    (tmp_path / "big.md").write_bytes(b"z" * (MAX_CHANGED_FILE_BYTES + 1))
    for name, reason in (
        ("zero.md", "resolves outside"),
        ("out.md", "resolves outside"),
        ("big.md", "byte limit"),
        ("none.md", "not a regular file"),
    ):
        with pytest.raises(BadInputError, match=reason):
            read_changed_files(_report(name), tmp_path)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("skills/a\x00b.md", "contains a NUL byte"),  # was ValueError from the OS layer: exit 4
        ("skills/" + "a" * 300 + ".md", "a path component of 303 bytes"),
        (".", "not a relative path to a file"),
        ("skills//x.md", "not a relative path to a file"),
        ("../x.md", "not a relative path to a file"),
        ("/etc/passwd", "not a relative path to a file"),
    ],
    ids=["nul", "long-component", "dot", "empty-component", "dotdot", "absolute"],
)
def test_changed_file_names_get_the_one_name_check_before_any_file_is_touched(tmp_path, name, reason):
    with pytest.raises(BadInputError, match=reason):
        read_changed_files(_report(name), tmp_path)


# --- a workflow file read from the repository (gh dispatch): bounded, and read as GitHub reads it -----------


def test_a_dispatch_target_workflow_is_parsed_bounded_and_with_github_booleans():
    import pytest

    from quarkci.core.errors import BadInputError
    from quarkci.github.dispatch import declared_inputs

    text = (
        "on:\n  workflow_dispatch:\n    inputs:\n      yes:\n        type: string\n      off:\n"
        "        type: boolean\n        default: false\n"
    )
    declared = declared_inputs(text, "w.yml")
    # `on`, `yes`, `off` are strings for GitHub (YAML 1.2 booleans are only true/false); `false` stays a boolean
    assert sorted(declared) == ["off", "yes"] and declared["off"]["default"] is False
    # an alias bomb from a fork's workflow file is refused before any alias is expanded
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 8)]
    bomb = "on:\n  workflow_dispatch:\n" + "\n".join(levels) + "\n"
    with pytest.raises(
        BadInputError, match=r"--workflow w.yml: YAML refused \(checked before expanding aliases\)"
    ):
        declared_inputs(bomb, "w.yml")
