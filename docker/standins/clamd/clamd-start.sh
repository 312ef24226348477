#!/bin/sh
# Starts clamd in the foreground on /etc/clamav/clamd.conf; a database directory without any
# signature file first gets the project's test signatures (official ones, once there, are kept).
set -eu
db=/var/lib/clamav
if ! ls "$db"/*.cvd "$db"/*.cld "$db"/*.hdb "$db"/*.ndb >/dev/null 2>&1; then
  cp /usr/local/share/avgw-signatures/* "$db/"
  echo "clamd-start: $db had no signatures; gave it the project's test signatures"
fi
exec clamd --foreground=true -c /etc/clamav/clamd.conf
