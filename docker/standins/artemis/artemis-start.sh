#!/bin/sh
# Creates the broker instance on first start (its volume is empty), then runs it in the foreground.
set -eu
instance=/var/lib/artemis-instance
if [ ! -f "$instance/etc/broker.xml" ]; then
  login=--require-login
  [ "${ANONYMOUS_LOGIN:-false}" = true ] && login=--allow-anonymous
  /opt/activemq-artemis/bin/artemis create "$instance" --silent --force "$login" \
    --user "${ARTEMIS_USER:-artemis}" --password "${ARTEMIS_PASSWORD:-artemis}" \
    --host 0.0.0.0 --http-host 0.0.0.0 --relax-jolokia
fi
exec "$instance/bin/artemis" run
