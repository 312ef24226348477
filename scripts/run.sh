#!/usr/bin/env bash
# Runs the gateway on its embedded defaults: a local clamd (started by scripts/services.sh), the JMS
# front-end with an embedded Artemis broker and an embedded Solr history under ./data.
# Builds the application first when its sources are newer than the jar. Extra arguments go to the
# application, e.g. --avgateway.jms.consumers=8
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME
scripts/services.sh start clamd

jar=$(ls gateway-jms/target/gateway-jms-*.jar 2>/dev/null | grep -v -e '-tests.jar' -e '-sources.jar' | head -n 1 || true)
if [ -z "$jar" ] || [ -n "$(find pom.xml */pom.xml */src -newer "$jar" -type f -print -quit)" ]; then
  echo "[run] building the JMS gateway"
  ./mvnw -B -ntp -q -pl gateway-jms -am package -DskipTests
  jar=$(ls gateway-jms/target/gateway-jms-*.jar | grep -v -e '-tests.jar' -e '-sources.jar' | head -n 1)
fi
exec "$JAVA_HOME/bin/java" -jar "$jar" "$@"
