"""Shell command parsing inside skills: continuations, heredocs, prompts, redirections, naming."""

from __future__ import annotations

from quarkci.skills.claims.commands import flags, parse_block, parse_inline

BLOCK = """\
# a comment line
$ quark-cli torch-llm-ptq \\
    --model_dir "<M>" \\
    --quant_scheme int8 --seq_len=128
python3 - <<'PY'
import sys  # --not-a-flag inside a heredoc body
PY
FOO=1 "<PYTHON>" -m pip install --no-deps "torch>=2.2" 2>&1 | tee log.txt
python examples/x/quantize_quark.py --device cuda > out.txt && echo done
"""


def test_block_commands_names_and_lines() -> None:
    commands = parse_block(BLOCK, first_line=10)
    assert [(c.name, c.line) for c in commands] == [
        ("quark-cli torch-llm-ptq", 11),
        ("python", 14),
        ("pip", 17),
        ("tee", 17),
        ("quantize_quark.py", 18),
        ("echo", 18),
    ]
    ptq = flags(commands[0])
    assert [(f.name, f.values, f.line) for f in ptq] == [
        ("--model_dir", ("<M>",), 12),
        ("--quant_scheme", ("int8",), 13),
        ("--seq_len", ("128",), 13),
    ]
    assert [f.name for f in flags(commands[2])] == ["--no-deps"]
    script = commands[4]
    assert script.program is not None and script.program.text == "examples/x/quantize_quark.py"
    assert [(f.name, f.values) for f in flags(script)] == [("--device", ("cuda",))]  # "> out.txt" dropped


def test_pip_words_keep_requirements() -> None:
    (pip, _tee) = parse_block('"<PYTHON>" -m pip install --no-deps "torch>=2.2" 2>&1 | tee log\n', 1)
    assert [w.text for w in pip.args] == ["install", "--no-deps", "torch>=2.2"]


def test_inline_fragment_has_no_program() -> None:
    (command,) = parse_inline("--layer_quant_scheme <PATTERN> <SCHEME>", 7)
    assert command.name == ""
    assert [(f.name, f.values, f.line) for f in flags(command)] == [
        ("--layer_quant_scheme", ("<PATTERN>", "<SCHEME>"), 7)
    ]


def test_unbalanced_quotes_fall_back_to_words() -> None:
    (command,) = parse_inline('quark-cli torch-llm-ptq --model_dir "unterminated', 3)
    assert command.name == "quark-cli torch-llm-ptq"
    assert [f.name for f in flags(command)] == ["--model_dir"]


def test_multiline_quoted_argument_and_shell_keywords() -> None:
    block = (
        'python3 -c "\n'
        "from x import y\n"
        "print(y)  # --not-a-flag\n"
        '"\n'
        "for m in a b; do\n"
        "  quark-cli torch-llm-ptq --model_dir $m\n"
        "done\n"
        "if true; then vllm serve m --port 1; fi\n"
    )
    commands = parse_block(block, 1)
    assert [(c.name, c.line) for c in commands] == [
        ("python", 1),
        ("quark-cli torch-llm-ptq", 6),
        ("true", 8),
        ("vllm", 8),
    ]
    assert [(f.name, f.line) for f in flags(commands[1])] == [("--model_dir", 6)]


def test_a_word_not_written_as_itself_moves_no_later_word_to_another_line() -> None:
    """``x\\ y`` is the word ``x y``, written nowhere as such on its line; the search for where a word is
    written stops at the word itself (issue 24: searching on was quadratic, and finding ``x y`` in the
    quoted ``'x y'`` two lines down put ``--b`` on that line)."""
    block = "tool --a x\\ y \\\n  --b 1 \\\n  --c 'x y'\n"
    (command,) = parse_block(block, first_line=1)
    assert [(f.name, f.values, f.line) for f in flags(command)] == [
        ("--a", ("x y",), 1),
        ("--b", ("1",), 2),
        ("--c", ("x y",), 3),
    ]
