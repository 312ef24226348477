#!/usr/bin/env bash
# Who listens on a TCP port, for scripts that must tell their own process from another one on the
# same port (sourced by scripts/services.sh and scripts/containers/common.sh). Reads the kernel's
# socket table through `ss -ltnp` (iproute2): the pids that hold a listening socket on the port, on
# any local address.

# The pids holding a listening socket on port $1, one a line (none when nothing listens; a
# listener whose process this user may not see is listed as "?").
port_pids() {
  local lines
  lines=$(ss -Hltnp "sport = :$1" 2>/dev/null) || return 0
  [ -n "$lines" ] || return 0
  if grep -q 'pid=' <<<"$lines"; then
    grep -o 'pid=[0-9]*' <<<"$lines" | cut -d= -f2 | sort -un
  else
    echo '?'
  fi
}

# True when something listens on port $1.
port_in_use() { [ -n "$(port_pids "$1")" ]; }

# True when pid $2 holds a listening socket on port $1.
port_owned_by() { [ -n "$2" ] && port_pids "$1" | grep -qx "$2"; }

# "pid N (command line)" for each holder of port $1, for messages.
port_holders() {
  local pid out=()
  for pid in $(port_pids "$1"); do
    if [ "$pid" = '?' ]; then
      out+=("a process this user cannot see")
    else
      out+=("pid $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-100 | sed 's/ *$//'))")
    fi
  done
  local IFS=,
  echo "${out[*]}"
}

# True when pid $1 is alive, its executable's name is $2 and its command line contains $3 (if
# given): a recorded pid that was reused by another process does not pass.
pid_is() {
  local pid=$1 comm=$2 arg=${3:-}
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$comm" ] || return 1
  [ -z "$arg" ] || tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$arg"
}

# Sends SIGTERM to pid $1 and waits up to $2 seconds for it to exit, then SIGKILL. Prints how it
# ended ("stopped" or "killed").
stop_pid() {
  local pid=$1 seconds=$2
  kill -TERM "$pid" 2>/dev/null || { echo stopped; return 0; }
  for _ in $(seq 1 $((seconds * 10))); do
    kill -0 "$pid" 2>/dev/null || { echo stopped; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  echo killed
}
