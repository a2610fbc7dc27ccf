#!/usr/bin/env bash
# Install quarkci from the repository that holds this action into a virtual environment and put the
# environment on PATH. Inputs (environment): EXTRAS, PRE_INSTALL, SYSTEM_SITE; QUARKCI_VENV optionally
# names a persistent environment (self-hosted runners), reused while the quarkci sources are unchanged.
set -euo pipefail

src=$(cd "$GITHUB_ACTION_PATH/../.." && pwd)
venv=${QUARKCI_VENV:-${RUNNER_TEMP:-/tmp}/quarkci-venv}

# A stamp of everything that decides the install: sources, extras, pre-installs.
stamp=$( { find "$src/quarkci" "$src/pyproject.toml" -type f ! -name '*.pyc' -print0 | sort -z \
           | xargs -0 sha256sum | sed "s|$src/||"; echo "extras=$EXTRAS pre=$PRE_INSTALL site=$SYSTEM_SITE"; } \
         | sha256sum | cut -d' ' -f1)

if [ -x "$venv/bin/quarkci" ] && [ "$(cat "$venv/.quarkci-stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "quarkci: reusing $venv (sources unchanged)"
else
  venv_args=()
  if [ "$SYSTEM_SITE" = "true" ]; then venv_args+=(--system-site-packages); fi
  # Replace only an environment this action made (or an empty directory): never someone else's venv.
  if [ -e "$venv" ] && [ ! -f "$venv/.quarkci-stamp" ] && [ -n "$(ls -A "$venv")" ]; then
    echo "::error title=setup-quarkci::$venv exists and was not made by setup-quarkci; not replacing it"
    exit 1
  fi
  rm -rf "$venv"
  python3 -m venv "${venv_args[@]}" "$venv"
  pip=("$venv/bin/python" -m pip install --disable-pip-version-check --quiet)
  if [ -n "$PRE_INSTALL" ]; then
    read -r -a pre <<<"$PRE_INSTALL"
    "${pip[@]}" "${pre[@]}"
  fi
  target=$src
  if [ -n "$EXTRAS" ]; then target="${src}[${EXTRAS}]"; fi
  "${pip[@]}" "$target"
  echo "$stamp" >"$venv/.quarkci-stamp"
fi

echo "$venv/bin" >>"$GITHUB_PATH"
{
  echo "python=$venv/bin/python"
  echo "version=$("$venv/bin/quarkci" --version | cut -d' ' -f2)"
} >>"$GITHUB_OUTPUT"
