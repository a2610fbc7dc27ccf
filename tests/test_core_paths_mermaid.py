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
    chart = mermaid.bar_chart("Breaking findings per skill", ["s1", "s2"], [1, 0], y_label="count")
    assert chart.splitlines() == [
        "```mermaid",
        "xychart-beta",
        '  title "Breaking findings per skill"',
        '  x-axis ["s1", "s2"]',
        '  y-axis "count"',
        "  bar [1, 0]",
        "```",
    ]
    assert mermaid.bar_chart("t", [], []) == ""
    with pytest.raises(ValueError, match="bar series: 2 values for 1 labels"):
        mermaid.bar_chart("t", ["a"], [1, 2])
    with pytest.raises(ValueError, match="line series"):
        mermaid.bar_chart("t", ["a"], [1], line=[1, 2])


def test_a_chart_holds_one_bar_series_and_a_line_is_drawn_as_a_line():
    """xychart draws bar series over each other without a legend: a chart never holds two."""
    chart = mermaid.bar_chart("Delta as bars, -threshold as a line", ["a", "b"], [-3, 0], line=[-1, -1])
    assert chart.count("  bar [") == 1 and "  bar [-3, 0]" in chart and "  line [-1, -1]" in chart
    with pytest.raises(TypeError):  # the old multi-series form is gone
        mermaid.bar_chart("t", ["a"], {"breaking": [1], "mechanical": [9]})  # type: ignore[arg-type]


def test_every_x_value_appears_once_on_an_axis():
    with pytest.raises(ValueError, match="x labels repeat on one axis"):
        mermaid.bar_chart("t", ["skill", "skill"], [1, 2])
    with pytest.raises(ValueError, match="x labels repeat"):  # the same once neutralised
        mermaid.bar_chart("t", ["a<b", "a>b"], [1, 2])
    long = "x" * 60
    labels = mermaid.unique_labels(["a<b", "a>b", "a_b", long, long + "y"])
    assert labels[:3] == ["a_b", "a_b~2", "a_b~3"] and len(set(labels)) == 5
    assert all(len(x) <= 40 for x in labels) and labels[4].endswith("~2")
    chart = mermaid.bar_chart("t", labels, [1, 2, 3, 4, 5])
    assert chart.count('"a_b') == 3


def test_a_title_is_not_cut_at_the_label_length():
    title = "Mechanical findings per skill, top 20 of 31"
    assert f'title "{title}"' in mermaid.bar_chart(title, ["a"], [1])
