"""A generated skill: structure check, and every command in it executed on the miniature library."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from quarkci import cli
from quarkci.verify.generate import FEATURE_H2, SECTIONS

WORKTREE = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"<[a-z_-]+>|\bTODO\b|\bTBD\b|XXX|\{[a-z_]+\}")


def init(root: Path) -> Path:
    assert (
        cli.main(["verify", "init", "--repo", str(root), "--skills", str(root / ".cursor" / "skills")]) == 0
    )
    return root / ".cursor" / "skills" / "verify-minikern"


def check_skill(skill: Path) -> list[str]:
    """Problems of a generated skill (empty = it passes)."""
    problems = []
    text = (skill / "SKILL.md").read_text()
    front = text.split("---\n")[1]
    meta = yaml.safe_load(front)
    if not meta.get("name", "").startswith("verify-") or "Use when" not in meta.get("description", ""):
        problems.append("frontmatter")
    for section in SECTIONS:
        body = re.search(rf"^## {section}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
        if body is None or "```bash\n" not in body.group(1):
            problems.append(f"section {section} without a command")
    for md in sorted((skill / "features").glob("*-*.md")):
        h2 = re.findall(r"^## (.+)$", md.read_text(), re.M)
        if (
            h2[:2] != list(FEATURE_H2[:2])
            or not h2[2].startswith("Driving it with ")
            or h2[3] != FEATURE_H2[3]
        ):
            problems.append(f"{md.name}: H2s {h2}")
    for path in [skill / "SKILL.md", *sorted((skill / "features").glob("*.md"))]:
        if PLACEHOLDER.search(path.read_text()):
            problems.append(f"{path.name}: placeholder {PLACEHOLDER.search(path.read_text()).group(0)}")
    return problems


def commands(text: str) -> list[str]:
    return [
        line for block in re.findall(r"```bash\n(.*?)```", text, re.S) for line in block.splitlines() if line
    ]


def test_generated_skill_has_every_file_and_passes_the_check(minikern):
    skill = init(minikern)
    names = {p.name for p in (skill / "features").iterdir()}
    for fam in ("gemm", "norm", "act", "flash"):
        assert {f"{fam}-correctness.md", f"{fam}-perf.md", f"{fam}-isa.md"} <= names
    assert {"README.md", "map.json"} <= names
    assert check_skill(skill) == []
    readme = (skill / "features" / "README.md").read_text()
    assert "`flash`: no test and no pure-torch reference in the library" in readme


def test_structure_check_has_a_negative_control(minikern):
    skill = init(minikern)
    text = (skill / "SKILL.md").read_text()
    (skill / "SKILL.md").write_text(text.replace("## Cleanup\n", "## Cleanup\n\nrun <command> here\n"))
    (skill / "features" / "gemm-perf.md").write_text("# x\n\n## Sub-features\n")
    problems = check_skill(skill)
    assert any("placeholder <command>" in p for p in problems)
    assert any(p.startswith("gemm-perf.md: H2s") for p in problems)


def test_every_command_in_the_generated_skill_runs(minikern):
    skill = init(minikern)
    lines = commands((skill / "SKILL.md").read_text())
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(WORKTREE),
    }
    ran = []
    for line in lines:
        expect_fail = line.startswith("! ")
        command = line[2:] if expect_fail else line
        if command.startswith("quarkci "):
            command = f"{sys.executable} -m {command}"
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=minikern,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert (done.returncode != 0) == expect_fail, (line, done.stdout[-2000:], done.stderr[-2000:])
        ran.append(line)
    assert len(ran) == len(lines) >= 10
    assert any("perturb.py" in line for line in ran) and any("g++ -O2 -S" in line for line in ran)
    assert not (minikern / "verify-evidence").exists()  # the Cleanup command removed the evidence
