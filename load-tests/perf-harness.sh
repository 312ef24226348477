#!/usr/bin/env bash
# The one-run perf harness (issue 7): clamd alone, each broker alone (request/reply echo with the
# gateway's acks/confirms/transactions), and the gateway over AMQP and JMS with history on and off,
# for 1 KiB, 64 KiB, 1 MiB and 10 MiB, side by side in one run; prints the ratios gateway/ceiling,
# the gateway figures (the gateway JVM's CPU per request and per MiB split into the embedded
# broker's, the embedded Solr's and its own threads, clamd's CPU per scan in the same cell, the
# share of the "shared" bound, p99 at half load next to the echo's p99 at the same offered rate)
# with the targets' pass/miss, and writes the raw results to perf-notes/raw/harness-TIMESTAMP.txt.
#
# Usage: load-tests/perf-harness.sh [--no-build] [options]   (--help prints every option)
#   --quick                 2 s warm-up + 5 s per cell (about 6 minutes) instead of 3 s + 10 s (about 14)
#   --smoke                 checks that the harness works, measures nothing worth quoting: 1 KiB only,
#                           1 s per cell, no durability or cold-start phase, raw results in the run's
#                           directory; exits non-zero when a cell is missing, a request failed,
#                           or the gateway figures table lacks a figure
#                           (about 2 minutes; scripts/smoke.sh runs it in the test suite)
#   --sizes=1k,64k,1m,10m   payload sizes
#   --only=PHASES / --skip=PHASES   clamd, amqp-echo, jms-echo, amqp, jms, durability; amqp-on and
#                           jms-on run only the gateway's history-on cells
#   --gateway-arg=--avgateway.amqp.consumers=8   extra gateway property (repeatable)
#   --gateway-jvm-arg=-Xlog:gc:file=gc.log   extra JVM option of the gateways of the size cells
#                           (repeatable; after the harness' own -Xmx2g -XX:+UseParallelGC; a
#                           collector of its own needs -XX:-UseParallelGC before it)
#   --jfr                   record a JFR profile of every gateway JVM (load-tests/target/harness/*.jfr;
#                           load-tests/tools/jfr-summary.py sums its samples by component)
#   --tracing=URL           after each gateway's history-on cells, a new gateway JVM of this build
#                           runs them with tracing on, 10 % of new traces sampled and their spans
#                           sent to URL (a Zipkin v2 span endpoint; start the server first); variant
#                           tracing-10pct
#   --half-rate=N           offered rate of the half-load cells (default: half of each gateway's maximum),
#                           the same for the baseline and the echo: compares tails at one load
#   --variant=NAME          what this run is (plain): named in the raw file's first and last lines
#                           and in the gateway figures' headings
#   --jit-warmup=SECONDS    unmeasured load on each new JVM before its cells (20; 15 with --quick):
#                           1 KiB, then each larger size of --sizes for a share of a third of it
#                           (at most 10 s each); use 120 when quoting p99: after 20 s the JIT is
#                           still compiling
#   --jit-settle=PERCENT    after --jit-warmup, each gateway JVM of the size cells takes 1 KiB load in
#                           5 s steps until its JIT threads used < PERCENT % of one core in a step
#                           (at most 180 s): compares gateways in the same compiled state rather
#                           than at the same age (tracing on has more code to compile)
#   --trace                 each AMQP gateway's half-load cell taken apart per request at the moment
#                           of its verdict (the reply's scannedAt): send -> scanned -> reply received,
#                           percentiles and the slowest 1 %, printed after the cell
#   --baseline=DIR          before/after in one invocation: DIR is a checkout of another commit with
#                           its jars built (git worktree add DIR COMMIT; cd DIR; ./mvnw -B -q -pl
#                           gateway-amqp,gateway-jms -am package -DskipTests); after each gateway's
#                           history-on run, DIR's runnable jar runs the same cells (variant
#                           baseline-history-on); with --payload=eicar-same, after each of this
#                           build's variants (variant "baseline eicar-same cache=true/false")
#   --payload=eicar-same    instead of every other phase: the AVS workload, the same 68-byte EICAR
#                           (INFECTED expected) --requests=N times (10001) in a closed loop through
#                           each gateway with avgateway.pipeline.cache.enabled=true and =false
#                           (variants "eicar-same cache=true/false"; forced, since auto is off with
#                           the project's custom-signature clamd); --smoke makes it exit non-zero
#                           when a variant is missing or a request was not answered INFECTED
#   --soak[=N]              instead: N (1,000,000) small requests through the AMQP gateway, heap and
#                           lost-message count; --soak-max-minutes=40 bounds it
# Needs clamd on 127.0.0.1:3310 and RabbitMQ on 127.0.0.1:5672 (scripts/services.sh start); the
# embedded Artemis of the JMS runs listens on 127.0.0.1:61716. Gateways and echo servers run as
# child JVMs of the harness and are stopped by it; queues are av.perf.*.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME

build=true
help=false
args=()
for a in "$@"; do
  case "$a" in
    --no-build) build=false ;;
    --help) help=true; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done

# --help prints the flags (the harness' own command line, load-tests/README.md): no service needed.
$help || scripts/services.sh start >/dev/null
if $build; then
  ./mvnw -B -q -pl load-tests -am install -DskipTests
fi
$help || echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
exec ./mvnw -B -q -pl load-tests exec:exec@harness -Dharness.args="${args[*]:-}"
