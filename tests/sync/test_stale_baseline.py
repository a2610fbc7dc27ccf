"""A baseline records the fact extractor that made it; one made by other extractors (a stale one) is
rebuilt from its release, or refused with one line naming the file: never compared field by field.

The miniature releases stand in for PyPI: ``$QUARKCI_CACHE_DIR`` holds the 0.98 wheel, so
``amd-quark==0.98`` resolves from the wheel cache without the network.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core.errors import BadInputError, UpstreamUnreachableError
from quarkci.facts.cache import code_digest
from quarkci.sync import baseline as baselines
from quarkci.sync.run import SyncRequest, build_view, run_sync
from quarkci.upstream import resolve as resolve_module
from quarkci.upstream.pypi import PyPIIndex
from quarkci.upstream.resolve import resolve

from .conftest import FIXTURES

POSITIVE = FIXTURES / "skills" / "positive"
DROPPED_FLAG = "--old_flag"  # in 0.98, removed in 0.99: a stale file that lacks it must not make it "added"


@pytest.fixture
def wheel_cache(wheels, tmp_path, monkeypatch) -> Path:
    """A wheel cache holding the miniature 0.98 release (so amd-quark==0.98 resolves offline)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(wheels["0.98"], cache / wheels["0.98"].name)
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(cache))
    return cache


def _seal(body: dict) -> str:
    body.pop("sha256", None)
    body["sha256"] = hashlib.sha256(baselines.canonical(body).encode("utf-8")).hexdigest()
    return baselines.canonical(body)


def _stale(wheels, path: Path, how: str = "no-extractor", kind: str = "wheel") -> Path:
    """A baseline of 0.98 as an older quarkci wrote it: no public_api/dependencies kinds, no extractor
    version (or another digest), and facts read differently (one flag missing)."""
    body = baselines.to_json(build_view("amd-quark==0.98", resolve(str(wheels["0.98"]))))
    body["kind"] = kind
    if how == "no-extractor":
        del body["extractor"]
        del body["facts"]["public_api"], body["facts"]["dependencies"]
    else:
        body["extractor"]["digest"] = "0" * 12
    flags = body["facts"]["cli_flags"]["items"]
    body["facts"]["cli_flags"]["items"] = [i for i in flags if i["name"] != DROPPED_FLAG]
    path.write_text(_seal(body), encoding="utf-8")
    return path


def _request(wheels, out: Path, baseline: str | None) -> SyncRequest:
    return SyncRequest(
        upstream=str(wheels["0.99"]),
        skills=str(POSITIVE),
        baseline=baseline,
        record_baseline=False,
        fix=False,
        out=out,
        fail_on="none",
    )


def _keys(outcome) -> set[tuple[str, str, str]]:
    return {(c.category, c.change, c.name) for c in outcome.release_diff}


def test_a_recorded_baseline_names_the_running_extractor(wheels, tmp_path):
    path = baselines.save(build_view("amd-quark==0.98", resolve(str(wheels["0.98"]))), tmp_path)
    body = json.loads(path.read_text(encoding="utf-8"))
    assert body["extractor"]["digest"] == code_digest() and len(code_digest()) == 12
    assert body["extractor"]["kinds"][-2:] == ["public_api", "dependencies"]
    assert baselines.read(path).stale is None  # negative control: the running extractor made it
    assert baselines.read(path).rebuild_spec == "amd-quark==0.98"


@pytest.mark.parametrize("how", ["no-extractor", "other-digest"])
def test_a_stale_baseline_is_rebuilt_from_its_release_not_compared_field_by_field(
    wheels, wheel_cache, tmp_path, how
):
    stale = _stale(wheels, tmp_path / "0.98.json", how)
    reason = baselines.read(stale).stale
    assert reason is not None
    if how == "no-extractor":
        assert "without the fact kinds public_api, dependencies" in reason
    else:
        assert f"made by fact extractor 000000000000, not the running {code_digest()}" == reason
    seen: list[str] = []
    rebuilt = run_sync(_request(wheels, tmp_path / "a", str(stale)), progress=seen.append).outcome
    fresh = run_sync(_request(wheels, tmp_path / "b", str(wheels["0.98"]))).outcome
    assert rebuilt.release_diff == fresh.release_diff and len(fresh.release_diff) == 19
    assert rebuilt.findings.findings == fresh.findings.findings
    # compared field by field, the stale file would call the flag it lacks "added" and miss public_api
    assert ("cli_flags", "added", f"quark-cli torch-llm-ptq {DROPPED_FLAG}") not in _keys(rebuilt)
    assert ("cli_flags", "removed", f"quark-cli torch-llm-ptq {DROPPED_FLAG}") in _keys(rebuilt)
    assert ("public_api", "removed", "quark.old.removed") in _keys(rebuilt)
    assert f"rebuilding baseline {stale} from amd-quark==0.98: {reason}" in seen
    assert f"baseline {stale} rebuilt from amd-quark==0.98: {reason}" in rebuilt.notes


