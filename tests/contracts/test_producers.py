"""The one-producer rule, made exact by the one writer (``write_artifact(contract, ...)``): a static scan
verifies every write_artifact call against the registry producer, flags any other write of a registered
artifact file (five styles, including a path passed to a helper), and counts what it verified."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.contracts.producers import audit, check_producers, find_writes
from quarkci.core.artifacts import ARTIFACTS

REPO = Path(__file__).resolve().parents[2]
PRODUCED = [a for a in ARTIFACTS.values() if not a.external]


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, code in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))
    return tmp_path


def compliant(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A miniature quarkci whose every produced artifact is written through write_artifact by its producer."""
    files = {}
    for a in PRODUCED:
        rel = "/".join(a.producer.split(".")) + "/__init__.py"
        files[rel] = files.get(rel, "from quarkci.core.documents import write_artifact\n") + textwrap.dedent(f"""
            def write_{a.name}(out, doc):
                return write_artifact("{a.name}", out / "{a.filename}", doc)
        """)
    files.update(extra or {})
    return _tree(tmp_path, files)


def _problems(root: Path) -> list[tuple[str, str, str]]:
    return [(v.module, v.artifact, v.problem) for v in check_producers(root)]


def test_a_compliant_tree_verifies_every_produced_artifact_from_the_registry(tmp_path):
    report = audit(compliant(tmp_path))
    assert report.violations == []
    assert report.verified == report.produced == tuple(a.name for a in PRODUCED)
    assert len(report.produced) == len(PRODUCED) >= 5
    assert set(report.external) == {a.name for a in ARTIFACTS.values() if a.external}


def test_a_producer_without_a_write_artifact_call_is_not_counted_as_verified(tmp_path):
    root = compliant(tmp_path)
    (root / "quarkci/ptq/plan/__init__.py").write_text("def write(out, doc):\n    pass\n")
    report = audit(root)
    assert "quant_plan" not in report.verified and len(report.verified) == len(PRODUCED) - 1
    assert [(v.artifact, v.problem) for v in report.violations] == [("quant_plan", "unverified")]


# The five styles of an injected write of quant_plan (producer: quarkci.ptq.plan) from a wrong module.
STYLES = {
    "write_text": """
        from pathlib import Path
        def save(out, text):
            (Path(out) / "quant_plan.json").write_text(text)
    """,
    "open": """
        def save(out, text):
            with open(f"{out}/quant_plan.json", "w") as fh:
                fh.write(text)
    """,
    "json.dump": """
        import json
        from pathlib import Path
        PLAN = "quant_plan.json"
        def save(out, plan):
            with (Path(out) / PLAN).open("w") as fh:
                json.dump(plan, fh)
    """,
    "atomic_write": """
        from quarkci.core.atomic import atomic_write_text
        def save(out, text):
            target = out / "quant_plan.json"
            atomic_write_text(target, text)
    """,
    "helper parameter": """
        from quarkci.commands.util import dump_to
        def save(out, plan):
            dump_to(plan, out / "quant_plan.json")
    """,
}
HELPER = """
    import json
    from pathlib import Path
    def dump_to(doc, destination):
        final = Path(destination)
        final.write_text(json.dumps(doc))
"""


@pytest.mark.parametrize("style", list(STYLES))
def test_each_injected_write_style_from_a_wrong_module_is_caught(tmp_path, style):
    root = compliant(
        tmp_path, {"quarkci/commands/injected.py": STYLES[style], "quarkci/commands/util.py": HELPER}
    )
    found = [(m, a, p) for m, a, p in _problems(root) if m == "quarkci.commands.injected"]
    assert found == [("quarkci.commands.injected", "quant_plan", "bypass")]
    # negative control: the same code writing a file that is no artifact passes
    clean = STYLES[style].replace("quant_plan.json", "notes.json")
    root2 = compliant(
        tmp_path / "clean", {"quarkci/commands/injected.py": clean, "quarkci/commands/util.py": HELPER}
    )
    assert _problems(root2) == []


def test_the_helper_style_names_the_helper(tmp_path):
    root = compliant(
        tmp_path,
        {"quarkci/commands/injected.py": STYLES["helper parameter"], "quarkci/commands/util.py": HELPER},
    )
    [v] = check_producers(root)
    assert v.one_line().startswith(
        "quarkci/commands/injected.py:4:5: quarkci.commands.injected writes quant_plan "
        "through dump_to() without write_artifact"
    )


def test_write_artifact_from_a_wrong_module_and_of_an_external_artifact(tmp_path):
    root = compliant(
        tmp_path,
        {
            "quarkci/commands/injected.py": """
        from quarkci.core.documents import write_artifact
        def save(out, doc):
            write_artifact("quant_plan", out / "plan.json", doc)
            write_artifact("env_context", out / "env.json", doc)
    """
        },
    )
    assert sorted(_problems(root)) == [
        ("quarkci.commands.injected", "env_context", "external"),
        ("quarkci.commands.injected", "quant_plan", "wrong-producer"),
    ]


def test_a_contract_name_that_is_not_a_literal_is_a_violation(tmp_path):
    root = compliant(
        tmp_path,
        {
            "quarkci/commands/injected.py": """
        from quarkci.core.documents import write_artifact
        def save(name, out, doc):
            write_artifact(name, out, doc)
    """
        },
    )
    assert _problems(root) == [("quarkci.commands.injected", "?", "dynamic-contract")]


def test_even_the_producer_may_not_bypass_write_artifact(tmp_path):
    root = compliant(
        tmp_path,
        {
            "quarkci/ptq/plan/extra.py": """
        from pathlib import Path
        def also(out):
            Path(out, "quant_plan.json").write_text("{}")
    """
        },
    )
    assert _problems(root) == [("quarkci.ptq.plan.extra", "quant_plan", "bypass")]


def test_reads_and_mentions_in_content_are_not_writes(tmp_path):
    root = compliant(
        tmp_path,
        {
            "quarkci/report/md.py": """
        from pathlib import Path
        from quarkci.core.atomic import atomic_write_text
        def r(out):
            data = Path(out, "quant_plan.json").read_text()
            with open(Path(out) / "run_manifest.yaml") as fh:
                fh.read()
            atomic_write_text(out / "summary.md", "see quant_plan.json and run_manifest.yaml")
            return data
    """
        },
    )
    assert _problems(root) == []


def test_quarkci_itself(capsys):
    """The enforcement on quarkci's own tree: no violation, and every artifact quarkci produces is verified."""
    report = audit(REPO)
    assert report.violations == [], "\n".join(v.one_line() for v in report.violations)
    assert set(report.verified) == {a.name for a in ARTIFACTS.values() if not a.external}
    writes = {(w.module, w.artifact, w.style) for w in find_writes(REPO)}
    assert ("quarkci.router.session", "session_context", "write_artifact") in writes  # not vacuous


def test_cli_prints_the_verified_count_and_exits_1_on_a_violation(tmp_path, capsys):
    root = compliant(tmp_path)
    assert cli.main(["contracts", "check-producers", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert f"verified {len(PRODUCED)} of {len(PRODUCED)} quarkci-produced artifacts" in out
    (root / "quarkci/commands").mkdir(parents=True, exist_ok=True)
    (root / "quarkci/commands/x.py").write_text(
        'from pathlib import Path\nPath("out/quant_plan.json").write_text("{}")\n'
    )
    assert cli.main(["contracts", "check-producers", "--root", str(root)]) == 1
    assert (
        "quarkci/commands/x.py:2:1: quarkci.commands.x writes quant_plan without write_artifact"
        in capsys.readouterr().out
    )
