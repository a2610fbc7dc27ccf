"""ONNX configuration names on the real wheels (issue 21, round 5): `onnx-config-unknown` and
`onnx-config-misspelt` (claims/onnx_configs.py). Values from each wheel's
quark/onnx/quantization/config/custom_config.py `DefaultConfigMapping`: 0.8.2 has `A8W8` but not
`A8W8_ADAROUND` (added in 0.9); `VINT8` arrives in 0.10; no release has `S8S8_AAWS_GPTQ`; 0.13's
auto_search/qconfig_mapping.py `AUTO_SEARCH_CONFIGS` holds `XINT8_SEARCH`.
"""

from __future__ import annotations

import pytest

from quarkci.facts.public_api import onnx_configs
from tests.sync.test_resolver import _audit, _view

pytestmark = pytest.mark.real

BODY = (
    "# ONNX static quantization\n\n"  # 6
    "`XINT8`, `S8S8_AAWS`, `A8W8` and `A16W8` are in the default configuration mapping.\n"  # 8
    "The AdaRound flavour of A8W8 is the configuration `A8W8_ADAROUND`.\n"  # 9
    "For Ryzen AI vision models the tuned preset is `VINT8`.\n"  # 10
    "For GPTQ rounding pick the `S8S8_AAWS_GPTQ` configuration.\n"  # 11
    "Weights stay in `BF16` until export.\n"  # 12
    '\n```python\nconfig = get_default_config("U8S8_AAWS")\n```\n'  # 14
)


def _found(findings, rule):
    return sorted((f.skill_location.line, f.subject, f.kind) for f in findings if f.rule == rule)


def test_a_configuration_another_release_defines_is_breaking_one_none_defines_is_semantic(tmp_path):
    on_082 = _audit(tmp_path / "a", BODY, "0.8.2")
    assert _found(on_082, "onnx-config-unknown") == [
        (9, "ONNX config A8W8_ADAROUND", "breaking"),
        (10, "ONNX config VINT8", "breaking"),
    ]
    assert _found(on_082, "onnx-config-misspelt") == [(11, "ONNX config S8S8_AAWS_GPTQ", "semantic")]
    # negative control: 0.10 has both; a data type in prose (`BF16`) is no configuration claim
    on_010 = _audit(tmp_path / "b", BODY, "0.10")
    assert _found(on_010, "onnx-config-unknown") == []
    assert _found(on_010, "onnx-config-misspelt") == [(11, "ONNX config S8S8_AAWS_GPTQ", "semantic")]


def test_the_names_come_from_the_mapping_the_constants_and_the_auto_search_presets():
    names = onnx_configs(_view("0.13").items("public_api"))
    assert {"XINT8", "VINT8", "A8W8_ADAROUND", "XINT8_WEIGHTSONLY_ADAROUND", "XINT8_SEARCH"} <= names
    assert "S8S8_AAWS_GPTQ" not in names and "XINT16" not in names
    assert "VINT8" not in onnx_configs(_view("0.9").items("public_api"))


def test_a_file_not_about_onnx_claims_no_configuration(tmp_path):
    body = "# Torch\n\nThe preset `VINT8_FAST` and the configuration `A8W8_ADAROUND` are ours.\n"
    assert _found(_audit(tmp_path, body, "0.8.2"), "onnx-config-unknown") == []


def test_an_exported_python_constant_and_a_users_own_name_are_no_configuration(tmp_path):
    # 0.11 quark/onnx/__init__.py exports XINT8_QCONFIG (a QConfig object, not a DefaultConfigMapping key);
    # `XINT8_CONFIG` is custom_config.py's constant behind the name XINT8
    body = (
        "# ONNX presets\n\nThe package exports the configurations `XINT8_QCONFIG` and `A8W8_QCONFIG`; "
        "`XINT8_CONFIG` is the constant behind the configuration name `XINT8`.\n"
    )
    found = _audit(tmp_path, body, "0.11")
    assert [f for f in found if f.rule.startswith("onnx-config")] == []
