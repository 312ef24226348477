#!/usr/bin/env bash
# A 3-node RabbitMQ cluster on this machine, from Debian's rabbitmq-server, for the cluster fault rows
# and `load-tests/scale-out.sh --rabbit-cluster` (docs/reliability.md, perf-notes/scale-out.md).
# Nodes NAME1@localhost, NAME2@localhost, NAME3@localhost, each with its own AMQP port (PORT, PORT+1,
# PORT+2 on 127.0.0.1), distribution port (DIST, DIST+1, DIST+2 on 127.0.0.1), data, log, pid file
# and configuration under DIR/nodeN, all owned by the rabbitmq user, which the nodes and rabbitmqctl
# run as. The cluster has an Erlang cookie of its own (DIR/home/.erlang.cookie), so its nodes cannot
# reach any other node of the machine (the project's own rabbit@localhost is never touched), and
# every node is stopped or killed by its own pid file.
#
# Usage: scripts/rabbitmq-cluster.sh COMMAND
#   start            starts the three nodes and joins nodes 2 and 3 to node 1 (stop_app,
#                    join_cluster, start_app); a node that already answers is left as it is
#   stop             stops every node (rabbitmqctl -n NODE stop PIDFILE)
#   status           cluster_status as node 1 sees it
#   addresses        the value for spring.rabbitmq.addresses: 127.0.0.1:PORT,127.0.0.1:PORT+1,…
#   start-node N     starts node N (1-3) again on its data and waits until it runs
#   stop-node N      stops node N cleanly
#   kill-node N      SIGKILL to node N's Erlang VM (by its pid file), waits until it is gone
#   ctl N ARGS…      rabbitmqctl ARGS… against node N only
# Environment: AVGW_CLUSTER_DIR (<repo>/.run/rabbitmq-cluster), AVGW_CLUSTER_PORT (5681),
#   AVGW_CLUSTER_DIST_PORT (25681), AVGW_CLUSTER_NAME (avc). Run as root (or as rabbitmq).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${AVGW_CLUSTER_DIR:-$repo/.run/rabbitmq-cluster}
port=${AVGW_CLUSTER_PORT:-5681}
dist=${AVGW_CLUSTER_DIST_PORT:-25681}
name=${AVGW_CLUSTER_NAME:-avc}
bin=/usr/lib/rabbitmq/bin

log() { printf '[rabbitmq-cluster] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

node_name() { echo "$name$1@localhost"; }
node_dir() { echo "$dir/node$1"; }

# Runs a RabbitMQ program as the rabbitmq user with the cluster's home (its cookie) and node N's
# environment.
as_rabbitmq() {
  local n=$1 program=$2
  shift 2
  local nd
  nd=$(node_dir "$n")
  local env=(
    HOME="$dir/home"
    RABBITMQ_NODENAME="$(node_name "$n")"
    RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
    RABBITMQ_NODE_PORT=$((port + n - 1))
    RABBITMQ_DIST_PORT=$((dist + n - 1))
    RABBITMQ_MNESIA_BASE="$nd/mnesia"
    RABBITMQ_LOG_BASE="$nd/log"
    RABBITMQ_PID_FILE="$nd/rabbitmq.pid"
    RABBITMQ_CONFIG_FILE="$nd/rabbitmq.conf"
    RABBITMQ_ENABLED_PLUGINS_FILE="$nd/enabled_plugins"
    ERL_EPMD_ADDRESS=127.0.0.1
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  )
  if [ "$(id -u)" -eq "$(id -u rabbitmq)" ]; then
    (cd "$dir/home" && env "${env[@]}" "$bin/$program" "$@")
  else
    (cd "$dir/home" && runuser -u rabbitmq -- env "${env[@]}" "$bin/$program" "$@")
  fi
}

ctl() {
  local n=$1
  shift
  as_rabbitmq "$n" rabbitmqctl -n "$(node_name "$n")" "$@"
}

check_node() {
  case "${1:-}" in 1 | 2 | 3) ;; *) die "node must be 1, 2 or 3, not '${1:-}'" ;; esac
}

