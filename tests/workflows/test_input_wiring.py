"""Where one workflow hands work to another, the keys match: every ``with:`` key of a called reusable
workflow or composite action of this repository, and every ``quarkci gh dispatch --input/--offer`` key, is
declared by its target, and every required input is given. One name per concept: the amd-quark version
is ``quark-version`` in every workflow (``ptq.yml`` keeps ``amd-quark`` as a deprecated alias).

A dispatch whose target is a repository variable (the watch's ``QUARKCI_RELEASE_WORKFLOW``) is checked
against every workflow here that ``gh dispatch`` can target (``workflow_dispatch`` with a ``correlation-id``
input): each must receive the release through at least one offered key, and every offered key must be
declared by at least one of them (an offer nobody declares is dropped silently).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from quarkci.github.dispatch import CORRELATION_INPUT, check_inputs, declared_inputs
from tests.workflows.conftest import ACTIONS, ROOT, WORKFLOWS, load

SELF = re.compile(r"^(?:\$|\.)/(?P<path>.+?)(?:@.*)?$")


def _on(document: dict[str, Any]) -> dict[str, Any]:
    on = document.get("on")
    return on if isinstance(on, dict) else {}


def _call_inputs(path: Path) -> dict[str, dict[str, Any]]:
    """``on.workflow_call.inputs`` of a reusable workflow, or ``inputs`` of a composite action."""
    document = load(path)
    if path.name == "action.yml":
        return dict(document.get("inputs") or {})
    call = _on(document).get("workflow_call")
    assert call is not None or "workflow_call" in _on(document), f"{path.name}: not a reusable workflow"
    return dict((call or {}).get("inputs") or {})


def _required(inputs: dict[str, dict[str, Any]]) -> set[str]:
    return {k for k, v in inputs.items() if (v or {}).get("required") and (v or {}).get("default") is None}


def _calls() -> list[tuple[str, Path, dict[str, Any]]]:
    """(where, target file, with) for every ``uses:`` of this repository's own workflows and actions."""
    found = []
    for path in [*WORKFLOWS, *ACTIONS]:
        document = load(path)
        jobs = document.get("jobs") or {}
        units = [(f"{path.name} job {name}", job) for name, job in jobs.items()]
        for name, job in jobs.items():
            units += [(f"{path.name} job {name} step {s.get('name')}", s) for s in job.get("steps") or []]
        units += [
            (f"{path.parent.name} step {s.get('name')}", s)
            for s in (document.get("runs") or {}).get("steps") or []
        ]
        for where, unit in units:
            match = SELF.match(str(unit.get("uses") or ""))
            if match:
                target = ROOT / match["path"]
                found.append(
                    (where, target / "action.yml" if target.is_dir() else target, unit.get("with") or {})
                )
    return found


def _dispatches() -> list[tuple[str, str, dict[str, str], dict[str, str]]]:
    """(where, workflow, inputs, offers) for every ``gh dispatch`` command line in a ``run:`` here; a workflow
    given as ``"$NAME"`` is resolved from the step's env (``vars.X`` stays ``vars.X``)."""
    found = []
    for path in [*WORKFLOWS, *ACTIONS]:
        document = load(path)
        steps = [s for job in (document.get("jobs") or {}).values() for s in job.get("steps") or []]
        steps += (document.get("runs") or {}).get("steps") or []
        for step in steps:
            script = str(step.get("run") or "").replace("\\\n", " ")
            for line in script.splitlines():  # `quarkci gh dispatch ...` or `args=(gh dispatch ...)`
                if "gh dispatch" not in line or "quarkci" not in script:
                    continue
                words = shlex.split(line[line.index("gh dispatch") :].rstrip().removesuffix(")"))
                flags: dict[str, list[str]] = {"--workflow": [], "--input": [], "--offer": []}
                for flag, value in zip(words, words[1:], strict=False):
                    if flag in flags:
                        flags[flag].append(value)
                (workflow,) = flags["--workflow"]
                if workflow.startswith("$"):
                    env = str((step.get("env") or {}).get(workflow.strip("${}"), ""))
                    var = re.fullmatch(r"\$\{\{\s*(vars\.\w+)\s*\}\}", env)
                    workflow = var[1] if var else env
                pairs = {f: dict(v.split("=", 1) for v in flags[f]) for f in ("--input", "--offer")}
                found.append(
                    (f"{path.name} step {step.get('name')}", workflow, pairs["--input"], pairs["--offer"])
                )
    return found


