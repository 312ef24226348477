# The two gateway images, built from docker/Dockerfile as users build it, with the stand-ins in
# place of the eclipse-temurin images (sourced by scripts/containers.sh).
# shellcheck shell=bash

gateway_image() { echo "localhost/av-gateway-$1:$gateway_tag"; }

# Builds the image of gateway-KIND (jms or amqp); prints how long it took and its size.
build_gateway() {
  local kind=$1 image log t0
  image=$(gateway_image "$kind")
  log=$state/build-gateway-$kind.log
  say "> podman build -f docker/Dockerfile --build-arg MODULE=gateway-$kind -t $image . (log $log)"
  t0=$(now_ms)
  podman build --network=host -f "$repo/docker/Dockerfile" \
    --build-arg "MODULE=gateway-$kind" \
    --build-arg "JDK_IMAGE=$standin/jdk:25" --build-arg "JRE_IMAGE=$standin/jre:25" \
    -t "$image" "$repo" 2>&1 | stamp >"$log" || die "podman build of $image (log $log)"
  local ms=$(($(now_ms) - t0))
  step_times "$log"
  say "built $image in $((ms / 1000)).$((ms % 1000 / 100)) s; $(image_size_mb "$image") MB"
  printf 'build\t%s\t%d\t%s\n' "$kind" "$ms" "$(image_size_mb "$image")" >>"$state/measurements.tsv"
}

# Each line prefixed with the milliseconds since the start, to tell where a build spends its time.
stamp() {
  local start line
  start=$(now_ms)
  while IFS= read -r line; do printf '%6d %s\n' "$(($(now_ms) - start))" "$line"; done
}

# Prints the steps of a stamped build log that took a second or more.
step_times() {
  awk '/ STEP [0-9]/ { if (name != "" && $1 - t >= 1000) printf "    %5.1f s  %s\n", ($1 - t) / 1000, name;
                       name = substr($0, index($0, "] STEP") + 2, 90); t = $1 }
       { last = $1 }
       END { if (name != "" && last - t >= 1000) printf "    %5.1f s  %s\n", (last - t) / 1000, name }' "$1"
}

# AVGW_CONTAINERS_IMAGES=reuse keeps gateway images that exist (built by an earlier run, perhaps from
# older code) instead of building them from this checkout; the default builds them (unchanged
# sources come from Podman's layer cache in seconds).
build_gateways() {
  standins_java
  local kinds=("$@") kind
  [ ${#kinds[@]} -gt 0 ] || kinds=(jms amqp)
  for kind in "${kinds[@]}"; do
    if [ "${AVGW_CONTAINERS_IMAGES:-build}" = reuse ] && podman image exists "$(gateway_image "$kind")"; then
      say "reusing $(gateway_image "$kind") (AVGW_CONTAINERS_IMAGES=reuse; built $(podman image inspect \
        --format '{{.Created}}' "$(gateway_image "$kind")" | cut -d. -f1), not from this checkout)"
      continue
    fi
    build_gateway "$kind"
  done
}

# What this clone's runs measured last (.run/containers/measurements.tsv keeps every run): image
# sizes, build times, start times to readiness 200 with the AOT cache and without it.
summary() {
  local tsv=$state/measurements.tsv
  [ -f "$tsv" ] || { say "nothing measured yet"; return 0; }
  say "image sizes: $(for k in jms amqp; do podman image exists "$(gateway_image "$k")" \
    && printf '%s %s MB; ' "$(gateway_image "$k")" "$(image_size_mb "$(gateway_image "$k")")"; done)"
  # The latest of each kind of measurement.
  awk -F'\t' '$1 == "build" { line["build " $2] = sprintf("build of gateway-%s: %.1f s", $2, $3 / 1000) }
    $1 == "start" { line["start " $2 " " $3] = sprintf("start of gateway-%s (%s) to readiness 200: %.1f s; %s", $2, $3, $4 / 1000, $5) }
    END { for (k in line) print "[containers] " line[k] }' "$tsv" | sort
}
