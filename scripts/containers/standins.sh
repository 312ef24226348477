# Stand-ins for the registry images this machine cannot pull, made from Debian's packages and the
# local JDK (sourced by scripts/containers.sh). Each is rebuilt only when its inputs changed: the
# image carries a label avgw.inputs with their hash.
# shellcheck shell=bash

standins=$repo/docker/standins

inputs_hash() { cat "$@" | sha256sum | cut -c1-16; }

image_inputs() {
  podman image inspect --format '{{index .Labels "avgw.inputs"}}' "$1" 2>/dev/null || true
}

# Builds IMAGE from CONTAINERFILE in CONTEXT unless an image with the same inputs exists.
build_standin() {
  local image=$1 file=$2 context=$3 hash=$4
  shift 4
  if [ "$(image_inputs "$image")" = "$hash" ]; then
    return 0
  fi
  local t0=$SECONDS
  say "building $image"
  podman build --network=host --label "avgw.inputs=$hash" -t "$image" -f "$file" "$@" "$context" \
    >"$state/build-$(basename "$image" | tr ':' '-').log" 2>&1 \
    || die "podman build -t $image -f $file (log $state/build-$(basename "$image" | tr ':' '-').log)"
  say "built $image in $((SECONDS - t0)) s ($(image_size_mb "$image") MB)"
}

# Debian bookworm, variant minbase, from Debian's mirror through mmdebstrap.
standin_base() {
  local image=$standin/debian:bookworm hash
  hash=$(echo "mmdebstrap minbase bookworm 1" | sha256sum | cut -c1-16)
  [ "$(image_inputs "$image")" = "$hash" ] && return 0
  local t0=$SECONDS tar=$state/debian-bookworm.tar
  say "making $image (mmdebstrap --variant=minbase bookworm)"
  mmdebstrap --quiet --variant=minbase bookworm "$tar" >"$state/mmdebstrap.log" 2>&1 \
    || die "mmdebstrap --variant=minbase bookworm (log $state/mmdebstrap.log)"
  podman import --change "LABEL avgw.inputs=$hash" --change 'CMD ["/bin/bash"]' "$tar" "$image" >"$state/import.log" 2>&1 \
    || die "podman import $tar $image"
  rm -f "$tar"
  say "made $image in $((SECONDS - t0)) s ($(image_size_mb "$image") MB)"
}

# The modules of a Temurin-like JRE: the JDK's modules without its development tools.
jre_modules() {
  "$1/bin/java" --list-modules | sed 's/@.*//' \
    | grep -vxE 'jdk\.(compiler|editpad|graal\.compiler.*|hotspot\.agent|internal\.(ed|le|opt)|jartool|javadoc|jconsole|jdeps|jdi|jlink|jpackage|jshell|jstatd)' \
    | paste -sd, -
}

