#!/usr/bin/env bash
# The scale-out run (issue 10) on one machine: a ZooKeeper and a 2-node SolrCloud (each its own JVM,
# Solr from Maven Central), 2 private clamd daemons (scripts/services.sh with their own ports and
# state directories), and 1 or 2 AMQP gateway JVMs on one RabbitMQ quorum queue (av.scale.requests on
# the shared node), measured 1 vs 2 gateways x 1 vs 2 clamd; raw results in
# perf-notes/raw/scale-out-TIMESTAMP.txt. See perf-notes/scale-out.md.
#
# Usage: load-tests/scale-out.sh [--no-build] [options]
#   --sizes=1k,1m          payload sizes (default 1k,1m)
#   --warmup=3 --measure=10 --jit-warmup=20   seconds per cell / per topology
#   --gateway-arg=--avgateway.amqp.consumers=8   extra gateway property (repeatable)
#   --jms                  JMS gateways on one external Artemis (own JVM) instead of AMQP
#   --rabbit-cluster       AMQP on a private 3-node RabbitMQ cluster (scripts/rabbitmq-cluster.sh:
#                          own node names, ports and data; quorum queue with 3 members) instead of
#                          the shared node; gateway i is given node i+1's address first
#   --topologies=1x1,1x2,2x1,2x2   gateways x clamd, measured in this order (the default)
#   --open-rate=N          the 1 KiB open loop at N/s (default: half the first topology's 1 KiB maximum)
#   --fault                instead: the bounded fault run in the 2 gateways x 2 clamd topology (one
#                          gateway, one clamd, one Solr node killed in turn under load; the fault
#                          suite's checker); exits non-zero when a guarantee does not hold
# AMQP needs RabbitMQ on 127.0.0.1:5672 (scripts/services.sh start). Every process the run starts is its
# own and is stopped by it; the shared clamd and RabbitMQ are never stopped or reconfigured.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME

build=true
args=()
sizes=false
for a in "$@"; do
  case "$a" in
    --no-build) build=false ;;
    --sizes=*) sizes=true; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done
$sizes || args+=(--sizes=1k,1m)

scripts/services.sh start rabbitmq >/dev/null
if $build; then
  ./mvnw -B -q -pl load-tests -am install -DskipTests
fi
echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
exec ./mvnw -B -q -pl load-tests exec:exec@scale-out -Dharness.args="${args[*]}"
