"""Discovery over directories and snapshots; parse failures are values."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from quarkci.core.errors import BadInputError
from quarkci.skills import DirectorySource, SnapshotSource, discover, open_skills
from quarkci.skills.source import MAX_FILE_BYTES

GOOD = "---\nname: {name}\ndescription: d\nsource_knowledge:\n  - quark/a.py\n  - docs/b.rst\n---\n\n# Body\n"


def _write(root: Path, rel: str, data: str | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")


class FakeSnapshot:
    """Minimal in-memory Snapshot (files + read_text only)."""

    label = "fake==1.0"

    def __init__(self, files: dict[str, str]) -> None:
        self._files = files

    def files(self, prefix: str = "") -> list[str]:
        return sorted(p for p in self._files if p.startswith(prefix))

    def read_text(self, path: str) -> str:
        return self._files[path]


def test_directory_skills_references_and_order(tmp_path: Path) -> None:
    _write(tmp_path, "b-skill/SKILL.md", GOOD.format(name="b"))
    _write(tmp_path, "b-skill/references/notes.md", "# notes\n")
    _write(tmp_path, "b-skill/nested/SKILL.md", "---\nname: nested\n---\nbody\n")
    _write(tmp_path, "b-skill/nested/extra.md", "x\n")
    _write(tmp_path, "a-skill/SKILL.md", "---\nname: a\ndescription: no source_knowledge\n---\nbody\n")
    _write(tmp_path, "README.md", "not a skill\n")
    skills = discover(DirectorySource(tmp_path))
    assert [s.path for s in skills] == ["a-skill/SKILL.md", "b-skill/SKILL.md", "b-skill/nested/SKILL.md"]
    a, b, nested = skills
    assert a.error is None and a.source_knowledge == ()
    assert b.references == ("b-skill/references/notes.md",)
    assert nested.references == ("b-skill/nested/extra.md",)
    assert b.source_knowledge == ("quark/a.py", "docs/b.rst")
    assert b.source_knowledge_lines == (5, 6)
    assert b.body_line == 8 and b.body.startswith("\n# Body")
    assert b.id == "b-skill" and b.name == "b"


def test_thin_adapter_delegation(tmp_path: Path) -> None:
    _write(tmp_path, "impl/x/SKILL.md", GOOD.format(name="x"))
    _write(
        tmp_path, "x/SKILL.md", "---\nname: x\ndescription: d\n---\n\nFollow [impl](../impl/x/SKILL.md).\n"
    )
    _write(
        tmp_path,
        "y/SKILL.md",
        "---\nname: y\n---\n\n# Y\n\nSee [other](../impl/x/SKILL.md).\n\n- a\n- b\n\ntext\n",
    )
    by_id = {s.id: s for s in discover(DirectorySource(tmp_path))}
    assert by_id["x"].delegates_to == "impl/x/SKILL.md"
    assert by_id["y"].delegates_to is None  # a real body that merely links elsewhere
    assert by_id["impl/x"].delegates_to is None


def test_delegation_spelt_with_an_entity_or_escape_and_no_parse_without_a_skill_link(tmp_path, monkeypatch):
    from quarkci.skills import markdown

    _write(tmp_path, "impl/x/SKILL.md", GOOD.format(name="x"))
    _write(tmp_path, "e/SKILL.md", "---\nname: e\n---\n\nFollow [impl](../impl/x/SKILL&#46;md).\n")
    _write(tmp_path, "b/SKILL.md", "---\nname: b\n---\n\nFollow [impl](../impl/x/SKILL\\.md).\n")
    _write(tmp_path, "p/SKILL.md", "---\nname: p\n---\n\nFollow [impl](../impl/x/SKILL%2Emd).\n")
    parsed: list[str] = []
    real = markdown.parse
    monkeypatch.setattr(
        markdown, "parse", lambda text, first_line=1: parsed.append(text) or real(text, first_line)
    )
    by_id = {s.id: s for s in discover(DirectorySource(tmp_path))}
    assert by_id["e"].delegates_to == "impl/x/SKILL.md"
    assert by_id["b"].delegates_to == "impl/x/SKILL.md"
    assert by_id["p"].delegates_to is None  # percent-encoding is kept in the href: no SKILL.md link
    # a body that cannot spell SKILL.md in a link (impl/x, p) is never parsed to look for one
    assert len(parsed) == 2 and all("SKILL" in t for t in parsed)


# Nine levels of ten aliases each: 10**9 strings once expanded, a few hundred bytes as text.
BILLION_LAUGHS = (
    "---\nname: x\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 10))
    + "---\nbody\n"
)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("---\nname: x\n- item\n---\nbody\n", "malformed YAML frontmatter at line 3"),
        ("---\nname: [unclosed\n---\nbody\n", "malformed YAML frontmatter"),
        ("no frontmatter here\n", "missing YAML frontmatter"),
        ("---\nname: x\nbody without end\n", "unterminated"),
        ("---\n- a\n- b\n---\n", "must be a mapping"),
        (b"---\nname: x\n---\n\xff\xfe bad\n", "not UTF-8"),
        (b"---\nname: x\n---\n\x00\x01\x02", "binary file"),
        (
            "---\nname: x\nsource_knowledge:\n  - quark/ok.py\n  - ../etc/passwd\n---\n",
            "source_knowledge[1] (line 5)",
        ),
        ("---\nname: x\nsource_knowledge:\n  - /etc/passwd\n---\n", "absolute path"),
        ("---\nname: x\nsource_knowledge: quark/a.py\n---\n", "must be a list of paths"),
        ("---\nname: x\nsource_knowledge:\n  - C:/x.py\n---\n", "absolute path"),
        (BILLION_LAUGHS, "over 100000 nodes once aliases are expanded"),
        ("---\nname: x\nname: y\n---\n", "duplicate key 'name' at line 3"),
        ("---\nname: x\n1: y\n---\n", "is not a string"),
    ],
)
def test_bad_skill_files_are_error_values(tmp_path: Path, content: str | bytes, needle: str) -> None:
    _write(tmp_path, "bad/SKILL.md", content)
    _write(tmp_path, "good/SKILL.md", GOOD.format(name="good"))
    bad, good = discover(DirectorySource(tmp_path))
    assert bad.error is not None and needle in bad.error, bad.error
    assert "'bad'" in bad.error or "'x'" in bad.error
    assert good.error is None  # one bad skill does not spoil the others


def test_huge_file_is_refused_without_parsing(tmp_path: Path) -> None:
    _write(tmp_path, "huge/SKILL.md", "---\nname: huge\n---\n" + "a" * (MAX_FILE_BYTES + 1))
    (skill,) = discover(DirectorySource(tmp_path))
    assert skill.error is not None and "over the 2097152-byte limit" in skill.error


def test_symlink_leaving_root_is_ignored(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n", encoding="utf-8")
    root = tmp_path / "skills"
    _write(root, "s/SKILL.md", GOOD.format(name="s"))
    (root / "s" / "leak.md").symlink_to(outside)
    (skill,) = discover(DirectorySource(root))
    assert skill.references == ()


def test_snapshot_source_restricted_to_bundled_prefix() -> None:
    snap = FakeSnapshot(
        {
            "quark/__init__.py": "",
            "quark/_bundled_skills/README.md": "# readme\n",
            "quark/_bundled_skills/s/SKILL.md": GOOD.format(name="s"),
            "quark/_bundled_skills/s/references/r.md": "r\n",
            "quark/other/SKILL.md": GOOD.format(name="not-bundled"),
        }
    )
    source = SnapshotSource(snap)
    assert source.files() == ["README.md", "s/SKILL.md", "s/references/r.md"]
    (skill,) = discover(source)
    assert (skill.path, skill.name, skill.references) == ("s/SKILL.md", "s", ("s/references/r.md",))
    assert "fake==1.0" in source.label


def test_snapshot_without_bundled_skills_has_none() -> None:
    assert discover(SnapshotSource(FakeSnapshot({"quark/__init__.py": ""}))) == []


def test_open_skills_specs(tmp_path: Path) -> None:
    assert discover(open_skills(str(tmp_path))) == []  # an empty directory is valid
    with pytest.raises(BadInputError, match="no such directory"):
        open_skills(str(tmp_path / "missing"))
    (tmp_path / "f.txt").write_text("x", encoding="utf-8")
    with pytest.raises(BadInputError, match="not a directory"):
        open_skills(str(tmp_path / "f.txt"))
    with pytest.raises(BadInputError, match="missing upstream spec"):
        open_skills("bundled:")
    with pytest.raises(BadInputError, match="empty spec"):
        open_skills(" ")


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (
            "description: Use when: a model is quantized. Not for: ONNX",
            "Use when: a model is quantized. Not for: ONNX",
        ),
        (
            'description: Quantize with "fp8": weights and activations',
            'Quantize with "fp8": weights and activations',
        ),
        ("description: Steps: plan, run, check #1 first", "Steps: plan, run, check #1 first"),
    ],
)
def test_an_unquoted_colon_in_a_one_line_entry_is_read_as_text_and_repaired(
    tmp_path: Path, line: str, value: str
) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text(f"---\nname: s\n{line}\n---\n# body\n", encoding="utf-8")
    (skill,) = discover(DirectorySource(tmp_path))
    assert skill.error is None and skill.frontmatter["description"] == value
    (repair,) = skill.frontmatter_repairs
    assert (repair.line, repair.key, repair.old) == (3, "description", line)
    assert yaml.safe_load(repair.new) == {"description": value}  # the fix reads back as the text meant
    assert "mapping values are not allowed" in repair.reason


@pytest.mark.parametrize(
    "block",
    [
        "name: s\ndescription: fine\n",  # valid YAML: nothing repaired
        "name: s\ndescription: 'quoted: on purpose'\n",
        "name: s\ndescription: >-\n  folded: text\n",
    ],
)
def test_valid_frontmatter_is_never_repaired(tmp_path: Path, block: str) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "SKILL.md").write_text(f"---\n{block}---\n# body\n", encoding="utf-8")
    (skill,) = discover(DirectorySource(tmp_path))
    assert skill.error is None and skill.frontmatter_repairs == ()


def test_a_malformed_block_a_quote_cannot_repair_stays_an_error(tmp_path: Path) -> None:
    (tmp_path / "s").mkdir()
    text = "---\nname: s\ndescription: Use when: x\n- item\n---\n# body\n"  # a stray list item too
    (tmp_path / "s" / "SKILL.md").write_text(text, encoding="utf-8")
    (skill,) = discover(DirectorySource(tmp_path))
    assert skill.error is not None and "malformed YAML frontmatter" in skill.error
