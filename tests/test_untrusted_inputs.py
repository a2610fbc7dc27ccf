"""Issue 24: untrusted input (skills, wheels, reports, pyproject.toml from forks and mirrors) ends with a
documented exit code and one line on stderr, in bounded memory, and never replaces a user's file.

Every case runs the real command line in a child process (``python -m quarkci``), offline, with its own
``HOME`` and cache, so a traceback that escapes the error boundary (argparse's type checks run outside it)
is seen as it would be in CI. Fixtures are built in ``tmp_path``: miniature wheels with :mod:`zipfile`
(a huge member from a highly compressible payload), reports and skills written here.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIG_INT = "7" * 5000  # over the standard library's 4,300-digit limit for str -> int
LONG = "a" * 300  # one path component over 255 bytes
METADATA = "Metadata-Version: 2.1\nName: amd-quark\nVersion: 0.99\nRequires-Python: >=3.10,<3.14\n\n"
SKILL = "---\nname: {name}\ndescription: a miniature skill\n---\n\n{body}\n"


def quarkci(
    *argv: str, cwd: Path, env: dict[str, str] | None = None, limit_as: int | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m quarkci *argv`` in ``cwd`` offline, with a private HOME and cache; ``limit_as``
    bounds the child's address space (bytes) with RLIMIT_AS."""
    home = cwd / ".home"
    home.mkdir(exist_ok=True)
    child_env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "QUARKCI_"))},
        "PYTHONPATH": str(REPO),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "QUARKCI_CACHE_DIR": str(home / "quarkci-cache"),
        "TMPDIR": str(home),
        "GITHUB_TOKEN": "",
        "GH_TOKEN": "",
        **(env or {}),
    }
    command = [sys.executable, "-m", "quarkci", *argv]
    if limit_as is not None:
        code = (
            f"import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, ({limit_as}, {limit_as})); "
            "sys.argv = ['quarkci', *sys.argv[1:]]; runpy.run_module('quarkci', run_name='__main__')"
        )
        command = [sys.executable, "-c", code, *argv]
    return subprocess.run(command, cwd=cwd, env=child_env, capture_output=True, text=True, timeout=120)


def one_line(done: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    """Assert exit ``code`` and exactly one ``quarkci: error:`` line on stderr holding every needle."""
    lines = done.stderr.splitlines()
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("quarkci: error: "), lines
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def report(**extra: object) -> dict[str, object]:
    """A valid validation_report.json document (one breaking finding on skills/demo/SKILL.md:3)."""
    finding = {
        "fingerprint": "0123456789abcdef",
        "kind": "breaking",
        "rule": "cli-flag-removed",
        "category": "cli_flags",
        "skill": "demo",
        "subject": "--old",
        "skill_says": "passes --old",
        "source_says": "removed",
        "impact": "the command fails",
        "skill_location": {"file": "demo/SKILL.md", "line": 3},
        "source_location": None,
        "fix": None,
    }
    document: dict[str, object] = {
        "status": "failed",
        "summary": "1 finding",
        "evidence": [],
        "next_actions": [],
        "upstream": {"spec": "amd-quark==0.99", "version": "0.99", "kind": "wheel", "label": "x"},
        "skills_root": "skills",
        "counts": {"breaking": 1, "semantic": 0, "mechanical": 0, "unverifiable": 0, "ignored": 0},
        "findings": [finding],
        "changed_files": [],
        # what sync always writes and the re-rendered summary shows
        "applied_fixes": [],
        "report_version": 1,
        "mode": "audit",
        "baseline": None,
        "skills": [],
        "release_diff": [],
        "blocked": None,
    }
    document.update(extra)
    return document


def wheel(
    directory: Path,
    members: dict[str, bytes | str] | None = None,
    *,
    metadata: str = METADATA,
    name: str = "amd_quark-0.99-py3-none-any.whl",
) -> Path:
    """A miniature amd-quark wheel: ``quark/__init__.py``, a dist-info, and ``members`` (deflated)."""
    path = directory / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("quark/__init__.py", "")
        for member, data in (members or {}).items():
            zf.writestr(member, data)
        zf.writestr("amd_quark-0.99.dist-info/METADATA", metadata)
        zf.writestr("amd_quark-0.99.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: py3-none-any\n")
    return path


def skills_dir(root: Path, **bodies: str) -> Path:
    """``root/<name>/SKILL.md`` for each ``name=body``; returns ``root``."""
    for name, body in bodies.items():
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "SKILL.md").write_text(SKILL.format(name=name, body=body), encoding="utf-8")
    return root


def sync_args(upstream: Path, skills: Path, out: Path, *extra: str) -> list[str]:
    return ["sync", "--upstream", str(upstream), "--skills", str(skills), "--out", str(out), *extra]


# ---------------------------------------------------------------------------------------------
# 1. A JSON integer over 4,300 digits in every place JSON is read; the same in TOML; deep TOML.


def test_contracts_validate_refuses_a_huge_json_integer(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps(report())[:-1] + f', "x": {BIG_INT}}}')
    one_line(quarkci("contracts", "validate", "r.json", "--artifact", "validation_report", cwd=tmp_path), 2,
             "r.json", "an integer of 5000 digits (limit 4300)")  # fmt: skip


def test_contracts_validate_refuses_a_huge_yaml_integer(tmp_path: Path) -> None:
    (tmp_path / "quant_plan.yaml").write_text(f"scheme: fp8\nseed: {BIG_INT}\n")
    one_line(quarkci("contracts", "validate", "quant_plan.yaml", cwd=tmp_path), 2, "quant_plan.yaml",
             "an integer of 5000 characters at line 2")  # fmt: skip


