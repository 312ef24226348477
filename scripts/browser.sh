#!/usr/bin/env bash
# Installs (apt-get) what the history page's browser test needs: Debian's chromium and its
# chromedriver, at /usr/bin/chromium and /usr/bin/chromedriver. Idempotent: when both are there it
# only prints their versions. Nothing is downloaded outside Debian's packages (Selenium gets both
# paths and never runs its own driver manager).
# Usage: scripts/browser.sh [install|status]   (default: install)
set -euo pipefail

log() { printf '[browser] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

packages=(chromium chromium-driver)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

install() {
  local missing=()
  for pkg in "${packages[@]}"; do
    installed "$pkg" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}) and not root: install them with apt-get"
    log "installing ${missing[*]} (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  status
}

status() {
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium is missing"
  [ -x /usr/bin/chromedriver ] || die "/usr/bin/chromedriver is missing"
  log "$(/usr/bin/chromium --version 2>/dev/null | head -n 1); $(/usr/bin/chromedriver --version | head -n 1)"
}

case "${1:-install}" in
  install) install ;;
  status) status ;;
  *) die "usage: $0 [install|status]" ;;
esac
