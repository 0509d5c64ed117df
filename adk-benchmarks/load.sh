#!/usr/bin/env bash
# Several adk-server instances under load (issue 32, item 2): 1, 2 and 3 server processes on one
# embedded PostgreSQL, and one on SQLite, driven over loopback HTTP by dev.adk4j.benchmarks.load.
# LoadBenchmark (a scripted model with a fixed latency, a shared app: counter incremented by every
# turn, some sessions used from two instances at once). Bounded in time: about
# (warm-up + seconds + ~15 s of start-up) per configuration.
#
#   adk-benchmarks/load.sh [--no-build] [LoadBenchmark options]
#
# LoadBenchmark's options (defaults): --users 8 --pairs 2 --seconds 20 --warmup-seconds 5
# --latency-ms 50 --max-requests 200000 --configs pg1,pg2,pg3,sqlite1 --out adk-benchmarks/target/load
# Writes table.md (one row per configuration), the servers' logs, invalid-<config>.txt (histories
# that failed the check; empty when all are valid), machine.txt (uptime before and after) and the
# chart of turns per second docs/benchmarks-load.png (LOAD_PNG).
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=adk-benchmarks/target/benchmarks.jar
OUT=adk-benchmarks/target/load
PNG=${LOAD_PNG:-docs/benchmarks-load.png}
BUILD=1
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --out) OUT=$2; ARGS+=("$1" "$2"); shift ;;
    *) ARGS+=("$1") ;;
  esac
  shift
done
if [ "$BUILD" = 1 ]; then
  echo "== building $JAR"
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_ARGS:-} -pl adk-benchmarks -am package -DskipTests
fi
[ -f "$JAR" ] || { echo "no $JAR: run without --no-build" >&2; exit 1; }
mkdir -p "$OUT"
{
  echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cores: $(nproc)"
  echo "uptime before: $(uptime)"
} > "$OUT/machine.txt"
java -cp "$JAR" dev.adk4j.benchmarks.load.LoadBenchmark --out "$OUT" "${ARGS[@]}"
echo "uptime after: $(uptime)" >> "$OUT/machine.txt"
java -cp "$JAR" dev.adk4j.benchmarks.TableChart --table "$OUT/table.md" --png "$PNG" \
  --value 'turns/s' --label 'store,instances' \
  --title 'adk-server instances on one database, turns per second (store, instances; longer is better)'
cat "$OUT/machine.txt"
echo "chart: $PNG"
