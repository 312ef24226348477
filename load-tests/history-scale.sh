#!/usr/bin/env bash
# The history scale benchmark: fills a history to 1 M, 10 M, 30 M and 100 M documents (through the
# project's mapper and batch writer) and measures at each size ingest through the broker and an
# indexer-only gateway, index bytes per document, Solr's heap, every history query warm and cold,
# and a retention purge of the oldest day. Solr runs standalone in a JVM of its own. Resumable: the
# index and its state stay under --dir (default load-tests/target/history-scale), and a later run
# continues them (fill to 10 M today, to 100 M tomorrow). Raw output: perf-notes/raw/history-scale-*.txt.
# See perf-notes/solr-history.md. A run to 100 M needs about 15 GB of disk and, on two cores, hours.
#
# Usage: load-tests/history-scale.sh [--no-build] [--checkpoints=1M,10M] [--fill-only] [--feedback]
#        [--queries-only | --ingest-only] [--ingest=1M] [--warm=50] [--cold-rounds=3]
#        [--drop-caches=false] [--dir=DIR] [--jfr] ...   (every option: --help)
# Needs RabbitMQ on 127.0.0.1:5672 (scripts/services.sh start rabbitmq). Cold queries drop the page
# cache (root); --drop-caches=false does not.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME

build=true
args=()
for a in "$@"; do
  case "$a" in
    --no-build) build=false ;;
    *) args+=("$a") ;;
  esac
done
scripts/services.sh start rabbitmq >/dev/null
if $build; then
  ./mvnw -B -q -pl load-tests -am install -DskipTests
fi
exec ./mvnw -B -q -pl load-tests exec:exec@history-scale -Dharness.args="${args[*]}"
