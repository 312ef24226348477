# docker/compose.yaml started here with Podman (sourced by scripts/containers.sh): validated, then
# started with docker/compose.standins.yaml, which swaps only the registry images for local
# stand-ins; both gateways healthy and scanning; the stack stopped and started again with its
# history kept; everything it created removed.
# shellcheck shell=bash

stack_project=avgw-stack
stack_files=(-f "$repo/docker/compose.yaml" -f "$repo/docker/compose.standins.yaml")

compose() { podman-compose -p "$stack_project" "${stack_files[@]}" "$@"; }

# Passwords of this run only; RabbitMQ published on AVGW_STACK_RABBITMQ_PORT (5673), since this
# machine's own RabbitMQ holds 5672.
stack_env() {
  local f=$state/stack-passwords
  [ -f "$f" ] || for v in RABBITMQ ARTEMIS AVGATEWAY_HTTP; do
    echo "${v}_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
  done >"$f"
  set -a
  # shellcheck source=/dev/null
  . "$f"
  set +a
  export RABBITMQ_PORT=${AVGW_STACK_RABBITMQ_PORT:-5673}
}

stack_container() { echo "${stack_project}_$1_1"; }

# docker-compose (Debian's 1.29) validates the two files and their merge; podman-compose has no
# config command.
stack_validate() {
  say "> docker-compose -f docker/compose.yaml -f docker/compose.standins.yaml config -q"
  docker-compose "${stack_files[@]}" config -q || die "docker-compose config -q: the compose files are not valid"
  docker-compose -f "$repo/docker/compose.yaml" config -q || die "docker-compose -f docker/compose.yaml config -q"
  say "ok: docker/compose.yaml and the override are valid"
}

# Runs SERVICE's health check command (the compose file's, which Podman holds for the container)
# until it passes, within LIMIT seconds. Podman runs health checks on a timer only under systemd,
# so here they are run on demand: podman healthcheck run.
await_healthy() {
  local service=$1 limit=$2 name deadline=$((SECONDS + $2))
  name=$(stack_container "$service")
  until podman healthcheck run "$name" >/dev/null 2>&1; do
    keep_waiting "$name" "$deadline" "$service's health check to pass within $limit s"
    sleep 2
  done
  say "ok: $service healthy (its compose health check passed)"
}

# depends_on with condition service_healthy, which podman-compose 1.0 does not wait for: the
# services the gateways depend on are started first and awaited healthy, then the gateways (the
# JMS gateway exits at start when its external broker does not answer yet).
stack_up() {
  local s
  say "> podman-compose -p $stack_project -f docker/compose.yaml -f docker/compose.standins.yaml up -d rabbitmq artemis clamd solr"
  compose up -d rabbitmq artemis clamd solr >"$state/stack-up.log" 2>&1 || die "podman-compose up -d (log $state/stack-up.log)"
  for s in rabbitmq artemis clamd solr; do await_healthy "$s" 240; done
  say "> podman-compose ... up -d (the gateways)"
  compose up -d >>"$state/stack-up.log" 2>&1 || die "podman-compose up -d (log $state/stack-up.log)"
  for s in gateway-amqp gateway-jms; do await_healthy "$s" 300; done
}

# A clean file and EICAR through each gateway, on the ports the compose file publishes.
stack_scan() {
  check_scan jms --url tcp://127.0.0.1:61616 --user avgateway --password "$ARTEMIS_PASSWORD"
  AVGATEWAY_AMQP_URI="amqp://avgateway:$RABBITMQ_PASSWORD@127.0.0.1:$RABBITMQ_PORT" check_scan amqp
}

# How many history documents Solr holds for EICAR, asked through the JMS gateway's history API;
# 0 until there is one from each gateway (the field gateway: AVGATEWAY_PIPELINE_GATEWAY_NAME).
eicar_history_count() {
  local sha
  sha=$(eicar | sha256sum | cut -d' ' -f1)
  curl -fsS --max-time 10 -u "avgateway:$AVGATEWAY_HTTP_PASSWORD" \
    "http://127.0.0.1:8081/api/history/by-sha256?sha256=$sha&limit=100" \
    | python3 -c 'import json, sys
docs = json.load(sys.stdin)
both = {"gateway-jms", "gateway-amqp"} <= {d.get("gateway") for d in docs}
print(len(docs) if both else 0)'
}

