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
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
JAVA_HOME=${JAVA_HOME:-$(scripts/find-jdk.sh)}
export JAVA_HOME
for part in common standins images; do
  # shellcheck source=/dev/null
  . "$repo/scripts/containers/$part.sh"
done

work=$(mktemp -d /var/tmp/avgw-build-times.XXXXXX)
results=$work/results.tsv
images=()

finish() {
  local image
  for image in "${images[@]}"; do podman rmi -f "$image" >/dev/null 2>&1 || true; done
  rm -rf "$work"
  [ "${lock_held:-false}" = true ] && rm -rf "$lock_dir"
  return 0
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# Builds gateway-KIND from the copy CTX with the Maven build cache under TMP_DIR (buildah keeps
# cache mounts in $TMPDIR/buildah-cache); records REV, PHASE, KIND, seconds, size and load averages.
timed_build() {
  local rev=$1 phase=$2 kind=$3 ctx=$4 tmp=$5 image log before t0 ms
  shift 5
  image=localhost/avgw-build-times/gateway-$kind:$phase
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
  echo "// a code change for scripts/container-build-times.sh" \
    >>"$ctx/gateway-core/src/main/java/io/github/avgateway/core/clamd/Attempt.java"
  for kind in jms amqp; do timed_build "$rev" change "$kind" "$ctx" "$tmp"; done
  for kind in jms amqp; do timed_build "$rev" same "$kind" "$ctx" "$tmp"; done
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
