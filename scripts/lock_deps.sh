#!/usr/bin/env bash
# Compile the hashed lock files of the workflow installs (requirements/*.lock) with uv.
#
#   bash scripts/lock_deps.sh            # workflow.lock, ml.lock, torch-cuda.lock (PyPI)
#   bash scripts/lock_deps.sh --torch    # also torch-cpu.lock and torch-rocm.lock (download.pytorch.org)
#
# Every lock is for Linux x86_64 and Python 3.11 and lists every distribution's sha256, so
# `pip install --require-hashes --no-deps -r requirements/X.lock` installs exactly what was reviewed.
# ml.lock leaves out torch and its CUDA libraries: torch is pinned per runner kind (torch-*.lock),
# and the PyTorch index is used for torch alone. Needs uv (pip install uv).
set -euo pipefail
cd "$(dirname "$0")/../requirements"
uv=(uv pip compile --generate-hashes --python-version 3.11 --python-platform x86_64-manylinux_2_28 --no-header)
"${uv[@]}" --index-url https://pypi.org/simple workflow.in -o workflow.lock
cuda_only=()
for p in cuda-bindings cuda-pathfinder cuda-toolkit nvidia-cublas nvidia-cuda-cccl nvidia-cuda-cupti \
         nvidia-cuda-nvrtc nvidia-cuda-runtime nvidia-cudnn-cu13 nvidia-cufft nvidia-cufile nvidia-curand \
         nvidia-cusolver nvidia-cusparse nvidia-cusparselt-cu13 nvidia-nccl-cu13 nvidia-nvjitlink \
         nvidia-nvshmem-cu13 nvidia-nvtx triton; do
  cuda_only+=(--no-emit-package "$p")
done
"${uv[@]}" --index-url https://pypi.org/simple ml.in -o ml.lock --no-emit-package torch "${cuda_only[@]}"
"${uv[@]}" --index-url https://pypi.org/simple torch-cuda.in -o torch-cuda.lock
if [ "${1:-}" = "--torch" ]; then
  "${uv[@]}" --index-url https://download.pytorch.org/whl/cpu torch-cpu.in -o torch-cpu.lock
  "${uv[@]}" --index-url https://download.pytorch.org/whl/rocm7.1 torch-rocm.in -o torch-rocm.lock
fi