# Waits until Solr holds at least N EICAR documents (the indexer drains the history queue).
await_history() {
  local want=$1 got=0 deadline=$((SECONDS + 120))
  while :; do
    got=$(eicar_history_count 2>/dev/null || echo 0)
    [ "$got" -ge "$want" ] && { echo "$got"; return 0; }
    [ "$SECONDS" -lt "$deadline" ] || die "Solr holds $got EICAR history documents after 120 s, expected $want"
    sleep 2
  done
}

# Stops and starts the stack; the history (the solr-data volume) must still hold what it held.
stack_restart() {
  local before after
  before=$(await_history 2)
  say "ok: Solr holds $before EICAR history documents, from both gateways (asked through gateway-jms's history API)"
  say "> podman-compose ... stop; podman-compose ... start (in depends_on order, as in stack_up)"
  compose stop >>"$state/stack-up.log" 2>&1 || die "podman-compose stop (log $state/stack-up.log)"
  compose start rabbitmq artemis clamd solr >>"$state/stack-up.log" 2>&1 \
    || die "podman-compose start rabbitmq artemis clamd solr (log $state/stack-up.log)"
  local s
  for s in rabbitmq artemis clamd solr; do await_healthy "$s" 240; done
  compose start gateway-amqp gateway-jms >>"$state/stack-up.log" 2>&1 \
    || die "podman-compose start gateway-amqp gateway-jms (log $state/stack-up.log)"
  for s in gateway-amqp gateway-jms; do await_healthy "$s" 300; done
  after=$(await_history "$before")
  say "ok: after stop and start the history still holds $after EICAR documents (volume ${stack_project}_solr-data)"
}

# After a failure with the stack up: each service's log kept in the state directory, the brokers'
# warnings and errors printed (a broker that blocks its producers says why only there), and the
# free space of Podman's storage.
stack_diagnose() {
  local s log blocking_lines='AMQ2222(10|11|12)|resource limit alarm'
  say "the stack at the failure: $(storage_free)"
  for s in rabbitmq artemis clamd solr gateway-amqp gateway-jms; do
    log=$state/stack-$s.log
    podman logs "$(stack_container "$s")" >"$log" 2>&1 || continue
    case $s in
      rabbitmq | artemis)
        # what makes a broker hold its producers (Artemis: disk full, address full; RabbitMQ: a
        # disk or memory alarm), else its last warnings and errors
        if grep -q -E "$blocking_lines" "$log"; then
          say "$s blocked its producers (whole log $log):"
          grep -E "$blocking_lines" "$log" | tail -n 6 | sed 's/^/    /'
        else
          say "$s: nothing blocked; its last warnings and errors (whole log $log):"
          grep -E 'WARN|ERROR|\[warning\]|\[error\]' "$log" | tail -n 5 | sed 's/^/    /'
        fi
        ;;
      *) say "$s's log: $log" ;;
    esac
  done
}

# Removes the stack's containers, volumes and network: the project's names only.
stack_down() {
  compose down -t 20 >>"$state/stack-up.log" 2>&1 || true
  local v
  for v in rabbitmq-data artemis-data clamav-db solr-data gateway-amqp-data gateway-jms-data; do
    podman volume rm -f "${stack_project}_$v" >/dev/null 2>&1 || true
  done
  podman network rm -f "${stack_project}_default" >/dev/null 2>&1 || true
}

stack_run() {
  stack_validate
  standins_stack
  local kind
  for kind in jms amqp; do
    podman image exists "$(gateway_image "$kind")" || build_gateway "$kind"
  done
  stack_env
  say "podman's storage: $(storage_free)"
  wait_ports_free 8081 8082 61616 "$RABBITMQ_PORT"
  stack_down
  stack_active=true
  stack_up
  stack_scan
  stack_restart
  stack_down
  stack_active=false
  say "ok: the compose stack started, both gateways healthy and scanning, history kept across a restart"
}
