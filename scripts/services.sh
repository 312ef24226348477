#!/usr/bin/env bash
# Installs (apt-get) and starts the services that av-gateway's run and tests need, bound to 127.0.0.1:
#   clamd     Debian's clamav-daemon with the project's clamd.conf and offline signatures
#   rabbitmq  Debian's rabbitmq-server with the project's rabbitmq.conf
# Usage: scripts/services.sh start|stop|status|restart|install [clamd|rabbitmq|all]   (default: all)
# (install: only the Debian packages, nothing started). Idempotent: a service that already answers is
# left as it is. Each service this script starts is recorded by its pid under the state directory,
# and only that pid is ever stopped: a clamd or RabbitMQ that another checkout, another script or
# an operator started is used when it answers, named as not started here, and never stopped or
# restarted. Readiness means the protocol answers and, for a service started here, that its
# recorded pid holds the listening socket (ss -ltnp); a port held by some other process that does
# not answer as the service is reported with that process's pid and command line. Environment:
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

# shellcheck source=lib/ports.sh
. "$repo/scripts/lib/ports.sh"

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

# Sends a z-command (and for INSTREAM the bytes of file $2) to clamd; prints the reply without its
# NUL. The chunk length is the file's size in bytes (wc -c), not a count of characters.
clamd_call() {
  local cmd=$1 file=${2:-}
  (
    exec 3<>"/dev/tcp/127.0.0.1/$clamd_port" || exit 1
    printf 'z%s\0' "$cmd" >&3
    if [ "$cmd" = INSTREAM ]; then
      local n
      n=$(wc -c <"$file")
      printf "\\x$(printf %02x $((n >> 24 & 255)))\\x$(printf %02x $((n >> 16 & 255)))\\x$(printf %02x $((n >> 8 & 255)))\\x$(printf %02x $((n & 255)))" >&3
      cat "$file" >&3
      printf '\0\0\0\0' >&3
    fi
    local reply=""
    IFS= read -r -d '' -t 10 reply <&3 || true
    printf '%s' "$reply"
  ) 2>/dev/null
}

# The pid of the clamd this checkout started: the one in its pid file, alive, a clamd, and
# running this state directory's configuration (so a reused pid is not taken for it).
clamd_pid() {
  local pid
  pid=$(cat "$clamd_dir/clamd.pid" 2>/dev/null || true)
  if pid_is "$pid" clamd "$clamd_dir/clamd.conf"; then echo "$pid"; fi
}

# True when the clamd on the port is the one this checkout started.
clamd_ours() { port_owned_by "$clamd_port" "$(clamd_pid)"; }

# True when whatever listens on the port answers as clamd: PING is answered PONG and EICAR is FOUND.
clamd_answers() {
  local probe rc=0
  [ "$(clamd_call PING)" = PONG ] || return 1
  probe=$(mktemp)
  eicar >"$probe"
  case "$(clamd_call INSTREAM "$probe")" in
    *Eicar-Test-Signature*FOUND) ;;
    *) rc=1 ;;
  esac
  rm -f "$probe"
  return $rc
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

clamd_install() { ensure_packages clamav-daemon clamav-testfiles iproute2; }

# A clamd that is not this checkout's holds the port: used when it answers as clamd, else an error.
clamd_foreign() {
  local holders
  holders=$(port_holders "$clamd_port")
  clamd_answers || die "127.0.0.1:$clamd_port is held by $holders, which this script did not start" \
    "and which does not answer as clamd (PING, EICAR): stop it or choose another AVGW_CLAMD_PORT"
  log "clamd answers on 127.0.0.1:$clamd_port: $holders, not started by this checkout (no live pid" \
    "of it in $clamd_dir/clamd.pid); using it as it is, never stopping or restarting it"
}

