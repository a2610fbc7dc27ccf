"""``link`` claims on miniature skills: what is a link (exact values and lines) and what is not."""

from __future__ import annotations

from pathlib import Path

from quarkci.skills import DirectorySource, discover
from quarkci.skills.claims import extract_claims
from quarkci.skills.claims.links import destination, is_skill_file, links_in

SKILL = """\
---
name: onnx-intake
description: Inspect an ONNX model.
---

# Intake

Schema: [`model_analysis.schema.json`](../../shared/contracts/model_analysis.schema.json)
See the [guide](guide.md#setup), the [plan](<../plan/plan notes.md>) and ![flow](img/flow.png).
A reference-style link to the [contract][c] and a [folder](../shared/).

[c]: ../../shared/contracts/quant_plan.schema.json "quant plan"

Not links: [site](https://example.com/a.md), [mail](mailto:a@b.c), [top](#intake),
[abs](/etc/passwd), [tpl](../../shared/contracts/<primary_artifact>.schema.json),
[var]({name}.md), [env]($HOME/x.md), [dots](.../x.md), [generic](path/to/file.md),
`[in code](dead.md)` and <https://example.com/b.md>.

```markdown
[in a fence](also-dead.md)
```
"""


def _tree(tmp_path: Path) -> DirectorySource:
    skill = tmp_path / "l1" / "onnx" / "intake"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (skill / "guide.md").write_text("Back to [the skill](SKILL.md).\n", encoding="utf-8")
    (skill / "README.md").write_text("[docs](../../../../docs/agent_skills/README.md)\n", encoding="utf-8")
    (skill / "CONTRIBUTING.md").write_text("[gone](nowhere.md)\n", encoding="utf-8")
    return DirectorySource(tmp_path)


def test_links_of_a_skill_exact_values_lines_and_context(tmp_path: Path) -> None:
    source = _tree(tmp_path)
    (skill,) = discover(source)
    links = [c for c in extract_claims(skill, source.read_text) if c.kind == "link"]
    rows = [(c.file, c.line, c.value, c.context["href"], c.context["anchor"]) for c in links]
    assert rows == [
        (
            "l1/onnx/intake/SKILL.md",
            8,
            "l1/shared/contracts/model_analysis.schema.json",
            "../../shared/contracts/model_analysis.schema.json",
            "",
        ),
        ("l1/onnx/intake/SKILL.md", 9, "l1/onnx/intake/guide.md", "guide.md", "setup"),
        ("l1/onnx/intake/SKILL.md", 9, "l1/onnx/intake/img/flow.png", "img/flow.png", ""),
        ("l1/onnx/intake/SKILL.md", 9, "l1/onnx/plan/plan notes.md", "../plan/plan notes.md", ""),
        ("l1/onnx/intake/SKILL.md", 10, "l1/onnx/shared", "../shared/", ""),
        # a reference-style link is claimed on its definition line, where an edit would go
        (
            "l1/onnx/intake/SKILL.md",
            12,
            "l1/shared/contracts/quant_plan.schema.json",
            "../../shared/contracts/quant_plan.schema.json",
            "",
        ),
        # a reference file of the skill is read too; README and CONTRIBUTING files are not skills
        ("l1/onnx/intake/guide.md", 1, "l1/onnx/intake/SKILL.md", "SKILL.md", ""),
    ]
    by_value = {c.value: c for c in links}
    assert by_value["l1/onnx/intake/img/flow.png"].context["image"] is True
    assert by_value["l1/onnx/shared"].context["directory"] is True
    assert not any("dead" in c.value or "primary_artifact" in c.value for c in links)


def test_a_link_out_of_the_tree_keeps_its_leading_dotdot() -> None:
    (found,) = links_in("_legacy_impl/CONTRIBUTE.md", "[arch](../../docs/agent_skills/architecture.md)\n")
    assert found.value == "../docs/agent_skills/architecture.md" and found.line == 1


def test_not_links_negative_controls() -> None:
    for href in (
        "https://example.com/a.md",
        "//cdn.example.com/x.md",
        "mailto:a@b.c",
        "#section",
        "/abs/file.md",
        "",
        "../contracts/%3Cprimary_artifact%3E.schema.json",  # markdown-it's encoding of <primary_artifact>
        "{skill}/SKILL.md",
        "$ROOT/x.md",
        "path/to/your/file.md",
        "....md/x",
        "http://[::1/x.md",  # urlsplit raises on it: still no link, never a crash
    ):
        assert destination(href) is None, href
    assert destination("a%20b.md#Part%201") == ("a b.md", "Part 1")
    assert not is_skill_file("x/README.md") and not is_skill_file("readme.markdown")
    assert not is_skill_file("_legacy_impl/CONTRIBUTING.md") and is_skill_file(
        "x/references/contributing-guide.md"
    )
    assert list(links_in("a/README.md", "[x](dead.md)\n")) == []
