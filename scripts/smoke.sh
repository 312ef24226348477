#!/usr/bin/env bash
# The smoke stage: runs the project's documented commands the way a user runs them, each bounded in
# time, so that none of them can break while the module tests stay green. scripts/test.sh runs it
# after the module tests (and so does CI). Stages, in order:
#   skip-flag  ./mvnw -pl gateway-core verify -DskipTests runs no test, unit or integration
#   harness    load-tests/perf-harness.sh --smoke (its own build: -pl load-tests -am install -DskipTests)
#   jms        scripts/run.sh (the runnable jar; on JDK 25+ through its AOT cache) until "ready";
#              scripts/scan.sh a clean file and EICAR; readiness 200; Gatling's JmsScanSimulation
#              with a few requests; the gateway stopped by its pid
#   amqp       the same with scripts/run.sh amqp, scripts/scan.sh amqp and AmqpScanSimulation, while
#              the jms stage's gateway still runs (both from this checkout); each stage also waits
#              for its gateway's history store (embedded Solr) to be UP
#   containers scripts/containers.sh all: Podman installed if missing, both gateway images built
#              from docker/Dockerfile, each run and checked as docker/compose.yaml runs it, then
#              the compose stack started, checked and removed (docker/README.md, "Tested here")
# Usage: scripts/smoke.sh [skip-flag|harness|jms|amqp|containers]...   (default: all five)
# Prints each command before running it, and on failure the command that broke and its log's tail.
# Needs the module jars built (scripts/test.sh has run verify) and the ports of the default run free:
# 61616 and 8081 (JMS), 8082 (AMQP); the containers stage waits for them. Logs: target/smoke/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=$(scripts/find-jdk.sh)
export JAVA_HOME
work=$repo/target/smoke
rm -rf "$work"
mkdir -p "$work"

say() { printf '[smoke] %s\n' "$*"; }
gateway_pid=""
gateway_pids=()

fail() {
  local what=$1 log=${2:-}
  say "FAILED: $what"
  if [ -n "$log" ] && [ -f "$log" ]; then
    say "last lines of $log:"
    tail -n 40 "$log" | sed 's/^/    /'
  fi
  exit 1
}

# Runs a command with a time bound, its output in a log of its own; fails naming it.
run_bounded() {
  local seconds=$1 log=$2
  shift 2
  say "> $* (at most ${seconds} s; log $log)"
  local status=0
  timeout --kill-after=10 "$seconds" "$@" >"$log" 2>&1 </dev/null || status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    fail "'$*' did not finish within ${seconds} s" "$log"
  fi
  return "$status"
}

stop_gateway() {
  local pid
  for pid in "${gateway_pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      # run.sh ran in a session of its own (setsid), so its process group is the gateway and any
      # training run it started: stop that group, by the pid we started.
      kill -TERM -- "-$pid" 2>/dev/null || true
      for _ in $(seq 1 60); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
      done
      kill -KILL -- "-$pid" 2>/dev/null || true
      say "stopped the gateway (pid $pid)"
    fi
  done
  gateway_pids=()
  gateway_pid=""
}
trap stop_gateway EXIT

eicar() {
  # Assembled here so that this script itself carries no EICAR string.
  printf '%s%s%s' 'X5O!P%@AP[4\PZX54(P^)7CC)7}$' 'EICAR-STANDARD-ANTIVIRUS-' 'TEST-FILE!$H+H*'
}

java_major() {
  local version
  version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$JAVA_HOME/release" 2>/dev/null || true)
  echo "${version%%[!0-9]*}"
}

# Test reports (surefire, failsafe) written under a module's target since file $2 was touched.
reports_since() {
  find "$1/target" -path '*/target/*-reports/*' -type f -newer "$2" 2>/dev/null
}

