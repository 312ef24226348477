#!/bin/sh
# Records the JDK AOT cache (JEP 483/514: classes loaded and linked ahead of time) of an extracted
# gateway, the way docker/Dockerfile does at image build time and docker/aot-check.sh does outside
# Docker, and writes the launch arguments that use it:
#   docker/aot-train.sh APP_DIR [KEEP_DIR]   ->  APP_DIR/gateway.aot, APP_DIR/launch.args
# APP_DIR holds docker/extract-layers.sh's layers copied into one directory (gateway.jar, lib/,
# modules.txt) and aot-training.jar (docker/AotTraining.java compiled).
#
# The cache covers the libraries only. A cache names the class path it was recorded with (each
# jar's path, size and time) and a JVM uses it only if its own class path starts with that one; the
# gateway's own jars change with every code change, the libraries' jars do not. So the training run
# has the libraries and aot-training.jar on its class path and loads the gateway through a class
# loader of its own (AotTraining run); launch.args puts the gateway's jars after them
# (java -XX:AOTCache=APP_DIR/gateway.aot @APP_DIR/launch.args). Loading the gateway's few hundred
# classes from their jars is what a start gives up against a cache that holds them too.
#
# With KEEP_DIR (the image build's cache mount), a cache recorded earlier for the same libraries,
# JDK, JVM options, main class and this script is copied from there, checked with -XX:AOTMode=on,
# and used instead of a new training run: after a code change the image build skips the run. A new
# cache replaces the one kept for the same main class. AOT_TRAINING=fresh records a new one anyway.
#
# The training run starts the application on its defaults and stops after start-up
# (spring.context.exit=onRefresh); it needs no clamd, broker or Solr of its own: clamd and RabbitMQ
# point at a closed port; the embedded Artemis and Solr, and the web server's work files
# (java.io.tmpdir), go to a scratch directory that is removed afterwards. It is bounded: after
# AOT_TRAIN_TIMEOUT seconds (300) it is stopped (killed 30 s later if it has not ended: a JVM asked
# to stop still writes its cache) and fails. Record the cache with the java that will run it (a
# cache fits the JDK build and collector that recorded it), on the files the image will hold.
set -eu
app=$(cd "$1" && pwd)
keep=${2:-}
java=${JAVA:-java}
# A JDK AOT cache needs Java 25 or later; an older java is refused in one line, before any work.
# The JVM's properties are read once: for this check and for the key of a kept cache (below).
settings=$("$java" -XshowSettings:properties -version 2>&1)
major=$(printf '%s\n' "$settings" | sed -n 's/^ *java.specification.version = //p')
[ "${major%%.*}" -ge 25 ] 2>/dev/null || {
  echo "aot-train: refused $java (Java ${major:-unknown}): needs a JDK >= 25; set JAVA" >&2
  exit 1
}
limit=${AOT_TRAIN_TIMEOUT:-300}

for f in gateway.jar modules.txt aot-training.jar; do
  [ -f "$app/$f" ] || { echo "aot-train: no $f in $app" >&2; exit 1; }
done
plan=$("$java" -cp "$app/aot-training.jar" AotTraining plan "$app")
main=$(printf '%s\n' "$plan" | sed -n 's/^main //p')
libraries=$(printf '%s\n' "$plan" | sed -n 's/^libraries //p')
application=$(printf '%s\n' "$plan" | sed -n 's/^application //p')
[ -n "$main" ] && [ -n "$libraries" ] && [ -n "$application" ] || {
  echo "aot-train: no launch plan for $app: $plan" >&2
  exit 1
}
rm -f "$app/gateway.aot"
printf -- '-cp "%s:%s"\n%s\n' "$libraries" "$application" "$main" >"$app/launch.args"
count=$(printf '%s\n' "$libraries" | tr ':' '\n' | wc -l)

# Whether the JVM takes the cache for the launch class path (it refuses a cache whose libraries,
# JDK or collector differ: -XX:AOTMode=on makes that an error).
usable() {
  "$java" -XX:AOTCache="$app/gateway.aot" -XX:AOTMode=on -cp "$libraries:$application" -version >/dev/null 2>&1
}

name=${main##*.}
key=$({
  printf '%s\n' "$settings" |
    grep -E '^ *(java\.home|java\.vm\.version|java\.runtime\.version|os\.arch) ='
  echo "JAVA_TOOL_OPTIONS=${JAVA_TOOL_OPTIONS:-}"
  echo "main=$main"
  printf '%s\n' "$libraries" | tr ':' '\n' | while read -r jar; do stat -c '%n %s %Y' "$jar"; done
  cat "$0"
} | sha256sum | cut -c1-16)
if [ -n "$keep" ] && [ "${AOT_TRAINING:-reuse}" != fresh ] && [ -f "$keep/$name-$key.aot" ]; then
  cp "$keep/$name-$key.aot" "$app/gateway.aot"
  if usable; then
    echo "aot-train: reused the cache kept for these $count libraries ($name, key $key); cache $(du -h "$app/gateway.aot" | cut -f1)"
    exit 0
  fi
  echo "aot-train: the cache kept for key $key is refused by this JVM; recording a new one" >&2
  rm -f "$app/gateway.aot" "$keep/$name-$key.aot"
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
timeout -k 30 "$limit" "$java" -XX:AOTCacheOutput="$app/gateway.aot" -Dspring.context.exit=onRefresh \
  -Djava.io.tmpdir="$scratch" -cp "$libraries" -Daot.application="$application" \
  AotTraining run "$main" \
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
usable || { echo "aot-train: the JVM refuses the cache it has just recorded" >&2; exit 1; }
echo "aot-train: recorded for $count libraries ($name, key $key); cache $(du -h "$app/gateway.aot" | cut -f1)"
if [ -n "$keep" ]; then
  # Kept for the next build; a build that cannot keep it still has its own.
  { rm -f "$keep/$name"-*.aot &&
    cp "$app/gateway.aot" "$keep/.$name-$key.$$" &&
    mv "$keep/.$name-$key.$$" "$keep/$name-$key.aot"; } 2>/dev/null ||
    echo "aot-train: could not keep the cache in $keep" >&2
fi
