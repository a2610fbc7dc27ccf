"""The gate commands of ``quarkci day0`` (``gate-compare``, ``gate-verbosity``, ``gate-run``) on planted
JSON: exit 0 pass / 1 fail / 2 unreadable, the verdict always printed."""

from __future__ import annotations

import json

from quarkci.cli import main
from tests.gates.evals import planted_eval as _eval
from tests.gates.evals import score_map as _s


def _verb(**tasks) -> dict:
    return {
        "verbosity": {
            t: [{"samples": n, "mean_completion_tokens": m} for n, m in runs] for t, runs in tasks.items()
        }
    }


def _write(tmp_path, name, doc) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_cli_gate_compare_exit_codes(tmp_path, capsys):
    b = _write(tmp_path, "b.json", _s({"a": 0.5}))
    assert (
        main(
            [
                "day0",
                "gate-compare",
                "--baseline",
                b,
                "--candidate",
                _write(tmp_path, "c.json", _s({"a": 0.49})),
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["pass"] is True
    assert (
        main(
            [
                "day0",
                "gate-compare",
                "--baseline",
                b,
                "--candidate",
                _write(tmp_path, "d.json", _s({"a": 0.3})),
            ]
        )
        == 1
    )
    assert json.loads(capsys.readouterr().out)["decision"] == "REGRESSION"
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["day0", "gate-compare", "--baseline", b, "--candidate", str(tmp_path / "bad.json")]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out)["failure_class"] == "USER_CONFIG_ERROR" and "invalid JSON" in out.err
    assert main(["day0", "gate-compare", "--baseline", b, "--candidate", b, "--scales", "{x"]) == 2
    capsys.readouterr()
    assert (
        main(
            [
                "day0",
                "gate-compare",
                "--baseline",
                b,
                "--candidate",
                b,
                "--scales",
                '{"a": 1}',
                "--relative",
                "--threshold",
                "0.02",
            ]
        )
        == 0
    )


def test_cli_gate_verbosity_and_gate_run(tmp_path, capsys):
    b = _write(tmp_path, "b.json", _verb(g=[(100, 10.0)]))
    assert main(["day0", "gate-verbosity", "--baseline", b, "--candidate", b]) == 0
    c = _write(tmp_path, "c.json", _verb(g=[(100, 12.0)]))
    assert main(["day0", "gate-verbosity", "--baseline", b, "--candidate", c]) == 1
    empty = _write(tmp_path, "e.json", {"verbosity": {}})
    assert main(["day0", "gate-verbosity", "--baseline", empty, "--candidate", empty]) == 2
    capsys.readouterr()
    assert main(["day0", "gate-run", "--results", _write(tmp_path, "r.json", _eval({"a": 0.5}))]) == 0
    assert (
        main(
            [
                "day0",
                "gate-run",
                "--results",
                _write(tmp_path, "f.json", _eval({"a": 0.5}, failed_requests=1)),
            ]
        )
        == 1
    )
    assert main(["day0", "gate-run", "--results", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
