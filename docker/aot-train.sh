#!/bin/sh
# Lays out a gateway's runnable jar for a fast start and records its JDK AOT cache (JEP 483/514:
# classes loaded and linked ahead of time), the way docker/Dockerfile does at image build time and
# docker/aot-check.sh does outside Docker. The training run starts the application on its
# defaults and stops after start-up (spring.context.exit=onRefresh); it needs no clamd, broker or
# Solr of its own: clamd and RabbitMQ point at a closed port, the embedded Artemis and Solr write
# to a scratch directory that is removed afterwards.
#   docker/aot-train.sh JAR APP_DIR   ->  APP_DIR/gateway.jar, APP_DIR/lib/, APP_DIR/gateway.aot
# The cache fits the JDK build that recorded it: record it with the java that will run it.
set -eu
jar=$1
app=$2
java=${JAVA:-java}
# A JDK AOT cache needs Java 25 or later; an older java is refused in one line, before any work.
major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${major%%.*}" -ge 25 ] 2>/dev/null || {
  echo "aot-train: refused $java (Java ${major:-unknown}): needs a JDK >= 25; set JAVA" >&2
  exit 1
}

rm -rf "$app"
mkdir -p "$app"
cp "$jar" "$app/source.jar"
"$java" -Djarmode=tools -jar "$app/source.jar" extract --destination "$app/extracted"
mv "$app/extracted/source.jar" "$app/gateway.jar"
mv "$app/extracted/lib" "$app/lib"
rm -rf "$app/extracted" "$app/source.jar"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$java" -XX:AOTCacheOutput="$app/gateway.aot" -Dspring.context.exit=onRefresh \
  -jar "$app/gateway.jar" \
  --avgateway.clamd.endpoints=127.0.0.1:9 \
  --spring.rabbitmq.port=9 \
  --avgateway.jms.url=tcp://127.0.0.1:0 \
  --avgateway.jms.embedded.data-dir="$scratch/artemis" \
  --avgateway.solr.embedded.home="$scratch/solr" \
  --server.port=0 \
  >"$scratch/training.log" 2>&1 || {
  echo "aot-train: the training run failed; its log:" >&2
  cat "$scratch/training.log" >&2
  exit 1
}
[ -s "$app/gateway.aot" ] || { echo "aot-train: no cache recorded" >&2; exit 1; }
echo "aot-train: $app/gateway.jar with $(ls "$app/lib" | wc -l) libraries; cache $(du -h "$app/gateway.aot" | cut -f1)"
