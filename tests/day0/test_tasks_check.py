"""``day0 run --tasks`` is checked at parse time: the local suite, the standard suites, and task, group
or tag names the installed lm-eval knows (read statically from its task files, lm-eval never imported)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from quarkci.core.errors import BadInputError
from quarkci.day0.lm_eval_tasks import known_tasks, tasks_dir
from quarkci.day0.suite import GEN_TASK, MC_TASK, check_tasks

ROOT = Path(__file__).resolve().parents[2]


def _mini(root: Path) -> Path:
    """A miniature lm_eval/tasks tree with each form of name lm-eval indexes."""
    (root / "a").mkdir(parents=True)
    (root / "a" / "plain.yaml").write_text("task: alpha\ntag: fam_a\ndataset_path: x\n")
    (root / "a" / "quoted.yaml").write_text('"task": "beta_egy"\n"tag":\n- "fam_b"\n- fam_c  # note\n')
    (root / "a" / "inline.yaml").write_text("task: gamma\ntag: [fam_d, 'fam_e']\n")
    (root / "a" / "_group.yaml").write_text(
        "group: delta\ntask:\n  - alpha\n  - gamma\naggregate_metric_list:\n  - metric: acc\n"
    )
    (root / "a" / "noext").write_text("task: epsilon\n")
    (root / "a" / "fn.yaml").write_text(
        "task: !function utils.make\nprocess_docs: x\n  task: nested_not_top\n"
    )
    (root / "a" / "mod.py").write_text("task: not_a_yaml\n")
    return root


def test_the_static_reader_finds_each_form_of_name(tmp_path):
    names = known_tasks(_mini(tmp_path / "tasks"))
    assert names == {
        "alpha",
        "fam_a",
        "beta_egy",
        "fam_b",
        "fam_c",
        "gamma",
        "fam_d",
        "fam_e",
        "delta",
        "epsilon",
    }


def test_known_suites_and_lm_eval_names_pass():
    assert check_tasks("demo") == (MC_TASK, GEN_TASK)
    assert check_tasks("quick") == ("arc_easy", "piqa")
    assert check_tasks("standard") == ("gsm8k", "mmlu", "arc_challenge", "hellaswag")
    assert check_tasks("hellaswag, gsm8k,mmlu") == ("hellaswag", "gsm8k", "mmlu")  # tasks and a group


@pytest.mark.parametrize(
    ("spec", "shown"),
    [
        ("bogus", "bogus"),
        ("hellaswag,bogus", "bogus"),
        ("hellaswg", "closest: hellaswag"),
        ("", "''"),
        ("a;b", "'a;b'"),
        ("x" * 101, "x" * 20),
    ],
)
def test_unknown_or_malformed_names_are_refused_naming_tasks(spec, shown):
    with pytest.raises(BadInputError) as info:
        check_tasks(spec)
    message = str(info.value)
    assert message.startswith("--tasks: ") and shown in message and "\n" not in message


def test_without_lm_eval_only_the_naming_pattern_is_checked():
    assert check_tasks("bogus", known=None) == ("bogus",)  # said in the docstring: accepted by pattern
    with pytest.raises(BadInputError, match="--tasks"):
        check_tasks("a;b", known=None)  # negative control: still refused


def test_the_installed_lm_eval_is_read_without_importing_it():
    code = (
        "import sys\nfrom quarkci.day0.lm_eval_tasks import known_tasks\n"
        "names = known_tasks()\n"
        "print(len(names), 'hellaswag' in names, 'mmlu' in names, 'bogus' in names,"
        " sorted(m for m in sys.modules if m.split('.')[0] in ('lm_eval', 'datasets', 'torch')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    count, hellaswag, mmlu, bogus, imported = done.stdout.split(" ", 4)
    assert tasks_dir() is not None and int(count) > 10_000
    assert (hellaswag, mmlu, bogus, imported.strip()) == ("True", "True", "False", "[]")
