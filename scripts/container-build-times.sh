#!/usr/bin/env bash
# Measures how long docker/Dockerfile takes to build both gateway images with Podman, as
# perf-notes/container.md reports it: for each revision given, three builds of each image —
#   cold     nothing cached: podman build --no-cache and a Maven build cache of its own, empty
#   change   one comment line appended to a gateway-core class, everything else cached
#   same     the same sources again
#   scripts/container-build-times.sh [REV]...   (default HEAD; "main HEAD" measures before and after)
# Each revision builds from its own copy (git archive REV, so this checkout is never edited) with its
# own Dockerfile, on the stand-ins of scripts/containers.sh (made first if missing). It prints the
# load average before and after each build, every step of a second or more, and a table at the
# end. Each build is bounded by AVGW_BUILD_LIMIT seconds (900). The images, copies and build caches
# it made are removed at the end; the intermediate layers stay in Podman's storage, as after any
# build. Takes the lock of scripts/containers.sh: no other run of either on this machine meanwhile.
# With AVGW_BUILD_STARTS=N (default 0) each revision's two images (the "same" build) are then
# started N times with the AOT cache and N times without, alternating, each timed from podman run
# to readiness 200 as scripts/containers.sh check times it (on this machine's clamd, and RabbitMQ
# for amqp); a second table gives each start and the median.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=${JAVA_HOME:-$(scripts/find-jdk.sh)}
export JAVA_HOME
work=$(mktemp -d /var/tmp/avgw-build-times.XXXXXX)
# This run's logs and start measurements stay out of the clone's .run/containers (its summary).
AVGW_CONTAINERS_STATE=$work/state
for part in common standins images check; do
  # shellcheck source=/dev/null
  . "$repo/scripts/containers/$part.sh"
done

results=$work/results.tsv
starts=$work/starts.tsv
images=()

finish() {
  local image
  remove_started
  for image in "${images[@]}"; do podman rmi -f "$image" >/dev/null 2>&1 || true; done
  rm -rf "$work"
  [ "${lock_held:-false}" = true ] && rm -rf "$lock_dir"
  return 0
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# The tag of REV's image from build PHASE (what gateway_image names).
tag_of() { printf 'build-times-%s-%s' "$(printf '%s' "$1" | tr -c 'A-Za-z0-9_.-' '-')" "$2"; }

# Builds gateway-KIND from the copy CTX with the Maven build cache under TMP_DIR (buildah keeps
# cache mounts in $TMPDIR/buildah-cache); records REV, PHASE, KIND, seconds, size and load averages.
timed_build() {
  local rev=$1 phase=$2 kind=$3 ctx=$4 tmp=$5 image log before t0 ms
  shift 5
  gateway_tag=$(tag_of "$rev" "$phase")
  image=$(gateway_image "$kind")
  log=$work/$rev-$phase-$kind.log
  images+=("$image")
  before=$(load)
  say "> podman build $* --build-arg MODULE=gateway-$kind ($rev, $phase); load average $before"
  t0=$(now_ms)
  TMPDIR=$tmp timeout -k 30 "${AVGW_BUILD_LIMIT:-900}" podman build --network=host "$@" \
    -f "$ctx/docker/Dockerfile" --build-arg "MODULE=gateway-$kind" \
    --build-arg "JDK_IMAGE=$standin/jdk:25" --build-arg "JRE_IMAGE=$standin/jre:25" \
    -t "$image" "$ctx" 2>&1 | stamp >"$log" || { tail -n 30 "$log" >&2; die "podman build ($rev, $phase, $kind)"; }
  ms=$(($(now_ms) - t0))
  step_times "$log"
  say "built gateway-$kind ($rev, $phase) in $((ms / 1000)).$((ms % 1000 / 100)) s; load average after $(load)"
  printf '%s\t%s\t%s\t%d.%d\t%s\t%s\n' "$rev" "$phase" "$kind" $((ms / 1000)) $((ms % 1000 / 100)) \
    "$(image_size_mb "$image")" "$before" >>"$results"
}

measure() {
  local rev=$1 ctx=$work/ctx-$1 tmp=$work/tmp-$1 commit kind
  commit=$(git rev-parse --short "$rev")
  mkdir -p "$ctx" "$tmp"
  git archive "$rev" | tar -x -C "$ctx"
  say "revision $rev ($commit): $(git log -1 --format=%s "$rev" | cut -c1-100)"
  for kind in jms amqp; do timed_build "$rev" cold "$kind" "$ctx" "$tmp" --no-cache; done
  # Different in every run and revision: an identical change would let a later revision's build
  # reuse the Maven layer an earlier one built from the same sources.
  echo "// a code change for scripts/container-build-times.sh ($rev, $(date +%s%N))" \
    >>"$ctx/gateway-core/src/main/java/io/github/avgateway/core/clamd/Attempt.java"
  for kind in jms amqp; do timed_build "$rev" change "$kind" "$ctx" "$tmp"; done
  for kind in jms amqp; do timed_build "$rev" same "$kind" "$ctx" "$tmp"; done
  for kind in jms amqp; do measure_starts "$rev" "$kind"; done
}

# AVGW_BUILD_STARTS starts of REV's image of gateway-KIND with the cache and as many without,
# alternating; records REV, KIND, mode and seconds to readiness 200 of each.
measure_starts() {
  local rev=$1 kind=$2 i mode ms ports=("$(kind_port "$2")")
  [ "${AVGW_BUILD_STARTS:-0}" -gt 0 ] || return 0
  [ "$kind" = jms ] && ports+=(61616)
  gateway_tag=$(tag_of "$rev" same)
  wait_ports_free "${ports[@]}"
  for ((i = 1; i <= AVGW_BUILD_STARTS; i++)); do
    for mode in cache plain; do
      timed_start "$kind" "$mode"
      remove_started
      ms=$(tail -n 1 "$state/measurements.tsv" | cut -f4)
      printf '%s\t%s\t%s\t%d.%d\n' "$rev" "$kind" "$mode" $((ms / 1000)) $((ms % 1000 / 100)) >>"$starts"
    done
  done
}

# Per revision, image and mode: the median start and every start in the order run.
start_table() {
  [ -s "$starts" ] || return 0
  say "revision, image, start, median s, each start s (in order)"
  sort -s -t $'\t' -k1,1 -k2,2 -k3,3 "$starts" | awk -F'\t' '
    function flush(  n, v, i, j, t, med) {
      if (key == "") return
      n = split(all, v, " ")
      for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      printf "%s\t%.1f\t%s\n", key, med, all }
    { k = $1 "\t" $2 "\t" $3; if (k != key) { flush(); key = k; all = "" }
      all = all (all == "" ? "" : " ") $4 }
    END { flush() }' | column -t -s $'\t' | sed 's/^/[containers] /'
}

containers_install
containers_conf
take_lock
trap finish EXIT
standins_java
say "machine: $(nproc) cores, $(free -g | awk '/^Mem/ {print $2}') GiB; $(podman version --format 'podman {{.Client.Version}}')"
revs=("$@")
[ ${#revs[@]} -gt 0 ] || revs=(HEAD)
for rev in "${revs[@]}"; do measure "$rev"; done
say "revision, build, image, seconds, MB, load average before (1, 5, 15 min)"
column -t -s $'\t' "$results" | sed 's/^/[containers] /'
start_table