def _dispatchable() -> dict[str, dict[str, dict[str, Any]]]:
    """The workflows ``gh dispatch`` can target here: workflow_dispatch with a correlation-id input."""
    out = {}
    for path in WORKFLOWS:
        if "workflow_dispatch" in _on(load(path)):
            declared = declared_inputs(path.read_text(encoding="utf-8"), path.name)
            if CORRELATION_INPUT in declared:
                out[path.name] = declared
    return out


def call_violations(calls: list[tuple[str, Path, dict[str, Any]]]) -> list[str]:
    """One line per ``with:`` key the target does not declare and per required input not given."""
    found = []
    for where, target, given in calls:
        if not target.is_file():
            found.append(f"{where}: {target.relative_to(ROOT)} does not exist")
            continue
        declared = _call_inputs(target)
        name = target.relative_to(ROOT).as_posix()
        found += [f"{where}: with.{k} is not declared by {name}" for k in sorted(set(given) - set(declared))]
        found += [
            f"{where}: {name} requires {k}, not given" for k in sorted(_required(declared) - set(given))
        ]
    return found


def dispatch_violations(
    dispatches: list[tuple[str, str, dict[str, str], dict[str, str]]],
    dispatchable: dict[str, dict[str, dict[str, Any]]],
) -> list[str]:
    """One line per dispatch key no target declares, per target that gets nothing of what is offered,
    and per required input not given (the product's own checker, ``check_inputs``, for each target)."""
    found = []
    for where, workflow, inputs, offers in dispatches:
        if workflow.startswith("vars."):
            targets = dispatchable
        elif (ROOT / ".github" / "workflows" / workflow).is_file():
            path = ROOT / ".github" / "workflows" / workflow
            targets = {workflow: declared_inputs(path.read_text(encoding="utf-8"), workflow)}
        else:
            found.append(f"{where}: dispatches {workflow!r}, which is no workflow here")
            continue
        for name, declared in targets.items():
            sent = {**inputs, **{k: v for k, v in offers.items() if k in declared}}
            try:
                check_inputs(declared, {**sent, CORRELATION_INPUT: "qc-0"}, name)
            except Exception as exc:  # BadInputError: one line
                found.append(f"{where} -> {name}: {exc}")
            if offers and not set(offers) & set(declared):
                found.append(f"{where} -> {name}: declares none of the offered {sorted(offers)}")
        for key in sorted(offers):
            if not any(key in declared for declared in targets.values()):
                found.append(
                    f"{where}: --offer {key} is declared by no target ({', '.join(sorted(targets))})"
                )
    return found


def test_every_call_and_dispatch_key_is_declared_and_every_required_input_given() -> None:
    calls, dispatches = _calls(), _dispatches()
    assert len(calls) >= 20 and any(
        t.name.endswith(".yml") and t.parent.name == "workflows" for _, t, _ in calls
    )
    assert [(w, d) for w, d, _, _ in dispatches] == [
        (
            "upstream-watch.yml step Dispatch once, with the inputs the target declares",
            "vars.QUARKCI_RELEASE_WORKFLOW",
        )
    ]
    dispatchable = _dispatchable()
    assert set(dispatchable) == {"day0-release.yml", "ptq.yml", "verify.yml"}
    assert call_violations(calls) == []
    assert dispatch_violations(dispatches, dispatchable) == []


def test_the_watch_dispatches_the_release_version_as_quark_version() -> None:
    ((_, _, inputs, offers),) = _dispatches()
    # with the wheels' sha256 read when the release was detected (the hashed install's input)
    assert inputs == {} and offers == {"quark-version": "$VERSION", "quark-sha256": "$SHA256"}
    for target in ("day0-release.yml", "ptq.yml", "verify.yml"):
        assert "quark-sha256" in _dispatchable()[target], target


