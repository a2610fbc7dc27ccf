"""``quarkci route`` (:mod:`quarkci.commands.route`): the printed reason, and empty or oversized goals as
bad input (``route -`` with nothing on standard input, a goal of zero-width spaces).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.router import route
from tests.router.scoring import catalog


def test_the_printed_reason_names_what_in_the_goal_decided_it(tmp_path, capsys):
    fixture = str(Path(__file__).resolve().parents[1] / "fixtures" / "router" / "extended")
    assert (
        cli.main(
            [
                "route",
                "my ptq run died with CUDA out of memory at layer 30, what now?",
                "--skills",
                fixture,
                "--out",
                str(tmp_path / "s.json"),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert (
        'route: quark-torch-debug (debug): the goal says "crashed"' in printed
    )  # "died", in canonical words
    reason = route("Quantize Llama-3.1-8B to FP8", *catalog("default")).document["route"]["reason"]
    assert reason.startswith('the goal says "quantize"')  # not "a quantization scheme was named"


@pytest.mark.parametrize(
    "argv, stdin",
    [
        (["route", "-"], ""),
        (["route", "-"], "   \n\t "),
        (["route", "\u200b\u200b\u200b"], ""),
        (["route", "\u200b \ufeff\u2060"], ""),
        (["route", "-"], "\u200b\u200b"),
    ],
    ids=["empty-stdin", "blank-stdin", "zero-width", "invisible-mix", "zero-width-stdin"],
)
def test_an_empty_goal_is_one_line_exit_2_and_no_file(tmp_path, capsys, monkeypatch, argv, stdin):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = tmp_path / "session_context.json"
    assert cli.main([*argv, "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "goal: empty" in err
    assert not out.exists()


def test_a_goal_on_standard_input_is_routed(tmp_path, capsys, monkeypatch):
    log = "pip install onnxruntime-rocm\nERROR: No matching distribution found for onnxruntime-rocm\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(log))
    out = tmp_path / "s.json"
    assert cli.main(["route", "-", "--json", "--output", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["workflow"] == "quark-onnx-install" and json.loads(out.read_text()) == doc


def test_standard_input_over_the_limit_is_bad_input(tmp_path, capsys, monkeypatch):
    from quarkci.commands.route import MAX_STDIN_BYTES

    monkeypatch.setattr("sys.stdin", io.StringIO("quantize " * (MAX_STDIN_BYTES // 9 + 10)))
    out = tmp_path / "s.json"
    assert cli.main(["route", "-", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GOAL -: over the" in err and not out.exists()