def test_negative_control_field_by_field_the_stale_file_gives_a_false_diff(wheels, tmp_path):
    """What the rebuild prevents: compared as it is, the stale view misses a removal and invents additions."""
    stale = baselines.read(_stale(wheels, tmp_path / "0.98.json"))
    current = build_view(str(wheels["0.99"]), resolve(str(wheels["0.99"])))
    keys = {(c.category, c.change, c.name) for c in baselines.diff(stale.view, current, [], [])}
    assert ("public_api", "added", "quark.torch.export.api") in keys  # every module looks new
    assert ("cli_flags", "removed", f"quark-cli torch-llm-ptq {DROPPED_FLAG}") not in keys


def test_a_stale_baseline_whose_release_cannot_be_fetched_is_refused_in_one_line(
    wheels, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path / "empty-cache"))

    def unreachable(version, *args, **kwargs):
        raise UpstreamUnreachableError(f"pip download amd-quark=={version} failed: no network")

    monkeypatch.setattr(resolve_module, "fetch_wheel", unreachable)
    stale = _stale(wheels, tmp_path / "0.98.json")
    argv = ["sync", "--upstream", str(wheels["0.99"]), "--skills", str(POSITIVE), "--baseline", str(stale)]
    code = main([*argv, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 3
    last = err[-1]
    assert last.startswith(f"quarkci: error: upstream unreachable: --baseline {stale}: made by an older")
    assert "amd-quark==0.98 cannot be fetched to rebuild it" in last and "refused" in last
    report = json.loads((tmp_path / "out" / "validation_report.json").read_text(encoding="utf-8"))
    assert report["mode"] == "blocked" and report["release_diff"] == []  # nothing compared


def test_a_stale_checkout_baseline_is_bad_input_before_the_upstream_is_read(wheels, tmp_path, capsys):
    stale = _stale(wheels, tmp_path / "0.98.json", kind="checkout")
    code = main(
        ["sync", "--upstream", "amd-quark", "--skills", str(POSITIVE), "--baseline", str(stale)]
        + ["--out", str(tmp_path / "out")]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err  # "amd-quark" would need PyPI: refused before it
    assert err[0].startswith(f"quarkci: error: --baseline {stale}: made by an older fact extractor")
    assert "cannot be rebuilt from PyPI" in err[0]


def test_a_stale_version_pypi_does_not_have_is_bad_input(wheels, tmp_path, monkeypatch):
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path / "empty-cache"))

    def missing(version, *args, **kwargs):
        raise BadInputError(f"amd-quark=={version} does not exist on PyPI")

    monkeypatch.setattr(resolve_module, "fetch_wheel", missing)
    stale = _stale(wheels, tmp_path / "0.98.json")
    with pytest.raises(BadInputError, match=rf"--baseline {stale}: made by .*cannot rebuild it"):
        run_sync(_request(wheels, tmp_path / "out", str(stale)))


def test_the_default_recorded_baseline_is_rebuilt_when_stale(wheels, wheel_cache, tmp_path):
    """``--baseline`` unset: OUT/baselines/<previous>.json is read, and rebuilt when stale."""
    out = tmp_path / "reports"
    _stale(wheels, (out / "baselines").mkdir(parents=True) or out / "baselines" / "0.98.json")
    releases = {"releases": {v: [{"yanked": False}] for v in ("0.98", "0.99")}}
    index = PyPIIndex(fetch=lambda url: releases)
    outcome = run_sync(_request(wheels, out, None), index=index).outcome
    fresh = run_sync(_request(wheels, tmp_path / "b", str(wheels["0.98"]))).outcome
    assert outcome.mode == "audit" and outcome.release_diff == fresh.release_diff
    assert outcome.notes[0].startswith(
        f"baseline {out / 'baselines' / '0.98.json'} rebuilt from amd-quark==0.98"
    )


def test_offline_the_newest_recorded_baseline_before_the_release_is_used_and_said(tmp_path):
    """PyPI unreachable: the previous release cannot be asked for, so the default baseline is the newest
    one recorded in OUT/baselines older than the audited release (the shipped reports/baselines), and a
    line says so; with none recorded, a line says why there is no baseline."""
    import shutil
    from pathlib import Path
    from types import SimpleNamespace

    from quarkci.core.errors import UpstreamUnreachableError
    from quarkci.sync import run as sync_run

    class Offline:
        def previous(self, version):
            raise UpstreamUnreachableError("pypi.org: connection refused")

    shipped = Path(__file__).resolve().parents[2] / "reports" / "baselines"
    (tmp_path / "baselines").mkdir()
    for name in ("0.12.post1.json", "0.13.json"):
        shutil.copy(shipped / name, tmp_path / "baselines" / name)
    (tmp_path / "baselines" / "notes.json").write_text("{}")  # not a version: ignored
    said: list[str] = []
    upstream = SimpleNamespace(version="0.13")
    view, note = sync_run.build_baseline(None, upstream, tmp_path, Offline(), said.append)  # type: ignore[arg-type]
    assert view is not None and view.version == "0.12.post1", note
    assert any("unreachable" in line and "0.12.post1" in line for line in said), said
    assert sync_run.newest_recorded_before(tmp_path, "0.12.post1") is None  # nothing older recorded
    said.clear()
    view, note = sync_run.build_baseline(None, upstream, tmp_path / "empty", Offline(), said.append)  # type: ignore[arg-type]
    assert view is None and "none recorded" in note and said == [note]
