"""Issue 12, Actions cases 12-19 and the dispatchable inputs: checked on the parsed YAML, and the shell
steps that decide things executed with bash (the act end-to-end runs are in test_e2e_act.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from quarkci.github.dispatch import CORRELATION_INPUT, check_inputs, declared_inputs
from tests.workflows.conftest import ACTIONS, ROOT, WORKFLOWS, load, steps_of

REQUIREMENTS = ROOT / "requirements"


def _step(document: dict, name: str) -> dict:
    return next(s for s in steps_of(document) if s.get("name") == name)


def parse_outputs(text: str) -> dict[str, str]:
    """GITHUB_OUTPUT as the runner reads it: ``key=value`` lines and ``key<<DELIM`` heredocs."""
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, i + 1)
            out[key] = "\n".join(lines[i + 1 : end])
            i = end + 1
            continue
        if "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
        i += 1
    return out


def run_step(
    script: str, env: dict[str, str], tmp: Path, stubs: dict[str, str] | None = None
) -> tuple[int, str, dict[str, str]]:
    """Run a ``run:`` script with bash (``-e``, as Actions does), stub commands on PATH; returns
    (exit code, stdout+stderr, the parsed GITHUB_OUTPUT)."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    # a stubbed quarkci still writes step outputs through the real `quarkci step-output` (the one writer)
    real = f'if [ "$1" = step-output ]; then exec {sys.executable} -m quarkci "$@"; fi\n'
    for name, body in {"quarkci": "", **(stubs or {})}.items():
        if name == "quarkci" and not body:
            body = f'exec {sys.executable} -m quarkci "$@"\n'  # no stub: the real command
        (bin_dir / name).write_text("#!/usr/bin/env bash\n" + (real if name == "quarkci" else "") + body)
        (bin_dir / name).chmod(0o755)
    output = tmp / "github_output"
    output.write_text("")
    full = {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary"),
        "HOME": str(tmp),
        **env,
    }
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script], env=full, capture_output=True, text=True, timeout=60
    )
    return done.returncode, done.stdout + done.stderr, parse_outputs(output.read_text())


def _permissions(workflow: dict) -> dict[str, str]:
    """The union of the job permissions a workflow declares (what a caller must grant)."""
    union: dict[str, str] = {}
    for job in workflow["jobs"].values():
        for scope, level in (job.get("permissions") or {}).items():
            if union.get(scope) != "write":
                union[scope] = level
    return union


# --- case 12: read-only callers grant read only ---------------------------------------------------------


def test_case12_audit_only_and_prless_callers_grant_read_only(workflows) -> None:
    assert _permissions(workflows["skill-sync.yml"]) == {"contents": "read"}
    assert _permissions(workflows["ptq.yml"]) == {"contents": "read", "actions": "read"}
    # negative control: the writes live in the delivery workflow, called on its own
    assert _permissions(workflows["skill-sync-deliver.yml"]) == {
        "contents": "write",
        "pull-requests": "write",
        "issues": "write",
    }
    assert "comment" not in workflows["ptq.yml"]["jobs"]
    publish = workflows["publish-ptq.yml"]
    assert set(publish["on"]) == {"workflow_run"} and publish["on"]["workflow_run"]["workflows"] == ["PTQ"]
    assert _permissions(publish) == {"contents": "read", "actions": "read", "pull-requests": "write"}
    assert not [s for s in steps_of(publish) if "checkout" in str(s.get("uses", ""))]


# --- case 13: a delivery token input; the App's identity --------------------------------------------


def test_case13_delivery_accepts_an_app_or_fine_grained_token(workflows, actions) -> None:
    call = workflows["skill-sync-deliver.yml"]["on"]["workflow_call"]
    assert call["secrets"]["token"]["required"] is False and "app-slug" in call["inputs"]
    for step in steps_of(workflows["skill-sync-deliver.yml"]):
        if "quarkci gh" in step.get("run", ""):
            assert step["env"]["GITHUB_TOKEN"] == "${{ secrets.token || github.token }}"
            assert step["env"]["QUARKCI_GH_APP_SLUG"] == "${{ inputs.app-slug }}"
    watch = workflows["upstream-watch.yml"]["jobs"]["deliver"]
    assert watch["secrets"] == {"token": "${{ secrets.QUARKCI_DELIVERY_TOKEN }}"}
    assert "app-slug" in actions["publish-report"]["inputs"]


# --- case 14: GPU workflows refuse pull_request events; the venv is verified by a lock hash ---------


QUARKCI = f'exec {sys.executable} -m quarkci "$@"\n'
GPU_WORKFLOWS = ("ptq.yml", "day0-release.yml", "verify.yml")


