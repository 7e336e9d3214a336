#!/usr/bin/env bash
# Fuzzes every service's /v1/openapi.json with schemathesis (PyPI, pinned, installed into a venv in
# the cache): each service runs as its own process on a free port, against the test profile's
# servers (started here unless MONGODB_URI and KAFKA_BROKERS are set), with a database of its own;
# the commands it calls (its `fuzzWith` in services/registry.ts: document-import's peers) run beside
# it as their own processes on free ports, with databases named after its.
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

# Every process of the service being fuzzed (the service and the peers it calls) is a process group
# of its own (setsid): stopping them cannot touch anything else. Stopped in reverse start order.
PIDS=()
DB_NAME=""
stop_service() {
  local i
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do stop_group "${PIDS[i]}"; done
  PIDS=()
  drop_databases
}

stop_group() { # pid
  kill -TERM -- "-$1" 2>/dev/null || true
  local i
  for ((i = 0; i < 100; i++)); do
    kill -0 -- "-$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$1" 2>/dev/null || true
}

# DB_NAME and the peers' databases named after it (DB_NAME_<command>_...).
drop_databases() {
  [[ -n $DB_NAME ]] || return 0
  (cd "$REPO_ROOT" && node -e '
    const { MongoClient } = require("mongodb");
    const [uri, name] = process.argv.slice(1);
    const c = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 });
    c.connect()
      .then(() => c.db().admin().listDatabases({ nameOnly: true }))
      .then(({ databases }) => databases.map((d) => d.name).filter((n) => n === name || n.startsWith(name + "_")))
      .then((names) => Promise.all(names.map((n) => c.db(n).dropDatabase())))
      .catch(() => {})
      .finally(() => c.close());
  ' "$MONGODB_URI" "$DB_NAME") || true
  DB_NAME=""
}
trap stop_service EXIT

# launch LOG "PORT..." CLI-NAME ENV...: `cli.ts CLI-NAME` in the background, its own process group,
# against the test servers; succeeds once every port answers /readyz, fails if it exits first or
# is not ready in a minute (then it is stopped).
launch() {
  local log=$1 ports=$2 cli=$3 pid port i
  shift 3
  (cd "$REPO_ROOT" && exec env "$@" MONGODB_URI="$MONGODB_URI" KAFKA_BROKERS="$KAFKA_BROKERS" \
    NODE_ENV=test LOG_LEVEL=warn setsid node --import tsx services/cli.ts "$cli" </dev/null >"$log" 2>&1) &
  pid=$!
  for port in $ports; do
    for ((i = 0; i < 300; i++)); do
      curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && continue 2
      kill -0 "$pid" 2>/dev/null || return 1
      sleep 0.2
    done
    stop_group "$pid"
    return 1
  done
  PIDS+=("$pid")
}

# A free port is only free until someone takes it: a process that dies with EADDRINUSE is started
# again on other ports. retry_start LOG WHAT FUNCTION ARGS...: FUNCTION picks its ports each try.
retry_start() {
  local log=$1 what=$2 attempt
  shift 2
  for ((attempt = 1; attempt <= 5; attempt++)); do
    "$@" && return 0
    grep -q EADDRINUSE "$log" 2>/dev/null || break
    log "$what: port taken before it could listen; trying another"
  done
  tail -n 30 "$log" >&2
  die "$what did not become ready"
}

# Sets SERVICE_URL (not printed: a command substitution would lose PIDS).
SERVICE_URL=""
try_service() { # name env...
  local name=$1 port
  shift
  port=$(free_port)
  SERVICE_URL="http://127.0.0.1:$port"
  launch "$LOGS/$name.service.log" "$port" "$name" "$@" PORT="$port" MONGODB_DB="$DB_NAME"
}

# The peers a service calls (services/registry.ts --print fuzz-with), each its own process with its
# databases named after the service's; PEER_ENV gets the URL variables that point the service at them.
PEER_ENV=()
start_peers() { # name
  local line words
  PEER_ENV=()
  while read -r line; do
    read -r -a words <<<"$line"
    [[ ${words[0]:-} == "$1" ]] || continue
    retry_start "$LOGS/$1.${words[1]}.log" "$1: ${words[1]}" try_peer "$1" "${words[@]:1}"
  done <<<"$FUZZ_WITH"
}

try_peer() { # service command PORT_VAR=URL_VAR...
  local service=$1 cli=$2 pair port ports="" env=() urls=()
  shift 2
  for pair in "$@"; do
    port=$(free_port)
    ports+=" $port"
    env+=("${pair%%=*}=$port")
    urls+=("${pair#*=}=http://127.0.0.1:$port")
  done
  launch "$LOGS/$service.$cli.log" "$ports" "$cli" "${env[@]}" MONGODB_DB="${DB_NAME}_$cli" || return 1
  PEER_ENV+=("${urls[@]}")
}

fuzz() { # name env...
  local name=$1 url rc=0 t0=$SECONDS
  DB_NAME="st_${name}_$$_$RANDOM"
  start_peers "$name"
  retry_start "$LOGS/$name.service.log" "$name" try_service "$@" "${PEER_ENV[@]}"
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
  FUZZ_WITH=$(registry_print fuzz-with) || die "services/registry.ts --print fuzz-with failed"
  while read -r entry; do
    read -r -a words <<<"${entry//\{run\}/$$}"
    name=${words[0]}
    [[ $# -eq 0 || $wanted == *" $name "* ]] || continue
    fuzz "$name" "${words[@]:1}" </dev/null || failed=1
  done <<<"$services"
  return "$failed"
}

main "$@"
