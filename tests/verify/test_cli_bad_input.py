"""Bad input to `quarkci verify`: one line, exit 2, before any drive."""

from __future__ import annotations


def test_a_hand_edited_map_and_odd_prove_flags_are_bad_input(tmp_path, capsys):
    """Malformed features/map.json, --timeout inf and an unwritable --lock: exit 2, one line (attack trial)."""
    import json

    from quarkci import cli

    skill = tmp_path / "verify-x"
    (skill / "features").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: verify-x\ndescription: x\n---\n")
    for features in ([1, 2], [{"id": "a", "arch": None, "kind": "correctness"}], [{"id": "a", "arch": []}]):
        (skill / "features" / "map.json").write_text(json.dumps({"map_version": 1, "features": features}))
        assert (
            cli.main(
                ["verify", "prove", "--skill", str(skill), "--feature", "a", "--out", str(tmp_path / "e")]
            )
            == 2
        )
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--skill" in err[0] and "map.json" in err[0], err
    assert (
        cli.main(
            [
                "verify",
                "prove",
                "--skill",
                str(skill),
                "--feature",
                "a",
                "--timeout",
                "inf",
                "--out",
                str(tmp_path / "e"),
            ]
        )
        == 2
    )
    assert "--timeout" in capsys.readouterr().err
    assert (
        cli.main(
            [
                "verify",
                "prove",
                "--skill",
                str(skill),
                "--feature",
                "a",
                "--lock",
                "/proc/x/l",
                "--out",
                str(tmp_path / "e"),
            ]
        )
        == 2
    )
    assert "--lock" in capsys.readouterr().err
