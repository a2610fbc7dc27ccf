"""``extract_all`` (:mod:`quarkci.facts`, every fact extractor) on the real amd-quark wheels from PyPI
(downloaded at test time, cached): the counts and values stated for each release."""

from __future__ import annotations

import pytest

from quarkci.facts import extract_all
from tests.realwheels import REAL_VERSIONS, real_snapshot

pytestmark = pytest.mark.real

SCHEMES = {"0.10": 13, "0.11": 18, "0.11.1": 18, "0.11.2": 18, "0.12.post1": 27, "0.13": 28}
TEMPLATES = {"0.10": 25, "0.11": 29, "0.11.1": 35, "0.11.2": 35, "0.12.post1": 41, "0.13": 51}
REQUIRES_PYTHON = {
    "0.10": ">=3.9.0,<3.13",
    "0.11": ">=3.9.0,<3.13",
    "0.11.1": ">=3.9.0,<3.13",
    "0.11.2": ">=3.9.0,<3.13",
    "0.12.post1": ">=3.11,<3.14",
    "0.13": ">=3.11,<3.14",
}


@pytest.fixture(scope="module", params=REAL_VERSIONS)
def facts(request):
    return request.param, extract_all(real_snapshot(request.param))


def test_version_and_coverage(facts):
    version, found = facts
    assert found.version == version
    assert found.coverage == frozenset({"quark", "metadata"})
    assert "tools/ci/install_torch.sh" in found.unavailable["torch_matrix"]


def test_scheme_count(facts):
    version, found = facts
    assert len(found.names("schemes")) == SCHEMES[version]
    assert len(found.kinds["schemes"]) == SCHEMES[version]  # one assignment per name


def test_default_templates_count(facts):
    version, found = facts
    assert len(found.kinds["model_templates"]) == TEMPLATES[version]  # exactly the DEFAULT_TEMPLATES keys
    assert {i.attrs["registry"] for i in found.kinds["model_templates"]} == {"DEFAULT_TEMPLATES"}


def test_requires_python(facts):
    version, found = facts
    specs = [i.attrs["specifier"] for i in found.kinds["python"] if i.name == "requires-python"]
    assert specs == [REQUIRES_PYTHON[version]]


def test_cli_flags_have_script_and_primary_names(facts):
    _version, found = facts
    flags = found.kinds["cli_flags"]
    packaged = [i for i in flags if i.attrs["script"] == "quark-cli torch-llm-ptq"]
    assert packaged and all(i.file == "quark/experimental/cli/torch_llm_ptq.py" for i in packaged)
    assert {"--model_dir", "--quant_scheme", "--output_dir"} <= {i.name for i in packaged}
    # every CLI the wheel holds: each flag belongs to a quark-cli subcommand or a console script
    assert all(
        i.attrs["script"].startswith(("quark-cli ", "quark-quant-perf", "quark-skills")) for i in flags
    )
    assert any(i.attrs["script"] == "quark-cli onnx-ptq" for i in flags)


def test_nvfp4_alias_from_012():
    found = extract_all(real_snapshot("0.12.post1"))
    alias = next(i for i in found.kinds["schemes"] if i.name == "fp4_block16_scale_e4m3")
    assert alias.attrs["alias_of"] == "nvfp4"
    assert "mx9" not in found.names("schemes")
    assert "mx9" in extract_all(real_snapshot("0.13")).names("schemes")


def test_010_cli_model_maps_and_export_formats():
    found = extract_all(real_snapshot("0.10"))
    cli_models = found.names("cli_models")
    assert {"deepseekv2v3", "gemma3_llm", "qwen2moe", "llama"} <= cli_models
    assert len(found.kinds["model_templates"]) == 25  # the CLI tables are not templates
    assert extract_all(real_snapshot("0.11")).kinds["cli_models"] == []
    formats = {i.name for i in found.kinds["export_formats"] if i.attrs["kind"] == "format"}
    assert formats == {"onnx", "quark_format", "hf_format", "gguf"}


def test_013_compat_table():
    found = extract_all(real_snapshot("0.13"))
    table = {
        i.name: i.attrs["max_version"]
        for i in found.kinds["compat"]
        if i.attrs["source"] == "DEPRECATED_API_MAX_VERSION"
    }
    assert table == {"seen_tokens": "4.53.3", "get_max_length": "4.48.3", "get_usable_length": "4.53.3"}
