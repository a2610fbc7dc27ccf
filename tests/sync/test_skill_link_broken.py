"""skill-link-broken on miniature skills trees: each kind of dead link, its suggestion and fix, and the
links that are not checked (negative controls)."""

from __future__ import annotations

import json
from pathlib import Path

from quarkci.cli import main
from quarkci.facts.base import FactSet
from quarkci.skills import DirectorySource
from quarkci.sync import policy
from quarkci.sync.audit import audit
from quarkci.sync.rules import skill_link_broken
from quarkci.sync.run import read_skills
from quarkci.sync.state import AuditState, UpstreamView

ONNX_INTAKE = """\
---
name: onnx-intake
description: Inspect an ONNX model.
---

# Intake

Schema: [`model_analysis.schema.json`](../../shared/contracts/model_analysis.schema.json)
Plan schema: [`quant_plan.schema.json`](../../shared/contracts/quant_plan.schema.json)
Partition schema: [`subgraph.schema.json`](../../shared/contracts/subgraph.schema.json)
Read the [shared guide](../../../shared/guides/checklist.md) and the [local notes](notes.md).
Upstream: [architecture](../../../../../docs/agent_skills/architecture.md), [code](../../../../../quark/torch/api.py).
Elsewhere: [far away](../../../../../../outside/x.md), [top](../../../../../CHANGELOG.md).
Template: [`<artifact>.schema.json`](../../../shared/contracts/<artifact>.schema.json); `[x](gone.md)`.
"""


