#!/usr/bin/env bash
# Installs what the callers in examples/ need, the way clamd and RabbitMQ are installed: the
# interpreters from Debian's packages (python3 with python3-venv; nodejs with npm) when missing, then
# the pinned packages: examples/python/requirements.txt from PyPI into examples/python/.venv, and
# examples/node/package-lock.json from the npm registry into examples/node/node_modules.
# Idempotent: a stamp of the pinned files skips what is installed already.
# Usage: scripts/examples.sh [install|status]   (default: install)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python_dir="$repo/examples/python"
node_dir="$repo/examples/node"
venv="$python_dir/.venv"

log() { printf '[examples] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

apt_install() {
  [ "$(id -u)" -eq 0 ] || die "$* missing and not root: install them with apt-get"
  log "installing $* (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Debian's interpreter, not whatever a version manager put first on PATH.
python=/usr/bin/python3

install_python() {
  if [ ! -x "$python" ] || ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    apt_install python3 python3-venv
  fi
  local stamp="$venv/.requirements.sha256" want
  want=$(sha256sum "$python_dir/requirements.txt" | cut -d' ' -f1)
  if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    return
  fi
  log "creating $venv and installing $python_dir/requirements.txt"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$python_dir/requirements.txt"
  echo "$want" >"$stamp"
}

install_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt_install nodejs npm
  fi
  local stamp="$node_dir/node_modules/.package-lock.sha256" want
  want=$(sha256sum "$node_dir/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    return
  fi
  log "installing $node_dir/package-lock.json (npm ci)"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" >"$stamp"
}

status() {
  [ -x "$venv/bin/python" ] || die "$venv is missing: run scripts/examples.sh install"
  [ -d "$node_dir/node_modules" ] || die "$node_dir/node_modules is missing: run scripts/examples.sh install"
  log "$("$venv/bin/python" --version) ($("$venv/bin/python" -m pip freeze | tr '\n' ' '));" \
    "node $(node --version) ($(cd "$node_dir" && npm ls --depth=0 --parseable 2>/dev/null | sed -n 's|.*/node_modules/||p' | tr '\n' ' '))"
}

case "${1:-install}" in
  install) install_python; install_node; status ;;
  status) status ;;
  *) die "usage: $0 [install|status]" ;;
esac
