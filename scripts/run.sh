#!/usr/bin/env bash
# Runs the gateway on its embedded defaults: a local clamd (started by scripts/services.sh), the JMS
# front-end with an embedded Artemis broker and an embedded Solr history under ./data.
# With "amqp" as first argument it runs the AMQP front-end instead, on the local RabbitMQ (also
# started by scripts/services.sh), with the same clamd and embedded Solr.
# Builds the application first when its sources are newer than the jar. Extra arguments go to the
# application, e.g. --avgateway.jms.consumers=8 (or scripts/run.sh amqp --avgateway.amqp.consumers=8)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME

module=gateway-jms
if [ "${1:-}" = amqp ]; then
  module=gateway-amqp
  shift
  scripts/services.sh start
else
  scripts/services.sh start clamd
fi

find_jar() {
  ls "$module"/target/"$module"-*-exec.jar 2>/dev/null | head -n 1 || true
}

jar=$(find_jar)
if [ -z "$jar" ] || [ -n "$(find pom.xml */pom.xml */src -newer "$jar" -type f -print -quit)" ]; then
  echo "[run] building $module"
  ./mvnw -B -ntp -q -pl "$module" -am package -DskipTests
  jar=$(find_jar)
fi
java="$JAVA_HOME/bin/java"
# The parallel collector, as in docker/Dockerfile: at 1 MiB G1 cost the gateway 1.2-1.5 ms of CPU
# per MiB (humongous objects starting concurrent marking) against 0.03-0.06 for this one
# (perf-notes/gateway.md, round 14). The cache's name says the collector: a cache fits the one it
# was recorded with.
jvm=(-XX:+UseParallelGC)

# On JDK 25+ the gateway starts from the extracted jar with a JDK AOT cache (classes already loaded
# and linked): about 4.5 s to ready instead of 9-14 s (perf-notes/archive/gateway-rounds.md,
# Cold vs warm). The cache is recorded once per build and JDK by a training run that stops after
# start-up (spring.context.exit=onRefresh), which takes about half a minute. AVGATEWAY_AOT=off
# skips it.
# The JDK's release file names its exact build (the cache fits that build only); read without
# starting a JVM. A JDK that does not say is started the plain way.
java_version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$JAVA_HOME/release" 2>/dev/null || true)
java_major=${java_version%%[!0-9]*}
if [ "${AVGATEWAY_AOT:-on}" = off ] || [ -z "$java_major" ] || [ "$java_major" -lt 25 ]; then
  exec "$java" "${jvm[@]}" -jar "$jar" "$@"
fi
app=.run/app/$module
app_jar=$app/$(basename "$jar")
aot=$app/gateway-$java_version-parallel.aot
if [ ! -f "$app_jar" ] || [ "$jar" -nt "$app_jar" ]; then
  rm -rf "$app"
  "$java" -Djarmode=tools -jar "$jar" extract --destination "$app" >/dev/null
  touch "$app_jar"
fi
if [ ! -f "$aot" ]; then
  echo "[run] recording a start-up cache for this build (once; log in $app/training.log)"
  if ! "$java" "${jvm[@]}" -XX:AOTCacheOutput="$aot" -Dspring.context.exit=onRefresh -jar "$app_jar" "$@" \
      >"$app/training.log" 2>&1 || [ ! -f "$aot" ]; then
    echo "[run] no start-up cache (see $app/training.log); starting without it"
    rm -f "$aot"
    exec "$java" "${jvm[@]}" -jar "$app_jar" "$@"
  fi
fi
exec "$java" "${jvm[@]}" -XX:AOTCache="$aot" -jar "$app_jar" "$@"
