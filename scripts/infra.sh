#!/usr/bin/env bash
# Real local servers for tests and `make dev`, without Docker: a single-node Apache Kafka (KRaft)
# and a MongoDB wire-protocol server, provisioned from Maven Central into a cache outside the clone.
#
#   scripts/infra.sh up     [--profile dev|test] [--lease PID]   start (or reuse) and print the env lines
#   scripts/infra.sh down   [--profile dev|test] [--lease PID] [--force]
#                                                  give the lease back; stop when none is left
#   scripts/infra.sh status [--profile dev|test]   one line per server; exit 1 unless all are up
#   scripts/infra.sh env    [--profile dev|test]   print the env lines of a running profile
#   scripts/infra.sh kafka-stop|kafka-start --profile secure   stop / start again only the secure
#                                                  profile's Kafka (same ports and data: outage tests)
#
# --profile secure (scripts/infra-secure.sh): its own Kafka with SASL_SSL listeners (SCRAM-SHA-256/512,
# PLAIN), a CA and certificates from scripts/tls.sh, and a TLS proxy (tools/tls-proxy) in front of its
# own in-memory MongoDB stand-in; its `up` and `env` print the KAFKA_SSL*/KAFKA_SASL*/MONGODB_TLS*
# lines described there instead of the three below.
#
# stdout of `up` and `env` is exactly three lines (everything else goes to stderr):
#   MONGODB_URI=mongodb://127.0.0.1:<port>/
#   KAFKA_BROKERS=127.0.0.1:<port>
#   MONGODB_TRANSACTIONS=false|true
# The same lines are kept in $EDU_CACHE_DIR/run/<profile>/infra.env (a dotenv file: do not
# `source` or `eval` it, a replica-set URI contains '&').
#
# MongoDB: MONGODB_URI from the environment is passed through (nothing started); else a `mongod`
# on PATH is started as the single-node replica set rs0; else mongo-java-server (no transactions).
# Leases (scripts/leases.sh): every user of a profile holds one (a test run: --lease <its pid>;
# `up` by hand: the manual lease), and `down` stops the servers only when the last one is given
# back, so two test runs on one machine (two clones share the cache) never stop each other's.
# See tools/README.md for the cache layout, ports and environment variables.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
readonly SCRIPT_DIR REPO_ROOT
# KAFKA_VERSION (as tools/kafka/pom.xml) and MJS_VERSION (as tools/mongo-java-server/pom.xml).
# shellcheck source=scripts/lib/versions.sh
source "$REPO_ROOT/scripts/lib/versions.sh"
readonly TOOLS_DIR="$REPO_ROOT/tools"
readonly CACHE_DIR="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}"
readonly KAFKA_HOME="$CACHE_DIR/kafka-$KAFKA_VERSION"
readonly MJS_HOME="$CACHE_DIR/mongo-java-server-$MJS_VERSION"

# Seconds to wait for readiness after a start, for a reused server's health check, and for a
# server to exit after SIGTERM before it gets SIGKILL.
readonly READY_TIMEOUT="${EDU_INFRA_READY_TIMEOUT:-90}"
readonly REUSE_TIMEOUT=5
readonly STOP_TIMEOUT="${EDU_INFRA_STOP_TIMEOUT:-30}"

# Fast JVM start matters more than peak throughput here: C1 only and the serial collector
# halve Kafka's time to ready on 2 cores (measured: ~2.5 s vs ~4.2 s with G1 + C2).
readonly JVM_COMMON_OPTS=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError
  -Djava.awt.headless=true)

log() { printf 'infra: %s\n' "$*" >&2; }
# shellcheck source=scripts/leases.sh
source "$SCRIPT_DIR/leases.sh"
# shellcheck source=scripts/infra-secure.sh
source "$SCRIPT_DIR/infra-secure.sh"
die() {
  log "error: $*"
  exit 1
}

