#!/usr/bin/env bash
# Starts every service built so far against the dev profile's local servers, in the background,
# and prints their URLs. Logs and pidfiles live under $EDU_CACHE_DIR/run/dev/services/.
#   scripts/dev.sh up | down | status
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO_ROOT
readonly RUN="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/run/dev/services"
# Process name, CLI command and port (DESIGN.md), in start order; a service joins this list when it
# exists. `peers` is the local stand-in for the document and exam services outside the platform
# (document service on 4008, exam service on 4009); the DOCX parser workers have no port.
readonly SERVICES=(
  "auth:auth:4001"
  "user:user:4002"
  "analytics:analytics:4003"
  "notification:notification:4004"
  "question-bank:question-bank:4005"
  "attempt:attempt:4006"
  "peers:peers:4008"
  "document-import:document-import:4007"
  "gateway:gateway:4000"
  "docx-worker-1:docx-worker:"
  "docx-worker-2:docx-worker:"
)

log() { printf 'dev: %s\n' "$*" >&2; }

# This machine's own secrets, made once (mode 600): the JWT secret, the internal token every /v1
# route needs, the DOCX workers' narrower token and the metrics token. Nothing runs on the
# published development defaults, so a token or header forged from the README is refused.
readonly SECRETS="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/run/dev/secrets.env"
ensure_secrets() {
  [[ -s $SECRETS ]] && return 0
  mkdir -p "$(dirname "$SECRETS")"
  local key
  (
    umask 077
    for key in AUTH_JWT_SECRET INTERNAL_API_TOKEN WORKER_API_TOKEN METRICS_TOKEN; do
      printf '%s=%s\n' "$key" "$(head -c 32 /dev/urandom | base64 | tr -d '/+=\n')"
    done >"$SECRETS.tmp"
  )
  mv "$SECRETS.tmp" "$SECRETS"
  log "made this machine's development secrets: $SECRETS"
}

secret() { sed -n "s/^$1=//p" "$SECRETS"; }

# Our own process only: the pidfile's pid must still be running our CLI with this service name.
ours() {
  local name=$1 pid
  pid=$(cat "$RUN/$name.pid" 2>/dev/null) || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -q "services/cli.ts $(command_of "$name")" && echo "$pid"
}

command_of() {
  local entry
  for entry in "${SERVICES[@]}"; do
    [[ ${entry%%:*} == "$1" ]] && { entry=${entry#*:}; echo "${entry%%:*}"; return 0; }
  done
  return 1
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
  # The DOCX upload spool is one directory shared by the document-import API and its workers.
  mkdir -p "$RUN/docx-spool"
  ensure_secrets
  local jwt internal worker metrics
  jwt=$(secret AUTH_JWT_SECRET) internal=$(secret INTERNAL_API_TOKEN)
  worker=$(secret WORKER_API_TOKEN) metrics=$(secret METRICS_TOKEN)
  for entry in "${SERVICES[@]}"; do
    local name=${entry%%:*} rest=${entry#*:}
    local cmd=${rest%%:*} port=${rest#*:}
    if ours "$name" >/dev/null; then
      log "$name already running"
    else
      # A simple command in the background is exec'd, so $! is node's own pid (what `ours` checks).
      # The outbox relay is on under make dev (DESIGN.md): services with an outbox publish as they write.
      # Loopback only: nothing on the network reaches a development machine's services. The DOCX
      # workers, which open untrusted files, get the worker token and not the internal one.
      local credential=(INTERNAL_API_TOKEN="$internal")
      [[ $cmd == docx-worker ]] && credential=()
      env "${credential[@]}" HOST=127.0.0.1 PORT=${port:-0} MONGODB_URI=$mongo KAFKA_BROKERS=$kafka \
        NODE_ENV=development OUTBOX_PUBLISHER=kafka AUTH_JWT_SECRET="$jwt" WORKER_API_TOKEN="$worker" \
        METRICS_TOKEN="$metrics" DOCUMENT_SERVICE_URL=http://127.0.0.1:4008 EXAM_SERVICE_URL=http://127.0.0.1:4009 \
        QUESTION_BANK_URL=http://127.0.0.1:4005 DOCX_IMPORT_PAYLOAD_DIR="$RUN/docx-spool" \
        nohup node --import tsx services/cli.ts "$cmd" </dev/null >>"$RUN/$name.log" 2>&1 &
      echo $! >"$RUN/$name.pid"
      if [[ -n $port ]]; then wait_ready "http://127.0.0.1:$port" "$name"; fi
    fi
    if [[ -n $port ]]; then
      printf '%-16s http://127.0.0.1:%s   (openapi: /v1/openapi.json, log: %s)\n' "$name" "$port" "$RUN/$name.log"
    else
      printf '%-16s %s   (log: %s)\n' "$name" "running" "$RUN/$name.log"
    fi
  done
  printf '%-16s %s\n' "mongodb" "$mongo" "kafka" "$kafka"
  printf '%-16s %s\n' "secrets" "$SECRETS (every /v1 call needs X-Internal-Token: \$INTERNAL_API_TOKEN)"
}

down() {
  local i entry
  # Reverse start order: workers and the import API stop before what they call.
  for ((i = ${#SERVICES[@]} - 1; i >= 0; i--)); do
    entry=${SERVICES[i]}
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
    if pid=$(ours "$name"); then echo "$name running pid=$pid${port:+ http://127.0.0.1:$port}"; else echo "$name stopped"; fi
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: scripts/dev.sh up|down|status" >&2; exit 2 ;;
esac
