#!/usr/bin/env bash
# The whole test suite: installs and starts what the tests need (clamd, RabbitMQ; chromium and
# chromedriver for the history page's browser test), then runs unit tests, integration tests and
# the static checks of every module with a JDK >= 21.
# Extra arguments go to Maven, e.g. scripts/test.sh -pl gateway-core
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME
echo "[test] JDK: $JAVA_HOME"
scripts/services.sh start
scripts/browser.sh install
exec ./mvnw -B -ntp verify "$@"
