"""The README's generated blocks: they match the YAML files, cells are escaped, the examples are usable."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from quarkci.core.documents import parse_document
from quarkci.docs.actions_tables import COMMAND, main, render_blocks, replace_blocks
from tests.docs.conftest import ROOT, block, cells, load, make_tree

ACTION = """\
name: tiny
description: Does one thing.
inputs:
  token:
    description: The token.
    required: true
  mode:
    description: "a | b, or `x|y`;\\nsecond line <!-- quarkci:report:x --> @someone"
    required: false
    default: "a"
outputs:
  result:
    description: What it found.
    value: ${{ steps.x.outputs.result }}
runs:
  using: composite
  steps:
    - run: "true"
      shell: bash
"""

CALLED = """\
name: Called
on:
  workflow_call:
    inputs:
      level:
        description: How hard.
        type: string
        required: true
      fast:
        description: Skip the slow part.
        type: boolean
        default: false
    outputs:
      verdict:
        description: The verdict.
        value: ${{ jobs.main.outputs.verdict }}
    secrets:
      token:
        description: A write token.
        required: false
  workflow_dispatch:
    inputs:
      level:
        description: How hard (dispatch).
        type: choice
        options: [low, high]
        default: low
permissions: {}
jobs:
  main:
    runs-on: ubuntu-latest
    permissions: {contents: read}
    steps: [{run: "true"}]
  optional:
    if: inputs.fast
    runs-on: ubuntu-latest
    permissions: {issues: write}
    steps: [{run: "true"}]
