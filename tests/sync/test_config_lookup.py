"""The audited repository's .quarkci.yaml is looked up from the skills root up to the repository root,
and outside a repository only in the skills root: never up to /."""

from __future__ import annotations

from quarkci.sync.policy import load_config

CONFIG = "sync:\n  ignore:\n    - rule: scheme-unknown\n"


def test_outside_a_repository_a_config_above_the_skills_root_is_not_used(tmp_path):
    (tmp_path / ".quarkci.yaml").write_text(CONFIG)
    skills = tmp_path / "work" / "skills"
    skills.mkdir(parents=True)
    assert not any((p / ".git").exists() for p in (skills, *skills.parents))
    assert load_config(skills).ignore == ()
    (skills / ".quarkci.yaml").write_text(CONFIG)  # the skills root itself is still looked at
    assert [i.rule for i in load_config(skills).ignore] == ["scheme-unknown"]


def test_inside_a_repository_the_lookup_stops_at_its_root(tmp_path):
    (tmp_path / ".quarkci.yaml").write_text(
        CONFIG.replace("scheme-unknown", "cli-flag-removed")
    )  # above the repo
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skills = repo / "agents" / "skills"
    skills.mkdir(parents=True)
    assert load_config(skills).ignore == ()
    (repo / ".quarkci.yaml").write_text(CONFIG)
    assert [i.rule for i in load_config(skills).ignore] == ["scheme-unknown"]