usage() {
  cat >&2 <<'EOF'
usage: scripts/infra.sh up|down|status|env [--profile dev|test|secure] [--lease PID] [--force]
       scripts/infra.sh kafka-stop|kafka-start --profile secure
  up      start (or reuse) MongoDB and Kafka for the profile; print MONGODB_URI, KAFKA_BROKERS,
          MONGODB_TRANSACTIONS on stdout; take a lease (PID's, or the manual one)
  down    give the lease back (PID's, or the manual one); stop the servers this script started
          when no live lease is left (--force: stop them anyway)
  status  one line per server; exit status 1 unless all are running
  env     print the env lines of the running profile; exit status 1 if it is not up
  kafka-stop, kafka-start (secure profile only)
          stop / start again only its Kafka, same ports and data (for Kafka outage tests)
See tools/README.md.
EOF
}

# ---------------------------------------------------------------------------------------------
# Profile: ports, run directory, process marker
# ---------------------------------------------------------------------------------------------

PROFILE=dev
LEASE_ARG=""
FORCE=0

set_profile() {
  case "$PROFILE" in
    dev)
      MONGO_PORT="${EDU_MONGO_PORT:-27027}"
      KAFKA_PORT="${EDU_KAFKA_PORT:-19092}"
      KAFKA_CONTROLLER_PORT="${EDU_KAFKA_CONTROLLER_PORT:-19093}"
      ;;
    test)
      MONGO_PORT="${EDU_MONGO_PORT:-27037}"
      KAFKA_PORT="${EDU_KAFKA_PORT:-19192}"
      KAFKA_CONTROLLER_PORT="${EDU_KAFKA_CONTROLLER_PORT:-19193}"
      ;;
    secure) secure_set_ports ;;
    *) die "unknown profile '$PROFILE' (expected dev, test or secure)" ;;
  esac
  RUN_DIR="$CACHE_DIR/run/$PROFILE"
  ENV_FILE="$RUN_DIR/infra.env"
  LEASES="$RUN_DIR/leases"
}

# The marker that proves a pid is a server this script started for this profile: a pidfile alone
# could point at an unrelated process that reused the pid after a reboot or crash.
marker_for() { # name
  if [[ "$1" == mongo && "$(cat "$RUN_DIR/mongo.kind" 2>/dev/null)" == mongod ]]; then
    printf '%s' "--dbpath $RUN_DIR/mongod-data"
  elif [[ "$1" == tlsproxy ]]; then
    printf '%s' "--edu-infra=$PROFILE:tlsproxy"
  else
    printf '%s' "-Dedu.infra=$PROFILE -Dedu.infra.server=$1"
  fi
}

# ---------------------------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------------------------

# True if the pid exists and is not a zombie (a server that died while this shell is its
# parent stays a zombie until reaped, and `kill -0` would still succeed).
pid_alive() {
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat:0:1}" != Z ]]
}

# Print the pid of this profile's server NAME if its pidfile points at a live process whose
# command line carries our marker; fail otherwise.
owned_pid() { # name
  local pid cmdline
  pid="$(cat "$RUN_DIR/$1.pid" 2>/dev/null)" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] && pid_alive "$pid" || return 1
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ " $cmdline" == *" $(marker_for "$1") "* ]] || return 1
  printf '%s\n' "$pid"
}

rss_mb() { # pid
  awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || printf '?'
}

