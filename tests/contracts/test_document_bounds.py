"""The one document loader is bounded in expansion, keys and duplicates; a closed stdout is a normal end.

Issue 11: a 355-byte alias bomb took 85 s and 5.5 GB in ``contracts validate`` (``route --env-context``
13 s, 646 MB); non-string keys crashed ``route --session-context`` with exit 4; duplicate JSON keys were
silently merged; ``contracts list | head -1`` ended in BrokenPipeError, exit 4.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from quarkci import cli
from quarkci.core import documents
from quarkci.core.documents import MAX_NODES, parse_document
from quarkci.core.errors import BadInputError

REPO = Path(__file__).resolve().parents[2]


def bomb(levels: int = 9) -> str:
    """The billion-laughs document of the issue (9 levels of 9 aliases: 9**9 strings once expanded)."""
    names = "abcdefghijklmnop"
    lol = ",".join(['"lol"'] * 9)
    text = f"a: &a [{lol}]\n"
    for i in range(1, levels):
        text += f"{names[i]}: &{names[i]} [{','.join([f'*{names[i - 1]}'] * 9)}]\n"
    return text


def test_the_bomb_is_under_the_byte_cap_and_refused_structurally_before_expansion(monkeypatch):
    text = bomb()
    assert 300 < len(text.encode()) <= 400  # passes the byte cap: only the structural bound stops it
    built = []
    monkeypatch.setattr(
        yaml.SafeLoader, "construct_document", lambda self, node: built.append(node) or {}
    )  # must never be reached
    with pytest.raises(BadInputError, match=f"over {MAX_NODES} nodes once aliases are expanded"):
        parse_document(text, "bomb.yaml")
    assert built == []


def test_expanded_size_is_counted_exactly_without_expanding():
    # 5 levels: 1 + 9 + 81*... exactly; a document just under the cap is accepted, one just over refused
    assert parse_document(bomb(4), "ok.yaml")["d"][0][0][0] == ["lol"] * 9  # 9**4 strings: fine
    with pytest.raises(BadInputError, match="nodes once aliases"):
        parse_document(bomb(6), "big.yaml")  # 9**6 = 531,441 > 100,000


@pytest.mark.parametrize(
    "text, message",
    [
        ("a: &a [*a]\n", "cycle"),
        ("{1.5: 3}\n", "not a string (float)"),
        ("? null\n: 1\n", "not a string (null)"),
        ("true: 1\n", "not a string (bool)"),
        ("{a: 1, 2: b}\n", "not a string (int)"),
        ("? [a, b]\n: 1\n", "not a string (a collection)"),
        ("a: 1\na: 2\n", "duplicate key 'a'"),
        ("x: &x {k: 1}\ny: {<<: *x, 3: 4}\n", "not a string (int)"),
        ("[" * 300 + "]" * 300, "deeper than"),
    ],
)
def test_odd_yaml_is_one_line_bad_input(text, message):
    with pytest.raises(BadInputError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        parse_document(text, "doc.yaml", fmt="yaml")
    assert "\n" not in str(info.value)


def test_duplicate_json_keys_are_refused_not_merged():
    with pytest.raises(BadInputError, match="duplicate key 'hardware'"):
        parse_document('{"hardware": {"gpu_count": 1}, "hardware": {}}', "env.json", fmt="json")
    with pytest.raises(BadInputError, match="duplicate key 'k'"):
        parse_document('{"a": [{"k": 1, "k": 2}]}', "doc", fmt="auto")
    assert parse_document('{"a": {"k": 1}, "b": {"k": 2}}', "doc") == {"a": {"k": 1}, "b": {"k": 2}}


def test_merge_keys_and_plain_aliases_still_load():
    doc = parse_document("base: &b {x: 1}\nmore: {<<: *b, y: 2}\nlist: [*b, *b]\n", "ok.yaml")
    assert doc == {"base": {"x": 1}, "more": {"x": 1, "y": 2}, "list": [{"x": 1}, {"x": 1}]}


@pytest.mark.parametrize(
    "argv",
    [
        ["contracts", "validate", "{f}", "--artifact", "env_context"],
        ["route", "quantize", "--env-context", "{f}"],
        ["route", "quantize", "--session-context", "{f}"],
        ["route", "quantize", "--workspace-context", "{f}"],
    ],
)
@pytest.mark.parametrize("content", [bomb(), "{1.5: 3}\n", "null: 1\n", '{"a": 1, "a": 2}'])
def test_every_user_read_document_is_one_line_exit_2(tmp_path, capsys, argv, content):
    f = tmp_path / "doc.yaml"
    f.write_text(content)
    out = tmp_path / "s.json"
    argv = [a.format(f=f) for a in argv] + (["--output", str(out)] if argv[0] == "route" else [])
    assert cli.main(argv) == 2  # time and memory: benchmarks/bench_yaml_bomb.py
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err
    assert not out.exists()


def test_loader_is_the_one_used_by_route_and_validate():
    src = (REPO / "quarkci" / "router" / "session.py").read_text() + (
        REPO / "quarkci/commands/contracts.py"
    ).read_text()
    assert "load_document" in src and "yaml.safe_load" not in src and "json.loads" not in src
    assert documents.MAX_ALIASES >= 100 and documents.MAX_NODES <= 1_000_000


@pytest.mark.parametrize(
    "argv, code",
    [
        (["contracts", "list"], 0),
        (["contracts", "list", "--json"], 0),
        (["route", "quantize llama to fp8", "--json", "--output", "{tmp}/s.json"], 0),
        (["contracts", "validate", "{tmp}/bad.env_context.json"], 1),
    ],
)
def test_closed_stdout_is_a_normal_end(tmp_path, argv, code):
    (tmp_path / "bad.env_context.json").write_text(json.dumps({"hardware": {"gpu_count": "x"}}))
    argv = [a.format(tmp=tmp_path) for a in argv]
    proc = subprocess.Popen(
        [sys.executable, "-m", "quarkci", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO
    )
    proc.stdout.close()  # `| head -0`: the reader is gone before the first write
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == code
    assert err == ""


def test_closed_stdout_in_process_keeps_the_command_exit_code(tmp_path, monkeypatch, capsys):
    class Closed:
        def write(self, _text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    (tmp_path / "bad.env_context.json").write_text(json.dumps({"hardware": {"gpu_count": "x"}}))
    monkeypatch.setattr(sys, "stdout", Closed())
    assert cli.main(["contracts", "list"]) == 0
    assert cli.main(["contracts", "validate", str(tmp_path / "bad.env_context.json")]) == 1
    assert capsys.readouterr().err == ""
