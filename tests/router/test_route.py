"""Router behaviour beyond the corpus: renames followed, contexts carried forward, facts never
inlined, determinism, and bad input as one line with exit 2 and no file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quarkci import cli
from quarkci.core.documents import validate_document
from quarkci.router import route
from quarkci.router.catalog import load_catalog
from quarkci.router.lexical import index_for
from quarkci.router.roles import resolve_roles
from quarkci.router.route import Facts
from quarkci.router.route import decide as rule_decision

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "router"
CATALOG, LABEL = load_catalog(None)
NAMES = resolve_roles(CATALOG)


def test_renamed_skills_are_followed_from_the_catalog():
    catalog, label = load_catalog(str(FIX / "renamed"))
    names = resolve_roles(catalog)
    assert names["ptq_workflow"] == "quark-torch-quantize-flow"
    assert names["env_preflight"] == "quark-env-check"
    doc = route("quantize llama to fp8", catalog, label).document
    assert (doc["workflow"], doc["route"]["next_skill"]) == ("quark-torch-quantize-flow", "quark-env-check")
    assert validate_document(doc, "session_context") == []


def test_role_missing_from_catalog_is_an_open_question_not_a_guess():
    catalog, label = load_catalog(str(FIX / "renamed"))
    doc = route("install PyTorch for ROCm 7.1", catalog, label).document
    assert doc["workflow"] == "undecided"
    assert "torch_install" in doc["open_questions"][0]


def test_unknown_hardware_is_recorded_never_assumed():
    doc = route("quantize llama to fp8", CATALOG, LABEL).document
    text = json.dumps(doc).lower()
    assert "nvidia-cuda" not in text and "hardware" not in doc and "accelerator" not in doc
    assert any("cuda is not assumed" in q.lower() for q in doc["open_questions"])
    assert doc["env_context_ref"] is None


def test_contexts_are_referenced_not_inlined_and_carried_forward(tmp_path):
    env = str(FIX / "env_rocm.env_context.json")
    ws = str(FIX / "ok.workspace_context.json")
    first = route(
        "quantize llama to fp8 but do not run it yet", CATALOG, LABEL, env_context=env, workspace_context=ws
    ).document
    assert first["env_context_ref"] == env and first["workspace_context_ref"] == ws
    assert "MI300X" not in json.dumps(first) and "/models/tiny-llama" not in json.dumps(first)
    assert first["route"]["next_skill"] == first["workflow"] == "quark-torch-ptq"
    assert first["constraints"] == {"execution_mode": "plan_only", "scheme": "fp8"}
    previous = tmp_path / "session_context.json"
    previous.write_text(json.dumps(first))
    second = route("now install quark", CATALOG, LABEL, session_context=str(previous)).document
    assert second["env_context_ref"] == env and second["workspace_context_ref"] == ws
    assert second["constraints"] == {"execution_mode": "plan_only", "scheme": "fp8"}
    assert (second["workflow"], second["route"]["next_skill"]) == ("quark-install", "quark-install")


def test_routing_is_deterministic(tmp_path):
    outs = []
    for i in range(2):
        out = tmp_path / f"s{i}.json"
        assert cli.main(["route", "帮我把 Qwen3-8B 量化成 FP8", "--output", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_cli_writes_a_valid_document_and_prints_the_reason(tmp_path, capsys):
    out = tmp_path / "session_context.json"
    assert cli.main(["route", "I want to set up Quark", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "no route yet" in printed and "open question" in printed
    doc = json.loads(out.read_text())
    assert doc["workflow"] == "undecided" and validate_document(doc, "session_context") == []
    assert [i["skill"] for i in doc["route"]["interpretations"]] == ["quark-install", "quark-torch-ptq"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["route", "   "], "goal: empty"),
        (["route", "x" * 5000], "goal: 5000 characters"),
        (["route", "quantize", "--env-context", "{missing}"], "no such file"),
        (["route", "quantize", "--env-context", "{bad_json}"], "invalid JSON"),
        (["route", "quantize", "--env-context", "{wrong_type}"], "$.hardware.gpu_count: expected integer"),
        (["route", "quantize", "--session-context", "{wrong_type}"], "not a valid session_context"),
        (["route", "quantize", "--skills", "{missing}"], "{missing}"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_file(tmp_path, capsys, argv, message):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"environment": ')
    wrong = tmp_path / "wrong.json"
    wrong.write_text(
        json.dumps(
            {
                "environment": {"os": "l", "python": "3", "containerized": False},
                "hardware": {"accelerator": "cpu", "gpu_count": "two"},
            }
        )
    )
    subs = {"missing": str(tmp_path / "nope.json"), "bad_json": str(bad_json), "wrong_type": str(wrong)}
    argv = [a.format(**subs) for a in argv]
    out = tmp_path / "session_context.json"
    assert cli.main([*argv, "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message.format(**subs) in err
    assert not out.exists()


@pytest.mark.real
def test_real_0_13_bundle_resolves_every_role_to_the_same_names_as_the_default():
    from quarkci.router.roles import ROLES
    from tests.realwheels import real_wheel

    catalog, _ = load_catalog(f"bundled:{real_wheel('0.13')}")
    real = resolve_roles(catalog)
    default = resolve_roles(CATALOG)
    assert real == default
    assert set(real) == set(ROLES) - {"export", "debug"}  # 0.13 ships no export or PyTorch debug skill


def test_stated_hardware_goes_to_constraints_not_inline_and_is_flagged_unconfirmed():
    doc = route("How do I install Quark? I'm on Ubuntu with ROCm 7.1", CATALOG, LABEL).document
    assert (doc["workflow"], doc["route"]["next_skill"]) == ("quark-install", "quark-install")
    assert doc["constraints"] == {"hardware": "rocm"}  # as stated; env preflight confirms it
    assert "hardware" not in doc and "accelerator" not in doc
    assert any("not confirmed" in q for q in doc["open_questions"])


def test_unwritable_out_is_bad_input(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert cli.main(["route", "install quark", "--output", str(blocker / "sub" / "s.json")]) == 2
    assert "--output" in (err := capsys.readouterr().err) and "is not a directory" in err


def test_json_output_equals_the_written_file(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert (
        cli.main(["route", "run ONNX PTQ end to end on resnet50.onnx", "--json", "--output", str(out)]) == 0
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(out.read_text())
    assert printed["workflow"] == "quark-onnx-ptq" and printed["route"]["next_skill"] == "quark-env-preflight"


@pytest.mark.real
def test_real_0_13_descriptions_alone_resolve_every_role():
    """Renames followed with Quark's real descriptions: every skill renamed to skill-NN (keeping only
    the backend token), the roles still resolve to the same skills."""
    from quarkci.router.catalog import CatalogSkill
    from tests.realwheels import real_wheel

    catalog, _ = load_catalog(f"bundled:{real_wheel('0.13')}")
    expected = resolve_roles(catalog)
    renamed, back = [], {}
    for i, skill in enumerate(catalog):
        name = f"skill-{i:02d}" + ("-onnx" if "onnx" in skill.tokens else "")
        back[name] = skill.name
        renamed.append(CatalogSkill(name, skill.positive, skill.negative, skill.layer))
    assert {role: back[name] for role, name in resolve_roles(renamed).items()} == expected


# --- confidence: the parse asks when the goal leaves the route open ---------------------------------------


def _options(goal: str) -> tuple[str, list[str]]:
    doc = route(goal, CATALOG, LABEL).document
    return doc["workflow"], [i["role"] for i in doc["route"].get("interpretations", [])]


def test_a_model_named_in_both_formats_asks_which_one_to_quantize():
    workflow, options = _options("quantize gemma-2-9b to int8. there is also an encoder.onnx export on disk")
    assert workflow == "undecided" and set(options[:2]) == {"ptq_workflow", "onnx_ptq_workflow"}
    # negative controls: one model kind, or the library named beside an ONNX model, still route
    assert _options("quantize mobilenet.onnx to a8w8")[0] == "quark-onnx-ptq"
    assert _options("install torch first, then quantize resnet50.onnx to xint8")[0] == "quark-onnx-ptq"


def test_an_l0_route_asks_when_another_clause_is_about_a_model_and_a_scheme():
    goal = "environment check passed (MI300X). next: fp8 for llama-3.1-8b"
    workflow, options = _options(goal)
    assert workflow == "undecided" and options[:2] == ["env_preflight", "ptq_workflow"]
    # negative controls: the same L0 question alone, or with the scheme in its own clause, is a route of the
    # rules (the second is then asked: the classifier reads env_preflight where the rules read ptq_workflow)
    assert _options("run the environment preflight on this node")[0] == "quark-env-preflight"
    assert rule_decision("which GPU do I need for w4a16?", Facts(), NAMES, CATALOG).role is not None


def test_a_goal_the_rules_find_nothing_in_offers_the_best_matching_description_first():
    goal = "my encoder_int8.onnx: initializers, metadata and custom ops intact?"
    index = index_for(tuple(s.positive for s in CATALOG))
    rules = rule_decision(goal, Facts(), NAMES, CATALOG, index)
    assert rules.role is None  # the rules only offer it (never a route on description words alone) ...
    assert rules.interpretations[0] == "onnx_result_validator" and len(rules.interpretations) == 3
    # ... and the classifier, very sure of it (p >= FALLBACK), routes it: validating an ONNX output
    assert route(goal, CATALOG, LABEL).document["workflow"] == "quark-onnx-result-validator"
    # negative controls: no real lexical match, or one the seed's question offers already, keeps that question
    for goal in ("hello", "upgrade amd-quark to the latest release"):
        doc = route(goal, CATALOG, LABEL).document
        roles = [i["role"] for i in doc["route"]["interpretations"]]
        assert roles == ["model_intake", "ptq_workflow", "quark_install"], goal


# negated or deferred quantize goals in every language (own sentences): never a PTQ workflow; the other
# request is routed
NOT_NOW = [
    ("I'm not going to quantize Llama-3-8B; evaluate it on mmlu", "quark-torch-llm-eval"),
    ("quantizing Qwen3-8B is not needed, just tell me which GPU this is", "quark-env-preflight"),
    ("skip the quantization of Mistral-7B and check the model path /models/m7", "quark-workspace-validate"),
    ("rather than quantizing phi-2, inspect its layers", "quark-torch-model-intake"),
    ("let's not quantize Qwen2-7B yet; plan the scheme first", "quark-torch-quant-plan"),
    ("no quantization of gemma-2-9b for now, evaluate it on arc", "quark-torch-llm-eval"),
    (
        "quantization of Llama-3-8B can wait until next month; which ROCm version is installed?",
        "quark-env-preflight",
    ),
    ("we won't quantize mistral-7b this week, show me its architecture", "quark-torch-model-intake"),
    ("there is no point quantizing phi-3 before we know the GPU; which GPU is it?", "quark-env-preflight"),
    ("Llama-3-8B bitte nicht quantisieren, sondern auf MMLU evaluieren", "quark-torch-llm-eval"),
    ("keine Quantisierung von Qwen3-8B, zeig mir nur die Architektur", "quark-torch-model-intake"),
    ("ohne Mistral-7B zu quantisieren, prüfe den Modellpfad /models/m7", "undecided"),
    ("Qwen3-8B soll noch nicht quantisiert werden; welche GPU habe ich?", "quark-env-preflight"),
    (
        "Die Quantisierung von Llama-3-8B machen wir erst nächsten Monat, jetzt nur evaluieren",
        "quark-torch-llm-eval",
    ),
    ("ne pas quantifier Llama-3-8B, évalue-le sur mmlu", "quark-torch-llm-eval"),
    ("pas de quantification pour Qwen3-8B, dis-moi quelle GPU j'ai", "quark-env-preflight"),
    ("on ne quantifie pas Mistral-7B maintenant ; montre-moi son architecture", "quark-torch-model-intake"),
    (
        "la quantification de phi-2 attendra la semaine prochaine, fais d'abord un plan",
        "quark-torch-quant-plan",
    ),
    ("no quiero cuantizar Llama-3-8B, evalúalo en mmlu", "quark-torch-llm-eval"),
    ("nada de cuantizar Qwen3-8B por ahora, dime qué GPU tengo", "quark-env-preflight"),
    ("sin cuantizar Mistral-7B, revisa la arquitectura", "quark-torch-model-intake"),
    ("la cuantización de phi-2 será el mes que viene; ahora haz un plan", "quark-torch-quant-plan"),
    ("不量化 Llama-3-8B，先在 mmlu 上评估一下", "quark-torch-llm-eval"),
    ("Qwen3-8B 先不做量化，告诉我这台机器是什么 GPU", "quark-env-preflight"),
    ("无需量化 Mistral-7B，帮我看看它的结构", "quark-torch-model-intake"),
    ("量化 phi-2 的事下个月再说，先做个量化方案", "quark-torch-quant-plan"),
    ("不要对 Llama-3-8B 做量化，只评估精度", "quark-torch-llm-eval"),
    ("Llama-3-8B は量子化しないで、mmlu で評価して", "quark-torch-llm-eval"),
    ("Qwen3-8B の量子化は不要です。GPU の種類を教えて", "quark-env-preflight"),
    ("Mistral-7B は量子化せずにアーキテクチャを見て", "quark-torch-model-intake"),
    ("phi-2 の量子化は来月にします。先に計画を立てて", "quark-torch-quant-plan"),
    ("Llama-3-8B는 양자화하지 말고 mmlu로 평가해 줘", "quark-torch-llm-eval"),
    ("Qwen3-8B 양자화는 필요 없어요. GPU 종류만 알려 주세요", "quark-env-preflight"),
    ("Mistral-7B를 양자화 없이 구조만 살펴봐 줘", "quark-torch-model-intake"),
    ("phi-2 양자화는 다음 달에 할게요. 먼저 계획을 세워 주세요", "quark-torch-quant-plan"),
]


@pytest.mark.parametrize("goal, workflow", NOT_NOW)
def test_a_negated_or_deferred_quantize_routes_the_other_request_never_ptq(goal, workflow):
    got = route(goal, CATALOG, LABEL).document["workflow"]
    assert got not in ("quark-torch-ptq", "quark-onnx-ptq")
    assert got == workflow


# the kinds in own sentences over the default catalog: routed, or asked where the catalog has no skill
# for the role (export, the PyTorch debugger)
KINDS = [
    (
        "I need Qwen3-14B in fp8 by Friday, but I have no clue which accelerator the cluster has",
        "quark-torch-ptq",
    ),
    ("Mistral-7B auf INT4 bringen, keine Ahnung welche GPU im Server steckt", "quark-torch-ptq"),
    ("quantifie Gemma-2-9B en fp8, je ne connais pas le matériel", "quark-torch-ptq"),
    (
        "the fp8 checkpoint in ./out/q is finished; package it so the serving team can load it in vLLM",
        "undecided",
    ),
    ("量化已经完成了，把 ./out/q 导出成 GGUF", "undecided"),
    ("pip install amd-quark failed: error building onnx wheel, cmake not found", "quark-install"),
    ("fresh box: install pytorch and amd-quark, afterwards give me an int4 Qwen2.5-7B", "quark-torch-ptq"),
    ("which layers of Qwen/Qwen2.5-7B are linear, and how many are there?", "quark-torch-model-intake"),
    ("does /data/llama have a config.json and safetensors?", "quark-workspace-validate"),
    ("torch says HIP is not available on my MI300X, I need a ROCm build of torch", "quark-torch-install"),
    ("evaluate ./out/llama-fp8 on gsm8k against the bf16 original", "quark-torch-llm-eval"),
    ("run a Quant-Perf session on Llama-3.1-8B", "quark-torch-quant-perf"),
    ("resume the quant-perf search that stopped yesterday", "quark-torch-quant-perf"),
    ("fold the BatchNorm nodes of mobilenet.onnx", "quark-onnx-shapeshifter-run"),
    ("upgrade detector.onnx to opset 17", "quark-onnx-shapeshifter-run"),
    ("write a new skill for exporting to GGUF", "quark-skill-creator"),
    ("audit all skills against the 0.13 release", "quark-torch-skill-sync"),
    ("ShapeShifter crashed with a KeyError on unet.onnx", "quark-onnx-debug"),
    ("quantize resnet18.onnx to XINT8 for the Ryzen AI NPU", "quark-onnx-ptq"),
    ("my int4 llama outputs gibberish after quantization", "undecided"),
    ("plan a W4A16 quantization for Llama-3-70B without running anything", "quark-torch-quant-plan"),
    ("what is the best scheme for Qwen3-32B on one MI300X?", "quark-torch-quant-plan"),
    ("make a one-layer copy of Qwen2.5-0.5B for a smoke test", "quark-torch-shrink-model"),
    ("Kimi-K2 is too big for RAM, quantize it file by file to fp8", "quark-torch-file2file-quantization"),
    ("find the best ONNX quantization config for yolov8.onnx automatically", "quark-onnx-autosearch-pro"),
    ("split encoder.onnx into attention blocks and heads subgraphs", "quark-onnx-subgraph-partitioner"),
    (
        "check the safetensors headers and excluded tensor hashes of ./out/qwen-fp8",
        "quark-torch-result-validator",
    ),
    (
        "is the output in ./out/yolo_int8.onnx valid: QDQ nodes present and custom ops ok?",
        "quark-onnx-result-validator",
    ),
    ("install onnxruntime-gpu with the ROCm execution provider", "quark-onnx-install"),
    ("which GPU and driver does this machine have?", "quark-env-preflight"),
    ("Qwen3-8B를 INT8로 양자화해 주세요. GPU는 잘 모르겠어요", "quark-torch-ptq"),
    ("Llama-3-8BをFP8に量子化して、/out に保存して", "quark-torch-ptq"),
    ("请把 Qwen2.5-7B 量化成 INT4，然后在 mmlu 上评估", "quark-torch-ptq"),
    ("después de cuantizar, convierte el modelo a GGUF", "undecided"),
    ("nach der Quantisierung das Modell für das Serving-Team verpacken", "undecided"),
]


@pytest.mark.parametrize("goal, workflow", KINDS)
def test_each_kind_routes_or_asks_over_the_default_catalog(goal, workflow):
    assert route(goal, CATALOG, LABEL).document["workflow"] == workflow


# goals whose route is clear, in several languages (own sentences): routed, not asked
CLEAR = [
    ("just look at Qwen/Qwen2.5-7B, don't start anything", "quark-torch-model-intake"),
    ("Qwen/Qwen2.5-7B を見るだけで、何も実行しないでください", "quark-torch-model-intake"),
    ("schau dir nur mistralai/Mistral-7B-v0.3 an, starte nichts", "quark-torch-model-intake"),
    ("the vendor tool shows nothing; which accelerator is in this server?", "quark-env-preflight"),
    ("这台服务器上是哪块显卡？驱动版本是多少？", "quark-env-preflight"),
    ("¿qué GPU tiene este servidor y qué versión de ROCm?", "quark-env-preflight"),
    ("does ./models/qwen contain config.json and the weight files?", "quark-workspace-validate"),
    ("is /outputs writable?", "quark-workspace-validate"),
    (
        "Qwen/Qwen3-8B: hub id or the local folder ./Qwen3-8B, which one resolves here?",
        "quark-workspace-validate",
    ),
    ("torch reports no HIP on my Radeon, I need the right wheel", "quark-torch-install"),
    ("把 CUDA 版的 torch 换成 ROCm 版", "quark-torch-install"),
    ("torch works, now install Quark with the onnx extra", "quark-install"),
    ("PyTorch läuft schon, installiere jetzt amd-quark", "quark-install"),
    ("fold BatchNorm into Conv in model.onnx", "quark-onnx-shapeshifter-run"),
    ("convert segment.onnx from NCHW to NHWC layout", "quark-onnx-shapeshifter-run"),
    ("align the Q/DQ scales of the Concat inputs in net_int8.onnx", "quark-onnx-shapeshifter-run"),
    ("start a Quant-Perf session for Qwen3-8B", "quark-torch-quant-perf"),
    ("resume my Quant-Perf run", "quark-torch-quant-perf"),
    ("create a new Quark skill for GGUF export", "quark-skill-creator"),
    ("audit the Quark skills for outdated CLI flags", "quark-torch-skill-sync"),
    ("ONNX モデル resnet.onnx の opset と入力形状を教えて", "quark-onnx-model-intake"),
    ("encoder.onnx 的 opset 和算子分布是什么？", "quark-onnx-model-intake"),
    ("Quel est l'opset de encoder.onnx et ses formes d'entrée ?", "quark-onnx-model-intake"),
    ("wie viele Layer hat Qwen/Qwen2-7B?", "quark-torch-model-intake"),
    ("Qwen2-7B 有多少层？", "quark-torch-model-intake"),
    ("make a one-hidden-layer version of Llama-3-8B", "quark-torch-shrink-model"),
    ("erstelle eine Version von Llama-3-8B mit nur einer Schicht zum Debuggen", "quark-torch-shrink-model"),
    ("crea una versión de Llama-3-8B con una sola capa para depurar", "quark-torch-shrink-model"),
    ("做一个只有一层的 Llama-3-8B 用来调试", "quark-torch-shrink-model"),
    ("Die Kalibrierung von model.onnx stürzt ab", "quark-onnx-debug"),
    ("are there QDQ nodes in my quantized net.onnx?", "quark-onnx-result-validator"),
]


@pytest.mark.parametrize("goal, workflow", CLEAR)
def test_a_clear_goal_is_routed_not_asked(goal, workflow):
    assert route(goal, CATALOG, LABEL).document["workflow"] == workflow