def preflight(env: dict[str, str], tmp: Path) -> tuple[int, str, dict[str, str]]:
    """Run actions/gpu-preflight's step with the real quarkci (``quarkci preflight``)."""
    script = load(ROOT / "actions" / "gpu-preflight" / "action.yml")["runs"]["steps"][0]["run"]
    inputs = {"EVENT": "workflow_dispatch", "RUNNER": "cpu", "SCHEME": "", "PR": "", "CORRELATION_ID": ""}
    inputs |= {"QUARK_VERSION": "", "QUARK_SHA256": "", **env}
    inputs |= {"GITHUB_ACTION_PATH": str(ROOT / "actions" / "gpu-preflight"), "PYTHONPATH": str(ROOT)}
    return run_step(script, inputs, tmp, {"quarkci": QUARKCI})


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ("pull_request", 2),
        ("pull_request_target", 2),
        ("pull_request_review", 2),
        ("workflow_dispatch", 0),
        ("schedule", 0),
        ("push", 0),
    ],
)
@pytest.mark.parametrize("runner", ["cpu", "mi300x", '["self-hosted", "gpu-pool-a"]'])
def test_case14_the_gpu_preflight_refuses_pull_request_events(tmp_path, event, code, runner) -> None:
    got, out, outputs = preflight({"EVENT": event, "RUNNER": runner}, tmp_path)
    assert got == code, out
    assert (f"the GPU workflows never run for {event} events" in out) == (code == 2)
    assert (outputs == {}) == (code == 2)  # a refusal writes no output: runs-on has no labels


@pytest.mark.parametrize("name", GPU_WORKFLOWS)
def test_case14_every_gpu_workflow_runs_its_jobs_after_the_one_preflight(workflows, name) -> None:
    workflow = workflows[name]
    assert set(workflow["on"]) == {"workflow_dispatch", "workflow_call"}
    check = workflow["jobs"]["check"]
    (step,) = [s for s in check["steps"] if s.get("uses") == "$/actions/gpu-preflight"]
    assert step["with"]["runner"] == "${{ inputs.runner }}"
    assert check["runs-on"] == "ubuntu-latest"  # the check itself never runs on a self-hosted runner
    # no copy of the check: no event test, label table or slug hash of its own
    text = (ROOT / ".github" / "workflows" / name).read_text()
    for copy in ("pull_request_review", "sha256sum", "labels='", "runner-labels"):
        assert copy not in text, (name, copy)
    for job_name, job in workflow["jobs"].items():
        if job_name == "check":
            continue
        needs = job.get("needs") or []
        needs = [needs] if isinstance(needs, str) else needs
        assert "check" in needs or any("check" in (workflow["jobs"][n].get("needs") or []) for n in needs), (
            job_name
        )  # every job waits for the preflight, directly or through a job that does
        if str(job.get("runs-on", "")).startswith("${{ fromJSON("):
            assert job["runs-on"] == "${{ fromJSON(needs.check.outputs.labels) }}"


def test_case14_setup_verifies_the_venv_by_a_lock_hash_of_everything_installed() -> None:
    script = (ROOT / "actions" / "setup-quarkci" / "install.sh").read_text()
    assert "pip freeze --all" in script and ".quarkci-lock-hash" in script
    reuse = script[script.index("reuse=false") : script.index('if [ "$reuse" = false ]')]
    assert '"$(lock_hash)" = "$(cat "$venv/.quarkci-lock-hash"' in reuse and "rebuilding" in reuse


# --- case 15: hashed lock files; torch per runner kind; the PyTorch index scoped to torch -----------


@pytest.mark.parametrize("lock", ["workflow.lock", "ml.lock", "torch-cuda.lock"])
def test_case15_every_locked_requirement_is_pinned_with_hashes(lock) -> None:
    text = (REQUIREMENTS / lock).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.strip())
    requirements = [e for e in entries if not e.startswith("#")]
    assert len(requirements) >= 10
    for entry in requirements:
        assert re.match(r"^[A-Za-z0-9._-]+==[^\s\\]+", entry), entry.splitlines()[0]
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", entry), entry.splitlines()[0]
    names = {e.split("==")[0].lower() for e in requirements}
    if lock != "torch-cuda.lock":
        assert "torch" not in names and not any(n.startswith("nvidia-") for n in names)
    else:
        assert "torch" in names


