#!/usr/bin/env bash
# Install quarkci from the repository that holds this action into a virtual environment and put the
# environment on PATH. Inputs (environment): EXTRAS, TORCH, PRE_INSTALL, SYSTEM_SITE; QUARKCI_VENV
# optionally names a persistent environment (self-hosted runners).
#
# Dependencies come from the hashed lock files in requirements/ (`pip install --require-hashes
# --no-deps`): workflow.lock always, ml.lock for the "ml" extra; torch per runner kind (TORCH):
#   cuda    requirements/torch-cuda.lock (hashed, PyPI)
#   cpu     requirements/torch-cpu.lock when present (hashed), else torch==2.13.0+cpu from the PyTorch CPU
#           index, which is used for torch alone (--index-url, never an extra index for everything)
#   system  the runner's own ROCm/CUDA torch (needs SYSTEM_SITE=true); its version is recorded
#   none    no torch
# quarkci itself is installed with --no-deps --no-build-isolation (its build backend is in workflow.lock).
#
# A reused environment is trusted only when (1) its stamp (quarkci's sources, the lock files, the
# inputs; computed by stamp.sh) matches and (2) the lock hash of everything installed (`pip freeze --all`, sorted, sha256)
# is the one recorded when it was built. Anything else installed or changed since -> rebuilt.
set -euo pipefail

src=$(cd "$GITHUB_ACTION_PATH/../.." && pwd)
venv=${QUARKCI_VENV:-${RUNNER_TEMP:-/tmp}/quarkci-venv}
locks=$src/requirements
TORCH=${TORCH:-none}

case "$TORCH" in none | cpu | cuda | system) ;; *)
  echo "::error title=setup-quarkci::torch must be none, cpu, cuda or system"
  exit 2 ;;
esac
if [ "$TORCH" = "system" ] && [ "$SYSTEM_SITE" != "true" ]; then
  echo "::error title=setup-quarkci::torch: system needs system-site-packages: true"
  exit 2
fi

stamp=$(EXTRAS=$EXTRAS TORCH=$TORCH PRE_INSTALL=${PRE_INSTALL:-} SYSTEM_SITE=${SYSTEM_SITE:-false} \
        bash "$GITHUB_ACTION_PATH/stamp.sh")
lock_hash() { bash "$GITHUB_ACTION_PATH/stamp.sh" --lock-hash "$venv"; }

reuse=false
if [ -x "$venv/bin/quarkci" ] && [ "$(cat "$venv/.quarkci-stamp" 2>/dev/null)" = "$stamp" ]; then
  if [ "$(lock_hash)" = "$(cat "$venv/.quarkci-lock-hash" 2>/dev/null)" ]; then
    reuse=true
    echo "quarkci: reusing $venv (sources, locks and installed packages unchanged)"
  else
    echo "::warning title=setup-quarkci::$venv has packages that differ from its lock hash; rebuilding it"
  fi
fi

if [ "$reuse" = false ]; then
  venv_args=()
  if [ "$SYSTEM_SITE" = "true" ]; then venv_args+=(--system-site-packages); fi
  # Replace only an environment this action made (or an empty directory): never someone else's venv.
  if [ -e "$venv" ] && [ ! -f "$venv/.quarkci-stamp" ] && [ -n "$(ls -A "$venv")" ]; then
    echo "::error title=setup-quarkci::$venv exists and was not made by setup-quarkci; not replacing it"
    exit 1
  fi
  rm -rf "$venv"
  python3 -m venv "${venv_args[@]}" "$venv"
  pip=("$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off)
  "${pip[@]}" --require-hashes --no-deps -r "$locks/workflow.lock"
  case ",$EXTRAS," in *,ml,*) "${pip[@]}" --require-hashes --no-deps -r "$locks/ml.lock" ;; esac
  case "$TORCH" in
    cuda) "${pip[@]}" --require-hashes --no-deps -r "$locks/torch-cuda.lock" ;;
    cpu)
      if [ -f "$locks/torch-cpu.lock" ]; then
        "${pip[@]}" --require-hashes --no-deps -r "$locks/torch-cpu.lock"
      else
        echo "::warning title=setup-quarkci::requirements/torch-cpu.lock is missing (scripts/lock_deps.sh --torch): torch is pinned by version only"
        "${pip[@]}" --no-deps --index-url https://download.pytorch.org/whl/cpu "torch==2.13.0+cpu"
      fi ;;
    system) "$venv/bin/python" -c 'import torch; print(f"quarkci: using the runner'"'"'s torch {torch.__version__}")' ;;
  esac
  if [ -n "$PRE_INSTALL" ]; then  # deprecated: unhashed; kept for one release
    echo "::warning title=setup-quarkci::pre-install is deprecated (not hash-checked); use torch: cpu|cuda|system"
    read -r -a pre <<<"$PRE_INSTALL"
    "${pip[@]}" "${pre[@]}"
  fi
  "${pip[@]}" --no-deps --no-build-isolation "$src"
  echo "$stamp" >"$venv/.quarkci-stamp"
  lock_hash >"$venv/.quarkci-lock-hash"
fi

echo "$venv/bin" >>"$GITHUB_PATH"
delimiter="quarkci_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
{
  echo "python<<$delimiter"
  echo "$venv/bin/python"
  echo "$delimiter"
  echo "version<<$delimiter"
  "$venv/bin/quarkci" --version | cut -d' ' -f2
  echo "$delimiter"
  echo "lock-hash<<$delimiter"
  cat "$venv/.quarkci-lock-hash"
  echo "$delimiter"
} >>"$GITHUB_OUTPUT"