"""


def _run(tmp_path: Path, *flags: str) -> int:
    return main(["--root", str(tmp_path), *flags])


def test_the_committed_readme_blocks_match_the_files() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    wanted = replace_blocks(readme, render_blocks(ROOT), "README.md")
    assert wanted == readme, f"README.md's generated blocks differ from the YAML files: run `{COMMAND}`"


def test_check_fails_on_a_stale_block_and_write_fixes_only_the_blocks(tmp_path, capsys) -> None:
    make_tree(tmp_path, {"tiny": ACTION}, {"called.yml": CALLED})
    assert _run(tmp_path, "--check") == 1
    assert f"run `{COMMAND}`" in capsys.readouterr().err
    assert _run(tmp_path, "--write") == 0
    assert _run(tmp_path, "--check") == 0
    text = (tmp_path / "README.md").read_text()
    assert text.startswith("# x\n\nbefore\n\n<!-- generated: actions-tables -->\n")
    assert "\n<!-- /generated -->\n\nmiddle\n\n<!-- generated: permissions-table -->\n" in text
    assert text.endswith("<!-- /generated -->\n\nafter\n")
    assert "stale" not in text
    # a hand edit inside a block is stale again; a second --write gives the same text (idempotent)
    (tmp_path / "README.md").write_text(text.replace("What it found.", "What it found!"))
    assert _run(tmp_path, "--check") == 1
    assert _run(tmp_path, "--write") == 0
    assert (tmp_path / "README.md").read_text() == text


def test_an_input_added_to_a_file_makes_the_readme_stale(tmp_path) -> None:
    make_tree(tmp_path, {"tiny": ACTION})
    assert _run(tmp_path, "--write") == 0
    path = tmp_path / "actions" / "tiny" / "action.yml"
    path.write_text(ACTION.replace("outputs:", "  extra:\n    description: New.\noutputs:"))
    assert _run(tmp_path, "--check") == 1


@pytest.mark.parametrize(
    ("readme", "message"),
    [
        ("# no markers\n", "needs exactly one '<!-- generated: actions-tables -->' line (found 0)"),
        ("<!-- generated: actions-tables -->\n", "has no '<!-- /generated -->' after it"),
    ],
)
def test_missing_markers_are_one_line_exit_2(tmp_path, capsys, readme, message) -> None:
    make_tree(tmp_path, {"tiny": ACTION})
    (tmp_path / "README.md").write_text(readme)
    assert _run(tmp_path, "--check") == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_file_that_is_not_yaml_is_one_line_exit_2(tmp_path, capsys) -> None:
    make_tree(tmp_path, workflows={"bad.yml": "on: [push\n"})
    assert _run(tmp_path, "--check") == 2
    err = capsys.readouterr().err
    assert err.startswith("quarkci: error: .github/workflows/bad.yml:") and err.count("\n") == 1


def test_table_cells_are_escaped(tmp_path) -> None:
    make_tree(tmp_path, {"tiny": ACTION})
    text = render_blocks(tmp_path)["actions-tables"]
    row = next(line for line in text.splitlines() if line.startswith("| `mode` |"))
    # four cells whatever the description holds: pipes escaped (in the code span too), one line
    assert cells(row) == [
        "`mode`",
        "no",
        "`a`",
        "a \\| b, or `x\\|y`; second line &lt;!-- quarkci:report:x --&gt; @\u200bsomeone",
    ]
    assert "<!--" not in text.replace("<!-- generated", "")
    # negative control: the same description unescaped breaks the row into more cells
    raw = "| `mode` | no | `a` | a | b, or `x|y`; second line |"
    assert len(cells(raw)) > 4


def test_workflow_inputs_merge_the_triggers_and_label_what_differs(tmp_path) -> None:
    make_tree(tmp_path, workflows={"called.yml": CALLED})
    text = render_blocks(tmp_path)["actions-tables"]
    rows = {cells(r)[0]: cells(r) for r in text.splitlines() if r.startswith("| `")}
    assert rows["`level`"] == [
        "`level`",
        "call: string<br>dispatch: choice: `low`, `high`",
        "call: yes<br>dispatch: no",
        "call: (none)<br>dispatch: `low`",
        "call: How hard.<br>dispatch: How hard (dispatch).",
    ]
    assert rows["`fast` (call only)"] == [
        "`fast` (call only)",
        "boolean",
        "no",
        "`false`",
        "Skip the slow part.",
    ]
    assert rows["`verdict`"] == ["`verdict`", "The verdict."]
    assert rows["`token`"] == ["`token`", "no", "A write token."]


def _yaml_blocks(text: str) -> list[str]:
    return re.findall(r"^```yaml\n(.*?)^```$", text, flags=re.S | re.M)


def test_the_miniature_examples(tmp_path) -> None:
    make_tree(tmp_path, {"tiny": ACTION}, {"called.yml": CALLED})
    examples = _yaml_blocks(render_blocks(tmp_path)["actions-tables"])
    assert examples == [
        "- uses: OWNER/quarkci/actions/tiny@<full-commit-sha>\n"
        "  with:\n"
        '    token: "<token>"  # required\n'
        '    # mode: "a"\n',
        "jobs:\n"
        "  called:\n"
        "    permissions: {contents: read, issues: write}\n"
        "    uses: OWNER/quarkci/.github/workflows/called.yml@<full-commit-sha>\n"
        "    with:\n"
        '      level: "<level>"  # required\n'
        "      # fast: false\n"
        "    # secrets:\n"
        "      # token: ${{ secrets.TOKEN }}\n",
    ]


def _declared(target: str) -> tuple[dict, dict]:
    """(inputs, secrets) a ``uses:`` target of this repository declares for a caller."""
    path = ROOT / target
    if target.startswith("actions/"):
        return load(path / "action.yml").get("inputs") or {}, {}
    call = load(path)["on"]["workflow_call"] or {}
    return call.get("inputs") or {}, call.get("secrets") or {}


def _examples() -> list[tuple[str, dict]]:
    """Every YAML example in README.md and docs/*.md that uses this repository, parsed: (where, uses-node)."""
    out = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for n, text in enumerate(_yaml_blocks(doc.read_text(encoding="utf-8"))):
            if "OWNER/quarkci/" not in text:
                continue
            parsed = parse_document(text, f"{doc.name} example {n}", fmt="workflow")
            nodes = parsed if isinstance(parsed, list) else list((parsed.get("jobs") or {}).values())
            out += [(f"{doc.name} example {n}", node) for node in nodes if "uses" in node]
    return out


def test_every_example_sets_only_declared_inputs_and_every_required_one() -> None:
    examples = _examples()
    targets = {node["uses"].split("@")[0].removeprefix("OWNER/quarkci/") for _, node in examples}
    # one example per action and per reusable workflow at least (the generated ones), plus hand-written
    assert {f"actions/{p.parent.name}" for p in (ROOT / "actions").glob("*/action.yml")} <= targets
    reusable = {
        f".github/workflows/{p.name}"
        for p in (ROOT / ".github" / "workflows").glob("*.yml")
        if "workflow_call" in load(p)["on"]
    }
    assert reusable <= targets
    for where, node in examples:
        target, pin = node["uses"].removeprefix("OWNER/quarkci/").split("@")
        assert pin in ("<full-commit-sha>",) or re.fullmatch(r"[0-9a-f]{40}", pin), where
        inputs, secrets = _declared(target)
        given = node.get("with") or {}
        assert set(given) <= set(inputs), (where, set(given) - set(inputs))
        assert {k for k, v in inputs.items() if (v or {}).get("required")} <= set(given), where
        assert set(node.get("secrets") or {}) <= set(secrets), where


