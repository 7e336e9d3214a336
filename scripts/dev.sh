#!/usr/bin/env bash
# Starts every service built so far against the dev profile's local servers, in the background,
# and prints their URLs. Logs and pidfiles live under $EDU_CACHE_DIR/run/dev/services/.
#   scripts/dev.sh up | down | status
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO_ROOT
readonly RUN="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/run/dev/services"
# Service name and default port (DESIGN.md); a service joins this list when it exists.
readonly SERVICES=("auth:4001" "question-bank:4005")

log() { printf 'dev: %s\n' "$*" >&2; }

# Our own process only: the pidfile's pid must still be running our CLI with this service name.
ours() {
  local name=$1 pid
  pid=$(cat "$RUN/$name.pid" 2>/dev/null) || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q "services/cli.ts $name" && echo "$pid"
}

wait_ready() {
  local url=$1 name=$2
  for _ in $(seq 1 100); do
    curl -fsS "$url/readyz" >/dev/null 2>&1 && return 0
    ours "$name" >/dev/null || { log "$name exited; last log lines:"; tail -n 20 "$RUN/$name.log" >&2; return 1; }
    sleep 0.2
  done
  log "$name did not become ready; see $RUN/$name.log"
  return 1
}

up() {
  mkdir -p "$RUN"
  cd "$REPO_ROOT"
  local env_lines
  env_lines=$("$REPO_ROOT/scripts/infra.sh" env --profile dev)
  local mongo kafka
  mongo=$(sed -n 's/^MONGODB_URI=//p' <<<"$env_lines")
  kafka=$(sed -n 's/^KAFKA_BROKERS=//p' <<<"$env_lines")
  for entry in "${SERVICES[@]}"; do
    local name=${entry%%:*} port=${entry##*:}
    if ours "$name" >/dev/null; then
      log "$name already running"
    else
      # A simple command in the background is exec'd, so $! is node's own pid (what `ours` checks).
      # The outbox relay is on under make dev (DESIGN.md): services with an outbox publish as they write.
      PORT=$port MONGODB_URI=$mongo KAFKA_BROKERS=$kafka NODE_ENV=development OUTBOX_PUBLISHER=kafka \
        nohup node --import tsx services/cli.ts "$name" </dev/null >>"$RUN/$name.log" 2>&1 &
      echo $! >"$RUN/$name.pid"
      wait_ready "http://127.0.0.1:$port" "$name"
    fi
    printf '%-16s http://127.0.0.1:%s   (openapi: /v1/openapi.json, log: %s)\n' "$name" "$port" "$RUN/$name.log"
  done
  printf '%-16s %s\n' "mongodb" "$mongo" "kafka" "$kafka"
}

down() {
  for entry in "${SERVICES[@]}"; do
    local name=${entry%%:*} pid
    if pid=$(ours "$name"); then
      kill -TERM "$pid"
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      log "$name stopped"
    fi
    rm -f "$RUN/$name.pid"
  done
}

status() {
  for entry in "${SERVICES[@]}"; do
    local name=${entry%%:*} port=${entry##*:} pid
    if pid=$(ours "$name"); then echo "$name running pid=$pid http://127.0.0.1:$port"; else echo "$name stopped"; fi
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: scripts/dev.sh up|down|status" >&2; exit 2 ;;
esac
