#!/usr/bin/env bash
# Installs (apt-get) and starts the services that av-gateway's run and tests need, bound to 127.0.0.1:
#   clamd     Debian's clamav-daemon with the project's clamd.conf and offline signatures
#   rabbitmq  Debian's rabbitmq-server with the project's rabbitmq.conf
# Usage: scripts/services.sh start|stop|status|restart|install [clamd|rabbitmq|all]   (default: all)
# (install: only the Debian packages, nothing started). Idempotent: a service that already answers is left as it is. Environment:
#   AVGW_CLAMD_PORT (3310), AVGW_RABBITMQ_PORT (5672), AVGW_STATE_DIR (<repo>/.run),
#   AVGW_CLAMD_TMP (clamd's TemporaryDirectory: /dev/shm/av-gateway-clamd-PORT on a tmpfs, else
#   <state>/clamd/tmp)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
state=${AVGW_STATE_DIR:-$repo/.run}
clamd_port=${AVGW_CLAMD_PORT:-3310}
rabbit_port=${AVGW_RABBITMQ_PORT:-5672}
clamd_dir=$state/clamd
# clamd writes each INSTREAM, and whatever it unpacks, to its TemporaryDirectory before scanning.
# On a tmpfs that costs clamd much less CPU than on a journaling disk (perf-notes/gateway.md,
# fix 8), so the default is a directory under /dev/shm when that is a tmpfs.
if [ -n "${AVGW_CLAMD_TMP:-}" ]; then
  clamd_tmp=$AVGW_CLAMD_TMP
elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  clamd_tmp=/dev/shm/av-gateway-clamd-$clamd_port
else
  clamd_tmp=$clamd_dir/tmp
fi
rabbit_dir=/var/lib/rabbitmq/av-gateway

log() { printf '[services] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

apt_updated=false
ensure_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}) and not root: install them with apt-get"
  log "installing ${missing[*]} (apt-get)"
  if ! $apt_updated; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    apt_updated=true
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- clamd -------------------------------------------------------------------------------------

eicar() {
  # Assembled here so that this script itself carries no EICAR string.
  printf '%s%s%s' 'X5O!P%@AP[4\PZX54(P^)7CC)7}$' 'EICAR-STANDARD-ANTIVIRUS-' 'TEST-FILE!$H+H*'
}

