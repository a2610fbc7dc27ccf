"""Hostile skill folder names from a fork PR (pr-skill-check.yml) never become workflow commands.

Everything ``quarkci sync`` and ``quarkci report github`` print in Actions is parsed with
:mod:`tests.runner_commands` (the runner's own rules: lines end at CR, LF and CRLF; ``::`` after leading
whitespace; ``##[`` anywhere; ``stop-commands``). The only commands in it are quarkci's deliberate
annotations, each carrying the hostile text intact as data; the negative control prints the same text
unescaped and the parser finds the forged commands in it.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.core import escape
from quarkci.core.documents import load_document
from quarkci.report import github_actions as rtg
from quarkci.report.lines import CommandGuard
from tests.runner_commands import Command, commands, parse_line, runner_lines
from tests.sync.conftest import FIXTURES, build_wheel

ROOT = Path(__file__).resolve().parents[2]
# Each name is one skill folder of the fork's PR; every one forges a command when printed as is.
HOSTILE = {
    "legacy": "y ##[error]forged annotation",
    "cr-mask": "a\r::add-mask::quarkci",
    "crlf-error": "b\r\n  ::error title=forged::crlf",
    "stop": "::stop-commands::x",
    "nbsp": "\u00a0::warning::nbsp",
    "legacy-group": "c ##[group]hidden",
}
FORGED = {"error", "add-mask", "stop-commands", "warning", "group"}


def _sync_args(tmp_path: Path, skills: Path, out: Path, *extra: str) -> list[str]:
    wheels = {v: build_wheel(FIXTURES / f"rel_{v.replace('.', '')}", v, tmp_path) for v in ("0.98", "0.99")}
    return [
        "sync",
        "--upstream",
        str(wheels["0.99"]),
        "--baseline",
        str(wheels["0.98"]),
        "--skills",
        str(skills),
        "--out",
        str(out),
        "--fail-on",
        "none",
        *extra,
    ]


@pytest.fixture
def hostile_workspace(tmp_path: Path) -> Path:
    skills = tmp_path / "skills"
    for name in HOSTILE.values():
        shutil.copytree(ROOT / "tests" / "fixtures" / "skills" / "positive" / "ptq-runner", skills / name)
    return tmp_path


def _deliberate(found: list[Command]) -> list[Command]:
    return [c for c in found if c.name in {"error", "warning", "notice"} and "file" in c.properties]


def test_sync_and_report_github_print_no_forged_command(hostile_workspace: Path, monkeypatch, capsys) -> None:
    ws = hostile_workspace
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(ws / "summary.md"))
    monkeypatch.setenv("GITHUB_OUTPUT", str(ws / "output.txt"))
    assert main(_sync_args(ws, ws / "skills", ws / "out")) == 0
    sync_out, sync_err = capsys.readouterr()
    assert "forged annotation" in sync_out and "quarkci" in sync_out  # the names are printed ...
    assert commands(sync_out) == [] and commands(sync_err) == []  # ... as no command at all

    assert main(["report", "github", "--report-dir", str(ws / "out"), "--workspace", str(ws)]) == 0
    out, err = capsys.readouterr()
    assert commands(err) == []
    found = commands(out)
    report = load_document(ws / "out" / "validation_report.json")
    expected = rtg.annotations(report, ws)
    assert len(expected) == 10  # six hostile skills, several findings each: the cap applies
    assert found == _deliberate(found) and len(found) == 10  # only the deliberate annotations
    skills_named = {c.properties["file"].split("/")[1] for c in found}
    assert skills_named <= set(HOSTILE.values()) and len(skills_named) >= 2
    for command in found:  # the hostile text reaches the annotation intact, as data
        skill = command.properties["file"].split("/")[1]
        assert command.data.startswith(f"{skill}: "), command


def test_sync_json_on_stdout_keeps_its_value_and_forges_nothing(
    hostile_workspace: Path, monkeypatch, capsys
) -> None:
    ws = hostile_workspace
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(_sync_args(ws, ws / "skills", ws / "out", "--json")) == 0
    out, err = capsys.readouterr()
    assert commands(out) == [] and commands(err) == []
    assert "##[" not in out
    printed = json.loads(out)
    assert printed == load_document(ws / "out" / "validation_report.json")
    assert any("y ##[error]forged annotation" in f["skill"] for f in printed["findings"])


def test_negative_control_the_same_names_unescaped_forge_commands(hostile_workspace: Path, capsys) -> None:
    ws = hostile_workspace
    assert main(_sync_args(ws, ws / "skills", ws / "out")) == 0  # outside Actions: no guard
    capsys.readouterr()
    report = load_document(ws / "out" / "validation_report.json")
    raw = "".join(
        f"{f['skill_location']['file']}:{f['skill_location']['line']}:1: {f['skill_says']} [{f['rule']}]\n"
        for f in report["findings"]
        if f.get("skill_location")
    )
    forged = commands(raw)
    assert [c.name for c in forged][:1] == ["stop-commands"]  # the attack: every later command is ignored
    names = {c.name for line in runner_lines(raw) for c in commands(line)}
    assert names >= {"error", "add-mask", "stop-commands", "warning", "group"}, names
    # and each hostile name alone, unescaped, is a command; escaped, it is none
    for key, name in HOSTILE.items():
        line = f"{name}/SKILL.md:3:1: drift"
        assert {c.name for c in commands(line)} & FORGED, key
        assert commands(escape.log_line(line)) == [], key
        assert commands(escape.log_text(line)) == [], key


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("::error::x", "error"),
        ("  \t::warning::x", "warning"),
        ("\u3000::notice::x", "notice"),
        ("text ##[error]x", "error"),
        ("a\r::add-mask::m", "add-mask"),
        ("a\r\n::debug::m", "debug"),
        ("ok::not::a command\n::ERROR::upper", "error"),
    ],
)
def test_the_parser_finds_what_the_runner_would(text: str, name: str) -> None:
    """The model itself: each case is a command under the runner's rules (and none escaped)."""
    assert [c.name for c in commands(text)] == [name]
    assert commands(escape.log_text(text)) == []