def test_negative_controls_the_checkers_catch_each_kind() -> None:
    dispatchable = _dispatchable()
    where = "upstream-watch.yml step Dispatch"
    # the seam that broke: the watch offered amd-quark=, day0-release.yml and verify.yml call it quark-version
    found = dispatch_violations(
        [(where, "vars.X", {}, {"amd-quark": "$V", "upstream": "amd-quark==$V"})], dispatchable
    )
    assert f"{where} -> day0-release.yml: declares none of the offered ['amd-quark', 'upstream']" in found
    assert f"{where} -> verify.yml: declares none of the offered ['amd-quark', 'upstream']" in found
    assert any("--offer upstream is declared by no target" in x for x in found)
    found = dispatch_violations([(where, "ptq.yml", {"modle": "x"}, {})], dispatchable)
    assert found == [
        f"{where} -> ptq.yml: --input modle: not declared by ptq.yml (it declares: "
        + found[0].split("(it declares: ")[1]
    ]
    assert dispatch_violations([(where, "nope.yml", {}, {})], dispatchable) == [
        f"{where}: dispatches 'nope.yml', which is no workflow here"
    ]
    deliver = ROOT / ".github" / "workflows" / "skill-sync-deliver.yml"
    assert call_violations([("w", deliver, {"artifact-name": "a", "open-pr": True})]) == [
        "w: .github/workflows/skill-sync-deliver.yml requires audit-exit-code, not given"
    ]
    action = ROOT / "actions" / "skill-sync" / "action.yml"
    assert call_violations([("w", action, {"upstream": "x", "fial-on": "none"})]) == [
        "w: with.fial-on is not declared by actions/skill-sync/action.yml"
    ]


VERSION_WORDS = re.compile(r"amd-quark version|version of amd-quark", re.I)


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_one_name_for_the_amd_quark_version(path: Path) -> None:
    on = _on(load(path))
    for trigger in ("workflow_dispatch", "workflow_call"):
        for key, spec in ((on.get(trigger) or {}).get("inputs") or {}).items():
            description = str((spec or {}).get("description") or "")
            if key == "amd-quark":
                assert path.name == "ptq.yml" and description.startswith(
                    "Deprecated name of quark-version"
                ), key
            elif VERSION_WORDS.search(description):
                assert key == "quark-version", f"{path.name} {trigger}.inputs.{key}: {description}"


# --- the runner's name in records: one slug from actions/gpu-preflight ---------------------------------


def _preflight(runner: str, tmp_path: Path) -> dict[str, str]:
    from tests.workflows.test_hardening import preflight

    code, out, outputs = preflight({"RUNNER": runner}, tmp_path)
    assert code == 0, out
    return outputs


@pytest.mark.parametrize(
    ("runner", "slug"),
    [
        ("cpu", "cpu"),
        ("mi300x", "mi300x"),
        ('["self-hosted", "gpu-pool-a"]', None),
        ('["self-hosted","gpu-pool-a"]', None),
        ('["self-hosted", "My.Pool_B"]', None),
        ("self-hosted,My.Pool_B", None),
    ],
)
def test_the_runner_slug_is_a_valid_comment_name(runner: str, slug: str | None, tmp_path: Path) -> None:
    from quarkci.github.markers import report_marker

    outputs = _preflight(runner, tmp_path)
    if slug is not None:
        assert outputs["slug"] == slug
    else:
        assert re.fullmatch(r"labels-[0-9a-f]{8}", outputs["slug"]), outputs
    for prefix in ("verify-", "day0-", "ptq-", ""):
        report_marker(f"{prefix}{outputs['slug']}-int8")  # accepted by gh comment --name (no BadInputError)


def test_the_same_labels_spelled_three_ways_share_one_slug(tmp_path: Path) -> None:
    slugs = []
    spellings = ['["self-hosted", "gpu-pool-a"]', '["self-hosted","gpu-pool-a"]', "self-hosted, gpu-pool-a"]
    for n, runner in enumerate([*spellings, '["self-hosted","b"]']):
        (tmp_path / str(n)).mkdir()
        slugs.append(_preflight(runner, tmp_path / str(n))["slug"])
    assert slugs[0] == slugs[1] == slugs[2] != slugs[3]
    # the slug the old bash action gave these labels (sha256 of the compact JSON), kept for records
    assert slugs[0] == "labels-0841cee3"


