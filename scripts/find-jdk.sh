#!/usr/bin/env bash
# Prints the home of a JDK >= 21 (the build's minimum), preferring JAVA_HOME, then the newest under
# /usr/lib/jvm. A JAVA_HOME that is no JDK >= 21 is refused in one line on stderr that names it.
# Exits 1 with a message when none is found. Source-safe: only prints. Every project script that
# runs Java or Maven sets JAVA_HOME from it: JAVA_HOME=$(scripts/find-jdk.sh).
set -euo pipefail

java_major() {
  local v
  v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  echo "${v%%.*}"
}

is_jdk21() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] && [ "$(java_major "$1")" -ge 21 ] 2>/dev/null
}

refused=""
if [ -n "${JAVA_HOME:-}" ]; then
  if is_jdk21 "$JAVA_HOME"; then
    echo "$JAVA_HOME"
    exit 0
  fi
  if [ -x "$JAVA_HOME/bin/java" ]; then
    refused="JAVA_HOME=$JAVA_HOME (Java $(java_major "$JAVA_HOME"))"
  else
    refused="JAVA_HOME=$JAVA_HOME (no bin/java)"
  fi
fi
best=""
best_major=0
for home in /usr/lib/jvm/* /opt/java/* /opt/jdk*; do
  [ -d "$home" ] || continue
  if is_jdk21 "$home"; then
    major=$(java_major "$home")
    if [ "$major" -gt "$best_major" ]; then
      best=$home
      best_major=$major
    fi
  fi
done
if [ -z "$best" ]; then
  echo "No JDK >= 21 found (looked at JAVA_HOME${refused:+, refused $refused,} and /usr/lib/jvm). Install one, e.g. a Temurin 21+ package." >&2
  exit 1
fi
[ -z "$refused" ] || echo "[find-jdk] refused $refused: the build needs a JDK >= 21; using $best" >&2
echo "$best"
