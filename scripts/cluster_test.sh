#!/usr/bin/env bash
# make cluster-test: the nightly audit on a real distributed deployment on this machine.
#
#   PostgreSQL (Dagster's instance) · Redis (Celery broker and results) · a Dagster code server
#   (pipelines.cluster.definitions) · the Dagster daemon (run queue, run monitoring) · N Celery
#   workers (--pool solo: one process per worker) — all on 127.0.0.1, free ports, a temp folder.
#
# It lands a small multi-day night, builds it once in a single process (`floorman audit`), then
# through the cluster, SIGKILLs one worker while it holds a step, and compares the two warehouses.
# Everything it started is stopped on exit (also on failure or Ctrl-C); the last line is the verdict.
#
# Knobs: CLUSTER_WORKERS (2), CLUSTER_DAYS (3), CLUSTER_HANDS per day (1000),
# CLUSTER_VISIBILITY_TIMEOUT (120 s: must exceed the longest step, and is how long the killed
# worker's step waits before another worker takes it), FLOORMAN_CLUSTER_DIR (parent
# of the temp folder), CLUSTER_KEEP=1 keeps the temp folder (logs, warehouses) for a post-mortem.
# Benchmark mode (bench/cluster_audit.py): CLUSTER_LANDING=DIR runs the day folders already landed
# there (no simulation); CLUSTER_BENCH=1 runs only the cluster night, kills no worker, and ends with
# the night's figures (seconds per million hands, each worker's peak RSS) instead of the comparison.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="$ROOT/.venv/bin/python"
BIN="$ROOT/.venv/bin"
WORKERS="${CLUSTER_WORKERS:-2}"
N_DAYS="${CLUSTER_DAYS:-3}"
HANDS="${CLUSTER_HANDS:-1000}"
BENCH="${CLUSTER_BENCH:-0}"
T0=$(date +%s)
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"  # this checkout's code, whatever the venv points at

say() { echo "cluster-test: $*"; }