# Fail with a clear message if something is listening on PORT (on any address). Called only
# for servers we are about to start, after our own ones were found not running.
require_free_port() { # port what
  local port="$1" what="$2" listeners=""
  if command -v ss >/dev/null 2>&1; then
    listeners="$(ss -Hltnp "sport = :$port" 2>/dev/null || true)"
  elif (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    listeners="(something accepts connections on 127.0.0.1:$port)"
  fi
  if [[ -n "$listeners" ]]; then
    local owner
    owner="$(grep -o 'users:(([^)]*))' <<<"$listeners" | head -n1 || true)"
    die "port $port ($what) is already in use by a process this script did not start${owner:+: $owner}." \
      "It is left alone; stop it, or choose other ports with EDU_MONGO_PORT / EDU_KAFKA_PORT / EDU_KAFKA_CONTROLLER_PORT."
  fi
}

# Start a server detached from this shell: its own session (no SIGHUP/SIGINT from the terminal
# that ran `up`), stdin from /dev/null and output to its log, and none of our file descriptors
# (a `$(scripts/infra.sh up)` would otherwise wait forever on the inherited stdout pipe, and the
# profile lock on fd 9 would stay held by the server). The previous log is kept as NAME.log.1.
launch() { # name logfile command...
  local name="$1" logfile="$2"
  shift 2
  [[ -f "$logfile" ]] && mv -f "$logfile" "$logfile.1"
  setsid "$@" </dev/null >"$logfile" 2>&1 9>&- &
  printf '%s\n' "$!" >"$RUN_DIR/$name.pid"
}

# SIGTERM the given servers of this profile (only those owned_pid confirms), wait up to
# STOP_TIMEOUT seconds, then SIGKILL what is left. Removes their pidfiles.
stop_servers() { # names...
  local name pid pids=() names=()
  for name in "$@"; do
    if pid="$(owned_pid "$name")"; then
      log "stopping $name (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
      names+=("$name")
    fi
  done
  local deadline=$((SECONDS + STOP_TIMEOUT)) i any
  while :; do
    any=0
    for pid in "${pids[@]}"; do pid_alive "$pid" && any=1; done
    ((any == 0 || SECONDS >= deadline)) && break
    sleep 0.1
  done
  for i in "${!pids[@]}"; do
    if pid_alive "${pids[i]}"; then
      log "${names[i]} (pid ${pids[i]}) did not exit within ${STOP_TIMEOUT}s after SIGTERM; sending SIGKILL"
      kill -KILL "${pids[i]}" 2>/dev/null || true
    fi
  done
  # SIGKILL is asynchronous: wait (briefly) until the ports are really released.
  deadline=$((SECONDS + 5))
  for pid in "${pids[@]}"; do
    while pid_alive "$pid" && ((SECONDS < deadline)); do sleep 0.05; done
  done
  for name in "$@"; do rm -f "$RUN_DIR/$name.pid" "$RUN_DIR/$name.port"; done
}

# ---------------------------------------------------------------------------------------------
# Provisioning (cache entries)
# ---------------------------------------------------------------------------------------------

# A cache entry is a version-stamped folder holding a `.complete` file whose content is the
# sha256 of the inputs that built it (the pom, the launcher source). Entries are built in a temp
# folder next to it and renamed into place only when complete, so a killed build never leaves a
# folder that looks complete; a changed pom rebuilds the entry.
inputs_stamp() { # files...
  cat "$@" | sha256sum | cut -d' ' -f1
}

entry_ok() { # dir stamp
  [[ -f "$1/.complete" && "$(cat "$1/.complete")" == "$2" ]]
}

# Serialise provisioning across profiles and concurrent runs (fd 8, released by the caller
# through end_provisioning). Temp folders left by killed builds are removed here: while we hold
# the lock, nobody else is building.
begin_provisioning() {
  mkdir -p "$CACHE_DIR"
  exec 8>"$CACHE_DIR/.provision.lock"
  flock -w 900 8 || die "timed out waiting for another provisioning run ($CACHE_DIR/.provision.lock)"
  rm -rf "$CACHE_DIR"/.tmp.* "$CACHE_DIR"/.old.*
}

end_provisioning() { exec 8>&-; }

new_tmp_entry() { # name
  local tmp
  tmp="$(mktemp -d "$CACHE_DIR/.tmp.$1.XXXXXX")"
  # mktemp makes it 0700; give the entry the usual permissions (umask), like any other folder.
  chmod "$(printf '%o' $((0777 & ~$(umask))))" "$tmp"
  printf '%s\n' "$tmp"
}

# Atomically put a finished temp folder in place of DEST (rename(2) of a folder onto a free name).
commit_entry() { # tmp dest
  local tmp="$1" dest="$2" old=""
  if [[ -e "$dest" ]]; then
    old="$(mktemp -u "$CACHE_DIR/.old.$(basename "$dest").XXXXXX")"
    mv -T "$dest" "$old"
  fi
  mv -T "$tmp" "$dest"
  [[ -z "$old" ]] || rm -rf "$old"
}

require_cmd() { # cmd hint
  command -v "$1" >/dev/null 2>&1 || die "$1 not found on PATH ($2)"
}

# Copy the runtime dependencies of POM (copied into the temp folder first, so Maven writes
# nothing into the clone) to TMP/libs. Maven's own repository (~/.m2) is used as usual.
maven_copy_deps() { # pom tmp
  local pom="$1" tmp="$2"
  require_cmd mvn "apt-get install maven"
  cp "$pom" "$tmp/pom.xml"
  if ! mvn -B -f "$tmp/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$tmp/libs" >"$tmp/maven.log" 2>&1; then
    tail -n 30 "$tmp/maven.log" >&2
    die "maven failed for $pom (last 30 lines above; full log: $tmp/maven.log)"
  fi
}

ensure_kafka() {
  local pom="$TOOLS_DIR/kafka/pom.xml" stamp
  stamp="$(inputs_stamp "$pom")"
  entry_ok "$KAFKA_HOME" "$stamp" && return 0
  begin_provisioning
  if ! entry_ok "$KAFKA_HOME" "$stamp"; then
    log "provisioning kafka $KAFKA_VERSION jars (first run, ~1 min)..."
    local t0=$SECONDS tmp
    tmp="$(new_tmp_entry "kafka-$KAFKA_VERSION")"
    maven_copy_deps "$pom" "$tmp"
    [[ -f "$tmp/libs/kafka_2.13-$KAFKA_VERSION.jar" ]] ||
      die "kafka_2.13-$KAFKA_VERSION.jar missing after maven (tools/kafka/pom.xml out of step with KAFKA_VERSION?)"
    printf '%s\n' "$stamp" >"$tmp/.complete"
    commit_entry "$tmp" "$KAFKA_HOME"
    log "kafka $KAFKA_VERSION ready in $KAFKA_HOME ($((SECONDS - t0)) s)"
  fi
  end_provisioning
}

ensure_mongo_java_server() {
  local pom="$TOOLS_DIR/mongo-java-server/pom.xml" src="$TOOLS_DIR/mongo-java-server/MongoLauncher.java"
  local stamp
  stamp="$(inputs_stamp "$pom" "$src")"
  entry_ok "$MJS_HOME" "$stamp" && return 0
  begin_provisioning
  if ! entry_ok "$MJS_HOME" "$stamp"; then
    log "provisioning mongo-java-server $MJS_VERSION jars (first run, ~30 s)..."
    local t0=$SECONDS tmp
    tmp="$(new_tmp_entry "mongo-java-server-$MJS_VERSION")"
    maven_copy_deps "$pom" "$tmp"
    [[ -f "$tmp/libs/mongo-java-server-core-$MJS_VERSION.jar" ]] ||
      die "mongo-java-server-core-$MJS_VERSION.jar missing after maven (pom out of step with MJS_VERSION?)"
    # Compile the launcher once here rather than using `java File.java`, which recompiles on
    # every start (~1 s).
    require_cmd javac "a JDK 17 is needed, e.g. apt-get install openjdk-17-jdk-headless"
    cp "$src" "$tmp/"
    javac -nowarn -d "$tmp/classes" -cp "$tmp/libs/*" "$tmp/MongoLauncher.java" >&2 ||
      die "javac failed for $src"
    printf '%s\n' "$stamp" >"$tmp/.complete"
    commit_entry "$tmp" "$MJS_HOME"
    log "mongo-java-server $MJS_VERSION ready in $MJS_HOME ($((SECONDS - t0)) s)"
  fi
  end_provisioning
}

# ---------------------------------------------------------------------------------------------
# Readiness probes (node, with the drivers the project itself uses)
# ---------------------------------------------------------------------------------------------

require_node_modules() {
  require_cmd node "Node 20 is needed for the readiness probes"
  local m
  for m in mongodb kafkajs tsx; do
    [[ -d "$REPO_ROOT/node_modules/$m" ]] ||
      die "$REPO_ROOT/node_modules/$m is missing (the readiness probes use it): run npm ci first"
  done
}

# Usage: run_probe TIMEOUT_SECONDS VAR=VALUE...   (PROBE_MONGO_URI, PROBE_KAFKA_BROKERS, ...)
# Probes each server with scripts/lib/probe.ts (the project's own drivers: a real round trip, see
# there) until it answers or the timeout passes. Sets PROBE_MONGO / PROBE_KAFKA / PROBE_MTLS to the
# probe's line for each server: "ok [transactions=true|false]", "fail <reason>" or "" (not probed).
run_probe() {
  local timeout="$1" out line
  shift
  out="$(cd "$REPO_ROOT" && env "$@" PROBE_TIMEOUT_MS="$((timeout * 1000))" \
    node --import tsx scripts/lib/probe.ts 9>&-)" || die "readiness probe crashed (see above)"
  PROBE_MONGO="" PROBE_KAFKA="" PROBE_MTLS=""
  while IFS= read -r line; do
    case "$line" in
      mongo\ *) PROBE_MONGO="${line#mongo }" ;;
      kafka\ *) PROBE_KAFKA="${line#kafka }" ;;
      mtls\ *) PROBE_MTLS="${line#mtls }" ;;
    esac
  done <<<"$out"
}