def _declared_everywhere() -> dict[str, list[tuple[str, str]]]:
    """input name -> [(file, description)] over every action and every trigger of every workflow."""
    out: dict[str, list[tuple[str, str]]] = {}
    for path in sorted((ROOT / "actions").glob("*/action.yml")):
        for name, spec in (load(path).get("inputs") or {}).items():
            out.setdefault(name, []).append((path.parent.name, str((spec or {}).get("description", ""))))
    for path in sorted((ROOT / ".github" / "workflows").glob("*.yml")):
        on = load(path)["on"]
        for trigger in ("workflow_call", "workflow_dispatch"):
            spec = on.get(trigger) if isinstance(on, dict) else None
            for name, field in ((spec or {}).get("inputs") or {}).items() if isinstance(spec, dict) else []:
                out.setdefault(name, []).append((path.name, str((field or {}).get("description", ""))))
    return out


def test_a_deprecated_input_names_the_input_that_replaces_it_in_the_same_file() -> None:
    declared = _declared_everywhere()
    deprecated = {
        (name, file, desc)
        for name, places in declared.items()
        for file, desc in places
        if desc.lower().startswith("deprecated name of")
    }
    # ptq.yml's amd-quark (both triggers) and the watch's upstream: the release is quark-version everywhere
    assert {(n, f) for n, f, _ in deprecated} == {
        ("amd-quark", "ptq.yml"),
        ("upstream", "upstream-watch.yml"),
    }
    for name, file, desc in deprecated:
        new = desc.split()[3].rstrip(" (.")
        assert new == "quark-version" and file in [f for f, _ in declared[new]], (name, file)


def test_the_hand_written_docs_name_only_declared_inputs_and_say_which_are_deprecated() -> None:
    declared = _declared_everywhere()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hand_written = readme
    for name in ("actions-tables", "permissions-table"):
        hand_written = hand_written.replace(block(readme, name), "")
    texts = [hand_written, *(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))]
    mention = re.compile(r"input `([a-z][a-z0-9-]*)(?::[^`]*)?`|`([a-z][a-z0-9-]*)` (?:dispatch )?input\b")
    found = 0
    for text in texts:
        for line in text.splitlines():
            for m in mention.finditer(line):
                name = m.group(1) or m.group(2)
                assert name in declared, f"the docs name an input no file declares: {line}"
                if any(d.lower().startswith("deprecated") for _, d in declared[name]):
                    assert re.search(r"\bold\b|deprecated", line, re.I), line
                found += 1
    assert found >= 4  # pr, corrections-pr, app-slug, amd-quark (old), quark-version


