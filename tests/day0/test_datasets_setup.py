"""Dataset availability is a setup-gate check (issue 22, item 3): ``day0 run --tasks X`` offline with X's
dataset not in the local cache is SYSTEMIC at the setup gate, before any PTQ stage starts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.day0 import conductor as cond
from quarkci.day0.lm_eval_tasks import task_datasets
from quarkci.day0.stages import default_stages
from quarkci.day0.state import Day0Config, GateFailed
from quarkci.day0.suite import Suite, write_demo_suite


def _model(tmp_path: Path) -> Path:
    model = tmp_path / "src"
    model.mkdir()
    (model / "config.json").write_text('{"model_type": "llama"}')
    (model / "model.safetensors").write_bytes(b"\0" * 1000)
    (model / "tokenizer.json").write_text("{}")
    return model


@pytest.fixture
def offline(monkeypatch):
    pytest.importorskip("datasets")
    for key in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(key, "1")


# --- which dataset a task loads (read statically from the task files) ------------------------------


def test_the_dataset_of_each_lm_eval_task_is_read_from_its_files():
    pytest.importorskip("lm_eval")
    refs, unresolved = task_datasets(("arc_easy", "arc_challenge"))
    assert [(r.task, r.path, r.name) for r in refs] == [
        ("arc_easy", "allenai/ai2_arc", "ARC-Easy"),
        (
            "arc_challenge",
            "allenai/ai2_arc",
            "ARC-Challenge",
        ),  # through arc_challenge's include: arc_easy.yaml
    ] and unresolved == []
    refs, _ = task_datasets(("ai2_arc",))  # a tag, which arc_challenge inherits through its include
    assert sorted(r.name for r in refs) == ["ARC-Challenge", "ARC-Easy"]
    refs, _ = task_datasets(("mmlu",))  # a group of groups of tags
    assert len(refs) == 57 and {r.path for r in refs} == {"cais/mmlu"}


def test_groups_tags_includes_and_python_tasks_in_a_task_directory(tmp_path):
    (tmp_path / "_base.yaml").write_text("dataset_path: org/base\noutput_type: multiple_choice\n")
    (tmp_path / "one.yaml").write_text("include: _base.yaml\ntask: one\ndataset_name: first\ntag: [family]\n")
    (tmp_path / "two.yaml").write_text(
        "task: two\ndataset_path: json\ndataset_kwargs:\n  data_files:\n    test: /data/two.jsonl\n"
        "process_docs: !function utils.process\ntag: family\n"
    )
    (tmp_path / "py.yaml").write_text("task: pyclass\nclass: !function tasks.MyTask\n")
    (tmp_path / "group.yaml").write_text(
        "group: all\ntask:\n  - one\n  - task: inline\n    include: _base.yaml\n"
    )
    refs, unresolved = task_datasets(("all", "family", "pyclass"), tmp_path, root=tmp_path / "nothing")
    assert [(r.task, r.path, r.name, r.data_files) for r in refs] == [
        ("one", "org/base", "first", None),
        ("inline", "org/base", None, None),
        ("two", "json", None, {"test": "/data/two.jsonl"}),
    ]
    assert unresolved == ["pyclass"]  # a Python task class: not checkable, not a failure


# --- the setup gate ---------------------------------------------------------------------------------


def test_run_with_a_dataset_missing_offline_is_systemic_before_ptq(tmp_path, capsys, offline):
    """The issue's case: ``day0 run --tasks arc_easy`` offline, the dataset not cached: SYSTEMIC at setup,
    no PTQ stage started (it used to run PTQ and the canary for ~4 min first)."""
    for name in ("lm_eval", "quark", "torch", "transformers"):
        pytest.importorskip(name)
    out = tmp_path / "out"
    started = time.perf_counter()
    code = main(
        ["day0", "run", "--model", str(_model(tmp_path)), "--scheme", "int8", "--tasks", "arc_easy"]
        + ["--out", str(out), "--cache-dir", str(tmp_path / "cache")]
    )
    seconds = time.perf_counter() - started
    assert code == 3, capsys.readouterr().err
    result = json.loads((out / "day0_result.json").read_text())
    assert (result["decision"], result["failure_classes"]) == ("SYSTEMIC", ["SYSTEMIC"])
    stages = {s["name"]: s for s in result["stages"]}
    assert stages["setup"]["status"] == "failed"
    assert (
        "dataset: 1 of 1 unavailable to the offline eval: arc_easy: allenai/ai2_arc (ARC-Easy)"
        in (stages["setup"]["detail"])
    )
    assert stages["setup"]["outputs"]["datasets"]["unavailable"][0]["dataset"] == "allenai/ai2_arc (ARC-Easy)"
    assert all(s["status"] == "not_run" for name, s in stages.items() if name != "setup")
    assert not (out / "ptq").exists()  # no PTQ stage started: no model analysis, plan or export
    assert seconds < 60, seconds  # one process: the static task read and the dataset check, no PTQ


class _NoStages:
    """The real setup gate; every later stage records that it ran (the PTQ stage stops the chain)."""

    def __init__(self, config):
        self.ran: list[str] = []

        def stop(_ctx, _stage):
            self.ran.append("ptq")
            raise GateFailed(None, "stop here", "ANOMALOUS")

        stages = dict(default_stages()) | {"ptq": stop}
        self.conductor = cond.Conductor(config, say=lambda _m: None, stages=list(stages.items()))
        self.stages = self.conductor.stages

    def run(self) -> dict:
        return self.conductor.run()


def _config(tmp_path: Path, suite: Suite) -> Day0Config:
    return Day0Config(model=_model(tmp_path), scheme="int8", out=tmp_path / "out", suite=suite)


def test_the_demo_suite_is_available_offline(tmp_path, offline):
    """Negative control: the demo suite's local JSON-lines data passes the dataset check."""
    pytest.importorskip("lm_eval")
    conductor = _NoStages(_config(tmp_path, write_demo_suite(tmp_path / "suite")))
    conductor.run()
    setup = conductor.stages["setup"]
    assert setup.status == "passed" and setup.outputs["datasets"] == {
        "checked": 2,
        "unavailable": [],
        "not_checked": [],
    }
    assert "2 dataset(s) available" in setup.detail and conductor.ran == ["ptq"]


def test_a_local_task_whose_data_file_is_gone_is_systemic(tmp_path, offline):
    pytest.importorskip("lm_eval")
    suite = write_demo_suite(tmp_path / "suite")
    (suite.include_path / "quarkci_addition_gen.jsonl").unlink()
    conductor = _NoStages(_config(tmp_path, suite))
    result = conductor.run()
    assert result["decision"] == "SYSTEMIC" and conductor.ran == []
    (missing,) = conductor.stages["setup"].outputs["datasets"]["unavailable"]
    assert missing["task"] == "quarkci_addition_gen" and "FileNotFoundError" in missing["reason"]