# ---------------------------------------------------------------------------------------------
# Starting the servers
# ---------------------------------------------------------------------------------------------

# Kafka: render the config, format the data dir once (the test profile starts empty every time
# it starts a process; the secure profile on every `up`, not on `kafka-start`), then run broker +
# controller in one JVM. The secure profile sets KAFKA_TEMPLATE, its placeholders and
# KAFKA_FORMAT_ARGS (infra-secure.sh).
KAFKA_TEMPLATE=server.properties.template
KAFKA_FORMAT_ARGS=()
start_kafka() { # [keep-data]
  local kdir="$RUN_DIR/kafka"
  local data="$kdir/data" props="$kdir/server.properties" line
  mkdir -p "$kdir"
  [[ "$PROFILE" == test || ("$PROFILE" == secure && "${1:-}" != keep-data) ]] && rm -rf "$data"

  # Bash substitution rather than sed: paths may contain any character. Mode 600: the secure
  # profile's file holds a password.
  (umask 077 && : >"$props.tmp")
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line//@KAFKA_PORT@/$KAFKA_PORT}"
    line="${line//@CONTROLLER_PORT@/$KAFKA_CONTROLLER_PORT}"
    line="${line//@LOG_DIRS@/$data}"
    [[ "$PROFILE" == secure ]] && line="$(secure_render_line "$line")"
    printf '%s\n' "$line" >>"$props.tmp"
  done <"$TOOLS_DIR/kafka/$KAFKA_TEMPLATE"
  mv -f "$props.tmp" "$props"
  # A copy in the run dir: the server must not depend on the clone it was started from (CI
  # clones afresh), and it reads the file only at startup anyway.
  cp -f "$TOOLS_DIR/kafka/log4j.properties" "$kdir/log4j.properties"

  local log_opts=(-Dlog4j.configuration="file:$kdir/log4j.properties" -Dkafka.logs.dir="$kdir")
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  if [[ ! -f "$data/meta.properties" ]]; then
    local cluster_id
    cluster_id="$(new_cluster_id)"
    "$java" -Xmx256m "${JVM_COMMON_OPTS[@]}" "${log_opts[@]}" -cp "$KAFKA_HOME/libs/*" \
      kafka.tools.StorageTool format -t "$cluster_id" -c "$props" --ignore-formatted "${KAFKA_FORMAT_ARGS[@]}" \
      >"$kdir/format.log" 2>&1 9>&- || {
      cat "$kdir/format.log" >&2
      die "formatting the kafka data dir $data failed"
    }
  fi

  local extra=()
  read -r -a extra <<<"${EDU_KAFKA_JAVA_OPTS:-}"
  launch kafka "$RUN_DIR/kafka.log" "$java" -Dedu.infra="$PROFILE" -Dedu.infra.server=kafka \
    -Xms64m -Xmx512m "${JVM_COMMON_OPTS[@]}" "${log_opts[@]}" "${extra[@]}" \
    -cp "$KAFKA_HOME/libs/*" kafka.Kafka "$props"
  kafka_port_line >"$RUN_DIR/kafka.port"
}

