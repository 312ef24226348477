#!/bin/sh
# Records the JDK AOT cache (JEP 483/514: classes loaded and linked ahead of time) of an extracted
# gateway (APP_DIR/gateway.jar and APP_DIR/lib/, docker/extract-layers.sh's layers copied into one
# directory), the way docker/Dockerfile does at image build time and docker/aot-check.sh does
# outside Docker. The training run starts the application on its defaults and stops after start-up
# (spring.context.exit=onRefresh); it needs no clamd, broker or Solr of its own: clamd and RabbitMQ
# point at a closed port; the embedded Artemis and Solr, and the web server's work files
# (java.io.tmpdir), go to a scratch directory that is removed afterwards. It is bounded: after
# AOT_TRAIN_TIMEOUT seconds (300) it is stopped (killed 30 s later if it has not ended: a JVM asked
# to stop still writes its cache) and fails.
#   docker/aot-train.sh APP_DIR   ->  APP_DIR/gateway.aot
# The cache fits the JDK build, collector and class path (the jars' paths, sizes and times) that
# recorded it: record it with the java that will run it, on the files the image will hold.
set -eu
app=$1
java=${JAVA:-java}
# A JDK AOT cache needs Java 25 or later; an older java is refused in one line, before any work.
major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${major%%.*}" -ge 25 ] 2>/dev/null || {
  echo "aot-train: refused $java (Java ${major:-unknown}): needs a JDK >= 25; set JAVA" >&2
  exit 1
}
limit=${AOT_TRAIN_TIMEOUT:-300}

[ -f "$app/gateway.jar" ] && [ -d "$app/lib" ] || { echo "aot-train: no gateway.jar and lib/ in $app" >&2; exit 1; }
rm -f "$app/gateway.aot"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
timeout -k 30 "$limit" "$java" -XX:AOTCacheOutput="$app/gateway.aot" -Dspring.context.exit=onRefresh \
  -Djava.io.tmpdir="$scratch" -jar "$app/gateway.jar" \
  --avgateway.clamd.endpoints=127.0.0.1:9 \
  --spring.rabbitmq.port=9 \
  --avgateway.jms.url=tcp://127.0.0.1:0 \
  --avgateway.jms.embedded.data-dir="$scratch/artemis" \
  --avgateway.solr.embedded.home="$scratch/solr" \
  --server.port=0 \
  >"$scratch/training.log" 2>&1 || {
  echo "aot-train: the training run failed or took longer than $limit s; its log:" >&2
  cat "$scratch/training.log" >&2
  exit 1
}
[ -s "$app/gateway.aot" ] || { echo "aot-train: no cache recorded" >&2; exit 1; }
echo "aot-train: $app/gateway.jar with $(ls "$app/lib" | wc -l) libraries; cache $(du -h "$app/gateway.aot" | cut -f1)"
