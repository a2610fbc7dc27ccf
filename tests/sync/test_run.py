"""The sync use case as a library function (:mod:`quarkci.sync.run`): a typed request in, a typed result out,
no report written by it; and the order of its checks: a ``--baseline FILE`` is read and checked before the
upstream is resolved (the network step)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core.errors import UpstreamUnreachableError
from quarkci.sync import baseline as baselines
from quarkci.sync import run as run_module
from quarkci.sync.run import SyncRequest, build_view, run_sync
from quarkci.upstream.resolve import resolve

from .conftest import FIXTURES

NEGATIVE = FIXTURES / "skills" / "negative"


def _request(
    upstream: str, skills: Path, out: Path, baseline: str | None, fail_on: str = "breaking"
) -> SyncRequest:
    return SyncRequest(
        upstream=upstream,
        skills=str(skills),
        baseline=baseline,
        record_baseline=False,
        fix=False,
        out=out,
        fail_on=fail_on,
    )


def test_run_sync_returns_the_outcome_and_writes_no_report(wheels, tmp_path):
    seen: list[str] = []
    skills = FIXTURES / "skills" / "positive"
    result = run_sync(
        _request(str(wheels["0.99"]), skills, tmp_path / "out", str(wheels["0.98"])), progress=seen.append
    )
    assert result.failed is True and result.blocked_reason is None  # the positive skill has breaking drift
    assert result.outcome.mode == "audit"
    assert result.outcome.upstream[1] == "0.99" and result.outcome.baseline is not None
    assert result.outcome.baseline[0] == "0.98"
    assert result.report_prefix == str(skills) + "/"
    assert {f.rule for f in result.outcome.findings.drift()} and not (tmp_path / "out").exists()
    assert [m.split(" ", 1)[0] for m in seen] == [
        "resolving",
        "extracting",
        "reading",
        "resolving",
        "auditing",
    ]
    assert seen[3] == f"resolving baseline {wheels['0.98']}"
    passing = run_sync(_request(str(wheels["0.99"]), skills, tmp_path / "out", str(wheels["0.98"]), "none"))
    assert passing.failed is False and passing.outcome.findings.findings == result.outcome.findings.findings


def test_unreachable_upstream_is_a_blocked_result_not_an_exception(tmp_path):
    result = run_sync(
        _request("amd-quark", NEGATIVE, tmp_path / "out", "none")
    )  # newest: needs PyPI (refused)
    assert result.blocked_reason is not None and "network disabled in tests" in result.blocked_reason
    assert result.outcome.mode == "blocked" and result.outcome.blocked == (result.blocked_reason, ("clean",))
    assert result.failed is False and result.report_prefix == ""


@pytest.fixture
def upstream_refused(monkeypatch):
    """Resolving the upstream (the download/network step) records the call and raises."""
    calls: list[str] = []

    def refuse(spec: str, *_args: object, **_kwargs: object) -> None:
        calls.append(spec)
        raise UpstreamUnreachableError(f"resolved {spec}: the network step ran")

    monkeypatch.setattr(run_module, "resolve", refuse)
    return calls


def _bad_baselines(wheels, tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """name -> (baseline file, expected words in the one error line)."""
    recorded = baselines.save(build_view("rel", resolve(str(wheels["0.98"]))), tmp_path / "recorded")
    tampered = json.loads(recorded.read_text(encoding="utf-8"))
    tampered["version"] = "9.9"
    files = {
        "not-json": ("{not json", "cannot read"),
        "not-a-baseline": ('{"format": "something else"}\n', "not a quarkci baseline"),
        "tampered": (json.dumps(tampered), "sha256 does not match"),
    }
    out = {}
    for name, (text, words) in files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        out[name] = (path, words)
    return out


@pytest.mark.parametrize("case", ["not-json", "not-a-baseline", "tampered"])
def test_a_bad_baseline_file_is_refused_before_the_upstream_is_resolved(
    wheels, tmp_path, capsys, upstream_refused, case
):
    path, words = _bad_baselines(wheels, tmp_path)[case]
    capsys.readouterr()
    code = main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--skills",
            str(NEGATIVE),
            "--baseline",
            str(path),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith(f"quarkci: error: --baseline {path}") and words in err[0], err
    assert upstream_refused == []  # no network step, no progress line
    assert not (tmp_path / "out").exists()


def test_negative_control_a_valid_baseline_file_reaches_the_upstream_step(
    wheels, tmp_path, capsys, upstream_refused
):
    recorded = baselines.save(build_view("rel", resolve(str(wheels["0.98"]))), tmp_path / "recorded")
    code = main(
        [
            "sync",
            "--upstream",
            str(wheels["0.99"]),
            "--skills",
            str(NEGATIVE),
            "--baseline",
            str(recorded),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert code == 3 and upstream_refused == [str(wheels["0.99"])]  # the patched step is the one that ran
    assert "the network step ran" in capsys.readouterr().err  # (a blocked audit: exit 3, not 2)
