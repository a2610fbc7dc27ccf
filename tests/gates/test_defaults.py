"""The gates own their defaults: the commands import them (``DEFAULT_*``), no threshold is a literal in
``commands/day0.py`` or ``commands/ptq.py``, and the built parser's defaults are the gates'."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

from quarkci.cli import build_parser
from quarkci.day0.canary import DEFAULT_HEALTH_TIMEOUT
from quarkci.gates import compare, ptq, verbosity

COMMANDS = Path(__file__).resolve().parents[2] / "quarkci" / "commands"


def _literal_number_defaults(source: str) -> list[str]:
    """``"--flag=value"`` for every ``add_argument`` whose ``default`` is a number written in place."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument":
            for kw in node.keywords:
                value = kw.value
                if (
                    kw.arg == "default"
                    and isinstance(value, ast.Constant)
                    and type(value.value) in (int, float)
                ):
                    flag = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else "?"
                    found.append(f"{flag}={value.value}")
    return found


def test_no_threshold_literal_in_the_gate_commands():
    for name in ("day0.py", "ptq.py"):
        assert _literal_number_defaults((COMMANDS / name).read_text(encoding="utf-8")) == [], name
    # negative control: the literal the commands used to carry is found
    old = 'p.add_argument("--threshold", type=float, default=0.01)\np.add_argument("--tasks", default="demo")'
    assert _literal_number_defaults(old) == ["--threshold=0.01"]


def _defaults(*path: str) -> dict[str, object]:
    parser = build_parser()
    for name in path:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[name]
    return {a.dest: a.default for a in parser._actions}


def test_the_parsers_defaults_are_the_gates():
    run = _defaults("day0", "run")
    assert (run["threshold"], run["verbosity_threshold"]) == (
        compare.DEFAULT_THRESHOLD,
        verbosity.DEFAULT_THRESHOLD,
    )
    assert run["health_timeout"] == DEFAULT_HEALTH_TIMEOUT
    assert _defaults("day0", "gate-compare")["threshold"] == compare.DEFAULT_THRESHOLD == 0.01
    assert _defaults("day0", "gate-verbosity")["threshold"] == verbosity.DEFAULT_THRESHOLD == 0.05
    gate = _defaults("ptq", "gate")
    assert (
        (gate["max_size_ratio"], gate["max_accuracy_drop"], gate["min_top1_agreement"])
        == (
            ptq.DEFAULT_MAX_SIZE_RATIO,
            ptq.DEFAULT_MAX_ACCURACY_DROP,
            ptq.DEFAULT_MIN_TOP1_AGREEMENT,
        )
        == (1.0, 0.10, 0.80)
    )
