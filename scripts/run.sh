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
exec "$JAVA_HOME/bin/java" -jar "$jar" "$@"
