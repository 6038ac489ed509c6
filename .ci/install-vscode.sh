#!/usr/bin/env bash
# Installs what the integration and UI tests need to run a real VS Code here: Debian chromium (plus the
# build and runtime needs of code-server) and code-server into a cache folder outside the repository.
# Idempotent: a second run only checks and prints the paths. See CONTRIBUTING.md.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3          # newest code-server whose engines.node allows Node 20 (VS Code 1.100.3)
VSCODE_RIPGREP_VERSION=1.15.11       # the @vscode/ripgrep that code-server 4.100.3's lib/vscode depends on
RIPGREP_PREBUILT_TAG=v13.0.0-10      # the ripgrep-prebuilt release that @vscode/ripgrep 1.15.11 downloads

CACHE="${VERIFIED_FIX_CACHE:-${HOME}/.cache/verified-fix}"
PREFIX="$CACHE/code-server"
CODE_SERVER_BIN="$PREFIX/node_modules/.bin/code-server"
MARKER="$PREFIX/.installed-$CODE_SERVER_VERSION"

log() { printf '[install-vscode] %s\n' "$*"; }

# --- Debian packages -------------------------------------------------------------------------------
# chromium: the browser the workbench runs in; libkrb5-dev: kerberos' native build; ripgrep: workspace
# search and the rg given to @vscode/ripgrep below; bubblewrap: sandboxing used by the engine's tests.
apt_packages=(chromium libkrb5-dev ripgrep bubblewrap)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if ((${#missing[@]})); then
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { log "need root (or sudo) to apt-get install: ${missing[*]}"; exit 1; }
    SUDO=(sudo)
  fi
  log "apt-get install ${missing[*]}"
  t0=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  log "apt-get done in $((SECONDS - t0)) s"
else
  log "Debian packages present: ${apt_packages[*]}"
fi

# --- code-server -----------------------------------------------------------------------------------
mkdir -p "$CACHE"
exec 9>"$CACHE/.install.lock"
flock 9 # another checkout installing into the same cache at the same time waits here

if [[ -f "$MARKER" && -x "$CODE_SERVER_BIN" ]]; then
  log "code-server $CODE_SERVER_VERSION already installed"
else
  log "installing code-server@$CODE_SERVER_VERSION into $PREFIX (takes a few minutes)"
  t0=$SECONDS
  rm -rf "$PREFIX"
  mkdir -p "$PREFIX"
  # @vscode/ripgrep downloads rg from GitHub, which is unreachable here; it first looks for the release
  # tarball in $TMPDIR/vscode-ripgrep-cache-<version>/, so give it one holding Debian's rg.
  scratch="$(mktemp -d "$CACHE/install-tmp.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  rg_cache="$scratch/vscode-ripgrep-cache-$VSCODE_RIPGREP_VERSION"
  mkdir -p "$rg_cache/stage"
  cp "$(command -v rg)" "$rg_cache/stage/rg"
  case "$(uname -m)" in
    x86_64) targets=(x86_64-unknown-linux-musl) ;;
    aarch64 | arm64) targets=(aarch64-unknown-linux-musl aarch64-unknown-linux-gnu) ;;
    *) targets=() ;;
  esac
  for target in "${targets[@]}"; do
    tar -czf "$rg_cache/ripgrep-$RIPGREP_PREBUILT_TAG-$target.tar.gz" -C "$rg_cache/stage" rg
  done
  # A plain local install in a folder of its own: with --global or --prefix, npm hands that config down to
  # code-server's postinstall, whose own `npm install` in lib/vscode then reinstalls into the prefix instead.
  printf '{ "private": true, "description": "code-server for Verified Fix tests" }\n' >"$PREFIX/package.json"
  # yes: node-pty's postinstall runs `npx node-gyp`; unsafe_perm: code-server's postinstall refuses root otherwise.
  (cd "$PREFIX" && TMPDIR="$scratch" npm_config_yes=true npm_config_unsafe_perm=true \
    npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
    npm install --no-package-lock --loglevel=error "code-server@$CODE_SERVER_VERSION")
  "$CODE_SERVER_BIN" --version >/dev/null
  touch "$MARKER"
  log "code-server installed in $((SECONDS - t0)) s"
fi

chromium_bin="$(command -v chromium || true)"
log "cache:       $CACHE"
log "code-server: $CODE_SERVER_BIN ($("$CODE_SERVER_BIN" --version | head -n 1))"
log "chromium:    ${chromium_bin:-not found}"
