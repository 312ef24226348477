# Runs each gateway image the way docker/compose.yaml runs it (its user, its entrypoint with the
# recorded AOT cache, its environment) against this machine's clamd and a broker, and checks it
# (sourced by scripts/containers.sh). Host networking: the container's ports are the host's, on
# 127.0.0.1 only.
# shellcheck shell=bash

kind_port() { [ "$1" = amqp ] && echo 8082 || echo 8081; }

# The environment of the compose file's gateway service, with the addresses of this machine.
gateway_env() {
  local kind=$1
  printf '%s\n' "AVGATEWAY_CLAMD_ENDPOINTS=127.0.0.1:3310" "SERVER_ADDRESS=127.0.0.1" \
    "SERVER_PORT=$(kind_port "$kind")" "AVGATEWAY_HTTP_PASSWORD=$(check_password)" \
    "AVGATEWAY_PIPELINE_GATEWAY_NAME=gateway-$kind"
  [ "$kind" = amqp ] && echo "SPRING_RABBITMQ_HOST=127.0.0.1"
  return 0
}

check_password() {
  [ -f "$state/http-password" ] || head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$state/http-password"
  cat "$state/http-password"
}

# Starts container NAME of gateway-KIND (extra podman arguments after the kind); prints nothing.
start_gateway() {
  local name=$1 kind=$2 envs=() e
  shift 2
  while IFS= read -r e; do envs+=(-e "$e"); done < <(gateway_env "$kind")
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman run -d --name "$name" --network=host "${envs[@]}" -v "$name-data:/app/data" \
    "$@" >/dev/null || die "podman run --name $name $*"
}

# Waits until readiness answers 200 (container NAME, PORT, at most SECONDS); prints the ms it took
# from T0.
await_ready() {
  local name=$1 port=$2 limit=$3 t0=$4 code deadline=$((SECONDS + $3))
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/actuator/health/readiness" || true)
    [ "$code" = 200 ] && { echo $(($(now_ms) - t0)); return 0; }
    keep_waiting "$name" "$deadline" "readiness 200 on port $port within $limit s (last: $code)"
    sleep 0.2
  done
}

remove_container() {
  podman rm -f -t 20 "$1" >/dev/null 2>&1 || true
  podman volume rm -f "$1-data" >/dev/null 2>&1 || true
}

# Spring Boot's own start-up line ("Started ... in 4.1 seconds (process running for 4.8)").
spring_started() {
  podman logs "$1" 2>&1 | grep -o 'Started [A-Za-z]* in [0-9.]* seconds (process running for [0-9.]*)' | head -n 1
}

# A start with the cache required (-XX:AOTMode=on: the JVM exits when it cannot use the cache) and
# a damaged cache mounted over the recorded one must fail, so that a start with the recorded cache
# and the same option (timed_start's "cache" mode) shows the cache is used.
check_aot_refused() {
  local kind=$1 image=$2 log=$state/aot-$kind-damaged.log
  head -c 65536 /dev/urandom >"$state/damaged.aot"
  say "> podman run $image with a damaged cache over /app/aot/gateway.aot and -XX:AOTMode=on (must fail)"
  if timeout 180 podman run --rm --network=host -e "JDK_JAVA_OPTIONS=-XX:AOTMode=on" \
      -v "$state/damaged.aot:/app/aot/gateway.aot:ro" "$image" --server.port=0 \
      --avgateway.jms.url=tcp://127.0.0.1:0 --spring.rabbitmq.port=9 >"$log" 2>&1; then
    die "$image started with a damaged AOT cache and -XX:AOTMode=on: the cache check proves nothing (log $log)"
  fi
  grep -q 'Unable to use AOT cache' "$log" || die "the damaged cache failed for another reason (log $log)"
  say "ok: a damaged cache is refused: '$(grep -m1 'error.*\[aot' "$log")'"
}

# The compose file's health check command of service gateway-KIND, one argument a line.
compose_healthcheck() {
  python3 - "$repo/docker/compose.yaml" "gateway-$1" <<'PY'
import sys, yaml
test = yaml.safe_load(open(sys.argv[1]))["services"][sys.argv[2]]["healthcheck"]["test"]
assert test[0] == "CMD", test
print("\n".join(test[1:]))
PY
}

