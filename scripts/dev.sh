#!/usr/bin/env bash
# Starts every service built so far against the dev profile's local servers, all at once in the
# background, waits until each answers /readyz and prints their URLs. Logs and pidfiles live under
# $EDU_CACHE_DIR/run/dev/services/.
#   scripts/dev.sh up | down | status
# EDU_DEV_PORT_BASE (default 4000) moves every port below by the same amount (a second instance,
# e.g. services/test/dev-start.test.ts against a private dev profile); EDU_DEV_READY_TIMEOUT
# (seconds, default 300) bounds the wait for readiness of a process that neither answers nor exits.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO_ROOT
readonly RUN="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/run/dev/services"
readonly BASE="${EDU_DEV_PORT_BASE:-4000}"
readonly READY_TIMEOUT="${EDU_DEV_READY_TIMEOUT:-300}"
# Process name, CLI command and port offset from BASE (DESIGN.md's ports with the default base).
# `peers` is the local stand-in for the document and exam services outside the platform
# (document service on BASE+8, exam service on BASE+9); the DOCX parser workers serve only their
# probes (/healthz, /readyz), on BASE+11 and BASE+12.
readonly SERVICES=(
  "auth:auth:1"
  "user:user:2"
  "analytics:analytics:3"
  "notification:notification:4"
  "question-bank:question-bank:5"
  "attempt:attempt:6"
  "peers:peers:8"
  "document-import:document-import:7"
  "gateway:gateway:0"
  "docx-worker-1:docx-worker:11"
  "docx-worker-2:docx-worker:12"
)
readonly EXAM_PEER_OFFSET=9

url_at() { printf 'http://127.0.0.1:%s' "$((BASE + $1))"; }

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
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep "services/cli.ts $(command_of "$name")" >/dev/null && echo "$pid"
}

command_of() {
  local entry
  for entry in "${SERVICES[@]}"; do
    [[ ${entry%%:*} == "$1" ]] && { entry=${entry#*:}; echo "${entry%%:*}"; return 0; }
  done
  return 1
}

# Waits until $url/readyz answers 200, the process exits (its last log lines are shown) or
# READY_TIMEOUT passes.
wait_ready() {
  local url=$1 name=$2 deadline=$((SECONDS + READY_TIMEOUT))
  until curl -fsS "$url/readyz" >/dev/null 2>&1; do
    ours "$name" >/dev/null || { log "$name exited; last log lines:"; tail -n 20 "$RUN/$name.log" >&2; return 1; }
    ((SECONDS < deadline)) || { log "$name did not become ready in ${READY_TIMEOUT}s; see $RUN/$name.log"; return 1; }
    sleep 0.2
  done
}

# Starts one process in the background. A simple command in the background is exec'd, so $! is
# node's own pid (what `ours` checks). The outbox relay is on under make dev (DESIGN.md): services
# with an outbox publish as they write. Loopback only: nothing on the network reaches a
# development machine's services. The DOCX workers, which open untrusted files, get the worker
# token and not the internal one.
start_one() { # name cmd offset
  local name=$1 cmd=$2 offset=$3
  local credential=(INTERNAL_API_TOKEN="$internal") ports=(PORT=$((BASE + offset)))
  [[ $cmd == docx-worker ]] && credential=() ports=(PORT=0 WORKER_HEALTH_PORT=$((BASE + offset)))
  [[ $cmd == peers ]] && ports=(DOCUMENT_SERVICE_PORT=$((BASE + offset)) EXAM_SERVICE_PORT=$((BASE + EXAM_PEER_OFFSET)))
  env "${credential[@]}" "${ports[@]}" HOST=127.0.0.1 MONGODB_URI="$mongo" KAFKA_BROKERS="$kafka" \
    NODE_ENV=development OUTBOX_PUBLISHER=kafka AUTH_JWT_SECRET="$jwt" WORKER_API_TOKEN="$worker" \
    METRICS_TOKEN="$metrics" DOCUMENT_SERVICE_URL="$(url_at 8)" EXAM_SERVICE_URL="$(url_at "$EXAM_PEER_OFFSET")" \
    QUESTION_BANK_URL="$(url_at 5)" DOCX_IMPORT_PAYLOAD_DIR="$RUN/docx-spool" \
    nohup node --import tsx services/cli.ts "$cmd" </dev/null >>"$RUN/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
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
  local jwt internal worker metrics entry name rest cmd offset failed=0
  jwt=$(secret AUTH_JWT_SECRET) internal=$(secret INTERNAL_API_TOKEN)
  worker=$(secret WORKER_API_TOKEN) metrics=$(secret METRICS_TOKEN)
  # Every process starts at once (they race for the same databases on a fresh data file: the
  # services must not mind); then each is waited for.
  for entry in "${SERVICES[@]}"; do
    name=${entry%%:*} rest=${entry#*:}
    cmd=${rest%%:*} offset=${rest#*:}
    if ours "$name" >/dev/null; then log "$name already running"; else start_one "$name" "$cmd" "$offset"; fi
  done
  for entry in "${SERVICES[@]}"; do
    name=${entry%%:*} rest=${entry#*:}
    cmd=${rest%%:*} offset=${rest#*:}
    wait_ready "$(url_at "$offset")" "$name" || { failed=1; continue; }
    [[ $cmd != peers ]] || wait_ready "$(url_at "$EXAM_PEER_OFFSET")" "$name" || { failed=1; continue; }
    if [[ $cmd == docx-worker ]]; then
      printf '%-16s %s   (probes: /healthz, /readyz; log: %s)\n' "$name" "$(url_at "$offset")" "$RUN/$name.log"
    else
      printf '%-16s %s   (openapi: /v1/openapi.json, log: %s)\n' "$name" "$(url_at "$offset")" "$RUN/$name.log"
    fi
    [[ $cmd != peers ]] || printf '%-16s %s   (the exam peer, same process)\n' "exam-peer" "$(url_at "$EXAM_PEER_OFFSET")"
  done
  printf '%-16s %s\n' "mongodb" "$mongo" "kafka" "$kafka"
  printf '%-16s %s\n' "secrets" "$SECRETS (every /v1 call needs X-Internal-Token: \$INTERNAL_API_TOKEN)"
  return "$failed"
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
  local entry name offset pid
  for entry in "${SERVICES[@]}"; do
    name=${entry%%:*} offset=${entry##*:}
    if pid=$(ours "$name"); then echo "$name running pid=$pid $(url_at "$offset")"; else echo "$name stopped"; fi
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: scripts/dev.sh up|down|status" >&2; exit 2 ;;
esac
