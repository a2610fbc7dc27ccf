"""source-path-missing (where a cited file went, by content) and upstream-fact-moved on the real
amd-quark wheels (downloaded at test time, cached).

Checked by hand against the wheels:

* 0.11 moved ``quark/experimental/cli/torch_llm/llm_utils/model_preparation.py`` (0.10) to
  ``quark/torch/utils/llm/model_preparation.py``; 0.10's CLI model table (``cli_models``) lived in the
  old file, every release's model templates are in ``quark/torch/quantization/config/template.py``.
* 0.13's ``quark/shapeshifter/`` was ``quark/onnx_adapter/`` in 0.11: same names, other directory;
  ``quark/shapeshifter/utils.py`` (``LoadConfigFromFileOrDict``) is 0.11's ``quark/onnx_adapter/utils.py``,
  while 13 other ``utils.py`` files share only its name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.real


def _sync(out: Path, upstream: str, baseline: str | None, skills: str | None = None) -> list[dict]:
    from tests.realwheels import real_wheel

    argv = ["sync", "--upstream", str(real_wheel(upstream)), "--out", str(out), "--fail-on", "none"]
    argv += ["--baseline", str(real_wheel(baseline)) if baseline else "none"]
    if skills is not None:
        argv += ["--skills", skills]
    assert main(argv) == 0
    return json.loads((out / "validation_report.json").read_text(encoding="utf-8"))["findings"]


SKILL = """\
---
name: intake
description: Inspect a model before quantizing it.
source_knowledge:
  - quark/experimental/cli/torch_llm/llm_utils/model_preparation.py
---

# Intake

Check `quark/experimental/cli/torch_llm/llm_utils/model_preparation.py` for the supported model list.

Check `quark/torch/utils/llm/model_preparation.py` for the model template list.

Model templates are registered in `quark/torch/quantization/config/template.py`.
"""


@pytest.fixture
def skills(tmp_path):
    (tmp_path / "skills" / "intake").mkdir(parents=True)
    (tmp_path / "skills" / "intake" / "SKILL.md").write_text(SKILL, encoding="utf-8")
    return str(tmp_path / "skills")


def test_a_file_moved_in_0_11_is_found_by_the_names_it_defined(tmp_path, skills, capsys):
    found = {f["rule"]: f for f in _sync(tmp_path / "out", "0.11", "0.10", skills)}
    capsys.readouterr()
    gone = found["source-path-missing"]
    assert gone["skill_location"] == {"file": "intake/SKILL.md", "line": 5}
    assert gone["source_location"]["file"] == "quark/torch/utils/llm/model_preparation.py"
    assert (
        "most likely now `quark/torch/utils/llm/model_preparation.py` (by content: it defines 6 of the "
        "12 names "
        "the file defined in amd-quark 0.10 (`get_device_max_memory`, `get_model`, `get_tokenizer`, …)"
    ) in gone["source_says"]
    # the fact the skill cites the file for (0.10's CLI model list) is 0.11's template registry
    assert (
        "the model templates it reads there are defined in "
        "`quark/torch/quantization/config/template.py` (29 of 29)"
    ) in gone["source_says"]
    moved = found["upstream-fact-moved"]
    assert moved["skill_location"] == {"file": "intake/SKILL.md", "line": 12}
    assert moved["kind"] == "semantic" and moved["source_says"] == (
        "amd-quark 0.11 defines none of its 29 model templates in "
        "`quark/torch/utils/llm/model_preparation.py`; "
        "29 are defined in `quark/torch/quantization/config/template.py`"
    )
    assert set(found) == {"source-path-missing", "upstream-fact-moved"}  # template.py's sentence is true


def test_on_0_10_the_old_file_holds_the_model_list(tmp_path, skills, capsys):
    found = _sync(tmp_path / "out", "0.10", None, skills)
    capsys.readouterr()
    # 0.10 has the old file and reads its CLI model list from it: only the 0.11 path is missing
    assert [(f["rule"], f["subject"]) for f in found if f["kind"] != "unverifiable"] == [
        ("source-path-missing", "quark/torch/utils/llm/model_preparation.py")
    ]


def test_the_skills_release_says_what_a_cited_file_defined(tmp_path, capsys):
    from tests.realwheels import real_wheel

    found = _sync(tmp_path, "0.11", "0.10", f"bundled:{real_wheel('0.13')}")
    capsys.readouterr()
    says = {f["subject"]: f["source_says"] for f in found if f["rule"] == "source-path-missing"}
    assert (
        "most likely now `quark/onnx_adapter/utils.py` (by content: it defines 1 of the 1 names the "
        "file defined "
        "in amd-quark 0.13 (`LoadConfigFromFileOrDict`))"
    ) in says["quark/shapeshifter/utils.py"]
    assert (
        "most likely now `quark/onnx_adapter/pass_config.py` (by content"
        in says["quark/shapeshifter/pass_config.py"]
    )
    # an __init__.py that only imports says nothing, and 112 files named __init__.py are no guess
    assert says["quark/shapeshifter/passes/__init__.py"].endswith(
        "; 112 files share its name, none in a directory near it"
    )
