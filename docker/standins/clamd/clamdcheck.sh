#!/bin/bash
# The compose health check's command: healthy when clamd on 127.0.0.1:3310 answers PING with PONG.
exec 3<>/dev/tcp/127.0.0.1/3310 || exit 1
printf 'zPING\0' >&3
IFS= read -r -d '' -t 5 reply <&3 || exit 1
[ "$reply" = PONG ]