clamd_start() {
  clamd_install
  if port_in_use "$clamd_port" && ! clamd_ours; then
    clamd_foreign
    return 0
  fi
  if clamd_ours && clamd_answers; then
    if [ "$(cat "$clamd_dir/fingerprint" 2>/dev/null)" = "$(clamd_fingerprint)" ]; then
      log "clamd answers on 127.0.0.1:$clamd_port (pid $(clamd_pid), started here)"
      return 0
    fi
    log "the project's clamd configuration or signatures changed: restarting clamd"
    clamd_stop
  fi
  if [ -n "$(clamd_pid)" ]; then
    log "clamd (pid $(clamd_pid)) runs but does not answer yet"
  else
    clamd_render
    log "starting clamd on 127.0.0.1:$clamd_port (config $clamd_dir/clamd.conf)"
    clamd -c "$clamd_dir/clamd.conf" || die "clamd did not start; see $clamd_dir/clamd.log"
  fi
  clamd_await
}

# Waits until the clamd started here holds the port and answers; fails at once when another
# process took the port.
clamd_await() {
  for _ in $(seq 1 120); do
    if clamd_ours && clamd_answers; then
      log "clamd ready: pid $(clamd_pid) listens on 127.0.0.1:$clamd_port, PING answered PONG and the EICAR probe was FOUND"
      return 0
    fi
    if port_in_use "$clamd_port" && ! clamd_ours; then
      die "127.0.0.1:$clamd_port is held by $(port_holders "$clamd_port"), not by the clamd started here" \
        "(pid file $clamd_dir/clamd.pid: $(cat "$clamd_dir/clamd.pid" 2>/dev/null || echo none))"
    fi
    sleep 0.5
  done
  tail -n 20 "$clamd_dir/clamd.log" >&2 || true
  die "clamd did not become ready within 60s"
}

clamd_stop() {
  local pid
  pid=$(clamd_pid)
  if [ -n "$pid" ]; then
    log "clamd (pid $pid) $(stop_pid "$pid" 10)"
  elif port_in_use "$clamd_port"; then
    log "clamd on 127.0.0.1:$clamd_port is $(port_holders "$clamd_port"), not started by this" \
      "checkout (no live pid of it in $clamd_dir/clamd.pid): not stopping it"
  else
    log "clamd is not running (no live pid in $clamd_dir/clamd.pid)"
  fi
}

clamd_status() {
  local whose="not started by this checkout"
  clamd_ours && whose="started here"
  if clamd_answers; then
    echo "clamd: ready on 127.0.0.1:$clamd_port ($(port_holders "$clamd_port"), $whose; $(clamd_call VERSION))"
  else
    echo "clamd: not ready on 127.0.0.1:$clamd_port"
    return 1
  fi
}

# --- RabbitMQ ----------------------------------------------------------------------------------

# The node's own pid file (written by the node, as the rabbitmq user) and this checkout's record
# of the node it started (copied from it once that node holds the port).
rabbit_node_pid_file=$rabbit_dir/rabbitmq.pid
rabbit_record=$state/rabbitmq.pid

rabbit_env() {
  export RABBITMQ_CONFIG_FILE=$rabbit_dir/rabbitmq.conf
  export RABBITMQ_PID_FILE=$rabbit_node_pid_file
  export RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  export RABBITMQ_NODE_PORT=$rabbit_port
  export ERL_EPMD_ADDRESS=127.0.0.1
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
}

# The pid of the RabbitMQ node this checkout started: recorded, alive and an Erlang VM.
rabbit_pid() {
  local pid
  pid=$(cat "$rabbit_record" 2>/dev/null || true)
  if pid_is "$pid" beam.smp; then echo "$pid"; fi
}

rabbit_ours() { port_owned_by "$rabbit_port" "$(rabbit_pid)"; }

# True when the port speaks AMQP 0-9-1: a protocol header is answered by a Connection.Start frame.
rabbit_answers() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$rabbit_port" || exit 1
    printf 'AMQP\0\0\x09\x01' >&3
    local frame=""
    IFS= read -r -N 1 -t 5 frame <&3 || exit 1
    [ "$frame" = $'\x01' ]
  ) 2>/dev/null
}

