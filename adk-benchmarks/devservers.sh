#!/usr/bin/env bash
# adk4j's server side by side with ADK's own dev servers (issue 32, item 3): the same agent (a
# scripted model of fixed latency that calls one tool, the tool reading and writing the session's
# `turns`, then an answer) behind
#   - adk4j's adk-server, in memory and on SQLite (dev.adk4j.benchmarks.devservers.Adk4jDevServer),
#   - ADK for Java's dev server (com.google.adk:google-adk-dev, its newest release that resolves:
#     1.6.0), loading the agent class the way it loads agents: a compiled class with a public static
#     ROOT_AGENT under adk.agents.source-dir (adk-benchmarks/devservers/adk-java),
#   - ADK for JavaScript's dev server (@google/adk-devtools 2.0.0, `adk api_server`), loading
#     <agents dir>/latency_agent/agent.js (adk-benchmarks/devservers/adk-js), installed here with
#     npm into adk-benchmarks/target/devservers/adk-js,
# each started in turn on loopback and driven by dev.adk4j.benchmarks.devservers.DevServersBenchmark
# over /run and /run_sse with 1 and 8 users (each in a session of its own), once per model latency.
# Every turn's events are checked, and every session is read back after each window (four events
# per successful turn, `turns` equal to them). All servers log warnings only. Each server is warmed
# up first (--server-warmup-seconds, unmeasured, both endpoints, the most users).
#
# One more row set, not run by default: adk4j-nagle, adk4j in memory with
# -Dsun.net.httpserver.nodelay=false. The JDK's HTTP server that adk-server runs on leaves Nagle's
# algorithm on unless that property is true, and on JDK 17 a small response can then wait for the
# client's delayed ACK (about 40 ms on Linux); adk4j sets the property when the application has not
# (dev.adk4j.internal.HttpServers), so the plain adk4j rows have TCP_NODELAY, and adk4j-nagle shows
# the JDK's default.
#
#   adk-benchmarks/devservers.sh [--no-build] [--quick] [--latencies 50,0] [--users 1,8]
#       [--seconds 10] [--warmup-seconds 3] [--server-warmup-seconds 10] [--max-requests 20000]
#       [--servers adk4j-memory,adk4j-sqlite,adk-java,adk-js,adk4j-nagle]
#
# --quick: 4 s windows after 2 s of warm-up (4 s for the server's), to check that everything
# runs (not for publication).
# Bounded: per server and latency about (warm-up + seconds) x endpoints x user counts, plus the
# server's start (ADK for Java's dev server, a Spring Boot application, takes 10-40 s); about
# 13 minutes with the defaults on an idle 2-core machine. MVN_ARGS adds Maven options.
#
# Writes adk-benchmarks/target/devservers/: table.md (one row per server, latency, endpoint and
# users), machine.txt (cores, JDK, node, commit, load average before and after), the servers' logs,
# and the chart of turns per second docs/benchmarks-devservers.png (DEVSERVERS_PNG).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
JAR=adk-benchmarks/target/benchmarks.jar
OUT=adk-benchmarks/target/devservers
PNG=${DEVSERVERS_PNG:-docs/benchmarks-devservers.png}
ADK_JAVA=adk-benchmarks/devservers/adk-java
ADK_JS_SRC=adk-benchmarks/devservers/adk-js
ADK_JS=$OUT/adk-js
# The newest of each that resolved on 2026-11-26 (google-adk-dev: see its POM).
ADK_JS_VERSION=2.0.0
BUILD=1
LATENCIES=50,0
USERS=1,8
SECONDS_=10
WARMUP=3
SERVER_WARMUP=10
MAX_REQUESTS=20000
SERVERS=adk4j-memory,adk4j-sqlite,adk-java,adk-js
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --quick) SECONDS_=4; WARMUP=2; SERVER_WARMUP=4 ;;
    --latencies) LATENCIES=$2; shift ;;
    --users) USERS=$2; shift ;;
    --seconds) SECONDS_=$2; shift ;;
    --warmup-seconds) WARMUP=$2; shift ;;
    --server-warmup-seconds) SERVER_WARMUP=$2; shift ;;
    --max-requests) MAX_REQUESTS=$2; shift ;;
    --servers) SERVERS=$2; shift ;;
    *) echo "usage: $0 [--no-build] [--quick] [--latencies 50,0] [--users 1,8] [--seconds 10]" \
         "[--warmup-seconds 3] [--server-warmup-seconds 10] [--max-requests 20000]" \
         "[--servers adk4j-memory,adk4j-sqlite,adk-java,adk-js,adk4j-nagle]" >&2
       exit 2 ;;
  esac
  shift