def test_report_github_refuses_a_huge_json_integer_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "rd").mkdir()
    text = json.dumps(report()).replace('"breaking": 1', f'"breaking": {BIG_INT}')
    (tmp_path / "rd" / "validation_report.json").write_text(text)
    env = {"GITHUB_OUTPUT": str(tmp_path / "out.txt"), "GITHUB_STEP_SUMMARY": str(tmp_path / "sum.md")}
    one_line(quarkci("report", "github", "--report-dir", "rd", cwd=tmp_path, env=env), 2, "5000 digits")
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "sum.md").exists()


def test_report_markdown_refuses_a_huge_json_integer_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps(report()).replace('"line": 3', f'"line": {BIG_INT}'))
    done = quarkci("report", "markdown", "--report-json", "r.json", "--output", "r.md", cwd=tmp_path)
    one_line(done, 2, "r.json", "5000 digits")
    assert not (tmp_path / "r.md").exists()


def test_gh_issues_refuses_a_huge_json_integer(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps(report()).replace('"line": 3', f'"line": {BIG_INT}'))
    done = quarkci("gh", "issues", "--report", "r.json", "--dry-run", "--repo", "o/r", cwd=tmp_path)
    one_line(done, 2, "r.json", "5000 digits")


def test_sync_refuses_a_baseline_file_with_a_huge_integer_before_reading_the_upstream(tmp_path: Path) -> None:
    skills = skills_dir(tmp_path / "skills", demo="Use fp8.")
    (tmp_path / "base.json").write_text(f'{{"format": "quarkci-baseline/1", "facts": {BIG_INT}}}')
    done = quarkci(*sync_args(tmp_path / "none.whl", skills, tmp_path / "out", "--baseline", "base.json"),
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2  # --upstream is checked first (while parsing): a missing wheel
    done = quarkci(
        *sync_args(wheel(tmp_path), skills, tmp_path / "out", "--baseline", "base.json"), cwd=tmp_path
    )
    one_line(done, 2, "--baseline base.json", "5000 digits")
    assert not (tmp_path / "out").exists()


def test_sync_skips_a_bundled_example_with_a_huge_integer_instead_of_crashing(tmp_path: Path) -> None:
    example = f'{{"status": "success", "summary": "s", "evidence": [], "next_actions": [], "n": {BIG_INT}}}'
    body = f"## Outputs: validation_report.json\n\n```json\n{example}\n```\n"
    upstream = wheel(tmp_path, {"quark/_bundled_skills/demo/SKILL.md": SKILL.format(name="demo", body=body)})
    done = quarkci("sync", "--upstream", str(upstream), "--baseline", "none", "--out", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # the example is skipped (unparsable), the audit runs
    assert "error" not in done.stderr and "crashed" not in done.stderr
    written = json.loads((tmp_path / "out" / "validation_report.json").read_text())
    assert written["counts"]["breaking"] == 0 and written["skills"][0]["name"] == "demo"


def _repository(tmp_path: Path, pyproject: str) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    skills_dir(repo / "skills", demo="Use fp8.")
    return repo


@pytest.mark.parametrize(
    ("pyproject", "needle"),
    [
        (f"[tool.quarkci]\nlevel = {BIG_INT}\n", "invalid TOML: Exceeds the limit (4300 digits)"),
        ("[tool.quarkci]\nx = " + "[" * 20_000 + "]" * 20_000 + "\n", "TOML nested too deeply"),
        ("tool = 5\n", "[tool] must be a table"),
    ],
    ids=["huge-integer", "20000-nested-arrays", "tool-not-a-table"],
)
def test_sync_refuses_a_bad_pyproject_of_the_audited_repository(
    tmp_path: Path, pyproject: str, needle: str
) -> None:
    repo = _repository(tmp_path, pyproject)
    done = quarkci(*sync_args(wheel(tmp_path), repo / "skills", tmp_path / "out", "--baseline", "none"),
                   cwd=tmp_path)  # fmt: skip
    one_line(done, 2, "pyproject.toml", needle)
    assert not (tmp_path / "out").exists()  # refused before the upstream is read


def test_a_valid_pyproject_is_read_negative_control(tmp_path: Path) -> None:
    repo = _repository(tmp_path, '[tool.quarkci.sync]\nignore = [{rule = "source-path-unverifiable"}]\n')
    done = quarkci(*sync_args(wheel(tmp_path), repo / "skills", tmp_path / "out", "--baseline", "none"),
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "validation_report.json").is_file()


# ---------------------------------------------------------------------------------------------
# 2. report github checks the report against its contract before writing any output.

BAD_REPORTS = {
    "nan-count": report(counts={"breaking": float("nan"), "semantic": 0, "mechanical": 0, "unverifiable": 0}),
    "fractional-count": report(counts={"breaking": 1.5, "semantic": 0, "mechanical": 0, "unverifiable": 0}),
    "findings-a-string": report(findings="everything is fine"),
    "line-a-string": report(findings=[{**report()["findings"][0], "skill_location": {"file": "d", "line": "3"}}]),  # type: ignore[index]
    "line-fractional": report(findings=[{**report()["findings"][0], "skill_location": {"file": "d", "line": 2.5}}]),  # type: ignore[index]
    "changed-file-dot": report(changed_files=["."]),
    "changed-file-int": report(changed_files=[5]),
    "changed-file-dotdot": report(changed_files=["skills/../../etc/passwd"]),
    "changed-file-long-name": report(changed_files=[f"skills/{LONG}.md"]),
    "location-long-name": report(findings=[{**report()["findings"][0], "skill_location": {"file": f"{LONG}/SKILL.md", "line": 1}}]),  # type: ignore[index]
}  # fmt: skip
NEEDLES = {
    "nan-count": "$.counts.breaking",
    "fractional-count": "$.counts.breaking",
    "findings-a-string": "$.findings: expected array",
    "line-a-string": "$.findings[0].skill_location",
    "line-fractional": "$.findings[0].skill_location",
    "changed-file-dot": "$.changed_files[0] '.': not a relative path",
    "changed-file-int": "$.changed_files[0]: expected string",
    "changed-file-dotdot": "$.changed_files[0] 'skills/../../etc/passwd': not a relative path",
    "changed-file-long-name": "a path component of 303 bytes, over the 255-byte limit",
    "location-long-name": "$.findings[0].skill_location.file",
}


def _report_dir(tmp_path: Path, document: dict[str, object]) -> dict[str, str]:
    (tmp_path / "rd").mkdir()
    (tmp_path / "rd" / "validation_report.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "rd" / "validation_report.md").write_text("# Skill sync\n", encoding="utf-8")
    skills_dir(tmp_path / "skills", demo="line 1\nline 2\nline 3")
    return {"GITHUB_OUTPUT": str(tmp_path / "out.txt"), "GITHUB_STEP_SUMMARY": str(tmp_path / "sum.md")}


@pytest.mark.parametrize("case", sorted(BAD_REPORTS))
def test_report_github_refuses_a_report_that_breaks_its_contract_before_writing(
    tmp_path: Path, case: str
) -> None:
    env = _report_dir(tmp_path, BAD_REPORTS[case])
    argv = ["report", "github", "--report-dir", "rd", "--workspace", ".", "--stage-changed", "stage"]
    one_line(quarkci(*argv, cwd=tmp_path, env=env), 2, "rd/validation_report.json", NEEDLES[case])
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "sum.md").exists()
    assert not (tmp_path / "stage").exists()


def test_report_github_publishes_a_valid_report_negative_control(tmp_path: Path) -> None:
    env = _report_dir(tmp_path, report(changed_files=["skills/demo/SKILL.md"]))
    argv = ["report", "github", "--report-dir", "rd", "--workspace", ".", "--stage-changed", "stage"]
    done = quarkci(*argv, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert "breaking<<" in (tmp_path / "out.txt").read_text()
    # the summary is re-rendered from the JSON (never the .md on disk)
    summary = (tmp_path / "sum.md").read_text()
    assert summary.startswith("<!-- quarkci:report:skill-sync -->") and "--old" in summary
    assert done.stdout.startswith("::error file=skills/demo/SKILL.md,line=3,")
    assert (tmp_path / "stage" / "skills" / "demo" / "SKILL.md").is_file()


def test_report_github_refuses_a_changed_file_missing_from_the_workspace_before_writing(
    tmp_path: Path,
) -> None:
    env = _report_dir(tmp_path, report(changed_files=["skills/demo/SKILL.md", "skills/gone/SKILL.md"]))
    argv = ["report", "github", "--report-dir", "rd", "--workspace", ".", "--stage-changed", "stage"]
    one_line(quarkci(*argv, cwd=tmp_path, env=env), 2, "'skills/gone/SKILL.md': not a regular file")
    assert not (tmp_path / "out.txt").exists() and not (tmp_path / "stage").exists()


# ---------------------------------------------------------------------------------------------
# 3. Symlink loops, damaged wheels, dangling --out, over-long path components.


def test_a_symlink_loop_in_the_skills_tree_is_an_unreadable_skill_not_a_crash(tmp_path: Path) -> None:
    skills = skills_dir(tmp_path / "skills", good="Use fp8.")
    (skills / "good" / "ref-a.md").symlink_to("ref-b.md")  # a reference that loops: ignored
    (skills / "good" / "ref-b.md").symlink_to("ref-a.md")
    (skills / "loop").mkdir()
    (skills / "loop" / "SKILL.md").symlink_to("SKILL.md")  # a skill that loops: unreadable, named
    done = quarkci("skills", "claims", "--skills", "skills", cwd=tmp_path)
    one_line(done, 1, "skill unreadable", "loop/SKILL.md", "cannot read (Too many levels of symbolic links)")
    listed = json.loads(quarkci("skills", "list", "--skills", "skills", "--json", cwd=tmp_path).stdout)
    assert [(s["path"], bool(s["error"])) for s in listed["skills"]] == [
        ("good/SKILL.md", False),
        ("loop/SKILL.md", True),
    ]
    assert listed["skills"][0]["references"] == []
    done = quarkci(*sync_args(wheel(tmp_path), skills, tmp_path / "out", "--baseline", "none", "--fail-on",
                              "none"), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    written = json.loads((tmp_path / "out" / "validation_report.json").read_text())
    assert [f["rule"] for f in written["findings"]] == ["skill-unreadable"]


def _corrupt(path: Path, member: str) -> Path:
    """Flip one byte of ``member``'s stored data (its CRC no longer matches)."""
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(member)
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


def test_a_wheel_member_with_a_bad_crc_is_bad_input(tmp_path: Path) -> None:
    upstream = tmp_path / "amd_quark-0.99-py3-none-any.whl"
    with zipfile.ZipFile(upstream, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("quark/__init__.py", "")
        zf.writestr("quark/api.py", "def quantize():\n    return 1\n")
        zf.writestr("amd_quark-0.99.dist-info/METADATA", METADATA)
    _corrupt(upstream, "quark/api.py")
    one_line(quarkci("facts", "--upstream", upstream.name, cwd=tmp_path), 2,
             "quark/api.py cannot be read from the wheel (Bad CRC-32")  # fmt: skip


def test_a_wheel_with_a_bad_crc_in_a_bundled_skill_is_bad_input_for_skills_export(tmp_path: Path) -> None:
    upstream = tmp_path / "amd_quark-0.99-py3-none-any.whl"
    with zipfile.ZipFile(upstream, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("quark/__init__.py", "")
        zf.writestr("quark/_bundled_skills/demo/SKILL.md", SKILL.format(name="demo", body="Use fp8."))
        zf.writestr("amd_quark-0.99.dist-info/METADATA", METADATA)
    _corrupt(upstream, "quark/_bundled_skills/demo/SKILL.md")
    done = quarkci("skills", "export", "--skills", f"bundled:{upstream.name}", "--out", "copy", cwd=tmp_path)
    one_line(done, 2, "SKILL.md cannot be read from the wheel")
    assert not (tmp_path / "copy").exists() or not any((tmp_path / "copy").rglob("*"))


def test_skills_export_refuses_an_out_that_is_a_dangling_symlink(tmp_path: Path) -> None:
    skills_dir(tmp_path / "skills", demo="Use fp8.")
    (tmp_path / "copy").symlink_to(tmp_path / "elsewhere" / "missing")
    done = quarkci("skills", "export", "--skills", "skills", "--out", "copy", cwd=tmp_path)
    one_line(done, 2, "--out", "a symbolic link to a missing path")
    assert not (tmp_path / "elsewhere").exists()


def _path_options() -> list[tuple[tuple[str, ...], str]]:
    """(command path, option) for every option of every leaf command that takes a path (its metavar
    says FILE, DIR, PATH or SPEC, or it is a positional FILE)."""
    sys.path.insert(0, str(REPO))
    from quarkci.cli import build_parser
    from quarkci.commands.arguments import walk

    found = []
    for path, parser in walk(build_parser()):
        if any(isinstance(a, argparse._SubParsersAction) for a in parser._actions):
            continue
        for action in parser._actions:
            metavar = str(action.metavar or "")
            option = action.option_strings[0] if action.option_strings else metavar
            if (path, option) in REMOTE_PATHS:
                continue
            if action.nargs != 0 and any(w in metavar for w in ("FILE", "DIR", "PATH", "SPEC")):
                found.append((path, option))
    return found


REMOTE_PATHS = {(("gh", "dispatch"), "--workflow")}  # a file in the GitHub repository, not on this machine
# ptq validate --output without --checkpoint is refused first (a hard break: --output changed meaning)
EXTRA_ARGS = {(("ptq", "validate"), "--output"): ["--checkpoint", "ck"]}


PATH_OPTIONS = _path_options()


def test_every_path_option_is_covered() -> None:
    assert len(PATH_OPTIONS) >= 50
    assert (("sync",), "--out") in PATH_OPTIONS and (("contracts", "validate"), "FILE") in PATH_OPTIONS


@pytest.mark.parametrize(
    ("command", "option"), PATH_OPTIONS, ids=[" ".join(c) + " " + o for c, o in PATH_OPTIONS]
)
def test_a_path_component_over_255_bytes_is_one_line_exit_2(
    tmp_path: Path, command: tuple[str, ...], option: str
) -> None:
    value = f"{tmp_path}/{LONG}/x"
    argv = [*command, value] if not option.startswith("-") else [*command, option, value]
    argv += EXTRA_ARGS.get((command, option), [])
    line = one_line(quarkci(*argv, cwd=tmp_path), 2, "a path component of 300 bytes, over the 255-byte limit")
    if option.startswith("-"):
        assert f"error: {option}" in line, line


def test_an_oserror_in_any_type_check_is_the_parsers_one_line_error() -> None:
    """Negative control of the parser's guard: a ``type=`` that raises OSError is exit 2, one line."""
    from quarkci.commands.arguments import Parser

    def refuses(value: str) -> str:
        raise OSError(36, "File name too long")

    parser = Parser(prog="quarkci")
    parser.add_argument("--thing", type=refuses)
    with pytest.raises(SystemExit) as exited:
        parser.parse_args(["--thing", "x"])
    assert exited.value.code == 2


# ---------------------------------------------------------------------------------------------
# 4. Wheels: every member read bounded, METADATA capped, total inflated size bounded, a module too
#    large to parse is unverifiable.


def _streamed(path: Path, member: str, chunk: bytes, count: int, extra: dict[str, str] | None = None) -> Path:
    """A wheel holding ``member`` = ``chunk * count``, deflated while streamed (never all in memory)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("quark/__init__.py", "")
        with zf.open(member, "w", force_zip64=True) as fh:
            for _ in range(count):
                fh.write(chunk)
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return path


def test_a_huge_metadata_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    upstream = _streamed(tmp_path / "amd_quark-0.99-py3-none-any.whl", "amd_quark-0.99.dist-info/METADATA",
                         b"Version: 0.99\n" + b"X" * (1 << 20), 64)  # fmt: skip
    assert upstream.stat().st_size < 1 << 20  # 64 MiB of METADATA in a small wheel
    done = quarkci("facts", "--upstream", upstream.name, cwd=tmp_path, limit_as=1 << 30)
    one_line(done, 2, "METADATA is 67109760 bytes uncompressed (limit 1048576)")


def test_a_member_over_the_member_cap_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    upstream = _streamed(tmp_path / "amd_quark-0.99-py3-none-any.whl", "quark/huge.py", b"#" * (1 << 20), 33,
                         {"amd_quark-0.99.dist-info/METADATA": METADATA})  # fmt: skip
    done = quarkci("facts", "--upstream", upstream.name, cwd=tmp_path, limit_as=1 << 30)
    one_line(done, 2, "quark/huge.py is 34603008 bytes uncompressed (limit 33554432)")


def test_a_wheel_whose_members_inflate_past_the_total_bound_is_refused(tmp_path: Path) -> None:
    upstream = tmp_path / "amd_quark-0.99-py3-none-any.whl"
    zero = bytes(1 << 20)
    with zipfile.ZipFile(upstream, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("quark/__init__.py", "")
        for n in range(9):  # 9 x 30 MiB: each under the member cap, 270 MiB in all
            with zf.open(f"quark/m{n}.py", "w") as fh:
                for _ in range(30):
                    fh.write(zero)
        zf.writestr("amd_quark-0.99.dist-info/METADATA", METADATA)
    one_line(quarkci("facts", "--upstream", upstream.name, cwd=tmp_path), 2,
             "bytes once inflated, over the 268435456-byte limit for a wheel")  # fmt: skip


def test_a_wheel_with_too_many_members_is_refused_before_they_are_read(tmp_path: Path) -> None:
    upstream = tmp_path / "amd_quark-0.99-py3-none-any.whl"
    with zipfile.ZipFile(upstream, "w", zipfile.ZIP_STORED) as zf:
        for n in range(50_001):
            zf.writestr(f"quark/{n}", b"")
        zf.writestr("amd_quark-0.99.dist-info/METADATA", METADATA)
    one_line(
        quarkci("facts", "--upstream", upstream.name, cwd=tmp_path), 2, "50002 members, over the 50000 limit"
    )


TEMPLATE = "quark/torch/quantization/config/template.py"


def test_a_module_too_large_to_parse_is_unverifiable_in_bounded_memory(tmp_path: Path) -> None:
    """The issue's case: a 5 M-line template.py (under the 32 MiB member cap, a small wheel) took 3.9 GB
    in ast.parse. Now it is not parsed: facts say unavailable, the skill's claim is unverifiable."""
    lines = 5_000_000
    upstream = _streamed(tmp_path / "amd_quark-0.99-py3-none-any.whl", TEMPLATE, b"x=1\n", lines,
                         {"quark/big.py": "y = 2\n" * 250_000, "amd_quark-0.99.dist-info/METADATA": METADATA})  # fmt: skip
    assert upstream.stat().st_size < 1 << 20
    done = quarkci("facts", "--upstream", upstream.name, "--json", cwd=tmp_path, limit_as=1 << 30)
    assert done.returncode == 0, done.stderr[-2000:]
    facts = json.loads(done.stdout)
    assert facts["model_templates"] == {"items": [], "unavailable": [TEMPLATE]}
    assert facts["schemes"]["unavailable"] == [TEMPLATE]
    (big,) = [i for i in facts["public_api"]["items"] if i["name"] == "quark.big"]
    assert big["names"] == [] and big["getattr"] is True and big["unparsed"] == "too large to parse"
    body = "## Supported Model Architectures\n\n| Model type | Notes |\n|---|---|\n| `llama` | Llama |\n\n" \
           "```python\nfrom quark.big import y\n```\n"  # fmt: skip
    skills = skills_dir(tmp_path / "skills", demo=body)
    done = quarkci(*sync_args(upstream, skills, tmp_path / "out", "--baseline", "none", "--fail-on", "none"),
                   cwd=tmp_path, limit_as=1 << 30)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads((tmp_path / "out" / "validation_report.json").read_text())
    kinds = {(f["rule"], f["subject"]): f["kind"] for f in written["findings"]}
    assert kinds == {  # nothing reported removed: the template and quark.big's names are unknowable
        ("fact-unverifiable", "model_type llama"): "unverifiable",
        ("python-import-unresolved", "quark.big.y"): "unverifiable",
    }


def test_a_module_just_under_the_parse_bounds_is_parsed_negative_control(tmp_path: Path) -> None:
    upstream = wheel(tmp_path, {"quark/big.py": "y = 2\n" * 100_000})  # 600 KB, 300k tokens
    facts = json.loads(quarkci("facts", "--upstream", upstream.name, "--json", cwd=tmp_path).stdout)
    (big,) = [i for i in facts["public_api"]["items"] if i["name"] == "quark.big"]
    assert big["names"] == ["y"] and "unparsed" not in big


# ---------------------------------------------------------------------------------------------
# 5. Data safety: outputs never replace inputs; --fix through links; export plans first.


def test_report_markdown_refuses_to_write_over_its_input(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps(report()))
    os.link(tmp_path / "r.json", tmp_path / "hard.json")
    before = (tmp_path / "r.json").read_bytes()
    for output in ("r.json", "sub/../r.json", "hard.json"):
        done = quarkci("report", "markdown", "--report-json", "r.json", "--output", output, cwd=tmp_path)
        one_line(done, 2, f"--output {output}: is the --report-json file r.json")
    assert (tmp_path / "r.json").read_bytes() == before
    golden = REPO / "tests" / "fixtures" / "sync" / "golden" / "validation_report.json"
    (tmp_path / "ok.json").write_bytes(golden.read_bytes())
    done = quarkci("report", "markdown", "--report-json", "ok.json", "--output", "r.md", cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # negative control: another file is written
    assert (tmp_path / "r.md").read_text() == golden.with_suffix(".md").read_text()


def test_route_refuses_to_write_over_a_context_it_reads(tmp_path: Path) -> None:
    (tmp_path / "env.json").write_text("{}\n")
    (tmp_path / "ws.json").write_text("{}\n")
    for flag, name in (("--env-context", "env.json"), ("--workspace-context", "ws.json")):
        done = quarkci("route", "quantize to fp8", flag, name, "--output", name, cwd=tmp_path)
        one_line(done, 2, f"--output {name}: is the {flag} file {name}")
        assert (tmp_path / name).read_text() == "{}\n"


def test_route_may_carry_the_session_context_forward_in_place_negative_control(tmp_path: Path) -> None:
    assert quarkci("route", "quantize to fp8", "--output", "s.json", cwd=tmp_path).returncode == 0
    done = quarkci(
        "route", "quantize to fp8", "--session-context", "s.json", "--output", "s.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "s.json").read_text())["workflow"]


@pytest.mark.parametrize(
    ("out", "needle"),
    [
        ("skills/demo/reports", "inside the skill"),
        ("skills/demo", "inside the skill"),
        ("skills", "is the --skills directory"),
        (".", "contains the --skills directory"),
    ],
)
def test_sync_refuses_an_out_among_the_skills(tmp_path: Path, out: str, needle: str) -> None:
    skills_dir(tmp_path / "skills", demo="Use fp8.")
    upstream = wheel(tmp_path)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    done = quarkci(*sync_args(upstream, Path("skills"), Path(out), "--baseline", "none"), cwd=tmp_path)
    one_line(done, 2, f"--out {out}", needle)
    assert sorted(str(p) for p in tmp_path.rglob("*") if ".home" not in p.parts) == [
        b for b in before if ".home" not in b
    ]


def test_sync_out_in_the_tree_outside_every_skill_is_allowed_negative_control(tmp_path: Path) -> None:
    """The pre-commit hook's layout: ``--skills . --out .quarkci-reports``."""
    skills_dir(tmp_path / "skills", demo="Use fp8.")
    done = quarkci(*sync_args(wheel(tmp_path, name="w.whl"), Path("."), Path(".quarkci-reports"), "--baseline", "none"),
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / ".quarkci-reports" / "validation_report.json").is_file()


def _fixable(tmp_path: Path) -> Path:
    """Skills where ``env/SKILL.md`` is a symlink to ``shared/env.md`` (a mechanical Python fix there)."""
    skills = skills_dir(tmp_path / "skills", other="Use fp8.")
    (skills / "shared").mkdir()
    (skills / "shared" / "env.md").write_text(SKILL.format(name="env", body="Requires Python `>=3.9,<3.13`."))
    (skills / "env").mkdir()
    return skills


def test_sync_fix_writes_through_a_symlinked_skill_and_names_the_target(tmp_path: Path) -> None:
    skills = _fixable(tmp_path)
    (skills / "env" / "SKILL.md").symlink_to("../shared/env.md")
    done = quarkci(*sync_args(wheel(tmp_path), skills, tmp_path / "out", "--baseline", "none", "--fix"),
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (skills / "env" / "SKILL.md").is_symlink()  # still a link ...
    assert "Requires Python `>=3.10,<3.14`." in (skills / "shared" / "env.md").read_text()  # ... target fixed
    written = json.loads((tmp_path / "out" / "validation_report.json").read_text())
    assert written["changed_files"] == ["skills/shared/env.md"]  # the target, relative to the working dir
    assert written["applied_fixes"] == ["env/SKILL.md:6: Python >=3.9,<3.13 -> >=3.10,<3.14"]


def test_sync_fix_refuses_to_split_a_hard_linked_skill(tmp_path: Path) -> None:
    skills = _fixable(tmp_path)
    os.link(skills / "shared" / "env.md", skills / "env" / "SKILL.md")
    before = (skills / "shared" / "env.md").read_text()
    done = quarkci(*sync_args(wheel(tmp_path), skills, tmp_path / "out", "--baseline", "none", "--fix"),
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (skills / "env" / "SKILL.md").stat().st_nlink == 2  # not split
    assert (skills / "env" / "SKILL.md").read_text() == before == (skills / "shared" / "env.md").read_text()
    written = json.loads((tmp_path / "out" / "validation_report.json").read_text())
    assert written["changed_files"] == [] and written["applied_fixes"] == []
    md = (tmp_path / "out" / "validation_report.md").read_text()
    assert "env/SKILL.md: a hard link (2 names); edit it by hand" in md


def test_skills_export_checks_the_whole_plan_before_the_first_write(tmp_path: Path) -> None:
    members: dict[str, bytes | str] = {
        f"quark/_bundled_skills/s{n:02d}/SKILL.md": SKILL.format(name=f"s{n:02d}", body="x")
        for n in range(25)
    }
    members["quark/_bundled_skills/zz/../../../../escaped.md"] = "out of the tree"
    upstream = wheel(tmp_path, members)
    done = quarkci("skills", "export", "--skills", f"bundled:{upstream.name}", "--out", "copy", cwd=tmp_path)
    one_line(done, 2, "'zz/../../../../escaped.md': not a relative path")
    assert not (tmp_path / "copy").exists() and not list(tmp_path.rglob("escaped.md"))
    del members["quark/_bundled_skills/zz/../../../../escaped.md"]  # negative control: all 25 written
    upstream = wheel(tmp_path, members, name="ok.whl")
    done = quarkci("skills", "export", "--skills", f"bundled:{upstream.name}", "--out", "copy", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "copy").rglob("SKILL.md"))) == 25


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["ptq", "plan", "--analysis", "in.json", "--scheme", "fp8", "--output", "in.json"],
         "--output in.json: is the --analysis file in.json"),
        (["ptq", "validate", "--source", "m", "--checkpoint", "m", "--run-result", "in.json", "--output",
          "in.json"], "--output in.json: is the --run-result file in.json"),
        (["ptq", "gate", "--summary", "in.json", "--markdown", "in.json"],
         "--markdown in.json: is the --summary file in.json"),
        (["verify", "prove", "--skill", "skills/demo", "--feature", "x", "--out", "skills/demo/evidence"],
         "--out skills/demo/evidence: is inside the --skill directory"),
        (["verify", "maintain", "--skill", "skills/demo", "--out", "skills"],
         "--out skills: contains the --skill directory"),
    ],
    ids=["ptq-plan", "ptq-validate", "ptq-gate", "verify-prove", "verify-maintain"],
)  # fmt: skip
def test_ptq_and_verify_outputs_never_replace_their_inputs(
    tmp_path: Path, argv: list[str], needle: str
) -> None:
    (tmp_path / "in.json").write_text("{}\n")
    (tmp_path / "m").mkdir()
    skills_dir(tmp_path / "skills", demo="Use fp8.")
    one_line(quarkci(*argv, cwd=tmp_path), 2, needle)
    assert (tmp_path / "in.json").read_text() == "{}\n"
    assert not (tmp_path / "skills" / "demo" / "evidence").exists()


def test_an_entry_the_file_system_refuses_to_stat_is_skipped(tmp_path: Path, monkeypatch) -> None:
    """Found by the fuzz campaign (seed 24): ``skills claims --skills //`` reached /proc/1/cwd, whose stat
    is refused even to root in a container, and exited 4. Such an entry is skipped like a dangling link."""
    from quarkci.skills.source import DirectorySource

    skills = skills_dir(tmp_path / "skills", good="Use fp8.")
    (skills / "good" / "cwd").symlink_to("nowhere")  # listed among the files by os.walk
    real_exists = Path.exists

    def exists(self: Path, *args: object, **kwargs: object) -> bool:
        if self.name == "cwd":
            raise PermissionError(13, "Permission denied", str(self))
        return real_exists(self)

    monkeypatch.setattr(Path, "exists", exists)
    assert DirectorySource(skills).files() == ["good/SKILL.md"]


def test_a_walk_over_too_many_entries_is_refused(tmp_path: Path, monkeypatch) -> None:
    """Found by the fuzz campaign (seed 24): ``skills claims --skills //`` walked all of / (and /proc) past
    the 30 s bound. A walk stops after MAX_TREE_ENTRIES entries: exit 2, one line (6.8 s for / here)."""
    from quarkci.core.errors import BadInputError
    from quarkci.skills import source

    skills = skills_dir(tmp_path / "skills", a="x", b="y", c="z")
    assert source.DirectorySource(skills).files() == ["a/SKILL.md", "b/SKILL.md", "c/SKILL.md"]
    monkeypatch.setattr(source, "MAX_TREE_ENTRIES", 5)  # 3 directories + 3 files
    with pytest.raises(BadInputError, match="more than 5 files and directories; not a skills directory"):
        source.DirectorySource(skills).files()


# ---------------------------------------------------------------------------------------------
# Found by the attack trial of this wave: lone surrogates, names that are not UTF-8, a huge version,
# --scales, and outputs that replaced inputs in route, ptq intake, ptq plan and report github.

SURROGATE = '"s\\ud800"'  # valid JSON and YAML escape syntax; not Unicode text


def test_a_lone_surrogate_in_a_report_is_one_line_exit_2_everywhere_it_is_read(tmp_path: Path) -> None:
    rep = tmp_path / "rep"
    rep.mkdir()
    text = json.dumps(report()).replace('"demo"', SURROGATE, 1)
    (rep / "validation_report.json").write_text(text, encoding="utf-8")
    path = str(rep / "validation_report.json")
    for argv in (
        ["report", "markdown", "--report-json", path, "--output", str(tmp_path / "r.md")],
        ["gh", "issues", "--report", path, "--dry-run", "--repo", "o/r"],
        ["contracts", "validate", path],
    ):
        one_line(quarkci(*argv, cwd=tmp_path), 2, "not Unicode text", "$.findings[0].skill")
    assert not (tmp_path / "r.md").exists()


def test_a_lone_surrogate_in_a_baseline_or_a_model_config_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "b.json").write_text('{"version": ' + SURROGATE + "}", encoding="utf-8")
    skills = skills_dir(tmp_path / "skills", demo="Nothing.")
    done = quarkci(*sync_args(wheel(tmp_path), skills, tmp_path / "out", "--baseline", str(tmp_path / "b.json")),
                   cwd=tmp_path)  # fmt: skip
    one_line(done, 2, "not Unicode text")
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text('{"model_type": ' + SURROGATE + "}", encoding="utf-8")
    one_line(quarkci("ptq", "intake", "--model", str(tmp_path / "m"), cwd=tmp_path), 2, "not Unicode text")


def test_a_skill_whose_folder_or_name_is_not_unicode_text_is_unreadable_and_the_report_is_written(
    tmp_path: Path,
) -> None:
    skills = skills_dir(tmp_path / "skills", good="Nothing.")
    bad = Path(os.fsdecode(os.fsencode(str(skills)) + b"/s\xff"))  # a folder name that is not UTF-8
    bad.mkdir()
    (bad / "SKILL.md").write_text(SKILL.format(name="s", body="x"), encoding="utf-8")
    (skills / "named").mkdir()
    (skills / "named" / "SKILL.md").write_text(SKILL.format(name=SURROGATE, body="x"), encoding="utf-8")
    done = quarkci(*sync_args(wheel(tmp_path), skills, tmp_path / "out", "--baseline", "none"), cwd=tmp_path)
    assert done.returncode in (0, 1) and "internal error" not in done.stderr, done.stderr[-2000:]
    written = json.loads((tmp_path / "out" / "validation_report.json").read_text(encoding="utf-8"))
    unreadable = [f for f in written["findings"] if f["rule"] == "skill-unreadable"]
    said = " ".join(f["source_says"] + f["skill_says"] + f["subject"] for f in unreadable)
    assert "s\\xff" in said and "not UTF-8" in said and "not Unicode text" in said, said


def test_a_path_option_that_is_not_utf8_is_one_line_exit_2(tmp_path: Path) -> None:
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/o\xff")
    skills = skills_dir(tmp_path / "skills", demo="Nothing.")
    one_line(quarkci(*sync_args(wheel(tmp_path), skills, Path(odd)), cwd=tmp_path), 2, "--out", "not UTF-8")
    assert not Path(odd).exists()


def test_a_version_of_5000_digits_in_metadata_is_bad_input(tmp_path: Path) -> None:
    metadata = METADATA.replace("Version: 0.99", "Version: 0." + "1" * 5000)
    skills = skills_dir(tmp_path / "skills", demo="Nothing.")
    done = quarkci(*sync_args(wheel(tmp_path, metadata=metadata), skills, tmp_path / "out"), cwd=tmp_path)
    errors = [line for line in done.stderr.splitlines() if line.startswith("quarkci: error: ")]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert len(errors) == 1 and "METADATA has no valid Version header" in errors[0]


@pytest.mark.parametrize(
    "scales", ["[" * 100000, '{"arc_easy": ' + BIG_INT + "}", '{"arc_easy": ' + SURROGATE + "}"]
)
def test_gate_compare_scales_go_through_the_json_reader(tmp_path: Path, scales: str) -> None:
    results = {"results": {"arc_easy": {"acc,none": 0.5, "acc_stderr,none": 0.01}}}
    (tmp_path / "r.json").write_text(json.dumps(results), encoding="utf-8")
    done = quarkci("day0", "gate-compare", "--baseline", "r.json", "--candidate", "r.json", "--scales", scales,
                   cwd=tmp_path)  # fmt: skip
    assert (
        done.returncode in (1, 2) and "internal error" not in done.stderr and "Traceback" not in done.stderr
    )
    assert "--scales" in done.stdout + done.stderr


def test_outputs_never_replace_or_land_in_what_the_command_reads(tmp_path: Path) -> None:
    skills = skills_dir(tmp_path / "skills", s1="Nothing.")
    before = (skills / "s1" / "SKILL.md").read_bytes()
    for output in (skills / "s1" / "SKILL.md", skills / "s1" / "refs.json"):
        one_line(quarkci("route", "quantize llama", "--skills", str(skills), "--output", str(output), cwd=tmp_path),
                 2, "--output", "--skills")  # fmt: skip
    assert (skills / "s1" / "SKILL.md").read_bytes() == before and not (skills / "s1" / "refs.json").exists()
    model = tmp_path / "m"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "llama"}', encoding="utf-8")
    done = quarkci(
        "ptq", "intake", "--model", str(model), "--output", str(model / "config.json"), cwd=tmp_path
    )
    one_line(done, 2, "--output", "--model")
    assert json.loads((model / "config.json").read_text()) == {"model_type": "llama"}
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    calib = tmp_path / "calib.txt"
    calib.write_text("1 + 1 = 2\n", encoding="utf-8")
    done = quarkci("ptq", "plan", "--analysis", "a.json", "--scheme", "fp8", "--calib-dataset", str(calib),
                   "--output", str(calib), cwd=tmp_path)  # fmt: skip
    one_line(done, 2, "--output", "--calib-dataset")
    assert calib.read_text() == "1 + 1 = 2\n"


def test_report_github_never_stages_over_its_report_or_into_a_skill(tmp_path: Path) -> None:
    env = _report_dir(tmp_path, report(changed_files=["skills/demo/SKILL.md"]))  # workspace: tmp_path
    rep, ws = tmp_path / "rd", tmp_path

    def argv(stage: Path) -> list[str]:
        return [
            "report",
            "github",
            "--report-dir",
            str(rep),
            "--workspace",
            str(ws),
            "--stage-changed",
            str(stage),
        ]

    for stage, needle in ((rep, "is the --report-dir"), (ws, "is the --workspace"),
                          (ws / "skills" / "demo", "inside the skill")):  # fmt: skip
        one_line(quarkci(*argv(stage), cwd=tmp_path, env=env), 2, "--stage-changed", needle)
        assert not Path(env["GITHUB_OUTPUT"]).exists()  # refused before the first output
    # negative control: beside the report (the workflows' reports/changed-files) is fine
    stage = rep / "changed"
    done = quarkci(*argv(stage), cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (stage / "skills" / "demo" / "SKILL.md").is_file()