# ------------------------------------------------------------------ install (only what is missing)
install() {
    # dagster-celery 0.29.N pins dagster 1.13.N: one resolve with the dev extra, or pip leaves
    # dagster-webserver on a newer dagster than the one the cluster extra brings back
    if ! "$PY" -c '
import dagster, dagster_celery, dagster_postgres, redis
assert dagster.__version__.split(".")[2] == dagster_celery.__version__.split(".")[2]' 2>/dev/null; then
        say "installing the cluster extra (.[dev,cluster])"
        "$PY" -m pip install --quiet -e '.[dev,cluster]'
    fi
    local need=()
    command -v redis-server >/dev/null || need+=(redis-server)
    pg_bin >/dev/null || need+=(postgresql)
    if ((${#need[@]})); then
        [ "$(id -u)" = 0 ] || { say "needs ${need[*]} (apt-get install ${need[*]}, as root)"; exit 2; }
        say "apt-get install ${need[*]}"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
        # Debian starts the packaged services; this test runs its own, so stop theirs
        command -v service >/dev/null && { service redis-server stop || true; service postgresql stop || true; } >/dev/null 2>&1
    fi
}

pg_bin() {  # folder of initdb / pg_ctl (Debian keeps them out of PATH)
    local d
    for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return 0; }; done
    command -v initdb >/dev/null && { dirname "$(command -v initdb)"; return 0; }
    return 1
}

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# PostgreSQL refuses to run as root: as root, its folder belongs to the postgres user
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# ------------------------------------------------------------------ services
PIDS=()
start_bg() {  # run "$@" in the background, remember it for stop_all; disowned: no "Killed" notices
    "$@" &
    LAST_PID=$!
    disown "$LAST_PID" 2>/dev/null || true
    PIDS+=("$LAST_PID")
}
PG_STARTED=""
COMPARING=""
stop_all() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for _ in $(seq 50); do
        local alive=0
        for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.2
    done
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    PIDS=()
    if [ -n "$PG_STARTED" ]; then
        as_pg "$(pg_bin)/pg_ctl" -D "$RUN/pg" -m fast -w stop >/dev/null 2>&1 || true
        PG_STARTED=""
    fi
    # what the services left behind: Dagster follows each step's log with `tail -F <run folder>/...`,
    # and the follower of a step whose worker was SIGKILLed outlives it (one stayed after a CI run)
    [ -n "${RUN:-}" ] && pkill -KILL -f -- "$RUN/" 2>/dev/null || true
}
cleanup() {
    local rc=$?
    stop_all
    if [ -n "${RUN:-}" ] && [ -d "$RUN" ]; then
        if [ "${CLUSTER_KEEP:-0}" = 1 ] || [ $rc != 0 ]; then
            [ -n "$COMPARING" ] || say "kept $RUN (logs in $RUN/logs)"  # the verdict stays the last line
        else
            rm -rf "$RUN"
        fi
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_postgres() {
    local bin; bin="$(pg_bin)"
    mkdir -p "$RUN/pg"
    touch "$RUN/logs/postgres.log"
    [ "$(id -u)" = 0 ] && chown postgres "$RUN/pg" "$RUN/logs/postgres.log"
    as_pg "$bin/initdb" -D "$RUN/pg" -U floorman --auth=trust -E UTF8 --no-locale >"$RUN/logs/initdb.log"
    as_pg "$bin/pg_ctl" -D "$RUN/pg" -l "$RUN/logs/postgres.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories='' -c fsync=off" start >/dev/null
    PG_STARTED=1
    as_pg "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U floorman dagster
}

start_redis() {
    mkdir -p "$RUN/redis"
    start_bg redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes --save '' --appendonly no \
        --dir "$RUN/redis" --logfile "$RUN/logs/redis.log" --daemonize no
    for _ in $(seq 50); do
        "$PY" -c "import redis,sys; sys.exit(0 if redis.Redis(port=$REDIS_PORT).ping() else 1)" 2>/dev/null && return 0
        sleep 0.2
    done
    say "redis did not start"; exit 1
}

wait_grpc() {
    for _ in $(seq 300); do
        "$BIN/dagster" api grpc-health-check --port "$GRPC_PORT" >/dev/null 2>&1 && return 0
        sleep 0.5
    done
    say "the code server did not start (see $RUN/logs/code-server.log)"; exit 1
}

# ------------------------------------------------------------------ the test
install
mkdir -p "${FLOORMAN_CLUSTER_DIR:-${TMPDIR:-/tmp}}"
RUN="$(mktemp -d "${FLOORMAN_CLUSTER_DIR:-${TMPDIR:-/tmp}}/floorman-cluster.XXXXXX")"
chmod 755 "$RUN"
mkdir -p "$RUN/logs" "$RUN/shared/landing" "$RUN/shared/work" "$RUN/single" "$RUN/dagster_home"
if [ -n "${CLUSTER_LANDING:-}" ]; then
    LANDING="$(cd "$CLUSTER_LANDING" && pwd)"
    DAYS="$(find "$LANDING" -mindepth 1 -maxdepth 1 -type d -name '20??-??-??' -printf '%f\n' | sort | paste -sd,)"
    [ -n "$DAYS" ] || { say "no day folders (YYYY-MM-DD) in $LANDING"; exit 2; }
    say "landed days in $LANDING: $DAYS"
else
    LANDING="$RUN/shared/landing"
    DAYS="$("$PY" -c "
from datetime import date, timedelta
print(','.join(str(date(2026, 11, 20) + timedelta(days=i)) for i in range($N_DAYS)))")"
    say "simulating $N_DAYS days x $HANDS hands into $LANDING"
    "$PY" -m pipelines.cluster.night simulate --landing "$LANDING" --days "$DAYS" --hands "$HANDS"
fi

SINGLE_S=0
if [ "$BENCH" != 1 ]; then
    say "single-process night (floorman audit)"
    t=$(date +%s)
    env -u DAGSTER_HOME "$BIN/floorman" audit "$LANDING" --db "$RUN/single/warehouse.duckdb" \
        --work "$RUN/single/work" --log-level WARNING >"$RUN/logs/single.log" 2>&1 \
        || { tail -20 "$RUN/logs/single.log"; exit 1; }
    SINGLE_S=$(( $(date +%s) - t ))
    say "single-process night: ${SINGLE_S} s"
fi

PG_PORT=$(free_port); REDIS_PORT=$(free_port); GRPC_PORT=$(free_port)
export DAGSTER_HOME="$RUN/dagster_home"
export FLOORMAN_PG_URL="postgresql+psycopg2://floorman@127.0.0.1:$PG_PORT/dagster"
export FLOORMAN_CELERY_BROKER="redis://127.0.0.1:$REDIS_PORT/0"
export FLOORMAN_CELERY_BACKEND="redis://127.0.0.1:$REDIS_PORT/1"
export FLOORMAN_CELERY_VISIBILITY_TIMEOUT="${CLUSTER_VISIBILITY_TIMEOUT:-120}"
export FLOORMAN_LANDING="$LANDING"              # the shared folder every worker reaches
export FLOORMAN_WORK="$RUN/shared/work"
export FLOORMAN_CLUSTER_AUTOMATION=0            # runs come from this test only (see below)
# each worker's DuckDB is bounded: half the machine's memory split between the workers (DuckDB's
# default, 80% of RAM per connection, let both workers reach ~20 GB at ten million hands)
if [ -z "${FLOORMAN_DUCKDB_MEMORY:-}" ]; then
    MEM_KB="$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
    export FLOORMAN_DUCKDB_MEMORY="$(( MEM_KB / 2 / WORKERS / 1024 ))MB"
fi

# the deployment's instance, plus: no automation, so nothing but this test launches runs (the
# location leaves out schedules and sensors; this stops the daemon's automation-condition sensors,
# which Dagster adds for assets with an automation condition)
cp deploy/cluster/dagster.yaml "$DAGSTER_HOME/dagster.yaml"
printf 'auto_materialize:\n  enabled: false\n  use_sensors: false\n' >>"$DAGSTER_HOME/dagster.yaml"
cat >"$RUN/workspace.yaml" <<EOF
load_from:
  - grpc_server:
      host: 127.0.0.1
      port: $GRPC_PORT
      location_name: floorman
EOF

say "starting PostgreSQL :$PG_PORT, Redis :$REDIS_PORT (127.0.0.1)"
start_postgres
start_redis
"$BIN/dagster" instance migrate >"$RUN/logs/migrate.log" 2>&1
# the partition builds may use every worker; the warehouse pool stays at 1 (one DuckDB writer)
POOL="$("$PY" -c 'import pipelines.defs.audit as a; print(getattr(a, "PARTITION_POOL", "partitions"))')"
"$BIN/dagster" instance concurrency set "$POOL" "$WORKERS" >/dev/null

say "starting the code server :$GRPC_PORT, the Dagster daemon and $WORKERS Celery workers"
start_bg "$BIN/dagster" code-server start -m pipelines.cluster.definitions -h 127.0.0.1 -p "$GRPC_PORT" \
    --location-name floorman >"$RUN/logs/code-server.log" 2>&1
WORKER_PIDS=""
for i in $(seq "$WORKERS"); do
    start_bg "$BIN/celery" -A pipelines.cluster.worker worker --pool solo -n "w$i@%h" -Q dagster \
        --loglevel INFO --without-gossip --without-mingle >"$RUN/logs/worker-$i.log" 2>&1
    WORKER_PIDS="${WORKER_PIDS:+$WORKER_PIDS,}w$i=$LAST_PID"
done
wait_grpc
start_bg "$BIN/dagster-daemon" run -w "$RUN/workspace.yaml" >"$RUN/logs/daemon.log" 2>&1

say "cluster night"
NIGHT_ARGS=()
[ "$BENCH" = 1 ] && NIGHT_ARGS=(--no-kill --timeout "${CLUSTER_TIMEOUT:-14400}")
"$PY" -m pipelines.cluster.night cluster --days "$DAYS" --workspace "$RUN/workspace.yaml" \
    --workers "$WORKER_PIDS" --out "$RUN/facts.json" "${NIGHT_ARGS[@]}" || { tail -30 "$RUN/logs/daemon.log"; exit 1; }

say "stopping the services"
stop_all
[ "$BENCH" = 1 ] || say "single-process night ${SINGLE_S} s"
say "whole run $(( $(date +%s) - T0 )) s; logs in $RUN/logs (kept on failure)"
COMPARING=1
if [ "$BENCH" = 1 ]; then
    "$PY" -m pipelines.cluster.night bench --cluster "$RUN/shared/work/warehouse.duckdb" --facts "$RUN/facts.json"
    exit 0
fi
"$PY" -m pipelines.cluster.night compare --single "$RUN/single/warehouse.duckdb" \
    --cluster "$RUN/shared/work/warehouse.duckdb" --facts "$RUN/facts.json"
