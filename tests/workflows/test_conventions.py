"""The Actions suite's conventions, checked on the parsed YAML (what the linters do not enforce).

Top-level ``permissions: {}``, explicit per-job grants, a timeout on every job, third-party actions
pinned to full SHAs with a version comment, ``persist-credentials: false``, no ``${{ }}`` inside any
``run:`` script, no ``pull_request_target``, the concurrency policy, and the runner label table.
"""

from __future__ import annotations

import re

import pytest
import yaml

from tests.workflows.conftest import ACTIONS, ROOT, WORKFLOWS, steps_of
from tests.workflows.conventions import PINNED, uses_lines, violations

EXPECTED_WORKFLOWS = {
    "ci.yml",
    "skill-sync.yml",
    "skill-sync-deliver.yml",
    "upstream-watch.yml",
    "pr-skill-check.yml",
    "publish-report.yml",
    "ptq.yml",
    "publish-ptq.yml",
    "verify.yml",
    "day0-release.yml",
}
EXPECTED_ACTIONS = {"setup-quarkci", "skill-sync", "publish-report", "gpu-preflight"}


def test_the_suite_is_complete(workflows, actions) -> None:
    # other workflows (day-0 release, verification) join the suite; these must all be there
    assert set(workflows) >= EXPECTED_WORKFLOWS
    assert set(actions) >= EXPECTED_ACTIONS