done
want() { [[ ",$SERVERS," == *",$1,"* ]]; }

mkdir -p "$OUT"
started=$(date +%s)

if [ "$BUILD" = 1 ]; then
  echo "== building $JAR"
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_ARGS:-} -pl adk-benchmarks -am package -DskipTests
fi
[ -f "$JAR" ] || { echo "no $JAR: run without --no-build" >&2; exit 1; }

if want adk-java && { [ "$BUILD" = 1 ] || [ ! -f "$ADK_JAVA/target/classpath.txt" ]; }; then
  echo "== ADK for Java's dev server and the agent it loads ($ADK_JAVA)"
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_ARGS:-} -f "$ADK_JAVA/pom.xml" compile dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt
fi

if want adk-js; then
  if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
    echo "!! npm (and node) not found: ADK for JavaScript's dev server is left out." \
      "Install Node.js 20+ with npm (on Debian: apt-get install nodejs npm) to include it." >&2
    SERVERS=${SERVERS//adk-js/}
  elif [ "$BUILD" = 1 ] || [ ! -x "$ADK_JS/node_modules/.bin/adk" ]; then
    echo "== ADK for JavaScript's dev server: npm install into $ADK_JS"
    mkdir -p "$ADK_JS/agents"
    # @mikro-orm/*: adk-devtools 2.0.0 asks for ^6.6.6, whose newest (6.6.17) pins a
    # @mikro-orm/knex 6.6.17 the registry does not serve; 6.6.16 is the newest set that installs.
    # --ignore-scripts: the database drivers' install scripts fetch native binaries from outside
    # the registry; the in-memory dev server never loads them.
    cat > "$ADK_JS/package.json" <<EOF
{
  "name": "devservers-adk-js",
  "private": true,
  "type": "module",
  "dependencies": {
    "@google/adk": "$ADK_JS_VERSION",
    "@google/adk-devtools": "$ADK_JS_VERSION"
  },
  "overrides": {
    "@mikro-orm/core": "6.6.16",
    "@mikro-orm/knex": "6.6.16",
    "@mikro-orm/reflection": "6.6.16",
    "@mikro-orm/sqlite": "6.6.16",
    "@mikro-orm/postgresql": "6.6.16",
    "@mikro-orm/mysql": "6.6.16",
    "@mikro-orm/mariadb": "6.6.16",
    "@mikro-orm/mssql": "6.6.16"
  }
}
EOF
    (cd "$ADK_JS" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error)
  fi
  if want adk-js; then
    rm -rf "$ADK_JS/agents/latency_agent"
    mkdir -p "$ADK_JS/agents"
    cp -r "$ADK_JS_SRC/latency_agent" "$ADK_JS/agents/"
  fi
fi

{
  echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "cores: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "node: $(node --version 2>/dev/null || echo none)"
  echo "windows: ${SERVER_WARMUP} s server warm-up, then ${WARMUP} s warm-up + ${SECONDS_} s measured per endpoint and users; users $USERS; latencies $LATENCIES ms"
  echo "uptime before: $(uptime)"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"
rm -f "$OUT/rows.md"

# A free loopback port (nothing answers on it).
free_port() {
  local p
  for p in $(seq 18400 18600); do
    if ! (exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null; then
      echo "$p"
      return 0
    fi
  done
  echo "no free port in 18400-18600" >&2
  return 1
}

server_pid=
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2> /dev/null || true
    wait "$server_pid" 2> /dev/null || true
    server_pid=
  fi
}
trap stop_server EXIT

failures=0
run_one() { # label latency port log command...
  local label=$1 latency=$2 port=$3 log=$4
  shift 4
  echo "== $label, model latency $latency ms, port $port"
  "$@" > "$log" 2>&1 &
  server_pid=$!
  local waited=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/list-apps" || true)" = 200 ]; do
    if ! kill -0 "$server_pid" 2> /dev/null || [ "$waited" -ge 240 ]; then
      echo "!! $label did not start (see $log)" >&2
      tail -20 "$log" >&2
      stop_server
      failures=$((failures + 1))
      return 0
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "   serving after ${waited} s"
  java -cp "$JAR" dev.adk4j.benchmarks.devservers.DevServersBenchmark --server "$label" \
    --url "http://127.0.0.1:$port" --pid "$server_pid" --latency-ms "$latency" --users "$USERS" \
    --seconds "$SECONDS_" --warmup-seconds "$WARMUP" --server-warmup-seconds "$SERVER_WARMUP" --max-requests "$MAX_REQUESTS" --out "$OUT" \
    || { echo "!! $label failed its checks (see above)" >&2; failures=$((failures + 1)); }
  stop_server
}

for latency in ${LATENCIES//,/ }; do
  if want adk4j-memory; then
    port=$(free_port)
    run_one "adk4j adk-server, memory" "$latency" "$port" "$OUT/adk4j-memory-$latency.log" \
      java -Xmx512m -cp "$JAR" dev.adk4j.benchmarks.devservers.Adk4jDevServer --port "$port" \
      --store memory --latency-ms "$latency"
  fi
  if want adk4j-nagle; then
    port=$(free_port)
    run_one "adk4j adk-server, memory, Nagle (JDK default)" "$latency" "$port" \
      "$OUT/adk4j-nagle-$latency.log" \
      java -Xmx512m -Dsun.net.httpserver.nodelay=false -cp "$JAR" \
      dev.adk4j.benchmarks.devservers.Adk4jDevServer --port "$port" --store memory \
      --latency-ms "$latency"
  fi
  if want adk4j-sqlite; then
    port=$(free_port)
    db="$ROOT/$OUT/adk4j-$latency.db"
    rm -f "$db" "$db-wal" "$db-shm"
    run_one "adk4j adk-server, SQLite" "$latency" "$port" "$OUT/adk4j-sqlite-$latency.log" \
      java -Xmx512m -cp "$JAR" dev.adk4j.benchmarks.devservers.Adk4jDevServer --port "$port" \
      --store "jdbc:sqlite:$db" --latency-ms "$latency"
  fi
  if want adk-java; then
    port=$(free_port)
    run_one "ADK for Java 1.6.0 dev server, memory" "$latency" "$port" "$OUT/adk-java-$latency.log" \
      java -Xmx512m "-Ddevservers.latencyMs=$latency" -cp "$(cat "$ADK_JAVA/target/classpath.txt")" \
      com.google.adk.web.AdkWebServer --server.address=127.0.0.1 "--server.port=$port" \
      "--adk.agents.source-dir=$ROOT/$ADK_JAVA" --logging.level.root=WARN
  fi
  if want adk-js; then
    port=$(free_port)
    run_one "ADK for JavaScript $ADK_JS_VERSION dev server, memory" "$latency" "$port" \
      "$OUT/adk-js-$latency.log" \
      env "DEVSERVERS_LATENCY_MS=$latency" node \
      "$ADK_JS/node_modules/@google/adk-devtools/dist/esm/cli_entrypoint.js" api_server \
      "$ADK_JS/agents" --host 127.0.0.1 --port "$port" --log_level warn
  fi
done

echo "uptime after: $(uptime)" >> "$OUT/machine.txt"
elapsed=$(( $(date +%s) - started ))
echo "duration: $((elapsed / 60)) min $((elapsed % 60)) s" >> "$OUT/machine.txt"
{
  echo "| server | model latency | endpoint | users | turns (window) | turns/s | p50 ms | p95 ms | p99 ms | errors | server CPU ms/turn | sessions checked |"
  echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |"
  cat "$OUT/rows.md" 2> /dev/null || true
} > "$OUT/table.md"
java -cp "$JAR" dev.adk4j.benchmarks.TableChart --table "$OUT/table.md" --png "$PNG" \
  --value 'turns/s' --group 'model latency,endpoint,users' --label server \
  --title 'adk4j against ADK dev servers: turns per second (longer is better)'
echo
cat "$OUT/table.md"
echo
cat "$OUT/machine.txt"
echo "chart: $PNG"
[ "$failures" = 0 ] || { echo "$failures server run(s) failed" >&2; exit 1; }