# Sends a z-command (and optional INSTREAM body) to clamd; prints the reply without its NUL.
clamd_call() {
  local cmd=$1 body=${2:-}
  (
    exec 3<>"/dev/tcp/127.0.0.1/$clamd_port" || exit 1
    printf 'z%s\0' "$cmd" >&3
    if [ "$cmd" = INSTREAM ]; then
      local n=${#body}
      printf "\\x$(printf %02x $((n >> 24 & 255)))\\x$(printf %02x $((n >> 16 & 255)))\\x$(printf %02x $((n >> 8 & 255)))\\x$(printf %02x $((n & 255)))" >&3
      printf '%s' "$body" >&3
      printf '\0\0\0\0' >&3
    fi
    local reply=""
    IFS= read -r -d '' -t 10 reply <&3 || true
    printf '%s' "$reply"
  ) 2>/dev/null
}

clamd_pid() {
  local pid
  pid=$(cat "$clamd_dir/clamd.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

clamd_ready() {
  [ "$(clamd_call PING)" = PONG ] || return 1
  case "$(clamd_call INSTREAM "$(eicar)")" in
    *Eicar-Test-Signature*FOUND) return 0 ;;
    *) return 1 ;;
  esac
}

clamd_conf_text() {
  sed -e "s|@STATE@|$clamd_dir|g" -e "s|@TMP@|$clamd_tmp|g" -e "s|@PORT@|$clamd_port|g" \
    "$repo/scripts/clamd/clamd.conf.in"
}

# Identifies the configuration and signatures a clamd runs with, to notice when they changed.
clamd_fingerprint() {
  { clamd_conf_text; cat "$repo"/scripts/clamd/signatures/*; } | sha256sum | cut -d' ' -f1
}

clamd_render() {
  mkdir -p "$clamd_dir/db"
  [ ! -L "$clamd_tmp" ] || die "clamd's temporary directory $clamd_tmp is a symbolic link"
  install -d -m 700 "$clamd_tmp"
  [ "$(stat -c %u "$clamd_tmp")" = "$(id -u)" ] || die "clamd's temporary directory $clamd_tmp belongs to another user"
  clamd_conf_text > "$clamd_dir/clamd.conf"
  clamd_fingerprint > "$clamd_dir/fingerprint"
  # The database directory holds exactly the project's signatures.
  find "$clamd_dir/db" -mindepth 1 -maxdepth 1 -type f ! -name '*.hdb' ! -name '*.ndb' -delete
  rm -f "$clamd_dir"/db/*.hdb "$clamd_dir"/db/*.ndb
  cp "$repo"/scripts/clamd/signatures/* "$clamd_dir/db/"
}

clamd_install() { ensure_packages clamav-daemon clamav-testfiles; }

clamd_start() {
  clamd_install
  if clamd_ready; then
    if [ -n "$(clamd_pid)" ] && [ "$(cat "$clamd_dir/fingerprint" 2>/dev/null)" != "$(clamd_fingerprint)" ]; then
      log "the project's clamd configuration or signatures changed: restarting clamd"
      clamd_stop
    else
      log "clamd answers on 127.0.0.1:$clamd_port"
      return 0
    fi
  fi
  if [ -n "$(clamd_pid)" ]; then
    log "clamd (pid $(clamd_pid)) runs but does not answer yet"
  else
    clamd_render
    log "starting clamd on 127.0.0.1:$clamd_port (config $clamd_dir/clamd.conf)"
    clamd -c "$clamd_dir/clamd.conf" || die "clamd did not start; see $clamd_dir/clamd.log"
  fi
  for _ in $(seq 1 120); do
    if clamd_ready; then
      log "clamd ready: PING answered PONG and the EICAR probe was FOUND (pid $(clamd_pid))"
      return 0
    fi
    sleep 0.5
  done
  tail -n 20 "$clamd_dir/clamd.log" >&2 || true
  die "clamd did not become ready within 60s"
}

clamd_stop() {
  local pid
  pid=$(clamd_pid)
  if [ -z "$pid" ]; then
    log "clamd is not running (no live pid in $clamd_dir/clamd.pid)"
    return 0
  fi
  kill "$pid"
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || { log "clamd stopped"; return 0; }
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  log "clamd killed after 10s"
}

clamd_status() {
  if clamd_ready; then
    echo "clamd: ready on 127.0.0.1:$clamd_port (pid $(clamd_pid), $(clamd_call VERSION))"
  else
    echo "clamd: not ready on 127.0.0.1:$clamd_port"
    return 1
  fi
}

# --- RabbitMQ ----------------------------------------------------------------------------------

rabbit_env() {
  export RABBITMQ_CONFIG_FILE=$rabbit_dir/rabbitmq.conf
  export RABBITMQ_PID_FILE=$rabbit_dir/rabbitmq.pid
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT=$rabbit_port
  export ERL_EPMD_ADDRESS=127.0.0.1
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
}

# True when the port speaks AMQP 0-9-1: a protocol header is answered by a Connection.Start frame.
rabbit_ready() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$rabbit_port" || exit 1
    printf 'AMQP\0\0\x09\x01' >&3
    local frame=""
    IFS= read -r -N 1 -t 5 frame <&3 || exit 1
    [ "$frame" = $'\x01' ]
  ) 2>/dev/null
}

rabbit_install() { ensure_packages rabbitmq-server; }

rabbit_start() {
  rabbit_install
  if rabbit_ready; then
    log "RabbitMQ answers AMQP on 127.0.0.1:$rabbit_port"
    return 0
  fi
  install -d -o rabbitmq -g rabbitmq "$rabbit_dir"
  sed -e "s|@PORT@|$rabbit_port|g" "$repo/scripts/rabbitmq/rabbitmq.conf.in" > "$rabbit_dir/rabbitmq.conf"
  chown rabbitmq:rabbitmq "$rabbit_dir/rabbitmq.conf"
  rabbit_env
  log "starting RabbitMQ on 127.0.0.1:$rabbit_port"
  rabbitmq-server -detached >/dev/null 2>&1 || true
  for _ in $(seq 1 240); do
    if rabbit_ready; then
      log "RabbitMQ ready: AMQP 0-9-1 accepted on 127.0.0.1:$rabbit_port (pid $(cat "$RABBITMQ_PID_FILE" 2>/dev/null))"
      return 0
    fi
    sleep 0.5
  done
  tail -n 30 /var/log/rabbitmq/*.log >&2 2>/dev/null || true
  die "RabbitMQ did not accept AMQP connections within 120s"
}

rabbit_stop() {
  if ! rabbit_ready; then
    log "RabbitMQ is not running"
    return 0
  fi
  rabbit_env
  rabbitmqctl stop "$RABBITMQ_PID_FILE" >/dev/null 2>&1 || rabbitmqctl stop >/dev/null
  log "RabbitMQ stopped"
}

rabbit_status() {
  if rabbit_ready; then
    echo "rabbitmq: ready on 127.0.0.1:$rabbit_port (pid $(cat "$rabbit_dir/rabbitmq.pid" 2>/dev/null || echo '?'))"
  else
    echo "rabbitmq: not ready on 127.0.0.1:$rabbit_port"
    return 1
  fi
}

# --- dispatch ----------------------------------------------------------------------------------

action=${1:-status}
target=${2:-all}
case "$target" in all | clamd | rabbitmq) ;; *) die "unknown service '$target' (clamd, rabbitmq, all)" ;; esac
run() {
  local fn=$1 rc=0
  if [ "$target" = all ] || [ "$target" = clamd ]; then "clamd_$fn" || rc=1; fi
  if [ "$target" = all ] || [ "$target" = rabbitmq ]; then "rabbit_$fn" || rc=1; fi
  return $rc
}
case "$action" in
  start) run start ;;
  stop) run stop ;;
  restart) run stop; run start ;;
  status) run status ;;
  install) run install ;;
  *) die "usage: scripts/services.sh start|stop|status|restart|install [clamd|rabbitmq|all]" ;;
esac