# -DskipTests skips both plugins: the build succeeds, its jar is there, and no test report was
# written although the module has unit and integration tests (checked by results, not by wording).
stage_skip_flag() {
  local log=$work/skip-flag.log module=gateway-core marker=$work/skip-flag.start units its written
  units=$(find "$module/src/test/java" -name '*Test.java' | wc -l)
  its=$(find "$module/src/test/java" -name '*IT.java' | wc -l)
  [ "$units" -gt 0 ] && [ "$its" -gt 0 ] \
    || fail "$module has $units unit and $its integration test classes: -DskipTests would prove nothing there"
  touch "$marker"
  sleep 1 # file times have a resolution of their own: a report of this run is strictly newer
  run_bounded 300 "$log" ./mvnw -B -ntp -pl "$module" verify -DskipTests \
    || fail "'./mvnw -pl $module verify -DskipTests' failed" "$log"
  ls "$module"/target/"$module"-*.jar >/dev/null 2>&1 || fail "no $module jar after verify -DskipTests" "$log"
  written=$(reports_since "$module" "$marker")
  [ -z "$written" ] || fail "-DskipTests ran tests: it wrote $(echo "$written" | wc -l) test report(s), e.g. $(echo "$written" | head -n 1)" "$log"
  say "ok: -DskipTests skips unit and integration tests ($units unit and $its integration test classes, no report written)"
}

# The harness exits 0 only when its smoke check passed (SmokeCheck); its raw results file, named
# on its last lines, must hold the ratios and the gateway figures.
stage_harness() {
  local log=$work/perf-harness.log raw section
  run_bounded 900 "$log" load-tests/perf-harness.sh --smoke \
    || fail "'load-tests/perf-harness.sh --smoke' failed" "$log"
  raw=$(sed -n 's/^# raw results: //p' "$log" | tail -n 1)
  [ -n "$raw" ] && [ -s "$raw" ] || fail "the harness wrote no raw results file ('${raw:-none named}')" "$log"
  for section in '# Ratios' '# Gateway figures' '# smoke: every cell answered'; do
    grep -q "^$section" "$raw" || fail "the harness' raw results $raw lack '$section'" "$log"
  done
  sed -n '/^# Ratios/,/^# targets/p' "$raw"
  sed -n '/^# Gateway figures/,/^# finished/p' "$raw"
  say "ok: load-tests/perf-harness.sh --smoke (raw results $raw)"
}

# scripts/run.sh [amqp] in the background until its "ready" line; then scan, readiness, Gatling.
stage_gateway() {
  local kind=$1 label port simulation run_args=() scan_args=()
  if [ "$kind" = amqp ]; then
    label=AMQP port=8082 simulation=AmqpScanSimulation run_args=(amqp) scan_args=(amqp)
  else
    label=JMS port=8081 simulation=JmsScanSimulation
  fi
  local log=$work/run-$kind.log
  say "> scripts/run.sh ${run_args[*]} (in the background, ready within 300 s; log $log)"
  setsid scripts/run.sh "${run_args[@]}" >"$log" 2>&1 </dev/null &
  gateway_pid=$!
  gateway_pids+=("$gateway_pid")
  local deadline=$((SECONDS + 300))
  until grep -q "av-gateway $label ready" "$log"; do
    kill -0 "$gateway_pid" 2>/dev/null || fail "'scripts/run.sh ${run_args[*]}' exited before it was ready" "$log"
    [ "$SECONDS" -lt "$deadline" ] || fail "'scripts/run.sh ${run_args[*]}' was not ready within 300 s" "$log"
    sleep 1
  done
  say "ready: $(grep -o "av-gateway $label ready.*" "$log" | head -n 1)"
  local cmdline
  cmdline=$(tr '\0' ' ' <"/proc/$gateway_pid/cmdline")
  case "$cmdline" in
    *" -jar "*-exec.jar*) ;;
    *) fail "scripts/run.sh did not start a runnable jar: $cmdline" "$log" ;;
  esac
  if [ "${AVGATEWAY_AOT:-on}" != off ] && [ "$(java_major)" -ge 25 ]; then
    case "$cmdline" in
      *-XX:AOTCache=*) say "ok: started from the AOT cache (JDK $(java_major))" ;;
      *) fail "on JDK $(java_major) scripts/run.sh did not start with its AOT cache: $cmdline" "$log" ;;
    esac
  fi

  printf 'a clean file for the smoke stage\n' >"$work/notes.txt"
  eicar >"$work/eicar.com"
  local scan_log=$work/scan-$kind.log status=0
  run_bounded 120 "$scan_log" scripts/scan.sh "${scan_args[@]}" "$work/notes.txt" "$work/eicar.com" \
    || status=$?
  cat "$scan_log"
  [ "$status" -eq 1 ] || fail "scripts/scan.sh ${scan_args[*]} exited $status, expected 1 (INFECTED among the files)" "$scan_log"
  grep -q 'notes.txt: CLEAN' "$scan_log" || fail "scripts/scan.sh: notes.txt was not CLEAN" "$scan_log"
  grep -q 'eicar.com: INFECTED' "$scan_log" || fail "scripts/scan.sh: eicar.com was not INFECTED" "$scan_log"

  local url=http://127.0.0.1:$port/actuator/health/readiness code
  code=$(curl -s -o "$work/readiness-$kind.json" -w '%{http_code}' --max-time 10 "$url" || true)
  [ "$code" = 200 ] || fail "readiness $url answered $code, expected 200: $(cat "$work/readiness-$kind.json" 2>/dev/null)"
  say "ok: readiness $url 200"

  local gatling_log=$work/gatling-$kind.log marker=$work/gatling-$kind.start report
  touch "$marker"
  run_bounded 300 "$gatling_log" ./mvnw -B -ntp -pl load-tests gatling:test \
    -Dgatling.simulationClass=io.github.avgateway.load.gatling.$simulation \
    -Drate=5 -Dduration=4 -Dp99Millis=10000 -DmaxFailedPercent=0 \
    || fail "Gatling $simulation against scripts/run.sh ${run_args[*]} failed" "$gatling_log"
  # Gatling's exit code carries its assertions (no failed request, p99); its report must exist.
  report=$(find load-tests/target/gatling -mindepth 2 -maxdepth 2 -name index.html -newer "$marker" 2>/dev/null | head -n 1)
  [ -n "$report" ] || fail "Gatling $simulation wrote no report under load-tests/target/gatling" "$gatling_log"
  grep -E 'request count|> failed|Global: ' "$gatling_log" | head -n 6 || true
  say "Gatling report: $report"
  say "ok: Gatling $simulation"
  history_up "$port" "$log"
  # The JMS gateway stays up through the amqp stage: both from this one checkout, as a user runs
  # scripts/run.sh in one terminal and scripts/run.sh amqp in another (each its own embedded Solr).
  if [ "$kind" = amqp ] || [ "${next_stage:-}" != amqp ]; then
    stop_gateway
  fi
}

