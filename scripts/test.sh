#!/usr/bin/env bash
# The whole test suite: installs and starts what the tests need (clamd, RabbitMQ; chromium and
# chromedriver for the history page's browser test; Python and Node.js with the pinned packages of
# the callers in examples/, which the runnable-jar tests run), then runs unit tests, integration tests and
# the static checks of every module with a JDK >= 21, and then the smoke stage (scripts/smoke.sh):
# the documented commands run as a user runs them (scripts/run.sh, scripts/scan.sh, the perf
# harness, Gatling), each bounded in time.
# Extra arguments go to Maven and run the module tests only, e.g. scripts/test.sh -pl gateway-core
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME
echo "[test] JDK: $JAVA_HOME"
started=$SECONDS
scripts/services.sh start
scripts/browser.sh install
scripts/examples.sh install
# Two module builds at a time: after core and storage-solr, gateway-jms and gateway-amqp (which do
# not depend on each other) run their tests side by side. Their fault tests use private brokers,
# clamd and Solr on ports of their own; what they share (the clamd on 3310, RabbitMQ) they only use.
./mvnw -B -ntp -T 2 verify "$@"
echo "[test] module tests passed in $((SECONDS - started)) s"
if [ $# -eq 0 ]; then
  scripts/smoke.sh
fi
echo "[test] whole suite passed in $((SECONDS - started)) s"
