#!/usr/bin/env bash
# Prints the home of a JDK >= 21 (the build's minimum), preferring JAVA_HOME, then the newest under
# /usr/lib/jvm. Exits 1 with a message when none is found. Source-safe: only prints.
set -euo pipefail

java_major() {
  local v
  v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  echo "${v%%.*}"
}

is_jdk21() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] && [ "$(java_major "$1")" -ge 21 ] 2>/dev/null
}

if [ -n "${JAVA_HOME:-}" ] && is_jdk21 "$JAVA_HOME"; then
  echo "$JAVA_HOME"
  exit 0
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
  echo "No JDK >= 21 found (looked at JAVA_HOME and /usr/lib/jvm). Install one, e.g. a Temurin 21+ package." >&2
  exit 1
fi
echo "$best"