def test_the_parser_honours_stop_commands() -> None:
    out = "::stop-commands::tok\n::error::ignored\nx ##[warning]ignored\n::tok::\n::notice::seen\n"
    assert [c.name for c in commands(out)] == ["stop-commands", "tok", "notice"]
    assert parse_line("ok ::error::x") is None and parse_line("::unknown::x") is None
    assert runner_lines("a\rb\r\nc\nd") == ["a", "b", "c", "d"]


def test_guard_splits_where_the_runner_does_and_keeps_line_ends(monkeypatch) -> None:
    guard = CommandGuard(io.StringIO())
    monkeypatch.setattr(sys, "stdout", guard)
    for chunk in ("plain\r", "\n", "x\r::add-mask::m\r", "::stop-commands::t", "\n", "y ##[error]z"):
        guard.write(chunk)
    guard.flush()
    value = guard.raw.getvalue()
    assert commands(value) == []
    assert runner_lines(value) == [
        "plain",
        "x",
        "%3A%3Aadd-mask::m",
        "%3A%3Astop-commands::t",
        "y #\\u0023[error]z",
    ]
    assert value.count("\r\n") == 1  # the CR and the LF of the next write stay one CRLF


def test_log_text_keeps_json_values() -> None:
    document = {"a": "y ##[error]x", "b": ["\r::add-mask::m", "::stop-commands::t"], "c": "##[##[["}
    for text in (json.dumps(document), json.dumps(document, indent=2)):
        escaped = escape.log_text(text)
        assert json.loads(escaped) == document
        assert commands(escaped) == []


def test_delivery_text_and_json_forge_nothing() -> None:
    from quarkci.github.result import Delivery, Item, Step

    hostile = "t ##[error]x\r::add-mask::m"
    delivery = Delivery(
        command="gh issues",
        dry_run=True,
        items=[Item("issue", "created", number=1, key=hostile, note="::stop-commands::s")],
        steps=[Step("POST", "/repos/o/r/issues", hostile)],
    )
    assert commands(delivery.to_text()) == [] and commands(delivery.to_json()) == []
    assert json.loads(delivery.to_json())["items"][0]["key"] == hostile
    raw = "\n".join(["  " + i.line(True) for i in delivery.items] + [str(s) for s in delivery.steps])
    assert {c.name for c in commands(raw)} == {"error", "add-mask"}  # negative control: unescaped, forged