# The gateway's history store (its embedded Solr) is UP: not locked out by another gateway's.
history_up() {
  local port=$1 log=$2 url=http://127.0.0.1:$1/actuator/health deadline=$((SECONDS + 120))
  until curl -s --max-time 10 "$url" | grep -q '"history":{"status":"UP"'; do
    [ "$SECONDS" -lt "$deadline" ] \
      || fail "history on port $port is not UP within 120 s ($(curl -s --max-time 10 "$url"))" "$log"
    sleep 1
  done
  say "ok: history UP on port $port with ${#gateway_pids[@]} gateway(s) of this checkout running"
}

# The container images and the compose stack, bounded by AVGW_CONTAINERS_LIMIT seconds (2400: the
# first run on a machine builds the stand-ins and both images; later runs reuse them).
stage_containers() {
  local log=$work/containers.log limit=${AVGW_CONTAINERS_LIMIT:-2400}
  run_bounded "$limit" "$log" scripts/containers.sh all \
    || fail "'scripts/containers.sh all' failed: $(grep -m1 'FAILED' "$log" || echo 'see its log')" "$log"
  grep -E '^\[containers\] (> |ok|ready|built|made|start|build|image)' "$log" || true
  say "ok: scripts/containers.sh all"
}

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(skip-flag harness jms amqp containers)
started=$SECONDS
for i in "${!stages[@]}"; do
  stage=${stages[$i]}
  next_stage=${stages[$((i + 1))]:-}
  t0=$SECONDS
  say "stage $stage"
  case "$stage" in
    skip-flag) stage_skip_flag ;;
    harness) stage_harness ;;
    jms | amqp) stage_gateway "$stage" ;;
    containers) stage_containers ;;
    *) fail "unknown stage '$stage' (skip-flag, harness, jms, amqp, containers)" ;;
  esac
  say "stage $stage passed in $((SECONDS - t0)) s"
done
say "all ${#stages[@]} smoke stages passed (${stages[*]}) in $((SECONDS - started)) s"
