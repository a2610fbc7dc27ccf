"""The lint debt list in pyproject.toml only shrinks: every file listed under
``[tool.ruff.lint.per-file-ignores]`` for E501 (lines over 110 columns) or C901 (McCabe complexity over
15) still has that violation, and at most 10 files are excused from C901. (``ruff check`` in
scripts/test.sh fails a violation not listed.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEBT_RULES = ("E501", "C901")
MAX_C901_FILES = 10


def _listed(root: Path = REPO) -> dict[str, set[str]]:
    lint = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    return {path: set(rules) & set(DEBT_RULES) for path, rules in lint.get("per-file-ignores", {}).items()}


def _violations(
    root: Path = REPO, paths: tuple[str, ...] = ("quarkci", "tests", "benchmarks", "actions")
) -> dict[str, set[str]]:
    """``path -> {rule}`` as ruff reports E501 and C901 with no file excused."""
    argv = [sys.executable, "-m", "ruff", "check", "--select", ",".join(DEBT_RULES)]
    argv += ["--config", "lint.per-file-ignores = {}", "--output-format", "json", "--exit-zero"]
    out = subprocess.run(
        [*argv, *paths],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: dict[str, set[str]] = defaultdict(set)
    for item in json.loads(out):
        found[Path(item["filename"]).resolve().relative_to(root.resolve()).as_posix()].add(item["code"])
    return found


def test_the_lint_rules_are_on():
    lint = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert "C90" in lint["select"] and "E" in lint["select"] and "E501" not in lint.get("ignore", [])
    assert lint["mccabe"]["max-complexity"] == 15


def _stale_and_unlisted(
    listed: dict[str, set[str]], found: dict[str, set[str]]
) -> tuple[list[str], list[str]]:
    stale = [f"{path}: {rule}" for path, rules in listed.items() for rule in rules - found.get(path, set())]
    unlisted = [
        f"{path}: {rule}" for path, rules in found.items() for rule in rules - listed.get(path, set())
    ]
    return sorted(stale), sorted(unlisted)


def test_every_listed_exception_is_still_needed_and_c901_stays_small():
    stale, unlisted = _stale_and_unlisted(_listed(), _violations())
    assert stale == [], "remove from [tool.ruff.lint.per-file-ignores] (the file is clean now)"
    assert unlisted == []
    c901 = sorted(path for path, rules in _listed().items() if "C901" in rules)
    assert len(c901) <= MAX_C901_FILES, c901


def test_a_stale_exception_is_found(tmp_path):
    """Negative control: a listed file that no longer has a long line, and an unlisted one that has."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ruff]\nline-length = 20\n[tool.ruff.lint]\nselect = ["E", "C90"]\n'
        '[tool.ruff.lint.per-file-ignores]\n"clean.py" = ["E501"]\n'
    )
    (tmp_path / "clean.py").write_text("x = 1\n")
    (tmp_path / "long.py").write_text("name_of_a_value = 'long enough'\n")
    found = _violations(tmp_path, ("clean.py", "long.py"))
    assert _stale_and_unlisted(_listed(tmp_path), found) == (["clean.py: E501"], ["long.py: E501"])


def test_the_pre_commit_config_runs_the_static_checks_of_the_test_command():
    """.pre-commit-config.yaml is valid for pre-commit (its own schema) and its hooks are the static checks
    scripts/test.sh runs: ruff format, ruff check, mypy --strict quarkci and the workflow linters."""
    from pre_commit.clientlib import load_config

    config = load_config(str(REPO / ".pre-commit-config.yaml"))  # raises InvalidConfigError when wrong
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert sorted(hooks) == ["lint-workflows", "mypy", "ruff-check", "ruff-format"]
    # the venv's pinned tools ("system", which pre-commit 4.4+ reads as its new name "unsupported")
    assert all(h["language"] in ("system", "unsupported") for h in hooks.values())
    test_sh = (REPO / "scripts" / "test.sh").read_text(encoding="utf-8")
    for hook, command in (
        ("ruff-format", "ruff format"),
        ("ruff-check", "ruff check"),
        ("mypy", "mypy --strict quarkci"),
        ("lint-workflows", "bash scripts/lint_workflows.sh"),
    ):
        assert hooks[hook]["entry"].startswith(command) and command in test_sh, hook
    assert hooks["mypy"]["pass_filenames"] is False and hooks["lint-workflows"]["pass_filenames"] is False
    python_files = re.compile(hooks["ruff-check"]["files"])
    assert python_files.search("quarkci/cli.py") and not python_files.search("scripts/trim_openapi.py")
    assert re.compile(hooks["lint-workflows"]["files"]).search(".github/workflows/ptq.yml")