node_pid() {
  local pid
  pid=$(cat "$(node_dir "$1")/rabbitmq.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

render() {
  local n=$1 nd
  nd=$(node_dir "$n")
  install -d -o rabbitmq -g rabbitmq -m 750 "$dir" "$dir/home" "$nd" "$nd/mnesia" "$nd/log"
  if [ ! -f "$dir/home/.erlang.cookie" ]; then
    (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/home/.erlang.cookie")
    chown rabbitmq:rabbitmq "$dir/home/.erlang.cookie"
    chmod 400 "$dir/home/.erlang.cookie"
  fi
  cat > "$nd/rabbitmq.conf" <<EOF
# Node $(node_name "$n") of the av-gateway test cluster (rendered by scripts/rabbitmq-cluster.sh).
listeners.tcp.1 = 127.0.0.1:$((port + n - 1))
loopback_users.guest = true
consumer_timeout = 900000
max_message_size = 104857600
vm_memory_high_watermark.relative = 0.4
disk_free_limit.absolute = 200MB
cluster_partition_handling = pause_minority
log.file.level = info
log.console = false
EOF
  echo '[].' > "$nd/enabled_plugins"
  chown rabbitmq:rabbitmq "$nd/rabbitmq.conf" "$nd/enabled_plugins"
}

start_node() {
  local n=$1
  if [ -n "$(node_pid "$n")" ]; then
    log "$(node_name "$n") runs (pid $(node_pid "$n"))"
  else
    render "$n"
    log "starting $(node_name "$n") on 127.0.0.1:$((port + n - 1)) (data $(node_dir "$n"))"
    as_rabbitmq "$n" rabbitmq-server >>"$(node_dir "$n")/server.out" 2>&1 </dev/null &
    disown
  fi
  ctl "$n" wait "$(node_dir "$n")/rabbitmq.pid" --timeout 180 >/dev/null ||
    die "$(node_name "$n") did not start; see $(node_dir "$n")/log and server.out"
  log "$(node_name "$n") runs (pid $(node_pid "$n"))"
}

in_cluster() {
  ctl 1 cluster_status --formatter json 2>/dev/null | grep -q "\"$(node_name "$1")\""
}

join() {
  local n=$1
  if in_cluster "$n"; then
    return 0
  fi
  log "joining $(node_name "$n") to $(node_name 1)"
  ctl "$n" stop_app >/dev/null
  ctl "$n" join_cluster "$(node_name 1)" >/dev/null
  ctl "$n" start_app >/dev/null
}

stop_node() {
  local n=$1 pid
  pid=$(node_pid "$n")
  if [ -z "$pid" ]; then
    log "$(node_name "$n") is not running"
    return 0
  fi
  ctl "$n" stop "$(node_dir "$n")/rabbitmq.pid" >/dev/null
  log "$(node_name "$n") stopped"
}

kill_node() {
  local n=$1 pid
  pid=$(node_pid "$n")
  [ -n "$pid" ] || die "$(node_name "$n") is not running"
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  log "$(node_name "$n") killed (SIGKILL to pid $pid)"
}

addresses() {
  echo "127.0.0.1:$port,127.0.0.1:$((port + 1)),127.0.0.1:$((port + 2))"
}

action=${1:-status}
shift || true
case "$action" in
  start)
    "$repo/scripts/services.sh" install rabbitmq
    for n in 1 2 3; do start_node "$n"; done
    for n in 2 3; do join "$n"; done
    log "cluster of $(node_name 1), $(node_name 2), $(node_name 3) runs; spring.rabbitmq.addresses=$(addresses)"
    ;;
  stop) for n in 3 2 1; do stop_node "$n"; done ;;
  status) ctl 1 cluster_status ;;
  addresses) addresses ;;
  start-node) check_node "${1:-}"; start_node "$1" ;;
  stop-node) check_node "${1:-}"; stop_node "$1" ;;
  kill-node) check_node "${1:-}"; kill_node "$1" ;;
  ctl) check_node "${1:-}"; n=$1; shift; ctl "$n" "$@" ;;
  *) die "usage: scripts/rabbitmq-cluster.sh start|stop|status|addresses|start-node N|stop-node N|kill-node N|ctl N ARGS…" ;;
esac