def test_files_of_every_shape_render(tmp_path) -> None:
    """Whatever the files hold: an action without inputs, ``workflow_call:`` with nothing under it, a number
    default, ``read-all``, ``on: push`` as a string, and a workflow that takes no inputs at all."""
    bare = "name: bare\ndescription: x\nruns: {using: composite, steps: []}\n"
    called = (
        "on:\n  workflow_call:\n  workflow_dispatch:\n    inputs:\n      n: {type: number, default: 30}\n"
        "permissions: read-all\njobs:\n  a: {runs-on: x, steps: []}\n"
    )
    pushed = "on: push\npermissions: {}\njobs:\n  b: {runs-on: x, permissions: {}, steps: []}\n"
    make_tree(tmp_path, {"bare": bare}, {"called.yml": called, "pushed.yml": pushed})
    blocks = render_blocks(tmp_path)
    text = blocks["actions-tables"]
    assert (
        "#### `actions/bare`: bare" in text
        and "- uses: OWNER/quarkci/actions/bare@<full-commit-sha>\n" in text
    )
    assert "| `n` (dispatch only) | number | no | `30` |  |" in text
    assert "pushed.yml`:" not in text  # neither callable nor dispatchable: no section
    assert "`actions: read`" in text and "`id-token" not in text  # read-all: every scope that has a read
    assert "| `pushed.yml` | `b` | none | none (`{}`) |" in blocks["permissions-table"]
    assert "| `called.yml` | `a` | none | `actions: read`" in blocks["permissions-table"]


def _actionlint() -> str:
    found = shutil.which("actionlint") or str(Path(sys.executable).parent / "actionlint")
    assert Path(found).is_file(), "actionlint is part of the test extra (pip install -e '.[test]')"
    return found


def test_actionlint_accepts_every_generated_example_against_the_real_files(tmp_path) -> None:
    """The examples, pointed at local copies of this repository's workflows and actions, are a workflow
    actionlint accepts: every input they set is declared, every required input is given, and the calling
    job grants what every nested job requires (actionlint's own check, independent of the generator)."""
    (tmp_path / ".git").mkdir()  # actionlint resolves local reusable workflows inside a project only
    shutil.copytree(ROOT / ".github", tmp_path / ".github")
    shutil.copytree(ROOT / "actions", tmp_path / "actions")
    examples = _yaml_blocks(block((ROOT / "README.md").read_text(encoding="utf-8"), "actions-tables"))
    local = [e.replace("OWNER/quarkci/", "./").replace("@<full-commit-sha>", "") for e in examples]
    calls = [e.split("\n", 1)[1] for e in local if e.startswith("jobs:")]
    steps = [e for e in local if e.startswith("- uses:")]
    steps_text = "".join("      " + line + "\n" for e in steps for line in e.splitlines())
    consumer = (
        "name: consumer\non: workflow_dispatch\npermissions: {}\njobs:\n"
        + "".join(calls)
        + "  steps:\n    runs-on: ubuntu-latest\n    timeout-minutes: 5\n    permissions: {}\n    steps:\n"
        + steps_text
    )
    assert len(calls) >= 5 and len(steps) >= 4
    (tmp_path / ".github" / "workflows" / "consumer.yml").write_text(consumer, encoding="utf-8")
    result = subprocess.run(
        [_actionlint(), "-shellcheck=", "-pyflakes=", ".github/workflows/consumer.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # negative controls: an undeclared input, a missing required one, and the old README row for
    # verify.yml (without contents: write, which its optional corrections job needs)
    broken = consumer.replace('audit-exit-code: "<audit-exit-code>"  # required', "no-such-input: x")
    old = "permissions: {contents: write, pull-requests: write}\n    uses: ./.github/workflows/verify.yml"
    assert old in broken
    broken = broken.replace(old, old.replace("contents: write", "contents: read"))
    (tmp_path / ".github" / "workflows" / "consumer.yml").write_text(broken, encoding="utf-8")
    result = subprocess.run(
        [_actionlint(), "-shellcheck=", "-pyflakes=", ".github/workflows/consumer.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert '"no-such-input" is not defined' in result.stdout
    assert '"audit-exit-code" is required' in result.stdout
    assert 'nested job "corrections" of "./.github/workflows/verify.yml" requires "contents: write"' in (
        result.stdout
    )
