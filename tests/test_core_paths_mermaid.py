"""The shared output-path probe and the Mermaid chart builder."""

from __future__ import annotations

import os

import pytest

from quarkci.core import mermaid
from quarkci.core.errors import BadInputError
from quarkci.core.paths import (
    check_disjoint,
    check_inside,
    check_output_dir,
    check_output_file,
    repository_root,
)


def test_output_dir_probe_leaves_nothing(tmp_path):
    target = tmp_path / "a" / "b"
    assert check_output_dir(target, "--out") == target
    assert list(tmp_path.iterdir()) == []  # the probe neither creates parents nor leaves a file


def test_output_dir_that_is_a_file_names_the_flag(tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    with pytest.raises(BadInputError, match=r"^--out .*not a directory"):
        check_output_dir(f, "--out")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_unwritable_location_is_refused_even_for_root():
    with pytest.raises(BadInputError, match=r"^--output /proc/x/report.md: cannot write in /proc"):
        check_output_file("/proc/x/report.md", "--output")


def test_output_file_that_is_a_directory(tmp_path):
    with pytest.raises(BadInputError, match="is a directory"):
        check_output_file(tmp_path, "--output")


def test_check_inside(tmp_path):
    (tmp_path / "out").mkdir()
    assert check_inside(tmp_path / "out" / "x.json", tmp_path / "out", "output") == (
        tmp_path / "out" / "x.json"
    )
    with pytest.raises(BadInputError, match="outside"):
        check_inside(tmp_path / "out" / ".." / "config.json", tmp_path / "out", "output")


def test_check_disjoint(tmp_path):
    src = tmp_path / "skills"
    (src / "a").mkdir(parents=True)
    (tmp_path / "link").symlink_to(src)
    assert (
        check_disjoint(tmp_path / "copy", "--out", src, "--skills") == tmp_path / "copy"
    )  # a sibling is fine
    for out, relation in (
        (src, "is the"),
        (tmp_path / "link", "is the"),
        (src / "a" / "new", "is inside the"),
        (src / ".." / "skills" / "x", "is inside the"),
        (tmp_path, "contains the"),
    ):
        with pytest.raises(BadInputError, match=f"^--out {out}: {relation} --skills directory"):
            check_disjoint(out, "--out", src, "--skills")


def test_skills_export_into_its_own_source_is_refused_and_a_sibling_works(tmp_path, capsys):
    from quarkci import cli

    (tmp_path / "skills" / "good").mkdir(parents=True)
    (tmp_path / "skills" / "good" / "SKILL.md").write_text("---\nname: good\n---\nbody\n")
    before = sorted(p.name for p in (tmp_path / "skills").rglob("*"))
    assert (
        cli.main(
            [
                "skills",
                "export",
                "--skills",
                str(tmp_path / "skills"),
                "--out",
                str(tmp_path / "skills" / "copy"),
            ]
        )
        == 2
    )
    assert "--out" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "skills").rglob("*")) == before
    assert (
        cli.main(["skills", "export", "--skills", str(tmp_path / "skills"), "--out", str(tmp_path / "copy")])
        == 0
    )
    assert (tmp_path / "copy" / "good" / "SKILL.md").read_text() == "---\nname: good\n---\nbody\n"


def test_repository_root_is_the_nearest_folder_with_a_git_entry(tmp_path):
    (tmp_path / "repo" / "a" / "b").mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    (tmp_path / "repo" / "sub").mkdir()
    (tmp_path / "repo" / "sub" / ".git").write_text(
        "gitdir: ../.git/worktrees/sub\n"
    )  # a worktree's .git file
    assert repository_root(tmp_path / "repo" / "a" / "b") == tmp_path / "repo"
    assert repository_root(tmp_path / "repo" / "sub") == tmp_path / "repo" / "sub"
    assert repository_root(tmp_path) is None


def test_mermaid_labels_are_neutralised():
    assert mermaid.label('a"]; click x call evil()\n<b>') == "a___ click x call evil__ _b_"
    assert len(mermaid.label("x" * 100)) == 40


def test_bar_chart_shape_and_mismatch():
    chart = mermaid.bar_chart("Findings", ["s1", "s2"], {"breaking": [1, 0]}, y_label="count")
    assert chart.splitlines() == [
        "```mermaid",
        "xychart-beta",
        '  title "Findings"',
        '  x-axis ["s1", "s2"]',
        '  y-axis "count"',
        "  bar [1, 0]",
        "```",
    ]
    assert mermaid.bar_chart("t", [], {}) == ""
    with pytest.raises(ValueError):
        mermaid.bar_chart("t", ["a"], {"s": [1, 2]})
    assert "  line [" in mermaid.line_chart("t", ["0.12", "0.13"], {"b": [0, 2]})