# Scans a clean file and EICAR through scripts/scan.sh (the module's jar, built when missing).
check_scan() {
  local kind=$1
  local out=$state/scan-$kind.log status=0 args=()
  [ "$kind" = amqp ] && args=(amqp)
  shift
  ls "$repo/gateway-$kind"/target/gateway-"$kind"-*-exec.jar >/dev/null 2>&1 \
    || ./mvnw -B -ntp -q -pl "gateway-$kind" -am package -DskipTests
  printf 'a clean file for the container check\n' >"$state/notes.txt"
  eicar >"$state/eicar.com"
  say "> scripts/scan.sh $(printf '%s ' "${args[@]}" "$@" | sed 's/--password [^ ]*/--password ***/')notes.txt eicar.com"
  timeout 120 scripts/scan.sh "${args[@]}" "$@" "$state/notes.txt" "$state/eicar.com" >"$out" 2>&1 || status=$?
  sed 's/^/    /' "$out"
  [ "$status" -eq 1 ] || die "scripts/scan.sh through gateway-$kind exited $status, expected 1 (INFECTED among the files; log $out)"
  grep -q 'notes.txt: CLEAN' "$out" || die "scripts/scan.sh ${args[*]}: notes.txt was not CLEAN"
  grep -q 'eicar.com: INFECTED' "$out" || die "scripts/scan.sh ${args[*]}: eicar.com was not INFECTED"
}

# The process runs as the image's user, and the compose file's health check passes inside.
check_inside() {
  local name=$1 kind=$2 image=$3 user cmd=()
  user=$(podman image inspect --format '{{.Config.User}}' "$image")
  [ -n "$user" ] && [ "$user" != root ] || die "$image has no non-root USER ('$user')"
  local running
  running=$(podman top "$name" user | awk 'NR > 1 { print $1 }' | sort -u | paste -sd, -)
  [ "$running" = "$user" ] || die "container $name runs as '$running', not as the image's user $user"
  say "ok: the process runs as the image's user $user (podman top: $running; uid $(podman exec "$name" id -u))"
  mapfile -t cmd < <(compose_healthcheck "$kind")
  say "> podman exec $name ${cmd[*]}   (docker/compose.yaml's health check)"
  podman exec "$name" "${cmd[@]}" >"$state/health-$kind.json" 2>&1 \
    || die "the compose health check '${cmd[*]}' failed inside $name: $(cat "$state/health-$kind.json")"
  say "ok: health check passed: $(head -c 200 "$state/health-$kind.json")"
}

# One timed start of gateway-KIND to readiness 200: "cache" through the image's entrypoint with the
# cache required (JDK_JAVA_OPTIONS=-XX:AOTMode=on, which the java launcher adds; nothing else
# differs from the compose file's start), "plain" with the same jar and no cache. Leaves the
# container running.
timed_start() {
  local kind=$1 mode=$2 image name t0 ms port
  image=$(gateway_image "$kind")
  port=$(kind_port "$kind")
  name=avgw-check-$kind
  started_containers+=("$name")
  local entry=()
  if [ "$mode" = plain ]; then
    entry=(--entrypoint java "$image" -jar /app/aot/gateway.jar)
  else
    entry=(-e "JDK_JAVA_OPTIONS=-XX:AOTMode=on" "$image")
  fi
  say "load average before the $mode start of gateway-$kind: $(cut -d' ' -f1-3 /proc/loadavg)"
  t0=$(now_ms)
  start_gateway "$name" "$kind" "${entry[@]}"
  ms=$(await_ready "$name" "$port" 300 "$t0")
  say "ready: $image ($mode) answered readiness 200 ${ms} ms after podman run; $(spring_started "$name")"
  printf 'start\t%s\t%s\t%d\t%s\n' "$kind" "$mode" "$ms" "$(spring_started "$name")" >>"$state/measurements.tsv"
}

# Everything issue-level item 2 asks of one image; AVGW_START_RUNS timed starts of each kind.
check_image() {
  local kind=$1 image port ports name=avgw-check-$1
  image=$(gateway_image "$kind")
  port=$(kind_port "$kind")
  podman image exists "$image" || die "no image $image: run scripts/containers.sh images $kind first"
  ports=("$port")
  [ "$kind" = jms ] && ports+=(61616)
  wait_ports_free "${ports[@]}"
  check_aot_refused "$kind" "$image"
  timed_start "$kind" cache
  say "ok: started with -XX:AOTMode=on, so from its recorded AOT cache"
  check_inside "$name" "$kind" "$image"
  check_scan "$kind"
  remove_container "$name"
  local i
  for ((i = 1; i <= ${AVGW_START_RUNS:-1}; i++)); do
    timed_start "$kind" plain
    remove_container "$name"
    if [ "$i" -lt "${AVGW_START_RUNS:-1}" ]; then
      timed_start "$kind" cache
      remove_container "$name"
    fi
  done
  say "ok: $image runs and answers"
}

check_images() {
  local kinds=("$@") kind
  [ ${#kinds[@]} -gt 0 ] || kinds=(jms amqp)
  for kind in "${kinds[@]}"; do check_image "$kind"; done
}

remove_started() {
  local name
  for name in "${started_containers[@]}"; do remove_container "$name"; done
  started_containers=()
}
started_containers=()