rabbit_install() { ensure_packages rabbitmq-server iproute2; }

rabbit_start() {
  rabbit_install
  local holders
  if port_in_use "$rabbit_port"; then
    holders=$(port_holders "$rabbit_port")
    rabbit_answers || die "127.0.0.1:$rabbit_port is held by $holders, which does not answer AMQP 0-9-1:" \
      "stop it or choose another AVGW_RABBITMQ_PORT"
    if rabbit_ours; then
      log "RabbitMQ answers AMQP on 127.0.0.1:$rabbit_port (pid $(rabbit_pid), started here)"
    else
      log "RabbitMQ answers AMQP on 127.0.0.1:$rabbit_port: $holders, not started by this checkout" \
        "(no live pid of it in $rabbit_record); using it as it is, never stopping it"
    fi
    return 0
  fi
  local node
  node=$(cat "$rabbit_node_pid_file" 2>/dev/null || true)
  if pid_is "$node" beam.smp; then
    die "a RabbitMQ node already runs (pid $node in $rabbit_node_pid_file) but does not listen on" \
      "127.0.0.1:$rabbit_port: use its port (AVGW_RABBITMQ_PORT) or stop it first"
  fi
  install -d -o rabbitmq -g rabbitmq "$rabbit_dir"
  sed -e "s|@PORT@|$rabbit_port|g" "$repo/scripts/rabbitmq/rabbitmq.conf.in" > "$rabbit_dir/rabbitmq.conf"
  chown rabbitmq:rabbitmq "$rabbit_dir/rabbitmq.conf"
  rabbit_env
  log "starting RabbitMQ on 127.0.0.1:$rabbit_port"
  rabbitmq-server -detached >/dev/null 2>&1 || true
  rabbit_await
}

# Waits until the node started above holds the port and answers AMQP, then records its pid.
rabbit_await() {
  local pid
  for _ in $(seq 1 240); do
    pid=$(cat "$rabbit_node_pid_file" 2>/dev/null || true)
    if pid_is "$pid" beam.smp && port_owned_by "$rabbit_port" "$pid" && rabbit_answers; then
      mkdir -p "$state"
      echo "$pid" >"$rabbit_record"
      log "RabbitMQ ready: pid $pid listens on 127.0.0.1:$rabbit_port and accepted AMQP 0-9-1 (recorded in $rabbit_record)"
      return 0
    fi
    if port_in_use "$rabbit_port" && ! port_owned_by "$rabbit_port" "$pid"; then
      die "127.0.0.1:$rabbit_port is held by $(port_holders "$rabbit_port"), not by the node started" \
        "here (its pid file $rabbit_node_pid_file: ${pid:-none})"
    fi
    sleep 0.5
  done
  tail -n 30 /var/log/rabbitmq/*.log >&2 2>/dev/null || true
  die "RabbitMQ did not accept AMQP connections within 120s"
}

# Stops the node this checkout started, by its recorded pid (SIGTERM: the node shuts down cleanly;
# SIGKILL after 60 s). Any other RabbitMQ is left running.
rabbit_stop() {
  local pid
  pid=$(rabbit_pid)
  if [ -n "$pid" ]; then
    log "RabbitMQ (pid $pid) $(stop_pid "$pid" 60)"
    rm -f "$rabbit_record"
  elif port_in_use "$rabbit_port"; then
    log "RabbitMQ on 127.0.0.1:$rabbit_port is $(port_holders "$rabbit_port"), not started by this" \
      "checkout (no live pid of it in $rabbit_record): not stopping it"
  else
    log "RabbitMQ is not running"
  fi
}

rabbit_status() {
  local whose="not started by this checkout"
  rabbit_ours && whose="started here"
  if rabbit_answers; then
    echo "rabbitmq: ready on 127.0.0.1:$rabbit_port ($(port_holders "$rabbit_port"), $whose)"
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