def test_case15_lock_inputs_match_pyproject_and_installs_require_hashes() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {d.replace(" ", "") for d in project["dependencies"]}
    listed = {
        line.strip()
        for line in (REQUIREMENTS / "workflow.in").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert wanted <= listed
    ml = {re.split(r"[=<>]", d)[0] for d in project["optional-dependencies"]["ml"]} - {"torch"}
    assert ml <= {re.split(r"[=<>]", line)[0] for line in (REQUIREMENTS / "ml.in").read_text().splitlines()}
    script = (ROOT / "actions" / "setup-quarkci" / "install.sh").read_text()
    for lock in ("workflow.lock", "ml.lock", "torch-cuda.lock"):
        assert re.search(rf'--require-hashes --no-deps -r "\$locks/{re.escape(lock)}"', script), lock
    assert '--no-deps --no-build-isolation "$src"' in script  # quarkci itself pulls nothing unhashed


def test_case15_ci_scopes_the_pytorch_index_to_torch(workflows) -> None:
    ci = workflows["ci.yml"]
    text = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert "PIP_EXTRA_INDEX_URL" not in text and "extra-index-url" not in text
    job = ci["jobs"]["test"]
    assert "env" not in job
    (torch,) = [s for s in job["steps"] if "download.pytorch.org" in s.get("run", "")]
    assert re.fullmatch(
        r'python -m pip install --index-url https://download\.pytorch\.org/whl/cpu "torch==2\.13\.0"',
        torch["run"].strip(),
    )


# --- case 16: queueing, runner labels as input, a queueing timeout -----------------------------------


@pytest.mark.parametrize(
    ("runner", "labels", "gpu"),
    [
        ("cpu", ["ubuntu-latest"], "false"),
        ("mi300x", ["self-hosted", "rocm", "mi300x"], "true"),
        ("h200", ["self-hosted", "cuda", "h200"], "true"),
        ('["self-hosted", "gpu-pool-a"]', ["self-hosted", "gpu-pool-a"], "true"),
        ("self-hosted,gpu-pool-a", ["self-hosted", "gpu-pool-a"], "true"),
        ('["ubuntu-24.04-arm"]', ["ubuntu-24.04-arm"], "false"),
    ],
)
def test_case16_the_preflight_maps_kinds_and_accepts_labels(tmp_path, runner, labels, gpu) -> None:
    code, out, outputs = preflight({"RUNNER": runner}, tmp_path)
    assert code == 0 and json.loads(outputs["labels"]) == labels and outputs["gpu"] == gpu, out


@pytest.mark.parametrize(
    "runner", ["gpu", "mi300", '["a b"]', '["x"]\n::set-output name=gpu::false', "[]", "a,,b", '["x", 1]']
)
def test_case16_the_preflight_refuses_anything_else(tmp_path, runner) -> None:
    code, out, outputs = preflight({"RUNNER": runner}, tmp_path)
    assert code == 2 and "quarkci: error: --runner" in out and outputs == {}, out


def test_case16_gpu_runs_queue_and_time_out_in_the_queue(workflows) -> None:
    workflow = workflows["ptq.yml"]
    assert workflow["jobs"]["ptq"]["concurrency"]["queue"] == "max"
    assert workflow["jobs"]["ptq"]["concurrency"]["cancel-in-progress"] is False
    watchdog = workflow["jobs"]["queue-watchdog"]
    assert watchdog["needs"] == "check" and "needs.check.outputs.gpu == 'true'" in watchdog["if"]
    assert watchdog["permissions"] == {"actions": "read"}
    script = watchdog["steps"][0]["run"]
    assert "QUEUE_TIMEOUT * 60" in script and "picked up the PTQ job within" in script and "exit 1" in script


def test_case16_queue_watchdog_fails_clearly_when_no_runner_starts_the_job(workflows, tmp_path) -> None:
    script = workflows["ptq.yml"]["jobs"]["queue-watchdog"]["steps"][0]["run"]
    env = {
        "REPO": "o/r",
        "RUN_ID": "1",
        "ATTEMPT": "1",
        "LABELS": '["self-hosted","rocm","mi300x"]',
        "QUEUE_TIMEOUT": "0",
    }
    code, out, _ = run_step(script, env, tmp_path, {"gh": "echo queued\n", "sleep": "true\n"})
    assert code == 1 and 'no runner with labels ["self-hosted","rocm","mi300x"] picked up the PTQ job' in out
    env["QUEUE_TIMEOUT"] = "1"
    code, out, _ = run_step(script, env, tmp_path, {"gh": "echo in_progress\n", "sleep": "true\n"})
    assert code == 0 and "the PTQ job started" in out


# --- case 17: validated dispatch input; heredoc outputs with a random delimiter ---------------------


def _detect(workflows) -> str:
    return _step(workflows["upstream-watch.yml"], "Find the release and whether it was handled")["run"]


WHEEL_SHA256 = "ab" * 32
QUARKCI_STUB = """\
case "$1 $2" in
  "upstream latest") echo 0.14 ;;
  "upstream wheel-sha256") echo WHEEL_SHA256 ;;
  "gh release-mark") echo '{"items": [{"note": "not handled"}]}' ;;
esac
""".replace("WHEEL_SHA256", WHEEL_SHA256)


@pytest.mark.parametrize(
    "value", ["0.13\nnew=true", "0.13\nspec=evil", "amd-quark==0.13", "../x", "0.13 && id"]
)
def test_case17_a_bad_upstream_input_is_refused_before_any_output(workflows, tmp_path, value) -> None:
    code, out, outputs = run_step(
        _detect(workflows),
        {"INPUT_UPSTREAM": value, "FORCE": "false", "VAR_UPSTREAM": ""},
        tmp_path,
        {"quarkci": QUARKCI_STUB},
    )
    assert code == 2 and "the quark-version input must be a version" in out and outputs == {}


def test_case17_outputs_are_written_as_heredocs_with_a_random_delimiter(workflows, tmp_path) -> None:
    env = {"INPUT_UPSTREAM": "", "FORCE": "false", "VAR_UPSTREAM": ""}
    code, out, outputs = run_step(_detect(workflows), env, tmp_path, {"quarkci": QUARKCI_STUB})
    assert code == 0, out
    assert outputs == {"new": "true", "version": "0.14", "spec": "amd-quark==0.14", "sha256": WHEEL_SHA256}
    raw = (tmp_path / "github_output").read_text()
    first = re.findall(r"^new<<(quarkci_[0-9a-f]{32})$", raw, re.M)
    run_step(_detect(workflows), env, tmp_path, {"quarkci": QUARKCI_STUB})
    second = re.findall(r"^new<<(quarkci_[0-9a-f]{32})$", (tmp_path / "github_output").read_text(), re.M)
    assert first and second and first != second  # a fresh delimiter per run
    stub = QUARKCI_STUB.replace("not handled", "handled")
    code, _, outputs = run_step(_detect(workflows), env, tmp_path, {"quarkci": stub})
    assert code == 0 and outputs["new"] == "false"  # case 11: a recorded release is not audited again


@pytest.mark.parametrize("path", WORKFLOWS + ACTIONS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case17_every_output_write_uses_the_heredoc_form(path) -> None:
    document = yaml.safe_load(path.read_text())
    for step in steps_of(document):
        script = step.get("run", "")
        if "GITHUB_OUTPUT" not in script:
            continue
        assert not re.search(r'echo "[\w-]+=.*>>\s*"\$GITHUB_OUTPUT"', script), step.get("name")
        assert re.search(r"/dev/urandom|secrets\.token_hex", script), step.get("name")
        assert "<<" in script, step.get("name")


# --- case 18: SARIF to code scanning in the PR check ----------------------------------------------


def test_case18_pr_check_uploads_sarif_when_the_caller_grants_security_events(workflows, actions) -> None:
    action = actions["skill-sync"]
    assert action["inputs"]["upload-sarif"]["default"] == "false"
    upload = _step(action, "Upload the SARIF report to code scanning")
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert "inputs.upload-sarif == 'true'" in upload["if"]
    assert upload["with"]["sarif_file"].endswith("/validation_report.sarif")
    audit = workflows["pr-skill-check.yml"]["jobs"]["audit"]
    assert audit["permissions"]["security-events"] == "write"
    sync = next(s for s in audit["steps"] if s.get("uses") == "$/actions/skill-sync")
    assert (
        "github.event.pull_request.head.repo.full_name == github.repository" in sync["with"]["upload-sarif"]
    )
    assert "upload-sarif" not in str(workflows["skill-sync.yml"])  # the reusable audit stays read-only


# --- case 19 and the docs ------------------------------------------------------------------------------


def test_case19_dependabot_covers_actions_and_pip() -> None:
    config = yaml.safe_load((ROOT / ".github" / "dependabot.yml").read_text())
    ecosystems = {u["package-ecosystem"]: u for u in config["updates"]}
    assert set(ecosystems) == {"github-actions", "pip"}
    assert "/actions/*" in ecosystems["github-actions"]["directories"]


def test_case19_readme_documents_runner_version_placeholders_and_tokens() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## GitHub delivery") :]
    for needle in (
        "2.336.0",
        "OWNER",
        "no release tag",
        "Allow GitHub Actions to create and approve pull requests",
        "create-github-app-token",
        "fine-grained",
        "runner group",
        "ephemeral",
        "fork",
        "--require-hashes",
        "scripts/lock_deps.sh",
        "queue-timeout-minutes",
    ):
        assert needle in section, needle


# --- dispatchable inputs: the watch can dispatch ptq.yml with what ptq.yml declares ------------------


def test_ptq_declares_the_inputs_the_watch_offers_and_shows_the_correlation_id(workflows) -> None:
    text = (ROOT / ".github" / "workflows" / "ptq.yml").read_text()
    declared = declared_inputs(text, "ptq.yml")
    assert {"quark-version", "amd-quark", CORRELATION_INPUT} <= set(declared)  # amd-quark: deprecated alias
    assert "${{ inputs.correlation-id }}" in workflows["ptq.yml"]["run-name"]
    release = _step(workflows["upstream-watch.yml"], "Dispatch once, with the inputs the target declares")[
        "run"
    ]
    offers = dict(re.findall(r'--offer "([\w-]+)=([^"]*)"', release))
    assert set(offers) == {"quark-version", "quark-sha256"}
    sent = {k: v for k, v in offers.items() if k in declared}
    check_inputs(declared, {**sent, CORRELATION_INPUT: "qc-0"}, "ptq.yml")  # accepted as declared
    assert sent == {"quark-version": "$VERSION", "quark-sha256": "$SHA256"}


# --- publish-ptq.yml: the comment of a dispatched PTQ run, from its artifact treated as data ------------


@pytest.mark.parametrize(
    ("pr", "expected"), [("7", "7"), ("7\n::set-output name=x::y", "7"), ("0", ""), ("", ""), ("x", "")]
)
def test_publish_ptq_reads_the_artifact_as_data(workflows, tmp_path, pr, expected) -> None:
    folder = tmp_path / "ptq" / "quarkci-ptq-cpu-fp8"
    folder.mkdir(parents=True)
    (folder / "pr-number").write_text(pr + "\n")
    (folder / "validation_report.json").write_text("{}")
    step = _step(workflows["publish-ptq.yml"], "Find the records and the pull request")
    code, out, outputs = run_step(step["run"], {"RUNNER_TEMP": str(tmp_path)}, tmp_path)
    assert code == 0, out
    # digits only: a newline cannot add an output, whatever follows the number
    assert outputs == {"dir": str(folder), "pr": expected, "name": "ptq-cpu-fp8"}


def test_publish_ptq_posts_nothing_without_a_report_and_refuses_two_artifacts(workflows, tmp_path) -> None:
    step = _step(workflows["publish-ptq.yml"], "Find the records and the pull request")
    folder = tmp_path / "ptq" / "quarkci-ptq-cpu-fp8"
    folder.mkdir(parents=True)
    (folder / "pr-number").write_text("7\n")  # the gate did not run: no validation_report.json
    code, out, outputs = run_step(step["run"], {"RUNNER_TEMP": str(tmp_path)}, tmp_path)
    assert code == 0 and outputs["pr"] == "" and "nothing to post on #7" in out
    (tmp_path / "ptq" / "quarkci-ptq-h100-fp8").mkdir()
    code, out, outputs = run_step(step["run"], {"RUNNER_TEMP": str(tmp_path)}, tmp_path)
    assert code == 2 and "expected one quarkci-ptq-* artifact" in out and outputs == {}


# --- the watch reads the new release's wheel sha256 when it detects it ----------------------------------


@pytest.mark.parametrize(
    ("answer", "expected", "warned"),
    [
        (f"echo {'ab' * 32}", "ab" * 32, False),
        (f"echo {'ab' * 32},{'cd' * 32}", f"{'ab' * 32},{'cd' * 32}", False),
        ("exit 3", "", True),  # the index lists no wheel with a sha256 (or is unreachable)
        ("echo 'x\nnew=true'", "", True),  # an answer that is no digest list is never an output
    ],
)
def test_the_watch_passes_the_wheels_sha256_or_warns(workflows, tmp_path, answer, expected, warned) -> None:
    stub = QUARKCI_STUB.replace(f"echo {WHEEL_SHA256} ;;", f"{answer} ;;")
    env = {"INPUT_UPSTREAM": "", "FORCE": "false", "VAR_UPSTREAM": ""}
    code, out, outputs = run_step(_detect(workflows), env, tmp_path, {"quarkci": stub})
    assert code == 0, out
    assert outputs["sha256"] == expected and outputs["new"] == "true"
    assert ("no wheel sha256 for amd-quark 0.14 on the index" in out) == warned
