"""cli_flags: every add_argument on any receiver, per script, with literal or unparsed attributes."""

from __future__ import annotations

from quarkci.facts import cli_flags


def _flags(snapshot, script):
    return {i.name: i for i in cli_flags.extract(snapshot)[0] if i.attrs["script"] == script}


def test_packaged_cli_flags(checkout):
    flags = _flags(checkout, "quark-cli torch-llm-ptq")
    assert sorted(flags) == [
        "--dataset",
        "--device",
        "--group_size",
        "--kv_cache_dtype",
        "--model_dir",
        "--model_export",
        "--num_calib_data",
        "--quant_algo",
        "--quant_scheme",
    ]
    assert flags["--model_export"].attrs["action"] == "append"  # on an argument group receiver
    assert flags["--kv_cache_dtype"].attrs["options"] == ["--kv_cache_dtype", "--kv_cache_quant_scheme"]
    assert flags["--quant_scheme"].attrs["options"] == ["--quant_scheme", "-q"]
    assert (
        flags["--num_calib_data"].attrs["type"] == "int" and flags["--num_calib_data"].attrs["default"] == 512
    )
    assert flags["--model_dir"].attrs["required"] is True


def test_values_kept_unparsed_when_not_literal(checkout):
    flags = _flags(checkout, "quark-cli torch-llm-ptq")
    # an expression of string literals is read statically (its order as written); a name stays source text
    assert flags["--dataset"].attrs["choices"] == ["b", "a"]
    assert flags["--device"].attrs["default"] == "device"  # a name: source text
    assert flags["--quant_algo"].attrs["type"] == "lambda s: s.split(',')"
    assert flags["--kv_cache_dtype"].attrs["choices"] == ["fp8", None]


def test_deprecated_from_help(checkout):
    flags = _flags(checkout, "quark-cli torch-llm-ptq")
    assert flags["--group_size"].attrs["deprecated"] is True
    assert flags["--quant_scheme"].attrs["deprecated"] is False


def test_negative_controls_strings_are_not_calls(checkout):
    names = {i.name for i in cli_flags.extract(checkout)[0]}
    assert "--ghost_doc_flag" not in names and "--not_a_flag" not in names


def test_example_script_in_checkout_only(checkout, wheel):
    example = _flags(checkout, "quantize_quark.py")
    assert sorted(example) == ["--model_dir", "--model_export", "--quant_scheme", "output"]
    assert example["--model_dir"].file == cli_flags.EXAMPLE_SCRIPT
    items, unavailable = cli_flags.extract(wheel)
    assert {i.attrs["script"] for i in items} == {"quark-cli torch-llm-ptq"}
    assert unavailable == [cli_flags.EXAMPLE_SCRIPT]
    assert cli_flags.extract(checkout)[1] == []
