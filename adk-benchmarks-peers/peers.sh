#!/usr/bin/env bash
# adk4j against the other Java agent frameworks (issue 32, item 4): the same turn (user message,
# one tool call reading and writing a counter in the conversation, final answer; scripted models
# of no latency) through adk4j, Google's ADK for Java 1.8.0, LangChain4j 1.19.0 and Spring AI
# 2.0.1, in memory and, for the frameworks that have one, on their own SQLite/PostgreSQL store.
#
#   adk-benchmarks-peers/peers.sh [--no-build] [--quick]
#
# Builds adk-benchmarks-peers/target/peers.jar with the root POM's `peers` profile (the module is
# not in the default build) unless --no-build. --quick: fewer iterations and no PostgreSQL, to
# check that everything runs (its figures are not for publication). PEERS_OUT: output folder
# (default adk-benchmarks-peers/target/peers); PEERS_PNG: the chart (default
# docs/benchmarks-peers.png). MVN_ARGS adds Maven options.
#
# Writes the JMH logs and JSON, table.md (the markdown tables for docs/benchmarks.md),
# footprint.md (heap per session), start.txt (JVM start to first answered turn),
# machine.txt (cores, JDK, commit, load average before and after) and load.log (the load average
# every 5 s). About 10 minutes on an idle 2-core machine after the build (an hour at a load average of 15).
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=adk-benchmarks-peers/target/peers.jar
OUT=${PEERS_OUT:-adk-benchmarks-peers/target/peers}
PNG=${PEERS_PNG:-docs/benchmarks-peers.png}
BUILD=1
QUICK=0
for arg in "$@"; do
  case "$arg" in
    --no-build) BUILD=0 ;;
    --quick) QUICK=1 ;;
    *) echo "usage: $0 [--no-build] [--quick]" >&2; exit 2 ;;
  esac
done

started=$(date +%s)
mkdir -p "$OUT"
rm -f "$OUT"/*.json

if [ "$BUILD" = 1 ]; then
  echo "== building $JAR"
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_ARGS:-} -Ppeers -pl adk-benchmarks-peers -am package -DskipTests
fi
[ -f "$JAR" ] || { echo "no $JAR: run without --no-build" >&2; exit 1; }

{
  echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "cores: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "uptime before: $(uptime)"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

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

P='dev\.adk4j\.benchmarks\.peers\.'
# On a database the shots' setup writes every prior message through the framework (adk4j: one
# transaction per event), so those rows stop at 100 prior messages and take fewer iterations.
if [ "$QUICK" = 1 ]; then
  LOOP=(-f 1 -wi 5 -i 3 -w 1s -r 1s)
  SHOTS=(-f 1 -wi 5 -i 10 -jvmArgsAppend -Dpeers.warmUpTurns=1000)
  SHOTS_DB=(-f 1 -wi 3 -i 5 -jvmArgsAppend -Dpeers.warmUpTurns=1000)
  DATABASES=adk4j/sqlite,spring-ai/sqlite
else
  LOOP=(-f 2 -wi 10 -i 5 -w 1s -r 1s)
  SHOTS=(-f 2 -wi 10 -i 10 -jvmArgsAppend -Dpeers.warmUpTurns=3000)
  SHOTS_DB=(-f 1 -wi 5 -i 10)
  DATABASES=adk4j/sqlite,spring-ai/sqlite,adk4j/postgresql,spring-ai/postgresql
fi
# A fresh conversation per turn, in a loop: time and bytes (-prof gc) per turn.
jmh fresh "${P}PeerTurnCompare\." "${LOOP[@]}" -prof gc
jmh fresh-db "${P}PeerTurnCompare\." "${LOOP[@]}" -prof gc -p setup="$DATABASES"
# The turn after 0, 100 and 1,000 prior messages (single shots of 10 turns, untimed setup).
jmh history "${P}PeerHistoryCompare\." "${SHOTS[@]}"
jmh history-db "${P}PeerHistoryCompare\." "${SHOTS_DB[@]}" -p setup="$DATABASES" -p prior=0,100

# Footprint (item 5): heap per idle in-memory session and per 10,000-event session.
echo "== footprint"
java -Xmx3g -cp "$JAR" dev.adk4j.benchmarks.peers.Footprint | tee "$OUT/footprint.md"
# Start (item 5): JVM start to the first answered turn, five new JVMs per setup; the JVM's own
# count (from its start time) and the process's wall time from launch to the answer's line.
echo "== first turn after JVM start"
: > "$OUT/start.txt"
for setup in adk4j adk-java langchain4j spring-ai adk4j/sqlite spring-ai/sqlite; do
  for run in 1 2 3 4 5; do
    t0=$(date +%s%N)
    line=$(java -cp "$JAR" dev.adk4j.benchmarks.peers.FirstTurn "$setup" | tail -1)
    t1=$(date +%s%N)
    echo "$line; process wall $(( (t1 - t0) / 1000000 )) ms" | tee -a "$OUT/start.txt"
  done
done

echo "uptime after: $(uptime)" >> "$OUT/machine.txt"
echo "finished: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >> "$OUT/machine.txt"
load_range="1-min load average $(awk '{print $2}' "$OUT/load.log" | sort -n | sed -n '1p;$p' | paste -sd- -)"
java -cp "$JAR" dev.adk4j.benchmarks.peers.PeerReport --md "$OUT/table.md" --png "$PNG" \
  --title "adk4j and Java agent frameworks, $(date -u +%F), $load_range" \
  "$OUT"/fresh.json "$OUT"/fresh-db.json "$OUT"/history.json "$OUT"/history-db.json

elapsed=$(( $(date +%s) - started ))
echo "duration: $((elapsed / 60)) min $((elapsed % 60)) s" | tee -a "$OUT/machine.txt"
echo "load: $load_range (samples in $OUT/load.log)"