# What kafka.port holds for the ports this run wants (compared to reuse a running broker).
kafka_port_line() {
  if [[ "$PROFILE" == secure ]]; then
    printf '%s %s %s %s\n' "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$KAFKA_SECURE_PORT" "$KAFKA_SECURE_NODE_PORT"
  else
    printf '%s %s\n' "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
  fi
}

# A KRaft cluster id: 16 random bytes, base64url without padding (22 chars). Kafka's own
# generator avoids a leading '-' because the CLI would read it as an option; so do we.
new_cluster_id() {
  local id
  while :; do
    id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
    [[ "$id" != -* ]] && break
  done
  printf '%s' "$id"
}

start_mongo_java_server() {
  local args=(127.0.0.1 "$MONGO_PORT")
  # dev keeps its data in an H2 file across restarts; test is in memory (empty on every start).
  [[ "$PROFILE" == dev ]] && args+=("$RUN_DIR/mongo-h2.mv.db")
  [[ "${EDU_MONGO_OPLOG:-0}" == 1 ]] && args+=(--oplog)
  local extra=()
  read -r -a extra <<<"${EDU_MONGO_JAVA_OPTS:-}"
  printf 'mongo-java-server\n' >"$RUN_DIR/mongo.kind"
  launch mongo "$RUN_DIR/mongo.log" "${JAVA_HOME:+$JAVA_HOME/bin/}java" \
    -Dedu.infra="$PROFILE" -Dedu.infra.server=mongo -Xms16m -Xmx512m "${JVM_COMMON_OPTS[@]}" \
    -Dorg.slf4j.simpleLogger.showDateTime=true \
    -Dorg.slf4j.simpleLogger.log.de.bwaldvogel.mongo.wire.MongoWireProtocolHandler=warn \
    "${extra[@]}" -cp "$MJS_HOME/libs/*:$MJS_HOME/classes" MongoLauncher "${args[@]}"
  printf '%s\n' "$MONGO_PORT" >"$RUN_DIR/mongo.port"
}

