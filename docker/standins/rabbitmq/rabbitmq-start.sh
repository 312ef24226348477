#!/bin/sh
# Writes the broker's configuration from the environment and runs RabbitMQ in the foreground.
set -eu
{
  echo "listeners.tcp.default = 5672"
  echo "default_user = ${RABBITMQ_DEFAULT_USER:-guest}"
  echo "default_pass = ${RABBITMQ_DEFAULT_PASS:-guest}"
} >/etc/rabbitmq/rabbitmq.conf
exec /usr/lib/rabbitmq/bin/rabbitmq-server
