"""``quarkci skills list|claims``: deterministic JSON, bundled skills from a wheel, bad input exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from quarkci import cli
from tests.upstream.miniwheel import MINI_CHECKOUT, build_mini_wheel

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skills"


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json(capsys) -> None:
    code, out, _ = _run(["skills", "list", "--skills", str(FIXTURES / "positive"), "--json"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["count"] == 3
    assert [s["id"] for s in payload["skills"]] == ["adapter", "model-list", "ptq-runner"]
    runner = payload["skills"][2]
    assert runner["references"] == ["ptq-runner/references/api.md", "ptq-runner/references/notes.md"]
    assert runner["source_knowledge"][0] == "quark/torch/quantization/config/template.py"


def test_claims_json_is_deterministic_and_filtered(capsys) -> None:
    argv = ["skills", "claims", "--skills", str(FIXTURES / "positive"), "--json", "--kind", "scheme"]
    _, first, _ = _run(argv, capsys)
    _, second, _ = _run(argv, capsys)
    assert first == second
    payload = json.loads(first)
    # 7 placed schemes, + `scheme="fp8"` in the Python block (a scheme of every release since 0.10)
    assert payload["counts"] == {"scheme": 8} and payload["count"] == 8
    assert {c["kind"] for c in payload["claims"]} == {"scheme"}


def test_claims_text_lines(capsys) -> None:
    code, out, _ = _run(
        ["skills", "claims", "--skills", str(FIXTURES / "positive"), "--kind", "cli_flag"], capsys
    )
    assert code == 0
    assert "ptq-runner/SKILL.md:31: cli_flag --quant_scheme [quark-cli torch-llm-ptq]" in out.splitlines()


def test_empty_directory_is_zero_skills(tmp_path, capsys) -> None:
    code, out, _ = _run(["skills", "list", "--skills", str(tmp_path), "--json"], capsys)
    assert code == 0 and json.loads(out)["count"] == 0


def test_missing_directory_is_bad_input(tmp_path, capsys) -> None:
    code, out, err = _run(["skills", "claims", "--skills", str(tmp_path / "nope")], capsys)
    assert code == 2 and out == ""
    assert err.startswith("quarkci: error: --skills") and err.count("\n") == 1


def test_bundled_skills_from_a_wheel(tmp_path, capsys) -> None:
    """bundled:path.whl reads quark/_bundled_skills/ from the zip; a non-UTF-8 SKILL.md is an error value."""
    extra = {
        f"quark/_bundled_skills/{p.relative_to(FIXTURES / 'positive').as_posix()}": p.read_bytes()
        for p in sorted((FIXTURES / "positive").rglob("*"))
        if p.is_file()
    }
    extra["quark/_bundled_skills/broken/SKILL.md"] = b"---\nname: broken\n---\n\xff\n"
    wheel = build_mini_wheel(tmp_path, extra=extra)
    code, out, _ = _run(["skills", "list", "--skills", f"bundled:{wheel}", "--json"], capsys)
    payload = json.loads(out)
    # the miniature checkout bundles skills of its own; ours sit beside them
    theirs = sorted(
        p.parent.relative_to(MINI_CHECKOUT / "quark" / "_bundled_skills").as_posix()
        for p in (MINI_CHECKOUT / "quark" / "_bundled_skills").rglob("SKILL.md")
    )
    ids = [s["id"] for s in payload["skills"]]
    assert code == 0 and ids == sorted(["adapter", "broken", "model-list", "ptq-runner", *theirs])
    assert "not UTF-8" in payload["skills"][ids.index("broken")]["error"]
    code, out, _ = _run(["skills", "claims", "--skills", f"bundled:{wheel}", "--json"], capsys)
    from_wheel = [
        (c["file"], c["line"], c["kind"], c["value"])
        for c in json.loads(out)["claims"]
        if c["skill"] not in theirs
    ]
    _, out, _ = _run(["skills", "claims", "--skills", str(FIXTURES / "positive"), "--json"], capsys)
    from_dir = [(c["file"], c["line"], c["kind"], c["value"]) for c in json.loads(out)["claims"]]
    # + 8 from references/api.md, + 3 of model-list's install section (the `cli` extra; the `onnxslim`
    # requirement and `XINT8` need the vocabulary the CLI hands in), + the adapter link, + the Python block's
    # import, keyword, scheme value and the literal passed (python_argument), + the command the skill runs,
    # + the method called on the imported class (`LLMTemplate.get_config`: a member claim) and that call's
    # python_call claim (what it passes), + the prose span `LLMTemplate.get_config` of line 54 (a member),
    # + the ONNX table's size of model-list line 22 (onnx_config_count) and its name `DefaultConfigMapping`
    assert from_wheel == from_dir and len(from_dir) == 54


def test_bundled_without_spec_is_bad_input(capsys) -> None:
    code, _, err = _run(["skills", "list", "--skills", "bundled:"], capsys)
    assert code == 2 and "missing upstream spec" in err


def test_claims_names_unreadable_skills_and_exits_1(tmp_path, capsys) -> None:
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "SKILL.md").write_text(
        "---\nname: good\ndescription: d\n---\nRun `quark-cli --help`.\n"
    )
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "SKILL.md").write_bytes(b"\xff\xfe\x00binary")
    code, out, err = _run(["skills", "claims", "--skills", str(tmp_path), "--json"], capsys)
    assert code == 1
    payload = json.loads(out)
    assert payload["skills"] == 2 and [u["path"] for u in payload["unreadable"]] == ["bad/SKILL.md"]
    assert err.count("\n") == 1 and "bad/SKILL.md" in err and "binary" in err


def test_an_alias_bomb_frontmatter_is_an_unreadable_skill_not_a_hang(tmp_path, capsys) -> None:
    from tests.skills.test_discover import BILLION_LAUGHS

    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "SKILL.md").write_text(
        "---\nname: good\ndescription: d\n---\nRun `quark-cli --help`.\n"
    )
    (tmp_path / "bomb").mkdir()
    (tmp_path / "bomb" / "SKILL.md").write_text(BILLION_LAUGHS)
    code, out, err = _run(["skills", "claims", "--skills", str(tmp_path), "--json"], capsys)
    assert code == 1
    assert [u["path"] for u in json.loads(out)["unreadable"]] == ["bomb/SKILL.md"]
    assert err.count("\n") == 1 and "over 100000 nodes once aliases are expanded" in err


def test_claims_with_no_readable_skill_is_bad_input(tmp_path, capsys) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "SKILL.md").write_bytes(b"\xff\xfe\x00binary")
    code, out, err = _run(["skills", "claims", "--skills", str(tmp_path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--skills" in err and "none of the 1 skills is readable" in err
