"""What a job calling a reusable workflow must grant: the union over every called job, optional ones
included (GitHub checks each called job's permissions when the run starts, before its ``if:``).

The README's table is checked against the workflow files with a checker of this file's own (not the
generator's), so a wrong union in the generator cannot agree with itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quarkci.core.errors import BadInputError
from quarkci.docs.actions_tables import needs_by_workflow, render_blocks
from quarkci.docs.interfaces import read_all
from quarkci.docs.permissions import JobNeed, caller_union, covers, job_needs, normalise, union
from tests.docs.conftest import ROOT, block, cells, load, make_tree

RANK = {"none": 0, "read": 1, "write": 2}
WORKFLOWS = ROOT / ".github" / "workflows"


def _missing(granted: dict[str, str], job: dict, document: dict) -> list[str]:
    """What ``granted`` lacks for one job (its ``permissions:``, else the workflow's), independently."""
    needed = job.get("permissions", document.get("permissions"))
    assert isinstance(needed, dict), "every job here sets a permissions mapping"
    return [f"{s}: {lvl}" for s, lvl in needed.items() if RANK[granted.get(s, "none")] < RANK[lvl]]


def _failing_jobs(name: str, granted: dict[str, str]) -> list[str]:
    document = load(WORKFLOWS / name)
    return [job for job, spec in document["jobs"].items() if _missing(granted, spec, document)]


def _readme_unions() -> dict[str, dict[str, str]]:
    text = block((ROOT / "README.md").read_text(encoding="utf-8"), "permissions-table")
    table = text.split("| reusable workflow |", 1)[1].split("\n\n", 1)[0]  # the first table only
    rows = [cells(r) for r in table.splitlines() if r.startswith("| `")]
    return {row[0].strip("`"): dict(re.findall(r"`([a-z-]+): (read|write)`", row[1])) for row in rows}


def _reusable() -> list[str]:
    return sorted(p.name for p in WORKFLOWS.glob("*.yml") if "workflow_call" in load(p)["on"])


def test_the_readme_lists_every_reusable_workflow() -> None:
    unions = _readme_unions()
    assert sorted(unions) == _reusable()
    assert "day0-release.yml" in unions


@pytest.mark.parametrize("name", _reusable())
def test_a_caller_granting_the_readme_union_satisfies_every_job(name: str) -> None:
    granted = _readme_unions()[name]
    assert _failing_jobs(name, granted) == []
    # and it is the least such grant: lowering any one scope a level fails some job
    for scope, level in granted.items():
        lower = dict(granted)
        if level == "write":
            lower[scope] = "read"
        else:
            del lower[scope]
        assert _failing_jobs(name, lower), f"{name}: {scope}: {level} is more than any job needs"


@pytest.mark.parametrize(
    ("name", "old_row", "failing"),
    [
        # the hand-written table before it was generated: each fails an optional job at start-up
        ("verify.yml", {"contents": "read", "pull-requests": "write"}, ["corrections"]),
        ("ptq.yml", {"contents": "read"}, ["queue-watchdog"]),
    ],
)
def test_negative_control_the_old_rows_fail_an_optional_job(name, old_row, failing) -> None:
    assert _failing_jobs(name, old_row) == failing


def test_the_repositorys_own_callers_grant_what_the_called_workflow_needs() -> None:
    unions = _readme_unions()
    consumer = ROOT / "tests" / "workflows" / "fixtures" / "consumer" / "quark-skills.yml"
    checked = 0
    for path in [*sorted(WORKFLOWS.glob("*.yml")), consumer]:
        document = load(path)
        for job, spec in document["jobs"].items():
            target = str(spec.get("uses", "")).split("@")[0]
            name = Path(target).name
            if not target.endswith((".yml", ".yaml")) or name not in unions:
                continue
            needed = unions[name]
            granted = spec["permissions"]
            lacking = [s for s, lvl in needed.items() if RANK[granted.get(s, "none")] < RANK[lvl]]
            assert lacking == [], f"{path.name} job {job} calls {name} without {lacking}"
            checked += 1
    assert checked >= 5  # the watch's sync, deliver and verify; the consumer's sync and deliver


# --- the generator's rules on miniature workflows ---------------------------------------------------------

MINI = """\
on: {{workflow_call: {{}}}}
permissions: {top}
jobs:
  plain:
    runs-on: x
    permissions: {{contents: read}}
  optional:
    if: false
    runs-on: x
    permissions: {{issues: write, contents: none}}
  inherits:
    runs-on: x
"""


def test_the_union_includes_optional_jobs_and_the_workflow_level_permissions(tmp_path) -> None:
    make_tree(tmp_path, workflows={"mini.yml": MINI.format(top="{pull-requests: read}")})
    _, workflows = read_all(tmp_path)
    needs = needs_by_workflow(workflows)[".github/workflows/mini.yml"]
    assert needs == [
        JobNeed("plain", {"contents": "read"}, "job"),
        JobNeed("optional", {"issues": "write"}, "job", "false"),
        JobNeed("inherits", {"pull-requests": "read"}, "workflow"),
    ]
    assert caller_union(needs) == {"contents": "read", "issues": "write", "pull-requests": "read"}
    table = render_blocks(tmp_path)["permissions-table"]
    assert (
        "| `mini.yml` | `contents: read`, `issues: write`, `pull-requests: read` | "
        "`contents: read`: `plain`; `issues: write`: `optional`; `pull-requests: read`: `inherits` |"
    ) in table
    assert "| `mini.yml` | `inherits` | none | `pull-requests: read` (the workflow's) |" in table


def test_a_job_with_no_permissions_anywhere_is_unbounded(tmp_path) -> None:
    text = MINI.format(top="").replace("permissions: \n", "")
    make_tree(tmp_path, workflows={"mini.yml": text})
    _, workflows = read_all(tmp_path)
    needs = needs_by_workflow(workflows)[".github/workflows/mini.yml"]
    assert needs[2] == JobNeed("inherits", None, "unset")
    assert caller_union(needs) is None
    table = render_blocks(tmp_path)["permissions-table"]
    assert "| `mini.yml` | not set: whatever the caller grants | `inherits`: no `permissions:` |" in table


def test_a_local_call_without_permissions_needs_the_called_union(tmp_path) -> None:
    outer = """\
on: {workflow_call: {}}
permissions: {}
jobs:
  nested:
    uses: ./.github/workflows/mini.yml
"""
    outer_no_top = outer.replace("permissions: {}\n", "")
    make_tree(
        tmp_path,
        workflows={"mini.yml": MINI.format(top="{}"), "outer.yml": outer, "outer2.yml": outer_no_top},
    )
    _, workflows = read_all(tmp_path)
    needs = needs_by_workflow(workflows)
    # with a top-level permissions: {} the nested job is capped at none (GitHub would refuse the call)
    assert needs[".github/workflows/outer.yml"] == [JobNeed("nested", {}, "workflow")]
    assert needs[".github/workflows/outer2.yml"] == [
        JobNeed("nested", {"contents": "read", "issues": "write"}, "calls .github/workflows/mini.yml")
    ]


def test_normalise_and_union() -> None:
    assert normalise("write-all", "x")["contents"] == "write"
    assert "id-token" not in normalise("read-all", "x")
    assert normalise({"contents": "none"}, "x") == {}
    assert union([{"contents": "read"}, {"contents": "write", "actions": "read"}, {}]) == {
        "actions": "read",
        "contents": "write",
    }
    assert covers({"contents": "read"}, {"contents": "write", "issues": "read"}) == [
        "contents: write",
        "issues: read",
    ]
    assert covers({"contents": "write"}, {"contents": "read"}) == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"content": "read"}, "unknown permission scope 'content'"),
        ({"contents": "admin"}, "contents: level 'admin'"),
        ({"id-token": "read"}, "id-token: level 'read'"),
        ("read", "permissions must be a mapping, read-all or write-all"),
    ],
)
def test_bad_permissions_are_one_line_naming_the_job(value, message) -> None:
    with pytest.raises(BadInputError, match=re.escape(message)) as info:
        job_needs({"jobs": {"j": {"permissions": value}}}, "w.yml")
    assert str(info.value).startswith("w.yml: jobs.j: ")
