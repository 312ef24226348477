#!/usr/bin/env bash
# Checks outside Docker the steps of docker/Dockerfile that need no Docker engine: the runnable jar
# split into its layers (docker/extract-layers.sh) and the layers copied into the layout the image
# uses, the training launcher (docker/AotTraining.java) compiled into it, the AOT cache recorded by
# the same training script (docker/aot-train.sh) on a JDK >= 25, and the cache used by `java` with
# the launch arguments the image starts with (@launch.args): a start with
# -XX:AOTMode=on, which exits with an error when the cache cannot be used. Prints the time of a
# start to the end of start-up (spring.context.exit=onRefresh) with and without the cache, one
# start each.
#   docker/aot-check.sh [gateway-jms|gateway-amqp ...]   (default: both; builds a jar that is missing)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME
major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release")
[ "${major:-0}" -ge 25 ] || { echo "[aot-check] needs a JDK >= 25 (the image's); found $JAVA_HOME" >&2; exit 1; }
export JAVA="$JAVA_HOME/bin/java"
# The same collector in training and use, as the image pins it (a cache fits the GC it was made with).
export JAVA_TOOL_OPTIONS="-XX:+UseParallelGC"

log() { printf '[aot-check] %s\n' "$*" >&2; }

now_ms() { date +%s%3N; }

check() {
  local module=$1 jar app scratch
  jar=$(ls "$module"/target/"$module"-*-exec.jar 2>/dev/null | head -n 1 || true)
  if [ -z "$jar" ]; then
    log "building $module"
    ./mvnw -B -ntp -q -Pimage -pl "$module" -am package
    jar=$(ls "$module"/target/"$module"-*-exec.jar | head -n 1)
  fi
  local layers="$repo/target/aot-check/$module-layers" layer
  app="$repo/target/aot-check/$module"
  rm -rf "$layers" "$app"
  docker/extract-layers.sh "$jar" "$layers"
  mkdir -p "$app"
  for layer in dependencies spring-boot-loader snapshot-dependencies application; do
    cp -a "$layers/$layer/." "$app/"
  done
  docker/training-jar.sh docker/AotTraining.java "$app/aot-training.jar"
  local keep="$repo/target/aot-check/$module-keep" out
  rm -rf "$keep" && mkdir -p "$keep"
  docker/aot-train.sh "$app" "$keep" >&2
  [ -f "$app/gateway.jar" ] && [ -d "$app/lib" ] || { log "FAIL: $module: no extracted layout"; return 1; }
  scratch=$(mktemp -d)
  local t0 t1 t2 args=(--avgateway.clamd.endpoints=127.0.0.1:9 --spring.rabbitmq.port=9
    --avgateway.jms.url=tcp://127.0.0.1:0 --server.port=0)
  # A start to the end of start-up that must use the cache (-XX:AOTMode=on), as the image starts.
  cached_start() {
    local name=$1
    "$JAVA" -XX:AOTCache="$app/gateway.aot" -XX:AOTMode=on -Dspring.context.exit=onRefresh \
      @"$app/launch.args" "${args[@]}" \
      --avgateway.jms.embedded.data-dir="$scratch/a-$name" --avgateway.solr.embedded.home="$scratch/s-$name" \
      >"$scratch/$name.log" 2>&1 || { tail -n 20 "$scratch/$name.log" >&2; return 1; }
  }
  fail() { log "FAIL: $module: $*"; rm -rf "$scratch"; return 1; }
  t0=$(now_ms)
  cached_start with || { fail "did not start with its AOT cache (-XX:AOTMode=on)"; return 1; }
  t1=$(now_ms)
  "$JAVA" -Dspring.context.exit=onRefresh -jar "$app/gateway.jar" "${args[@]}" \
    --avgateway.jms.embedded.data-dir="$scratch/a2" --avgateway.solr.embedded.home="$scratch/s2" \
    >"$scratch/without.log" 2>&1 || true
  t2=$(now_ms)
  log "$module: cache recorded and used; start-up $((t1 - t0)) ms with it, $((t2 - t1)) ms without" \
    "($("$JAVA" -version 2>&1 | grep -m1 version))"
  # A code change: gateway.jar gets another entry (new size and time). The cache covers the
  # libraries only, so the next training reuses the one kept, and the JVM still takes it.
  printf 'a code change for docker/aot-check.sh\n' >"$scratch/code-change.txt"
  "$JAVA_HOME/bin/jar" --update --file "$app/gateway.jar" -C "$scratch" code-change.txt
  out=$(docker/aot-train.sh "$app" "$keep" 2>&1) || { fail "training after a code change: $out"; return 1; }
  out=$(printf '%s\n' "$out" | grep -v '^Picked up JAVA_TOOL_OPTIONS' || true)
  case $out in
    *"reused the cache kept"*) ;;
    *) fail "a code change was trained again instead of reusing the cache: $out"; return 1 ;;
  esac
  cached_start changed || { fail "did not start with the reused cache after a code change"; return 1; }
  log "$module: after a code change, $out; the JVM takes it"
  rm -rf "$scratch"
}

modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(gateway-jms gateway-amqp)
for m in "${modules[@]}"; do check "$m"; done
