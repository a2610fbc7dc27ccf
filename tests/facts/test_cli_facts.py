"""``quarkci facts`` and ``quarkci upstream``: output shape, determinism, bad input -> one line, exit 2/3."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from quarkci.cli import main
from quarkci.facts.base import FACT_KINDS
from quarkci.upstream import fetch, pypi
from tests.upstream.miniwheel import MINI_CHECKOUT, build_mini_wheel

FILE = [{"filename": "x.whl", "yanked": False}]
PAYLOAD = {"releases": {"0.12.post1": FILE, "0.13": FILE, "0.14rc1": FILE}}


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_is_deterministic_and_complete(capsys, tmp_path):
    wheel = str(build_mini_wheel(tmp_path))
    code, first, err = _run(capsys, "facts", "--upstream", wheel, "--json")
    assert code == 0 and err == ""
    _, second, _ = _run(capsys, "facts", "--upstream", wheel, "--json")
    assert first == second
    payload = json.loads(first)
    assert {
        "version",
        "python",
        "torch_matrix",
        "schemes",
        "model_templates",
        "cli_flags",
        "export_formats",
        "compat",
    } <= set(payload)
    assert [i["name"] for i in payload["schemes"]["items"]] == [
        "fp8",
        "fp8_legacy",
        "int4_wo_64",
        "int8",
        "mx9",
    ]


def test_kind_filter_and_table(capsys):
    code, out, _ = _run(capsys, "facts", "--upstream", str(MINI_CHECKOUT), "--json", "--kind", "cli_flags")
    payload = json.loads(out)
    assert code == 0 and "schemes" not in payload and payload["cli_flags"]["items"]
    code, out, _ = _run(capsys, "facts", "--upstream", str(MINI_CHECKOUT), "--kind", "schemes")
    assert code == 0
    assert "schemes" in out and "fp8, fp8_legacy, int4_wo_64, int8, mx9" in out and "cli_flags" not in out


def _one_line(err):
    assert err.count("\n") == 1 and err.startswith("quarkci: error: ") and "Traceback" not in err


def test_nonexistent_release_is_exit_2_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(
        fetch.subprocess,
        "run",
        lambda cmd, **k: subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution"),
    )
    monkeypatch.setattr(pypi, "_http_json", lambda url: PAYLOAD)
    code, out, err = _run(capsys, "facts", "--upstream", "amd-quark==9.99")
    assert code == 2 and out == ""
    _one_line(err)
    assert "--upstream amd-quark==9.99 does not exist on PyPI" in err  # names the option it came from


def test_non_zip_wheel_is_exit_2(capsys, tmp_path):
    bogus = tmp_path / "amd_quark-0.13-py3-none-any.whl"
    bogus.write_bytes(b"PK-not-really")
    code, out, err = _run(capsys, "facts", "--upstream", str(bogus))
    assert code == 2 and out == ""
    _one_line(err)
    assert "not a wheel" in err


@pytest.mark.parametrize("make", ["dir", "file", "missing"])
def test_path_that_is_neither_is_exit_2(capsys, tmp_path, make):
    target = tmp_path / "thing"
    if make == "dir":
        target.mkdir()
    elif make == "file":
        target.write_text("hello")
    code, out, err = _run(capsys, "facts", "--upstream", str(target))
    assert code == 2 and out == ""
    _one_line(err)


def test_unknown_kind_is_usage_error(capsys):
    assert main(["facts", "--upstream", str(MINI_CHECKOUT), "--kind", "flavours"]) == 2


def test_upstream_without_action_is_usage_error(capsys):
    assert main(["upstream"]) == 2


def test_upstream_latest_and_versions(capsys, monkeypatch):
    monkeypatch.setattr(pypi, "_http_json", lambda url: PAYLOAD)
    code, out, _ = _run(capsys, "upstream", "latest", "--json")
    assert code == 0 and json.loads(out) == {
        "project": "amd-quark",
        "version": "0.13",
        "previous": "0.12.post1",
    }
    code, out, _ = _run(capsys, "upstream", "latest")
    assert out == "0.13\n"
    code, out, _ = _run(capsys, "upstream", "versions", "--json")
    assert json.loads(out)["versions"] == ["0.12.post1", "0.13"]  # the pre-release is left out


def test_upstream_unreachable_is_exit_3(capsys, monkeypatch):
    monkeypatch.setenv("QUARKCI_PYPI_JSON_URL", "http://127.0.0.1:9/pypi/amd-quark/json")
    code, out, err = _run(capsys, "upstream", "latest")
    assert code == 3 and out == ""
    _one_line(err)


def _table_rows(out: str) -> dict[str, tuple[int, int, str]]:
    rows = {}
    for line in out.splitlines()[2:]:
        parts = line.split(maxsplit=3)
        if parts and not line.startswith(" "):
            rows[parts[0]] = (int(parts[1]), int(parts[2]), parts[3] if len(parts) > 3 else "")
    return rows


@pytest.mark.parametrize("upstream", ["installed", str(MINI_CHECKOUT)])
def test_the_table_adds_up(capsys, monkeypatch, tmp_path, upstream):
    """The total row is the sum of the rows, and each row's shown names plus '(+N more)' is its names count."""
    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path))
    code, out, _ = _run(capsys, "facts", "--upstream", upstream)
    rows = _table_rows(out)
    total = rows.pop("total")
    assert code == 0 and set(rows) == set(FACT_KINDS)
    assert total[:2] == (sum(r[0] for r in rows.values()), sum(r[1] for r in rows.values()))
    for kind, (items, names, shown) in rows.items():
        more = re.search(r", \.\.\. \(\+(\d+) more\)$", shown)
        listed = shown[: more.start()] if more else shown
        assert len([n for n in listed.split(", ") if n]) + (int(more.group(1)) if more else 0) == names, kind
        assert names <= items, kind
    if upstream == "installed":  # the real release states some names twice: the two counts differ there
        assert rows["cli_flags"][0] > rows["cli_flags"][1]


@pytest.mark.real  # the real PyPI index
def test_cli_nonexistent_release_on_real_pypi():
    proc = subprocess.run(
        [sys.executable, "-m", "quarkci", "facts", "--upstream", "amd-quark==9.99"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "does not exist on PyPI" in proc.stderr