# eclipse-temurin:25-jdk and :25-jre stand-ins with the JDK that scripts/find-jdk.sh finds.
standin_java() {
  local jdk hash ctx=$state/java-context
  jdk=$("$repo/scripts/find-jdk.sh")
  hash=$(inputs_hash "$jdk/release" "$standins/jdk.Containerfile" "$standins/jre.Containerfile" \
    /dev/null /usr/local/share/ca-certificates/*.crt 2>/dev/null)
  if [ "$(image_inputs "$standin/jdk:25")" = "$hash" ] && [ "$(image_inputs "$standin/jre:25")" = "$hash" ]; then
    return 0
  fi
  grep -q '^JAVA_VERSION="25' "$jdk/release" || die "the stand-ins need a JDK 25 (the image's); found $jdk"
  rm -rf "$ctx" && mkdir -p "$ctx/certs"
  cp /usr/local/share/ca-certificates/*.crt "$ctx/certs/" 2>/dev/null || true
  cp -a "$jdk" "$ctx/jdk"
  # Links out of the JDK (a Debian package's cacerts -> /etc/ssl/certs/java/cacerts) become files.
  local link
  find "$ctx/jdk" -type l -lname '/*' -print | while read -r link; do
    cp --remove-destination "$(readlink -f "$link")" "$link"
  done
  "$jdk/bin/jlink" --add-modules "$(jre_modules "$jdk")" --strip-debug --no-man-pages \
    --no-header-files --generate-cds-archive --output "$ctx/jre" >"$state/jlink.log" 2>&1 \
    || die "jlink of the JRE stand-in (log $state/jlink.log)"
  local args=(--build-arg "BASE_IMAGE=$standin/debian:bookworm")
  build_standin "$standin/jdk:25" "$standins/jdk.Containerfile" "$ctx" "$hash" "${args[@]}"
  build_standin "$standin/jre:25" "$standins/jre.Containerfile" "$ctx" "$hash" "${args[@]}"
  rm -rf "$ctx"
}

standins_java() {
  standin_base
  standin_java
}

# clamd and RabbitMQ from Debian's packages (context: the repository, for the test signatures).
standin_debian_service() {
  local name=$1 tag=$2 dir=$standins/$1 hash
  hash=$(inputs_hash "$dir"/* "$repo"/scripts/clamd/signatures/*)
  build_standin "$standin/$name:$tag" "$dir/Containerfile" "$repo" "$hash" \
    --build-arg "BASE_IMAGE=$standin/debian:bookworm"
}

# Artemis: its distribution from Maven Central, through Maven (dependency:copy).
standin_artemis() {
  local version=2.40.0 dir=$standins/artemis ctx=$state/artemis-context hash image
  image=$standin/artemis:$version
  hash=$(inputs_hash "$dir"/* "$standins/jre.Containerfile")
  [ "$(image_inputs "$image")" = "$hash" ] && return 0
  rm -rf "$ctx" && mkdir -p "$ctx"
  ./mvnw -B -ntp -q -N dependency:copy -Dartifact="org.apache.activemq:apache-artemis:$version:tar.gz:bin" \
    -DoutputDirectory="$ctx" >"$state/artemis-download.log" 2>&1 \
    || die "./mvnw dependency:copy of apache-artemis $version (log $state/artemis-download.log)"
  tar -xzf "$ctx/apache-artemis-$version-bin.tar.gz" -C "$ctx"
  mv "$ctx/apache-artemis-$version" "$ctx/artemis"
  cp "$dir/artemis-start.sh" "$ctx/"
  build_standin "$image" "$dir/Containerfile" "$ctx" "$hash" --build-arg "BASE_IMAGE=$standin/jre:25"
  rm -rf "$ctx"
}

# Solr: its jars from Maven Central (docker/standins/solr/pom.xml) and the small runner compiled here.
standin_solr() {
  local dir=$standins/solr ctx=$state/solr-context hash image=$standin/solr:9.10.1 jdk
  hash=$(inputs_hash "$dir"/* "$standins/jre.Containerfile")
  [ "$(image_inputs "$image")" = "$hash" ] && return 0
  rm -rf "$ctx" && mkdir -p "$ctx/classes"
  ./mvnw -B -ntp -q -f "$dir/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$ctx/lib" >"$state/solr-download.log" 2>&1 \
    || die "./mvnw -f docker/standins/solr/pom.xml dependency:copy-dependencies (log $state/solr-download.log)"
  jdk=$("$repo/scripts/find-jdk.sh")
  "$jdk/bin/javac" --release 21 -cp "$ctx/lib/*" -d "$ctx/classes" "$dir/SolrStandin.java" \
    || die "javac docker/standins/solr/SolrStandin.java"
  cp "$dir/solr-precreate" "$ctx/"
  build_standin "$image" "$dir/Containerfile" "$ctx" "$hash" --build-arg "BASE_IMAGE=$standin/jre:25"
  rm -rf "$ctx"
}

# Every stand-in docker/compose.standins.yaml names.
standins_stack() {
  standins_java
  standin_debian_service clamd debian
  standin_debian_service rabbitmq debian
  standin_artemis
  standin_solr
}
