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
# shellcheck source=scripts/lib/registry.sh
source "$REPO_ROOT/scripts/lib/registry.sh"
# Every process, in start order, from services/registry.ts with the ports moved to BASE, one a line:
# `name command credential openapi|probes listener=port,... VAR=port...`. `peers` is the local
# stand-in for the document and exam services outside the platform (two listeners, one process);
# the DOCX parser workers serve only their probes (/healthz, /readyz).
PROCESSES_TEXT=$(registry_print dev --base "$BASE")
mapfile -t PROCESSES <<<"$PROCESSES_TEXT"
readonly PROCESSES
# The URLs of the processes that others call (DOCUMENT_SERVICE_URL=...), from the same registry.
DEV_ENV_TEXT=$(registry_print dev-env --base "$BASE")
mapfile -t DEV_ENV <<<"$DEV_ENV_TEXT"
readonly DEV_ENV

url() { printf 'http://127.0.0.1:%s' "$1"; }

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

# The registry line of a process name.
process_line() {
  local line
  for line in "${PROCESSES[@]}"; do
    [[ ${line%% *} == "$1" ]] && {
      echo "$line"
      return 0
    }
  done
  return 1
}

command_of() {
  local words
  read -r -a words <<<"$(process_line "$1")"
  echo "${words[1]}"
}

# `listener port` lines of a registry line, the process's own first.
listeners_of() {
  local words pair
  read -r -a words <<<"$1"
  for pair in ${words[4]//,/ }; do echo "${pair%=*} ${pair#*=}"; done
}

# Waits until $url/readyz answers 200, the process exits (its last log lines are shown) or
# READY_TIMEOUT passes.
wait_ready() {
  local url=$1 name=$2 deadline=$((SECONDS + READY_TIMEOUT))
  until curl -fsS "$url/readyz" >/dev/null 2>&1; do
    ours "$name" >/dev/null || {
      log "$name exited; last log lines:"
      tail -n 20 "$RUN/$name.log" >&2
      return 1
    }
    ((SECONDS < deadline)) || {
      log "$name did not become ready in ${READY_TIMEOUT}s; see $RUN/$name.log"
      return 1
    }
    sleep 0.2
  done
}

# Starts one process (its registry line) in the background. A simple command in the background is
# exec'd, so $! is node's own pid (what `ours` checks). The outbox relay is on under make dev
# (DESIGN.md): services with an outbox publish as they write. Loopback only: nothing on the network
# reaches a development machine's services. The DOCX workers, which open untrusted files, get the
# worker token and not the internal one.
start_one() {
  local words credential=()
  read -r -a words <<<"$1"
  local name=${words[0]} cmd=${words[1]}
  [[ ${words[2]} == internal ]] && credential=(INTERNAL_API_TOKEN="$internal")
  env "${credential[@]}" "${words[@]:5}" HOST=127.0.0.1 MONGODB_URI="$mongo" KAFKA_BROKERS="$kafka" \
    NODE_ENV=development OUTBOX_PUBLISHER=kafka AUTH_JWT_SECRET="$jwt" WORKER_API_TOKEN="$worker" \
    METRICS_TOKEN="$metrics" "${DEV_ENV[@]}" DOCX_IMPORT_PAYLOAD_DIR="$RUN/docx-spool" \
    nohup node --import tsx services/cli.ts "$cmd" </dev/null >>"$RUN/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
}

# Waits for every listener of one process (its registry line) and prints their URLs.
await_one() {
  local words listener port
  read -r -a words <<<"$1"
  local name=${words[0]} docs=${words[3]}
  while read -r listener port; do
    wait_ready "$(url "$port")" "$name" || return 1
  done < <(listeners_of "$1")
  while read -r listener port; do
    if [[ $listener != "$name" ]]; then
      printf '%-16s %s   (same process as %s)\n' "$listener" "$(url "$port")" "$name"
    elif [[ $docs == probes ]]; then
      printf '%-16s %s   (probes: /healthz, /readyz; log: %s)\n' "$name" "$(url "$port")" "$RUN/$name.log"
    else
      printf '%-16s %s   (openapi: /v1/openapi.json, log: %s)\n' "$name" "$(url "$port")" "$RUN/$name.log"
    fi
  done < <(listeners_of "$1")
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
  local jwt internal worker metrics line failed=0
  jwt=$(secret AUTH_JWT_SECRET) internal=$(secret INTERNAL_API_TOKEN)
  worker=$(secret WORKER_API_TOKEN) metrics=$(secret METRICS_TOKEN)
  # Every process starts at once (they race for the same databases on a fresh data file: the
  # services must not mind); then each is waited for.
  for line in "${PROCESSES[@]}"; do
    if ours "${line%% *}" >/dev/null; then log "${line%% *} already running"; else start_one "$line"; fi
  done
  for line in "${PROCESSES[@]}"; do
    await_one "$line" || failed=1
  done
  printf '%-16s %s\n' "mongodb" "$mongo" "kafka" "$kafka"
  printf '%-16s %s\n' "secrets" "$SECRETS (every /v1 call needs X-Internal-Token: \$INTERNAL_API_TOKEN)"
  return "$failed"
}

down() {
  local i name pid
  # Reverse start order: workers and the import API stop before what they call.
  for ((i = ${#PROCESSES[@]} - 1; i >= 0; i--)); do
    name=${PROCESSES[i]%% *}
    if pid=$(ours "$name"); then
      kill -TERM "$pid"
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
      log "$name stopped"
    fi
    rm -f "$RUN/$name.pid"
  done
}

status() {
  local line name listener port pid
  for line in "${PROCESSES[@]}"; do
    name=${line%% *}
    read -r listener port < <(listeners_of "$line")
    if pid=$(ours "$name"); then echo "$name running pid=$pid $(url "$port")"; else echo "$name stopped"; fi
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *)
    echo "usage: scripts/dev.sh up|down|status" >&2
    exit 2
    ;;
esac
