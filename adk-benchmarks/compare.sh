#!/usr/bin/env bash
# adk4j vs Google's ADK for Java (com.google.adk:google-adk, pinned in adk-benchmarks/pom.xml):
# runs every comparison benchmark (dev.adk4j.benchmarks.compare.*Compare) in one go, then
# writes the chart and the markdown table for docs/benchmarks.md.
#
#   adk-benchmarks/compare.sh [--no-build]
#
# Builds adk-benchmarks/target/benchmarks.jar first when it is missing or older than any pom or
# source of the repository (with -am, so the jar holds this working copy's modules, never other
# versions installed in ~/.m2); --no-build uses the jar as it is. MVN_ARGS adds Maven options
# (e.g. MVN_ARGS=-o once the dependencies are in ~/.m2).
#
# Writes, under adk-benchmarks/target/compare/ (COMPARE_OUT): the JMH logs and JSON results,
# table.md, table-nocapture.md (the turns against ADK with ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false),
# machine.txt (cores, JDK, OS, commit, start and end), load.log (the load average
# every 5 s: read the results against it, other processes skew them); and the chart
# docs/benchmarks-vs-adk-java.png (COMPARE_PNG). About 6 minutes on an idle 2-core machine (up to 9
# when other builds share it), plus half a minute to build the jar.
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=adk-benchmarks/target/benchmarks.jar
OUT=${COMPARE_OUT:-adk-benchmarks/target/compare}
PNG=${COMPARE_PNG:-docs/benchmarks-vs-adk-java.png}
BUILD=1
for arg in "$@"; do
  case "$arg" in
    --no-build) BUILD=0 ;;
    *) echo "usage: $0 [--no-build]" >&2; exit 2 ;;
  esac
done

started=$(date +%s)
mkdir -p "$OUT"
rm -f "$OUT"/*.json

if [ "$BUILD" = 1 ]; then
  if [ ! -f "$JAR" ] || [ -n "$(find pom.xml adk-*/pom.xml adk-*/src -type f -newer "$JAR" -print -quit)" ]; then
    echo "== building $JAR"
    # shellcheck disable=SC2086
    ./mvnw -B -q ${MVN_ARGS:-} -pl adk-benchmarks -am package -DskipTests
  fi
fi
[ -f "$JAR" ] || { echo "no $JAR: run without --no-build" >&2; exit 1; }

{
  echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "cores: $(nproc)"
  echo "memory: $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "os: $(uname -sr) $(uname -m)"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

# The load average every 5 s while the benchmarks run.
( while true; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 5; done ) > "$OUT/load.log" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

jmh() {
  local name=$1
  shift
  echo "== $name: java -jar $JAR $*"
  java -jar "$JAR" "$@" -rf json -rff "$OUT/$name.json" > "$OUT/$name.log" 2>&1 \
    || { tail -40 "$OUT/$name.log"; echo "$name failed, see $OUT/$name.log" >&2; exit 1; }
  sed -n '/^Benchmark /,$p' "$OUT/$name.log" | grep -v ':gc\.\(count\|time\|alloc\.rate \)' || true
}

P='dev\.adk4j\.benchmarks\.compare\.'
# Steady-state operations: appends, reads, a whole fill, templating; bytes from -prof gc.
jmh steady "${P}(AppendCompare|GetSessionCompare|FillCompare|TemplateCompare)\." \
  -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc
# Turns on new sessions: ten warm-up seconds, the runners' paths compile slowly.
jmh turns "${P}TurnCompare\." -f 1 -wi 10 -i 5 -w 1s -r 1s -prof gc
# Single shots after an untimed setup (a session refilled before every measurement).
jmh append-at "${P}AppendAtCompare\." -f 1 -wi 20 -i 40
jmh turn-history "${P}TurnHistoryCompare\." -f 1 -wi 10 -i 40
# ADK serializes every model request and response (the whole history) to JSON for its trace
# spans, even with no OpenTelemetry SDK installed, unless this variable is false: the turns
# again, ADK only, without that work (a second table).
export ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS=false
jmh turns-nocapture "${P}TurnCompare\." -p impl=adk-java -f 1 -wi 10 -i 5 -w 1s -r 1s -prof gc
jmh turn-history-nocapture "${P}TurnHistoryCompare\." -p impl=adk-java -f 1 -wi 10 -i 40
unset ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/machine.txt"
echo "finished: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >> "$OUT/machine.txt"

load_range="1-min load average $(awk '{print $2}' "$OUT/load.log" | sort -n | sed -n '1p;$p' | paste -sd- -) during the run"
java -cp "$JAR" dev.adk4j.benchmarks.compare.CompareReport \
  --png "$PNG" --md "$OUT/table.md" \
  --title "adk4j vs Google ADK for Java 1.8.0, in-memory ($(date -u +%F))" \
  --note "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $load_range" \
  "$OUT"/steady.json "$OUT"/turns.json "$OUT"/append-at.json "$OUT"/turn-history.json
java -cp "$JAR" dev.adk4j.benchmarks.compare.CompareReport --md "$OUT/table-nocapture.md" \
  --theirs-label "adk-java, no span content" \
  --theirs "$OUT"/turns-nocapture.json --theirs "$OUT"/turn-history-nocapture.json \
  "$OUT"/turns.json "$OUT"/turn-history.json

elapsed=$(( $(date +%s) - started ))
echo "duration: $((elapsed / 60)) min $((elapsed % 60)) s" | tee -a "$OUT/machine.txt"
echo "load samples: $OUT/load.log ($load_range)"
