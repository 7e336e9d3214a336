#!/usr/bin/env bash
# Fuzzes every service's /v1/openapi.json with schemathesis (PyPI, pinned, installed into a venv in
# the cache): each service runs as its own process on a free port, against the test profile's
# servers (started here unless MONGODB_URI and KAFKA_BROKERS are set), with a database of its own.
# Fails on any server error, schema-valid request refused, schema-violating request accepted,
# response that breaks the document, or undeclared method not answered 405 with Allow.
#   scripts/schemathesis.sh [service...]      (default: every service with an OpenAPI document in
#                                              services/registry.ts, which also gives each one's env)
# Env: EDU_ST_MAX_EXAMPLES (100 per operation), EDU_ST_SEED (1), EDU_ST_DEADLINE (seconds per
#      service, 600), EDU_CACHE_DIR.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO_ROOT
# shellcheck source=scripts/lib/versions.sh
source "$REPO_ROOT/scripts/lib/versions.sh"
readonly ST_VERSION=$SCHEMATHESIS_VERSION
readonly CACHE="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}"
readonly VENV="$CACHE/schemathesis-$ST_VERSION"
readonly LOGS="$CACHE/run/test-logs/schemathesis"

# shellcheck source=scripts/lib/registry.sh
source "$REPO_ROOT/scripts/lib/registry.sh"

log() { printf 'schemathesis: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# The venv is made in place under a lock (a venv cannot be moved: its scripts name their own
# path); `.complete` is written last, so a killed install is redone, never half-used.
ensure_schemathesis() {
  [[ -f $VENV/.complete ]] && return 0
  command -v python3 >/dev/null || die "python3 not found (3.9 or newer is needed)"
  mkdir -p "$CACHE"
  exec 7>"$CACHE/.schemathesis.lock"
  flock -w 600 7 || die "timed out waiting for another install ($CACHE/.schemathesis.lock)"
  if [[ ! -f $VENV/.complete ]]; then
    log "installing schemathesis $ST_VERSION into $VENV (first run, ~1 min)"
    rm -rf "$VENV"
    python3 -m venv "$VENV" || die "python3 -m venv failed (apt-get install python3-venv)"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$ST_VERSION" >&2 ||
      die "pip install schemathesis==$ST_VERSION failed"
    touch "$VENV/.complete"
  fi
  exec 7>&-
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The service's process group (setsid) is ours alone: stopping it cannot touch anything else.
SERVICE_PID=""
DB_NAME=""
stop_service() {
  [[ -n $SERVICE_PID ]] || return 0
  kill -TERM -- "-$SERVICE_PID" 2>/dev/null || true
  local i
  for ((i = 0; i < 100; i++)); do
    kill -0 -- "-$SERVICE_PID" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$SERVICE_PID" 2>/dev/null || true
  SERVICE_PID=""
  drop_database
}

drop_database() {
  [[ -n $DB_NAME ]] || return 0
  (cd "$REPO_ROOT" && node -e '
    const { MongoClient } = require("mongodb");
    const c = new MongoClient(process.argv[1], { serverSelectionTimeoutMS: 3000 });
    c.connect().then(() => c.db(process.argv[2]).dropDatabase()).catch(() => {}).finally(() => c.close());
  ' "$MONGODB_URI" "$DB_NAME") || true
  DB_NAME=""
}
trap stop_service EXIT

# Sets SERVICE_URL (not printed: a command substitution would lose SERVICE_PID). A free port is
# only free until someone takes it: a service that dies with EADDRINUSE is started again on another.
SERVICE_URL=""
start_service() { # name env...
  local name=$1 attempt
  shift
  for ((attempt = 1; attempt <= 5; attempt++)); do
    try_start "$name" "$@" && return 0
    grep -q EADDRINUSE "$LOGS/$name.service.log" 2>/dev/null || break
    log "$name: port taken before it could listen; trying another"
  done
  tail -n 30 "$LOGS/$name.service.log" >&2
  die "$name did not become ready on $SERVICE_URL"
}

try_start() { # name env...
  local name=$1 port i
  shift
  port=$(free_port)
  DB_NAME="st_${name}_$$_$RANDOM"
  SERVICE_URL="http://127.0.0.1:$port"
  (cd "$REPO_ROOT" && exec env "$@" PORT="$port" MONGODB_URI="$MONGODB_URI" MONGODB_DB="$DB_NAME" \
    KAFKA_BROKERS="$KAFKA_BROKERS" NODE_ENV=test LOG_LEVEL=warn \
    setsid node --import tsx services/cli.ts "$name" </dev/null >"$LOGS/$name.service.log" 2>&1) &
  SERVICE_PID=$!
  for ((i = 0; i < 300; i++)); do
    curl -fsS "$SERVICE_URL/readyz" >/dev/null 2>&1 && return 0
    kill -0 "$SERVICE_PID" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

fuzz() { # name env...
  local name=$1 url rc=0 t0=$SECONDS
  start_service "$@"
  url=$SERVICE_URL
  log "$name on $url: fuzzing $url/v1/openapi.json"
  timeout --kill-after=10 "${EDU_ST_DEADLINE:-600}" "$VENV/bin/st" \
    --config-file "$REPO_ROOT/tools/schemathesis/schemathesis.toml" run "$url/v1/openapi.json" \
    --checks all --max-examples "${EDU_ST_MAX_EXAMPLES:-100}" --seed "${EDU_ST_SEED:-1}" \
    --generation-database none --request-timeout 10 --no-color \
    --report junit --report-junit-path "$LOGS/$name.junit.xml" || rc=$?
  ((rc != 124)) || log "$name: schemathesis passed its deadline of ${EDU_ST_DEADLINE:-600} s"
  stop_service
  log "$name: exit $rc after $((SECONDS - t0)) s"
  return "$rc"
}

main() {
  if [[ -z ${MONGODB_URI:-} || -z ${KAFKA_BROKERS:-} ]]; then
    exec "$REPO_ROOT/scripts/with-servers.sh" -- "$0" "$@"
  fi
  ensure_schemathesis
  mkdir -p "$LOGS"
  # A service and the environment its fuzzed process gets beyond PORT, MONGODB_URI, MONGODB_DB and
  # KAFKA_BROKERS; {run} is this run's id (topics and consumer groups of its own).
  local services entry words name failed=0 wanted=" $* "
  services=$(registry_print fuzz) || die "services/registry.ts --print fuzz failed"
  while read -r entry; do
    read -r -a words <<<"${entry//\{run\}/$$}"
    name=${words[0]}
    [[ $# -eq 0 || $wanted == *" $name "* ]] || continue
    fuzz "$name" "${words[@]:1}" </dev/null || failed=1
  done <<<"$services"
  return "$failed"
}

main "$@"
