#!/bin/sh
# Compiles the AOT training launcher (docker/AotTraining.java) into a jar with fixed entry and file
# times, so that it has the same bytes and time from build to build, as an AOT cache's class path
# requires. Used by the image's `training` stage and by docker/aot-check.sh.
#   docker/training-jar.sh SOURCE JAR   (JAVA_HOME, if set, names the JDK; else javac/jar on PATH)
set -eu
source=$1
jar=$2
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
"${bin}javac" --release 21 -d "$classes" "$source"
"${bin}jar" --create --date=2000-01-01T00:00:02Z --file "$jar" -C "$classes" .
touch -d @946684802 "$jar"