@pytest.mark.parametrize("path", WORKFLOWS + ACTIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_conventions_hold(path) -> None:
    assert violations(path.read_text(encoding="utf-8")) == []


def test_conventions_negative_control() -> None:
    bad = """
name: bad
on:
  pull_request_target:
permissions:
  contents: write
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - name: co
        uses: actions/checkout@v4
      - name: co2
        uses: actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955
        with: {persist-credentials: false}
      - name: title
        run: echo "${{ github.event.pull_request.title }}"
  ok:
    runs-on: ubuntu-latest
    timeout-minutes: 5
    permissions: {}
    steps:
      - run: "true"
"""
    assert violations(bad) == [
        "top-level permissions are not {}",
        "pull_request_target trigger",
        "job build: no explicit permissions",
        "job build: no timeout-minutes (1..360)",
        "actions/checkout@v4: not pinned to a full commit SHA",
        "actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955: no '# vX' comment",
        "step co: checkout persists credentials",
        "step title: expression inside run",
    ]


def test_one_sha_per_third_party_action_across_the_suite() -> None:
    shas: dict[str, set[str]] = {}
    for path in WORKFLOWS + ACTIONS:
        for uses, _ in uses_lines(path.read_text(encoding="utf-8")):
            if match := PINNED.match(uses):
                shas.setdefault(match["action"], set()).add(match["sha"])
    assert shas and all(len(v) == 1 for v in shas.values()), shas


def test_publish_report_never_checks_out_or_runs_pr_code(workflows) -> None:
    workflow = workflows["publish-report.yml"]
    assert set(workflow["on"]) == {"workflow_run"}
    assert workflow["on"]["workflow_run"]["workflows"] == [workflows["pr-skill-check.yml"]["name"]]
    steps = steps_of(workflow)
    assert not [s for s in steps if "checkout" in str(s.get("uses", ""))]
    # quarkci comes from this repository's running commit, never from the artifact
    assert all(
        str(s.get("uses", "")).startswith(("$/", "actions/download-artifact@")) for s in steps if "uses" in s
    )
    job = workflow["jobs"]["comment"]
    assert job["permissions"] == {"contents": "read", "actions": "read", "pull-requests": "write"}
    assert "github.event.workflow_run.event == 'pull_request'" in job["if"]


def test_pr_check_is_read_only_and_cancels_superseded_runs(workflows) -> None:
    workflow = workflows["pr-skill-check.yml"]
    assert set(workflow["on"]) == {"pull_request"}
    assert workflow["concurrency"]["cancel-in-progress"] is True
    assert "pull_request.number" in workflow["concurrency"]["group"]
    # security-events: SARIF upload for same-repository PRs (a fork PR's token is read-only regardless)
    assert workflow["jobs"]["audit"]["permissions"] == {"contents": "read", "security-events": "write"}


def test_upstream_watch_runs_daily_one_at_a_time_and_delivers(workflows) -> None:
    workflow = workflows["upstream-watch.yml"]
    assert set(workflow["on"]) == {"schedule", "workflow_dispatch"}
    (cron,) = [entry["cron"] for entry in workflow["on"]["schedule"]]
    minute, hour, *rest = cron.split()
    assert rest == ["*", "*", "*"] and minute.isdigit() and hour.isdigit()  # once a day
    assert workflow["concurrency"]["cancel-in-progress"] is False
    sync, deliver = workflow["jobs"]["sync"], workflow["jobs"]["deliver"]
    assert sync["uses"] == "$/.github/workflows/skill-sync.yml"
    assert sync["permissions"] == {"contents": "read"}
    assert sync["with"]["fix"] == (
        "${{ vars.QUARKCI_SKILLS != '' && !startsWith(vars.QUARKCI_SKILLS, 'bundled:') }}"
    )
    assert deliver["uses"] == "$/.github/workflows/skill-sync-deliver.yml"
    assert deliver["with"]["open-issues"] is True and deliver["with"]["open-pr"] == sync["with"]["fix"]
    assert deliver["permissions"] == {"contents": "write", "pull-requests": "write", "issues": "write"}


def test_skill_sync_is_reusable_with_typed_inputs_and_outputs(workflows) -> None:
    on = workflows["skill-sync.yml"]["on"]
    call, dispatch = on["workflow_call"], on["workflow_dispatch"]
    for name in ("upstream", "skills", "fail-on", "fix"):
        assert call["inputs"][name]["type"] in ("string", "boolean"), name
        assert name in dispatch["inputs"], name
    assert call["inputs"]["fix"]["type"] == "boolean"
    assert dispatch["inputs"]["fail-on"]["options"] == ["none", "mechanical", "semantic", "breaking"]
    assert {"status", "breaking", "semantic", "mechanical", "unverifiable", "exit-code"} <= set(
        call["outputs"]
    )
    assert set(workflows["skill-sync.yml"]["jobs"]) == {"audit"}
    deliver = workflows["skill-sync-deliver.yml"]["jobs"]["deliver"]
    assert deliver["concurrency"]["cancel-in-progress"] is False
    # a blocked (3) or failed (2, 4) audit is never delivered: it would close every drift issue
    assert 'fromJSON(\'["0", "1"]\'), inputs.audit-exit-code' in deliver["if"]


def test_ptq_runner_table_matches_the_choice_and_the_actionlint_labels(workflows, actions) -> None:
    workflow = workflows["ptq.yml"]
    from quarkci.github.preflight import RUNNER_KINDS

    choice = workflow["on"]["workflow_dispatch"]["inputs"]["runner"]["options"]
    table = {kind: list(labels) for kind, labels in RUNNER_KINDS.items()}  # the one table
    assert list(table) == choice
    declared = set(
        yaml.safe_load((ROOT / ".github/actionlint.yaml").read_text())["self-hosted-runner"]["labels"]
    )
    assert declared == {"rocm", "mi300x", "mi355x", "cuda", "h100", "h200"}
    for runner, labels in table.items():
        if runner == "cpu":
            assert labels == ["ubuntu-latest"]
        else:
            assert labels[0] == "self-hosted" and set(labels[1:]) <= declared and runner in labels
    check = workflow["jobs"]["check"]
    assert any(step.get("uses") == "$/actions/gpu-preflight" for step in check["steps"])
    ptq = workflow["jobs"]["ptq"]
    assert ptq["runs-on"] == "${{ fromJSON(needs.check.outputs.labels) }}"
    assert ptq["concurrency"] == {
        "group": "quarkci-ptq-${{ needs.check.outputs.kind }}",
        "cancel-in-progress": False,
        "queue": "max",
    }
    assert {"model", "scheme", "algo", "runner", "confirm", "amd-quark", "correlation-id"} <= set(
        workflow["on"]["workflow_call"]["inputs"]
    )
    run_step = next(s for s in ptq["steps"] if "ptq run" in s.get("run", ""))
    assert run_step["if"] == "inputs.confirm" and "--yes" in run_step["run"]


# --- one delivery at a time per repository (issue 23): every job that writes the drift PR or the finding
# issues runs in a concurrency group named by the repository alone, never cancelled -------------------

REPOSITORY_DELIVERY = re.compile(r"^[^#\n]*\bquarkci gh (?:issues|pr)\b", re.M)  # not in a comment


def delivery_group_problems(workflows: dict[str, dict]) -> list[str]:
    """``file:job: why`` for each job that runs ``quarkci gh issues``/``gh pr`` without a concurrency
    group (job-level, else workflow-level) whose only expression is ``github.repository`` and with
    ``cancel-in-progress: false`` (a cancelled delivery stops between two writes)."""
    problems = []
    for name, workflow in workflows.items():
        for job_id, job in (workflow.get("jobs") or {}).items():
            script = "\n".join(str(step.get("run", "")) for step in job.get("steps", []))
            if not REPOSITORY_DELIVERY.search(script):
                continue
            group = job.get("concurrency") or workflow.get("concurrency")
            where = f"{name}:{job_id}"
            if not isinstance(group, dict) or not isinstance(group.get("group"), str):
                problems.append(f"{where}: no concurrency group")
                continue
            expressions = {e.strip() for e in re.findall(r"\$\{\{(.*?)\}\}", group["group"])}
            if expressions != {"github.repository"}:
                problems.append(f"{where}: group {group['group']!r} is not per repository")
            if group.get("cancel-in-progress") is not False:
                problems.append(f"{where}: cancel-in-progress is not false")
    return problems


def test_every_repository_delivery_runs_in_one_group_per_repository(workflows) -> None:
    delivering = {
        f"{n}:{j}"
        for n, w in workflows.items()
        for j, job in (w.get("jobs") or {}).items()
        if REPOSITORY_DELIVERY.search("\n".join(str(s.get("run", "")) for s in job.get("steps", [])))
    }
    assert delivering == {"skill-sync-deliver.yml:deliver", "verify.yml:corrections"}
    assert delivery_group_problems(workflows) == []
    assert workflows["skill-sync-deliver.yml"]["jobs"]["deliver"]["concurrency"]["group"] == (
        "quarkci-deliver-${{ github.repository }}"
    )


@pytest.mark.parametrize(
    ("concurrency", "why"),
    [
        (None, "no concurrency group"),
        ({"group": "quarkci-deliver-${{ github.ref }}", "cancel-in-progress": False}, "not per repository"),
        (
            {
                "group": "quarkci-deliver-${{ github.repository }}-${{ github.run_id }}",
                "cancel-in-progress": False,
            },
            "not per repository",
        ),
        (
            {"group": "quarkci-deliver-${{ github.repository }}", "cancel-in-progress": True},
            "cancel-in-progress",
        ),
    ],
)
def test_negative_control_a_delivery_outside_a_repository_group_is_named(workflows, concurrency, why) -> None:
    import copy

    mutated = copy.deepcopy(workflows["skill-sync-deliver.yml"])
    if concurrency is None:
        del mutated["jobs"]["deliver"]["concurrency"]
    else:
        mutated["jobs"]["deliver"]["concurrency"] = concurrency
    (problem,) = delivery_group_problems({"skill-sync-deliver.yml": mutated})
    assert problem.startswith("skill-sync-deliver.yml:deliver: ") and why in problem


# Steps that still compute in inline Python (issue 26 item 5: to become quarkci commands writing their own
# step outputs); this list only shrinks.
INLINE_PYTHON_LEFT = {
    ("verify.yml", "Prove one correctness feature"),
}
INLINE_PYTHON = re.compile(r"\bpython3?\s+(-c\b|-\s)|<<\s*'?PY'?")


def test_no_inline_python_in_the_workflows_beyond_the_listed_steps(workflows, actions) -> None:
    found = set()
    for name, document in [*workflows.items(), *((f"actions/{a}", d) for a, d in actions.items())]:
        for step in steps_of(document):
            if step.get("shell") == "python" or INLINE_PYTHON.search(str(step.get("run") or "")):
                found.add((name, step.get("name")))
    assert found == INLINE_PYTHON_LEFT
    # negative control: the pattern sees each form
    for script in ("python3 - x <<'PY'", "python -c 'print(1)'", "x=$(python3 -c 'import json')"):
        assert INLINE_PYTHON.search(script), script
    assert not INLINE_PYTHON.search("python -m pip install -r req.txt")