# A real mongod from PATH, as a single-node replica set so that transactions work.
start_mongod() {
  local data="$RUN_DIR/mongod-data"
  [[ "$PROFILE" == test ]] && rm -rf "$data"
  mkdir -p "$data"
  printf 'mongod\n' >"$RUN_DIR/mongo.kind"
  launch mongo "$RUN_DIR/mongo.log" mongod --dbpath "$data" --replSet rs0 \
    --bind_ip 127.0.0.1 --port "$MONGO_PORT" --wiredTigerCacheSizeGB 0.25 --oplogSize 128 \
    --setParameter diagnosticDataCollectionEnabled=false
  printf '%s\n' "$MONGO_PORT" >"$RUN_DIR/mongo.port"
}

mongo_uri_for_kind() { # kind port
  if [[ "$1" == mongod ]]; then
    printf 'mongodb://127.0.0.1:%s/?replicaSet=rs0&directConnection=true' "$2"
  else
    printf 'mongodb://127.0.0.1:%s/' "$2"
  fi
}

# Say why a server we started did not come up, with the tail of its log.
report_start_failure() { # name reason logfile
  log "error: $1 did not become ready: $2"
  if [[ -f "$3" ]]; then
    log "--- last 40 lines of $3 ---"
    tail -n 40 "$3" >&2
    log "--- end of $3 ---"
  fi
}

# ---------------------------------------------------------------------------------------------
# Subcommands
# ---------------------------------------------------------------------------------------------

lock_profile() {
  mkdir -p "$RUN_DIR"
  exec 9>"$RUN_DIR/.lock"
  flock -w 600 9 || die "timed out waiting for another '$0' on profile $PROFILE"
}