def test_negative_control_the_raw_json_runner_is_no_comment_name() -> None:
    from quarkci.core.errors import BadInputError
    from quarkci.github.markers import report_marker

    with pytest.raises(BadInputError, match="comment name"):
        report_marker('verify-["self-hosted", "gpu-pool-a"]')


def test_verify_and_the_gpu_workflows_name_records_by_the_slug() -> None:
    verify = load(ROOT / ".github" / "workflows" / "verify.yml")
    assert verify["jobs"]["check"]["outputs"]["slug"] == "${{ steps.preflight.outputs.slug }}"
    comment = verify["jobs"]["comment"]
    assert "check" in comment["needs"]
    (post,) = [s for s in comment["steps"] if "gh comment" in s.get("run", "")]
    assert post["env"]["SLUG"] == "${{ needs.check.outputs.slug }}" and '--name "verify-$SLUG"' in post["run"]
    assert "inputs.runner" not in str(post)
    assert (
        verify["jobs"]["verify"]["concurrency"]["group"] == "quarkci-verify-${{ needs.check.outputs.slug }}"
    )
    body = next(s for s in comment["steps"] if s.get("name") == "Write the comment body")["run"]
    assert "quarkci report markdown --report-json" in body and "drift/validation_report.md" not in body
    day0 = load(ROOT / ".github" / "workflows" / "day0-release.yml")
    assert day0["jobs"]["check"]["outputs"]["kind"] == "${{ steps.preflight.outputs.slug }}"
    ptq = load(ROOT / ".github" / "workflows" / "ptq.yml")
    outputs = ptq["jobs"]["check"]["outputs"]
    assert outputs["kind"] == "${{ steps.preflight.outputs.slug }}"
    assert outputs["slug"] == "${{ steps.preflight.outputs.slug }}-${{ inputs.scheme }}"


# --- the watch: force dispatches anew; its own release input is quark-version too ----------------------


def _watch_step(name: str) -> dict[str, Any]:
    watch = load(ROOT / ".github" / "workflows" / "upstream-watch.yml")
    return next(s for job in watch["jobs"].values() for s in job.get("steps") or [] if s.get("name") == name)


@pytest.mark.parametrize(("force", "extra"), [("false", []), ("true", ["--correlation-id", "force-812-1"])])
def test_the_watch_dispatches_anew_only_when_forced(tmp_path: Path, force: str, extra: list[str]) -> None:
    from tests.workflows.test_hardening import run_step

    step = _watch_step("Dispatch once, with the inputs the target declares")
    assert step["env"]["FORCE"] == "${{ inputs.force }}"
    stub = 'printf "%s\\n" "$@" > "$HOME/args"\n'
    env = {"WORKFLOW": "ptq.yml", "REF": "main", "VERSION": "0.14", "FORCE": force, "RUN": "812-1"}
    env["SHA256"] = "ab" * 32
    code, out, _ = run_step(step["run"], env, tmp_path, {"quarkci": stub})
    assert code == 0, out
    args = (tmp_path / "args").read_text().splitlines()
    assert args == [
        "gh",
        "dispatch",
        "--workflow",
        "ptq.yml",
        "--ref",
        "main",
        "--offer",
        "quark-version=0.14",
        "--offer",
        "quark-sha256=" + "ab" * 32,
        *extra,
    ]


@pytest.mark.parametrize(
    ("given", "legacy", "code", "words"),
    [
        ("0.14", "", 0, ""),
        ("", "0.14", 0, "the upstream input is deprecated: pass quark-version"),
        ("0.14", "0.14", 0, "deprecated"),
        ("0.14", "0.13", 2, "quark-version and the deprecated upstream input disagree"),
    ],
)
def test_the_watch_input_is_quark_version_with_upstream_deprecated(
    tmp_path: Path, given: str, legacy: str, code: int, words: str
) -> None:
    from tests.workflows.test_hardening import QUARKCI_STUB, run_step

    step = _watch_step("Find the release and whether it was handled")
    env = {"INPUT_UPSTREAM": given, "LEGACY_UPSTREAM": legacy, "FORCE": "true", "VAR_UPSTREAM": ""}
    got, out, outputs = run_step(step["run"], env, tmp_path, {"quarkci": QUARKCI_STUB})
    assert got == code and words in out, out
    if code == 0:
        assert outputs["version"] == "0.14"
    else:
        assert outputs == {}
