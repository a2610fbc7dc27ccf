"""quarkci.github.preflight and ``quarkci preflight``: the GPU workflows' one preflight (event, runner
labels, slug, shared inputs, the amd-quark pin), through the library and the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.core.errors import BadInputError
from quarkci.github import preflight
from tests.workflows.test_hardening import parse_outputs

LOCK = Path(__file__).resolve().parents[2] / "requirements" / "ml.lock"
LOCKED_SHA = "3b3e58a4cbbcff20d27815b641aa4de4d698efde3c782306cb4a6a05bcf55c8c"


@pytest.mark.parametrize("event", sorted(preflight.REFUSED_EVENTS))
def test_every_pull_request_event_is_refused(event: str) -> None:
    with pytest.raises(BadInputError, match=f"^--event {event}: the GPU workflows never run"):
        preflight.check_event(event)


@pytest.mark.parametrize("event", ["workflow_dispatch", "workflow_call", "schedule", "push", "workflow_run"])
def test_other_events_pass(event: str) -> None:
    preflight.check_event(event)


@pytest.mark.parametrize(
    ("text", "labels", "gpu", "slug"),
    [
        ("cpu", ("ubuntu-latest",), False, "cpu"),
        ("mi355x", ("self-hosted", "rocm", "mi355x"), True, "mi355x"),
        ("self-hosted,gpu-pool-a", ("self-hosted", "gpu-pool-a"), True, "labels-0841cee3"),
        (" self-hosted , gpu-pool-a ", ("self-hosted", "gpu-pool-a"), True, "labels-0841cee3"),
        ('["self-hosted", "gpu-pool-a"]', ("self-hosted", "gpu-pool-a"), True, "labels-0841cee3"),
        ('["large-runner"]', ("large-runner",), False, None),
    ],
)
def test_the_documented_runner_forms(text: str, labels: tuple[str, ...], gpu: bool, slug: str | None) -> None:
    runner = preflight.parse_runner(text)
    assert (runner.labels, runner.gpu) == (labels, gpu)
    assert runner.slug == slug if slug else re.fullmatch(r"labels-[0-9a-f]{8}", runner.slug)
    assert json.loads(runner.labels_json()) == list(labels)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("gpu", "not a runner kind"),
        ("MI300X", "not a runner kind"),
        ("[]", "give 1 to 10 runner labels"),
        (",".join(f"l{i}" for i in range(11)), "give 1 to 10 runner labels"),
        ('["a b"]', "label 'a b'"),
        ("a,,b", "label ''"),
        ('["x", 1]', "not a JSON array of label strings"),
        ('{"a": 1}', "not a runner kind"),
        ("[" * 2000, "over the 1000-character limit"),
    ],
)
def test_anything_else_is_one_line_naming_runner(text: str, words: str) -> None:
    with pytest.raises(BadInputError, match=r"^--runner") as exc:
        preflight.parse_runner(text)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_the_correlation_rule_is_the_dispatchers() -> None:
    from quarkci.github import dispatch

    assert preflight.CORRELATION_ID.pattern == dispatch._CORRELATION.pattern


def _run(argv: list[str], capsys, env_file: Path | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if env_file is not None:
        monkeypatch.setenv("GITHUB_OUTPUT", str(env_file))
    try:
        code = cli.main(["preflight", *argv])
    except SystemExit as exc:  # argparse's own refusals
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command_writes_its_step_outputs(tmp_path, capsys, monkeypatch) -> None:
    target = tmp_path / "out"
    argv = ["--event", "workflow_dispatch", "--runner", "h100", "--scheme", "fp8", "--pr", "7"]
    argv += ["--quark-version", "0.13", "--lock", str(LOCK), "--github-output"]
    code, out, err = _run(argv, capsys, target, monkeypatch)
    assert code == 0, err
    assert parse_outputs(target.read_text()) == {
        "labels": '["self-hosted","cuda","h100"]',
        "gpu": "true",
        "slug": "h100",
        "quark-version": "0.13",
        "quark-requirement": f"amd-quark==0.13 --hash=sha256:{LOCKED_SHA}",
    }
    assert "slug=h100\n" in out


def test_a_new_release_is_pinned_by_the_given_sha256(tmp_path, capsys, monkeypatch) -> None:
    digest = "ab" * 32
    argv = ["--event", "schedule", "--runner", "cpu", "--quark-version", "0.14", "--quark-sha256", digest]
    code, out, err = _run([*argv, "--lock", str(LOCK), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["quark-requirement"] == f"amd-quark==0.14 --hash=sha256:{digest}"
    assert json.loads(out)["slug"] == "cpu"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--event", "pull_request_target", "--runner", "cpu"], "--event pull_request_target"),
        (["--event", "push", "--runner", "gpu"], "--runner 'gpu'"),
        (["--event", "push", "--runner", "cpu", "--scheme", "fp8;id"], "--scheme"),
        (["--event", "push", "--runner", "cpu", "--pr", "0"], "--pr"),
        (["--event", "push", "--runner", "cpu", "--correlation-id", "a b"], "--correlation-id"),
        (["--event", "push", "--runner", "cpu", "--quark-version", "0.13\nx=y"], "--quark-version"),
        (
            ["--event", "push", "--runner", "cpu", "--quark-version", "0.14", "--lock", str(LOCK)],
            "--quark-sha256",
        ),
        (["--event", "push", "--runner", "cpu", "--quark-version", "0.13"], "--lock"),
        (["--event", "push", "--runner", "cpu", "--quark-sha256", "ab" * 32], "--quark-sha256 needs"),
        (
            ["--event", "push", "--runner", "cpu", "--quark-version", "0.13", "--quark-sha256", "cd" * 32]
            + ["--lock", str(LOCK)],
            "not a wheel the lock pins",
        ),
        (
            ["--event", "push", "--runner", "cpu", "--quark-version", "0.14", "--quark-sha256", "xyz"],
            "not a sha256",
        ),
        (["--event", "push", "--runner", "cpu", "--github-output"], "--github-output"),
    ],
)
def test_bad_input_is_exit_2_one_line_and_no_output(argv, words, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    target = tmp_path / "out"
    if "--github-output" not in argv:
        argv = [*argv, "--github-output"]
        monkeypatch.setenv("GITHUB_OUTPUT", str(target))
    code, out, err = _run(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and words in err, err
    assert out == "" and not (target.exists() and target.read_text())
