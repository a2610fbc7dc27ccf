"""``quarkci contracts``: list / validate / check-producers / diff through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quarkci import cli

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "contracts"


def test_list_json_names_one_producer_per_artifact(capsys):
    assert cli.main(["contracts", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    producers = {r["artifact"]: r["producer"] for r in rows}
    assert producers == {
        "session_context": "quarkci.router",
        "env_context": "external:quark-env-preflight",
        "workspace_context": "external:quark-workspace-validate",
        "pytorch_install_result": "external:quark-torch-install",
        "quark_install_result": "external:quark-install",
        "model_analysis": "quarkci.ptq.intake",
        "quant_plan": "quarkci.ptq.plan",
        "run_manifest": "quarkci.ptq.manifest",
        "validation_report": "quarkci.report",
        "verify_proof": "quarkci.verify.prove",
        "run_result": "quarkci.ptq.runner",
        "validation_summary": "quarkci.ptq.validate",
        "day0_result": "quarkci.day0.result",
    }


def test_validate_valid_yaml_exits_0(capsys):
    assert cli.main(["contracts", "validate", str(FIX / "positive" / "fallback.run_manifest.yaml")]) == 0
    assert "valid run_manifest" in capsys.readouterr().out


def test_validate_invalid_document_exits_1_naming_each_json_path(capsys):
    path = FIX / "negative" / "manifest-bad-step-kind.run_manifest.yaml"
    assert cli.main(["contracts", "validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: $.steps[0].kind: 'execute' is not one of" in out


def test_validate_json_output(capsys, tmp_path):
    doc = tmp_path / "anything.json"
    doc.write_text(json.dumps({"status": "ok"}))
    assert cli.main(["contracts", "validate", str(doc), "--artifact", "quark_install_result", "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["valid"] is False
    assert payload["errors"] == [{"path": "$", "message": "missing required field 'quark_version'"}]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["contracts", "validate", "{tmp}/plan.json"], "cannot tell the artifact"),
        (
            ["contracts", "validate", "{tmp}/x.json", "--artifact", "quantplan"],
            "--artifact: invalid choice: 'quantplan'",
        ),
        (["contracts", "validate", "{tmp}/bad.quant_plan.json"], "invalid JSON at line 1"),
        (["contracts", "validate", "{tmp}/bad.run_manifest.yaml"], "invalid YAML at line"),
        (["contracts", "check-producers", "--root", "{tmp}"], "no quarkci/ package"),
        (["contracts", "diff", "--upstream", "{tmp}/none.whl"], "no such file"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, argv, message):
    (tmp_path / "plan.json").write_text("{}")
    (tmp_path / "x.json").write_text("{}")
    (tmp_path / "bad.quant_plan.json").write_text("{")
    (tmp_path / "bad.run_manifest.yaml").write_text("steps: [\n")
    assert cli.main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_check_producers_exit_1_on_a_violating_tree(tmp_path, capsys):
    from tests.contracts.test_producers import compliant

    root = compliant(tmp_path)
    bad = root / "quarkci" / "commands" / "x.py"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text('from pathlib import Path\nPath("out/quant_plan.json").write_text("{}")\n')
    assert cli.main(["contracts", "check-producers", "--root", str(root)]) == 1
    assert "quarkci/commands/x.py:2:1: quarkci.commands.x writes quant_plan" in capsys.readouterr().out
    bad.write_text('from pathlib import Path\nPath("out/notes.txt").write_text("{}")\n')
    assert cli.main(["contracts", "check-producers", "--root", str(root)]) == 0


@pytest.mark.real
def test_diff_against_the_real_0_13_wheel(capsys):
    from tests.realwheels import real_wheel

    wheel = str(real_wheel("0.13"))
    assert cli.main(["contracts", "diff", "--upstream", wheel, "--json"]) == 0  # no breaking finding
    payload = json.loads(capsys.readouterr().out)
    assert payload["version"] == "0.13"
    assert {f["kind"] for f in payload["findings"]} == {"semantic"}
    accepted = [f for f in payload["findings"] if f["accepted"]]
    assert accepted and all(f["rule"] == "contract-behaviour-accepted" for f in accepted)
    payload["findings"] = [f for f in payload["findings"] if not f["rule"].startswith("contract-behaviour-")]
    assert [(f["skill"], f["rule"]) for f in payload["findings"]][:2] == [
        ("contract:quark_install_result", "contract-upstream-copies-differ"),
        ("contract:session_context", "contract-enum-value-extra"),
    ]
    assert len(payload["findings"]) == 6
    assert cli.main(["contracts", "diff", "--upstream", wheel, "--fail-on", "semantic"]) == 1


def test_markdown_twin_is_refused_with_a_hint(tmp_path, capsys):
    md = tmp_path / "validation_report.md"
    md.write_text("# report\n")
    assert cli.main(["contracts", "validate", str(md)]) == 2
    assert "validate its JSON twin" in capsys.readouterr().err