def _tree(root: Path) -> DirectorySource:
    """A miniature tree: ``_legacy/l1/onnx/intake`` links one directory short to ``_legacy/shared``."""
    files = {
        "_legacy/l1/onnx/intake/SKILL.md": ONNX_INTAKE,
        "_legacy/l1/onnx/intake/notes.md": "Fine.\n",
        # two files named model_analysis.schema.json: breaking, nearest suggested, no fix
        "_legacy/shared/contracts/model_analysis.schema.json": "{}\n",
        "ptq/references/contracts/model_analysis.schema.json": "{}\n",
        # one file named quant_plan.schema.json: a known successor, fixed by --fix
        "_legacy/shared/contracts/quant_plan.schema.json": "{}\n",
        # a guide no skill owns: its links are the linking skill's, and it links to a dead file
        "_legacy/shared/guides/checklist.md": "See [the template](../templates/skill.md).\n",
        # README and CONTRIBUTING files are not skills: their dead links are not reported
        "_legacy/README.md": "[docs](../../docs/agent_skills/README.md) [gone](nowhere.md)\n",
        "_legacy/CONTRIBUTING.md": "[gone](nowhere.md)\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return DirectorySource(root)


def _view(kind: str, files: list[str], coverage: tuple[str, ...]) -> UpstreamView:
    facts = FactSet(version="9.9", label="amd-quark==9.9", coverage=frozenset(coverage), kinds={})
    return UpstreamView("amd-quark==9.9", kind, facts, frozenset(files), complete=kind == "checkout")


def _state(source: DirectorySource, upstream: UpstreamView, listed: bool = True) -> AuditState:
    skills, claims = read_skills(source)
    files = frozenset(source.files()) if listed else None
    return AuditState(skills, claims, upstream, None, source.read_text, files)


WHEEL = _view("wheel", ["quark/__init__.py", "quark/torch/api.py"], ("quark", "metadata"))


def test_dead_links_in_the_tree_with_nearest_suggestion_and_fix(tmp_path: Path) -> None:
    source = _tree(tmp_path)
    result = audit(_state(source, WHEEL))
    found = {f.subject: f for f in result.findings.findings if f.rule == skill_link_broken.ID}
    skill = "_legacy/l1/onnx/intake/SKILL.md"
    assert sorted(found) == [
        f"{skill}: ../../../../../docs/agent_skills/architecture.md",
        f"{skill}: ../../shared/contracts/model_analysis.schema.json",
        f"{skill}: ../../shared/contracts/quant_plan.schema.json",
        f"{skill}: ../../shared/contracts/subgraph.schema.json",
        "_legacy/shared/guides/checklist.md: ../templates/skill.md",
    ]
    two = found[f"{skill}: ../../shared/contracts/model_analysis.schema.json"]
    assert (two.kind, two.change, two.fix) == ("breaking", "removed", None)
    assert two.skill_location is not None and (two.skill_location.file, two.skill_location.line) == (skill, 8)
    assert (
        "nearest file of that name: `_legacy/shared/contracts/model_analysis.schema.json` (nearest of 2"
        in (two.source_says)
    )
    one = found[f"{skill}: ../../shared/contracts/quant_plan.schema.json"]
    assert (one.kind, one.change) == ("mechanical", "renamed") and one.fix is not None
    assert one.fix.line == 9 and one.fix.new == (
        "Plan schema: [`quant_plan.schema.json`](../../../shared/contracts/quant_plan.schema.json)"
    )
    none = found[f"{skill}: ../../shared/contracts/subgraph.schema.json"]
    assert (
        none.kind == "breaking" and "no file named `subgraph.schema.json` exists anywhere" in none.source_says
    )
    # the followed guide's dead link is the linking skill's, at the guide's line
    guide = found["_legacy/shared/guides/checklist.md: ../templates/skill.md"]
    assert guide.skill == "_legacy/l1/onnx/intake" and guide.kind == "breaking"
    assert (
        guide.skill_location is not None and guide.skill_location.file == "_legacy/shared/guides/checklist.md"
    )
    # a link into amd/Quark's docs/ cannot be checked on a wheel; its quark/ file can, and exists
    docs = found[f"{skill}: ../../../../../docs/agent_skills/architecture.md"]
    assert docs.kind == "unverifiable" and "does not hold `docs/`" in docs.source_says
    # negative controls: existing targets, a link out of the repository, placeholders, code, README
    assert not any(w in s for s in found for w in ("notes.md", "outside", "CHANGELOG", "artifact", "gone"))
    assert not any("nowhere" in s or "README" in s for s in found)


def test_a_link_into_amd_quark_is_checked_on_a_checkout(tmp_path: Path) -> None:
    source = _tree(tmp_path)
    checkout = _view(
        "checkout",
        ["quark/__init__.py", "quark/torch/api.py", "docs/agent_skills/architecture.md"],
        ("quark",),
    )
    found = [f for f in skill_link_broken.check(_state(source, checkout)) if "docs" in f.subject]
    assert found == []  # it exists there
    moved = _view(
        "checkout", ["quark/__init__.py", "quark/torch/api.py", "docs/skills/architecture.md"], ("quark",)
    )
    (gone,) = [f for f in skill_link_broken.check(_state(source, moved)) if "docs" in f.subject]
    assert (
        gone.change == "renamed"
        and "nearest file of that name: `docs/skills/architecture.md`" in gone.source_says
    )
    assert gone.fix is not None and "(../../../../../docs/skills/architecture.md)" in gone.fix.new
    bare = _view("checkout", ["quark/__init__.py"], ("quark",))
    missing = {f.subject: f for f in skill_link_broken.check(_state(source, bare))}
    code = missing["_legacy/l1/onnx/intake/SKILL.md: ../../../../../quark/torch/api.py"]
    assert (
        code.change == "removed"
        and "has no `quark/torch/api.py`; no file of that name remains" in code.source_says
    )


def test_without_the_tree_listing_the_rule_skips(tmp_path: Path) -> None:
    source = _tree(tmp_path)
    result = audit(_state(source, WHEEL, listed=False), policy.Config(), (skill_link_broken,))
    assert result.skipped == ((skill_link_broken.ID, "needs the skills tree's file list"),)
    # control: a tree whose skills link nowhere needs no listing
    (tmp_path / "plain" / "s").mkdir(parents=True)
    (tmp_path / "plain" / "s" / "SKILL.md").write_text("---\nname: s\n---\nNo links.\n", encoding="utf-8")
    plain = _state(DirectorySource(tmp_path / "plain"), WHEEL, listed=False)
    assert audit(plain, policy.Config(), (skill_link_broken,)).skipped == ()


def test_fix_points_the_link_at_the_one_file_of_that_name(tmp_path: Path, wheels) -> None:
    skills = tmp_path / "skills"
    _tree(skills)
    out = tmp_path / "out"
    argv = ["sync", "--upstream", str(wheels["0.99"]), "--baseline", "none", "--skills", str(skills)]
    assert main([*argv, "--out", str(out), "--fix", "--fail-on", "none"]) == 0
    text = (skills / "_legacy/l1/onnx/intake/SKILL.md").read_text(encoding="utf-8")
    assert "(../../../shared/contracts/quant_plan.schema.json)" in text
    assert "(../../shared/contracts/model_analysis.schema.json)" in text  # two candidates: not touched
    report = json.loads((out / "validation_report.json").read_text(encoding="utf-8"))
    left = {f["subject"] for f in report["findings"] if f["rule"] == skill_link_broken.ID}
    assert not any("quant_plan" in s for s in left) and any("model_analysis" in s for s in left)
