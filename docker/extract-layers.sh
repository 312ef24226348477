#!/bin/sh
# Splits a gateway's runnable jar into Spring Boot's layers, each a directory holding its part of
# the extracted layout (gateway.jar plus lib/), so that an image copies each layer on its own and a
# code change leaves the third-party libraries' layer as it was:
#   dependencies/lib/            released libraries (their file times are the artifacts', so they
#                                stay the same from build to build)
#   spring-boot-loader/          empty: the extracted layout starts without Spring Boot's launcher
#   snapshot-dependencies/lib/   third-party snapshots, if any
#   application/gateway.jar      the module's own classes; application/lib/ the project's modules
#                                (gateway-core, storage-solr), named in application/modules.txt
#                                (lib/NAME, one a line: docker/aot-train.sh keeps them out of the
#                                class path its AOT cache is recorded for)
# Copied into one directory, the layers make the layout docker/aot-train.sh records its cache for.
#   docker/extract-layers.sh JAR DIR   (DIR must not exist or be empty)
set -eu
jar=$1
dir=$2
java=${JAVA:-java}

"$java" -Djarmode=tools -jar "$jar" extract --layers --application-filename gateway.jar --destination "$dir"
for layer in dependencies spring-boot-loader snapshot-dependencies application; do
  mkdir -p "$dir/$layer"
done
[ -f "$dir/application/gateway.jar" ] || { echo "extract-layers: no application/gateway.jar in $dir" >&2; exit 1; }
(cd "$dir/application" && { [ ! -d lib ] || find lib -maxdepth 1 -name '*.jar' | sort; } >modules.txt)