cmd_up() {
  lock_profile
  require_node_modules
  local lease
  lease="$(lease_name "$LEASE_ARG")" || exit 2
  # Servers already running with no lease at all were started by hand (or before leases
  # existed): they get the manual lease, so this run's `down` leaves them as they were.
  if [[ ! -d $LEASES ]] && owned_pid kafka >/dev/null; then lease_take "$LEASES" manual; fi

  # MongoDB flavour for this run. A running server of ours is reused whatever its flavour.
  local mongo_external="${MONGODB_URI:-}" mongo_pid="" kafka_pid=""
  local mongo_uri="" mongo_tx="" kind want_kind
  if command -v mongod >/dev/null 2>&1; then want_kind=mongod; else want_kind=mongo-java-server; fi

  # 1. Reuse what is running, healthy and on the requested ports.
  if [[ -z "$mongo_external" ]] && mongo_pid="$(owned_pid mongo)"; then
    [[ "$(cat "$RUN_DIR/mongo.port" 2>/dev/null)" == "$MONGO_PORT" ]] || {
      log "mongo (pid $mongo_pid) runs on another port than $MONGO_PORT; restarting it"
      stop_servers mongo
      mongo_pid=""
    }
  fi
  if kafka_pid="$(owned_pid kafka)"; then
    [[ "$(cat "$RUN_DIR/kafka.port" 2>/dev/null)" == "$KAFKA_PORT $KAFKA_CONTROLLER_PORT" ]] || {
      log "kafka (pid $kafka_pid) runs on other ports than $KAFKA_PORT/$KAFKA_CONTROLLER_PORT; restarting it"
      stop_servers kafka
      kafka_pid=""
    }
  fi
  local probe_args=()
  if [[ -n "$mongo_external" ]]; then
    probe_args+=(PROBE_MONGO_URI="$mongo_external")
  elif [[ -n "$mongo_pid" ]]; then
    kind="$(cat "$RUN_DIR/mongo.kind" 2>/dev/null || echo mongo-java-server)"
    probe_args+=(PROBE_MONGO_URI="$(mongo_uri_for_kind "$kind" "$MONGO_PORT")")
  fi
  [[ -n "$kafka_pid" ]] && probe_args+=(PROBE_KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT")
  if ((${#probe_args[@]})); then
    run_probe "$REUSE_TIMEOUT" "${probe_args[@]}"
    if [[ -n "$mongo_external" ]]; then
      [[ "$PROBE_MONGO" == ok* ]] ||
        die "MONGODB_URI=$mongo_external is set in the environment, so no MongoDB is started," \
          "but that server does not answer: ${PROBE_MONGO#fail } (unset MONGODB_URI to let this script start one)"
      mongo_uri="$mongo_external"
      # An explicit MONGODB_TRANSACTIONS wins; else what the server's isMaster reply says.
      mongo_tx="${MONGODB_TRANSACTIONS:-$([[ "$PROBE_MONGO" == *transactions=true* ]] && echo true || echo false)}"
    elif [[ -n "$mongo_pid" ]]; then
      if [[ "$PROBE_MONGO" == ok* ]]; then
        mongo_uri="$(mongo_uri_for_kind "$kind" "$MONGO_PORT")"
      else
        log "mongo (pid $mongo_pid) is running but unhealthy (${PROBE_MONGO#fail }); restarting it"
        stop_servers mongo
        mongo_pid=""
      fi
    fi
    if [[ -n "$kafka_pid" && "$PROBE_KAFKA" != ok* ]]; then
      log "kafka (pid $kafka_pid) is running but unhealthy (${PROBE_KAFKA#fail }); restarting it"
      stop_servers kafka
      kafka_pid=""
    fi
  fi

  # 2. Provision and start what is missing; both JVMs start in parallel. Ports are checked
  # first: failing after a minute of provisioning would be rude.
  local started=()
  probe_args=()
  [[ -z "$mongo_uri" ]] && require_free_port "$MONGO_PORT" "EDU_MONGO_PORT, mongo"
  if [[ -z "$kafka_pid" ]]; then
    require_free_port "$KAFKA_PORT" "EDU_KAFKA_PORT, kafka"
    require_free_port "$KAFKA_CONTROLLER_PORT" "EDU_KAFKA_CONTROLLER_PORT, kafka controller"
    ensure_kafka
  fi
  if [[ -z "$mongo_uri" ]]; then
    kind="$want_kind"
    [[ "$kind" == mongo-java-server ]] && ensure_mongo_java_server
    log "starting $kind on 127.0.0.1:$MONGO_PORT"
    if [[ "$kind" == mongod ]]; then
      start_mongod
      probe_args+=(PROBE_MONGO_RS_PORT="$MONGO_PORT")
    else
      start_mongo_java_server
    fi
    started+=(mongo)
    probe_args+=(PROBE_MONGO_URI="$(mongo_uri_for_kind "$kind" "$MONGO_PORT")"
    PROBE_MONGO_PID="$(cat "$RUN_DIR/mongo.pid")")
  fi
  if [[ -z "$kafka_pid" ]]; then
    log "starting kafka $KAFKA_VERSION on 127.0.0.1:$KAFKA_PORT (controller :$KAFKA_CONTROLLER_PORT)"
    start_kafka
    started+=(kafka)
    probe_args+=(PROBE_KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT" PROBE_KAFKA_PID="$(cat "$RUN_DIR/kafka.pid")")
  fi
  if ((${#started[@]})); then
    local t0=$SECONDS failed=0
    run_probe "$READY_TIMEOUT" "${probe_args[@]}"
    if [[ " ${started[*]} " == *" mongo "* && "$PROBE_MONGO" != ok* ]]; then
      report_start_failure mongo "${PROBE_MONGO#fail }" "$RUN_DIR/mongo.log"
      failed=1
    fi
    if [[ " ${started[*]} " == *" kafka "* && "$PROBE_KAFKA" != ok* ]]; then
      report_start_failure kafka "${PROBE_KAFKA#fail }" "$RUN_DIR/kafka.log"
      failed=1
    fi
    if ((failed)); then
      # Stop everything this run started, the healthy half too: a half-up profile only
      # confuses the next run. Logs stay in $RUN_DIR.
      stop_servers "${started[@]}"
      exit 1
    fi
    [[ -z "$mongo_uri" ]] && mongo_uri="$(mongo_uri_for_kind "$kind" "$MONGO_PORT")"
    log "ready: ${started[*]} ($((SECONDS - t0)) s after start)"
  fi
  if [[ -z "$mongo_tx" ]]; then
    if [[ "$(cat "$RUN_DIR/mongo.kind" 2>/dev/null)" == mongod ]]; then mongo_tx=true; else mongo_tx=false; fi
  fi

  # 3. Record and print.
  if [[ -n "$mongo_external" ]]; then
    printf '%s\n' "$mongo_external" >"$RUN_DIR/mongo.external"
  else
    rm -f "$RUN_DIR/mongo.external"
  fi
  {
    printf 'MONGODB_URI=%s\n' "$mongo_uri"
    printf 'KAFKA_BROKERS=127.0.0.1:%s\n' "$KAFKA_PORT"
    printf 'MONGODB_TRANSACTIONS=%s\n' "$mongo_tx"
  } >"$ENV_FILE.tmp"
  mv -f "$ENV_FILE.tmp" "$ENV_FILE"
  lease_take "$LEASES" "$lease"
  cat "$ENV_FILE"
}

# Gives the lease back; when none is left, stops the profile's servers and removes its state files.
# Usage: cmd_down SERVER... -- FILE...
cmd_down() {
  local servers=() files=()
  while (($#)) && [[ $1 != -- ]]; do servers+=("$1") && shift; done
  (($#)) && shift
  files=("$@")
  lock_profile
  local lease others
  if [[ -n $LEASE_ARG && $LEASE_ARG =~ ^[0-9]+$ ]]; then lease=$LEASE_ARG; else lease="$(lease_name "$LEASE_ARG")" || exit 2; fi
  lease_release "$LEASES" "$lease"
  others="$(lease_live "$LEASES" | tr '\n' ' ')"
  if [[ -n $others && $FORCE != 1 ]]; then
    log "profile $PROFILE stays up: still leased by ${others% } (--force stops it anyway)"
    return 0
  fi
  stop_servers "${servers[@]}"
  rm -f "$ENV_FILE" "${files[@]}"
  rm -rf "$LEASES"
}

cmd_status() {
  local pid port all_up=0 kind
  if [[ -f "$RUN_DIR/mongo.external" ]]; then
    printf 'mongo  external  uri=%s\n' "$(cat "$RUN_DIR/mongo.external")"
  elif pid="$(owned_pid mongo)"; then
    kind="$(cat "$RUN_DIR/mongo.kind" 2>/dev/null || echo '?')"
    [[ "$kind" == mongo-java-server ]] && kind="mongo-java-server $MJS_VERSION"
    printf 'mongo  running  pid=%s port=%s rss=%sMB (%s)\n' "$pid" "$(cat "$RUN_DIR/mongo.port")" \
      "$(rss_mb "$pid")" "$kind"
  else
    printf 'mongo  stopped  port=%s\n' "$MONGO_PORT"
    all_up=1
  fi
  if pid="$(owned_pid kafka)"; then
    read -r port _ <"$RUN_DIR/kafka.port"
    printf 'kafka  running  pid=%s port=%s rss=%sMB (kafka %s)\n' "$pid" "$port" "$(rss_mb "$pid")" \
      "$KAFKA_VERSION"
  else
    printf 'kafka  stopped  port=%s\n' "$KAFKA_PORT"
    all_up=1
  fi
  return "$all_up"
}

cmd_env() {
  local ok=1
  if [[ -f "$ENV_FILE" ]] && owned_pid kafka >/dev/null; then
    if [[ -f "$RUN_DIR/mongo.external" ]] || owned_pid mongo >/dev/null; then ok=0; fi
  fi
  if ((ok != 0)); then
    log "profile $PROFILE is not up (start it with: scripts/infra.sh up --profile $PROFILE)"
    return 1
  fi
  cat "$ENV_FILE"
}

main() {
  local cmd="${1:-}"
  [[ -n "$cmd" ]] || {
    usage
    exit 2
  }
  shift
  while (($#)); do
    case "$1" in
      --profile)
        [[ $# -ge 2 ]] || die "--profile needs a value (dev, test or secure)"
        PROFILE="$2"
        shift 2
        ;;
      --profile=*)
        PROFILE="${1#--profile=}"
        shift
        ;;
      --lease)
        [[ $# -ge 2 ]] || die "--lease needs a pid"
        LEASE_ARG="$2"
        shift 2
        ;;
      --force)
        FORCE=1
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *)
        usage
        die "unknown argument: $1"
        ;;
    esac
  done
  set_profile
  if [[ "$PROFILE" == secure ]]; then
    case "$cmd" in
      up | down | status | env | kafka-stop | kafka-start)
        "secure_${cmd//-/_}"
        return
        ;;
    esac
  fi
  case "$cmd" in
    up) cmd_up ;;
    down) cmd_down kafka mongo -- "$RUN_DIR/mongo.external" ;;
    status) cmd_status ;;
    env) cmd_env ;;
    kafka-stop | kafka-start) die "$cmd is for --profile secure only" ;;
    -h | --help | help) usage ;;
    *)
      usage
      die "unknown command: $cmd"
      ;;
  esac
}

main "$@"
