# Shared by scripts/containers.sh and its parts (sourced, not run): paths, logging, the install of
# Podman, the containers.conf of the project's own runs, port and time helpers.
# shellcheck shell=bash

repo=${repo:?}
state=${AVGW_CONTAINERS_STATE:-$repo/.run/containers}
# Image names: the stand-ins for registry images, and the two gateway images built from docker/Dockerfile.
standin=localhost/avgw-standin
gateway_tag=${AVGW_GATEWAY_TAG:-local}

say() { printf '[containers] %s\n' "$*"; }
die() { say "FAILED: $*"; exit 1; }

# Debian's Podman with runc (crun refuses this machine's hybrid cgroups), mmdebstrap for the base
# image, podman-compose to run the compose file and docker-compose (1.29, no engine needed) to
# validate it, and the CNI plugin that lets the compose file's services find each other by name
# (Podman 4.3 on Debian 12 runs CNI networks; without `dnsname` the gateways cannot resolve
# `rabbitmq` or `clamd`, and no Podman package pulls it in). Only what is missing is installed.
containers_install() {
  local missing=() pkg
  for pkg in podman runc mmdebstrap podman-compose docker-compose \
    golang-github-containernetworking-plugin-dnsname; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "packages missing (${missing[*]}) and not root: install them with apt-get"
  say "installing ${missing[*]} (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The project's containers.conf, used through CONTAINERS_CONF by every podman call of these scripts
# and nowhere else: cgroupfs instead of systemd (there may be no systemd), runc, events in a file,
# and open-file/process limits a container may set where raising RLIMIT_NPROC is not permitted.
containers_conf() {
  mkdir -p "$state"
  cat >"$state/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
events_logger = "file"
CONF
  export CONTAINERS_CONF=$state/containers.conf
}

lock_dir=${AVGW_CONTAINERS_LOCK:-/var/lock/av-gateway-containers}

# A directory as the lock, with the holder's pid in it (a lock file descriptor would be inherited by
# the container monitors podman leaves running). A lock whose holder is gone is taken over.
take_lock() {
  local holder
  until mkdir "$lock_dir" 2>/dev/null; do
    holder=$(cat "$lock_dir/pid" 2>/dev/null || true)
    if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
      rm -rf "$lock_dir"
      continue
    fi
    say "waiting for another run of scripts/containers.sh on this machine (pid ${holder:-?})"
    sleep 15
  done
  echo $$ >"$lock_dir/pid"
  lock_held=true
}

# On exit: the stack and the containers this run started are removed, then the lock released.
cleanup() {
  if [ "${stack_active:-false}" = true ]; then
    stack_diagnose
    stack_down
  fi
  remove_started
  [ "${lock_held:-false}" = true ] && rm -rf "$lock_dir"
  return 0
}

now_ms() { date +%s%3N; }

# Free space where Podman keeps its volumes (the brokers' journals): a broker blocks its producers
# when too little is left.
storage_free() {
  local dir
  dir=$(podman info --format '{{.Store.VolumePath}}' 2>/dev/null || echo /var/lib/containers)
  [ -d "$dir" ] || dir=/
  df -h --output=avail,size,pcent "$dir" | awk -v d="$dir" 'NR == 2 { printf "%s free of %s (%s used) under %s\n", $1, $2, $3, d }'
}

# shellcheck source=../lib/ports.sh
. "$repo/scripts/lib/ports.sh"

# True when nothing listens on PORT (TCP, any local address).
port_free() { ! port_in_use "$1"; }

# Waits (up to AVGW_PORT_WAIT seconds, default 900) until every PORT given is free: other work on
# this machine may hold the gateway's default ports for a while.
wait_ports_free() {
  local deadline=$((SECONDS + ${AVGW_PORT_WAIT:-900})) busy
  while :; do
    busy=""
    for p in "$@"; do port_free "$p" || busy="$busy $p"; done
    [ -z "$busy" ] && return 0
    [ "$SECONDS" -lt "$deadline" ] || die "ports$busy still in use after ${AVGW_PORT_WAIT:-900} s"
    say "waiting for ports$busy to be free"
    sleep 15
  done
}

# Inside a wait loop: dies, with the container's last log lines, when container NAME is no longer
# running or the DEADLINE (a value of SECONDS) has passed; WHAT names what is awaited.
keep_waiting() {
  local name=$1 deadline=$2 what=$3
  if [ "$(podman inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; then
    podman logs --tail 40 "$name" >&2 || true
    die "container $name stopped while waiting for $what"
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    podman logs --tail 40 "$name" >&2 || true
    die "$what: not within the time allowed (container $name)"
  fi
}

image_size_mb() {
  podman image inspect --format '{{.Size}}' "$1" | awk '{printf "%.0f", $1 / 1048576}'
}

eicar() {
  # Assembled here so that this script itself carries no EICAR string.
  printf '%s%s%s' 'X5O!P%@AP[4\PZX54(P^)7CC)7}$' 'EICAR-STANDARD-ANTIVIRUS-' 'TEST-FILE!$H+H*'
}
