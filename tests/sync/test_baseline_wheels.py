"""The shipped ``reports/baselines/0.12.post1.json`` gives, from the repository root, the same release
diff as a baseline built from the real 0.12.post1 wheel (real amd-quark wheels, downloaded at test time).

Before baselines named their extractor, the shipped file (recorded before public_api and dependency
facts existed) was compared field by field: ~940 changes, ~560 of them false "added" entries (e.g.
``quark-cli onnx-ptq --device``, which 0.12.post1 has) and ~75 real ones missing (e.g. the removal of
``quark.experimental.plugin``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.sync import baseline as baselines
from quarkci.upstream import pypi

pytestmark = pytest.mark.real

REPO = Path(__file__).resolve().parents[2]
SHIPPED = Path("reports") / "baselines" / "0.12.post1.json"


def _diff(out: Path) -> list[dict]:
    return json.loads((out / "validation_report.json").read_text(encoding="utf-8"))["release_diff"]


@pytest.fixture(scope="module")
def real_diff(tmp_path_factory) -> list[dict]:
    """The release diff 0.12.post1 -> 0.13 (bundled skills) against the real 0.12.post1 wheel."""
    from tests.realwheels import real_wheel

    out = tmp_path_factory.mktemp("real-baseline")
    argv = ["sync", "--upstream", str(real_wheel("0.13")), "--baseline", str(real_wheel("0.12.post1"))]
    assert main([*argv, "--out", str(out), "--fail-on", "none"]) == 0
    return _diff(out)


def _keys(diff: list[dict]) -> set[tuple[str, str, str]]:
    return {(c["category"], c["change"], c["name"]) for c in diff}


def test_the_real_diff_holds_the_issue_cases(real_diff):
    keys = _keys(real_diff)
    assert ("cli_flags", "added", "quark-cli onnx-ptq --device") not in keys  # 0.12.post1 has it
    assert ("public_api", "removed", "quark.experimental.plugin") in keys
    assert 300 < len(real_diff) < 700  # not the ~940 of the stale comparison


def test_the_shipped_baseline_from_the_repository_root_equals_the_real_wheel(
    real_diff, tmp_path, monkeypatch
):
    from tests.realwheels import real_wheel

    monkeypatch.chdir(REPO)
    assert SHIPPED.is_file()
    argv = ["sync", "--upstream", str(real_wheel("0.13")), "--baseline", str(SHIPPED)]
    assert main([*argv, "--out", str(tmp_path / "out"), "--fail-on", "none"]) == 0
    shipped = _diff(tmp_path / "out")
    assert shipped == real_diff  # every change, with the skills it touches
    assert ("cli_flags", "added", "quark-cli onnx-ptq --device") not in _keys(shipped)
    assert ("public_api", "removed", "quark.experimental.plugin") in _keys(shipped)


def test_the_default_job_reads_the_shipped_baseline_and_gives_the_real_diff(real_diff, tmp_path, monkeypatch):
    """``--baseline`` unset: OUT/baselines/<previous release>.json, as the default job reads it."""
    from tests.realwheels import real_wheel

    out = tmp_path / "reports"
    (out / "baselines").mkdir(parents=True)
    shutil.copy(REPO / SHIPPED, out / "baselines" / SHIPPED.name)
    listing = {"releases": {v: [{"yanked": False}] for v in ("0.11.2", "0.12.post1", "0.13")}}
    monkeypatch.setattr(pypi, "_http_json", lambda url: listing)  # the previous release of 0.13
    assert main(["sync", "--upstream", str(real_wheel("0.13")), "--out", str(out), "--fail-on", "none"]) == 0
    assert _diff(out) == real_diff
    evidence = json.loads((out / "validation_report.json").read_text(encoding="utf-8"))["evidence"]
    stale = baselines.read(out / "baselines" / SHIPPED.name).stale
    expected = f"baseline file {out / 'baselines' / SHIPPED.name}" if stale is None else "rebuilt from"
    assert any(expected in line for line in evidence), evidence
