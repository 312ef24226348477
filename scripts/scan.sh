#!/usr/bin/env bash
# Sends files to a running gateway and prints each verdict (exit 0 CLEAN, 1 INFECTED,
# 2 UNSCANNABLE/ERROR, 3 no verdict). JMS by default (the gateway of scripts/run.sh);
# "amqp" as first argument for the AMQP gateway (scripts/run.sh amqp).
#   scripts/scan.sh FILE...            scripts/scan.sh amqp FILE...
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
module=gateway-jms
if [ "${1:-}" = amqp ]; then
  module=gateway-amqp
  shift
fi
[ $# -gt 0 ] || { echo "usage: scripts/scan.sh [amqp] FILE..." >&2; exit 2; }
jar=$(ls "$repo/$module"/target/"$module"-*-exec.jar 2>/dev/null | head -n 1 || true)
[ -n "$jar" ] || { echo "no $module jar: start the gateway with scripts/run.sh first" >&2; exit 2; }
exec "$("$repo/scripts/find-jdk.sh")/bin/java" -jar "$jar" scan "$@"
