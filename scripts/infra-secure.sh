# The secure profile of scripts/infra.sh (sourced by it; uses its helpers): the stores as a cluster
# admin's production ones look to a client, so the TLS/SASL code paths run against real servers.
#
#   kafka     its own KRaft broker (same jars as the other profiles, data wiped on every `up`,
#             kept across kafka-stop/kafka-start) with two SASL_SSL listeners, SCRAM-SHA-256,
#             SCRAM-SHA-512 and PLAIN, server certificate from the local CA, client certificate
#             requested (accepted, not required):
#               CLIENT 127.0.0.1:19294 (EDU_KAFKA_SECURE_PORT)       for this machine
#               NODE   127.0.0.1:19295 (EDU_KAFKA_SECURE_NODE_PORT)  advertised as
#                      ${EDU_NODE_HOST_IP:-10.244.0.1}:19295 for pods of the local node
#             plus PLAINTEXT on loopback for the broker itself (19292, EDU_KAFKA_SECURE_INTERNAL_PORT)
#             and its controller (19293, EDU_KAFKA_SECURE_CONTROLLER_PORT).
#             User `edu`; its password is made once (run/secure/kafka-sasl.password, mode 600);
#             SCRAM credentials are added at format time (kafka-storage format --add-scram).
#   mongo     an in-memory mongo-java-server on 127.0.0.1:27067 (EDU_SECURE_MONGO_PORT), plain,
#             reached only through:
#   tlsproxy  tools/tls-proxy on 127.0.0.1:27047 (EDU_MONGO_TLS_PORT; server certificate only) and
#             127.0.0.1:27057 (EDU_MONGO_MTLS_PORT; client certificate required, checked against the CA)
#   tls/      scripts/tls.sh: ca.pem, server.pem (SANs 127.0.0.1, EDU_NODE_HOST_IP, localhost),
#             client.pem/.key; remade when missing or expiring within 7 days (servers then restart)
#
# `up` and `env` print (and keep in run/secure/infra.env, mode 600):
#   KAFKA_BROKERS KAFKA_SSL KAFKA_SSL_CA_FILE KAFKA_SASL_MECHANISM KAFKA_SASL_USERNAME
#   KAFKA_SASL_PASSWORD KAFKA_NODE_BROKERS MONGODB_URI MONGODB_TLS MONGODB_TLS_CA_FILE
#   MONGODB_TRANSACTIONS SECURE_MONGODB_MTLS_URI SECURE_MONGODB_NODE_URI SECURE_MONGODB_MTLS_NODE_URI
#   SECURE_CLIENT_CERT_FILE SECURE_CLIENT_KEY_FILE SECURE_CA_FILE
# shellcheck shell=bash

# shellcheck source=scripts/tls.sh
source "$SCRIPT_DIR/tls.sh"

readonly SECURE_SASL_USER=edu
readonly SECURE_SERVERS=(kafka tlsproxy mongo)

secure_set_ports() {
  KAFKA_PORT="${EDU_KAFKA_SECURE_INTERNAL_PORT:-19292}"
  KAFKA_CONTROLLER_PORT="${EDU_KAFKA_SECURE_CONTROLLER_PORT:-19293}"
  KAFKA_SECURE_PORT="${EDU_KAFKA_SECURE_PORT:-19294}"
  KAFKA_SECURE_NODE_PORT="${EDU_KAFKA_SECURE_NODE_PORT:-19295}"
  MONGO_PORT="${EDU_SECURE_MONGO_PORT:-27067}"
  MONGO_TLS_PORT="${EDU_MONGO_TLS_PORT:-27047}"
  MONGO_MTLS_PORT="${EDU_MONGO_MTLS_PORT:-27057}"
  NODE_HOST_IP="${EDU_NODE_HOST_IP:-10.244.0.1}"
  SECURE_RUN_DIR="$CACHE_DIR/run/secure"
  TLS_DIR="$SECURE_RUN_DIR/tls"
  SASL_PASSWORD_FILE="$SECURE_RUN_DIR/kafka-sasl.password"
  # shellcheck disable=SC2034 # read by start_kafka in infra.sh
  KAFKA_TEMPLATE=server-secure.properties.template
}

secure_render_line() { # line
  local line="$1"
  line="${line//@INTERNAL_PORT@/$KAFKA_PORT}"
  line="${line//@CLIENT_PORT@/$KAFKA_SECURE_PORT}"
  line="${line//@NODE_PORT@/$KAFKA_SECURE_NODE_PORT}"
  line="${line//@NODE_HOST_IP@/$NODE_HOST_IP}"
  line="${line//@TLS_DIR@/$TLS_DIR}"
  line="${line//@SASL_USER@/$SECURE_SASL_USER}"
  line="${line//@SASL_PASSWORD@/$SASL_PASSWORD}"
  printf '%s' "$line"
}

# The SASL password (made once; hex, so it needs no quoting in JAAS or --add-scram) and the
# certificates. Sets SASL_PASSWORD, KAFKA_FORMAT_ARGS and TLS_CHANGED (1 if certificates were made).
secure_prepare() {
  mkdir -p "$SECURE_RUN_DIR"
  chmod 700 "$SECURE_RUN_DIR"
  if [[ ! -s $SASL_PASSWORD_FILE ]]; then
    (umask 077 && openssl rand -hex 24 >"$SASL_PASSWORD_FILE.tmp")
    mv -f "$SASL_PASSWORD_FILE.tmp" "$SASL_PASSWORD_FILE"
  fi
  SASL_PASSWORD="$(cat "$SASL_PASSWORD_FILE")"
  local cred="name=$SECURE_SASL_USER,password=$SASL_PASSWORD"
  # shellcheck disable=SC2034 # read by start_kafka in infra.sh; on the format JVM's command line
  # for the second it runs (StorageTool takes SCRAM credentials no other way).
  KAFKA_FORMAT_ARGS=(--add-scram "SCRAM-SHA-256=[$cred]" --add-scram "SCRAM-SHA-512=[$cred]")
  TLS_CHANGED=0
  [[ "$(tls_ensure "$TLS_DIR" "$NODE_HOST_IP")" == changed ]] && TLS_CHANGED=1
  return 0
}

secure_port_line() { # name
  case "$1" in
    kafka) kafka_port_line ;;
    mongo) printf '%s\n' "$MONGO_PORT" ;;
    tlsproxy) printf '%s %s %s\n' "$MONGO_TLS_PORT" "$MONGO_MTLS_PORT" "$MONGO_PORT" ;;
  esac
}

# The pid of a running server of ours on the wanted ports; a server on other ports is stopped.
secure_running() { # name
  local pid
  pid="$(owned_pid "$1")" || return 1
  if [[ "$(cat "$RUN_DIR/$1.port" 2>/dev/null)" != "$(secure_port_line "$1")" ]]; then
    log "$1 (pid $pid) runs on other ports than wanted; restarting it"
    stop_servers "$1"
    return 1
  fi
  printf '%s\n' "$pid"
}

secure_probe_args() { # servers...  (kafka, mongo: the proxy's two routes)
  local ca="$TLS_DIR/ca.pem"
  if [[ " $* " == *" kafka "* ]]; then
    printf '%s\n' "PROBE_KAFKA_BROKERS=127.0.0.1:$KAFKA_SECURE_PORT" "PROBE_KAFKA_CA=$ca" \
      PROBE_KAFKA_SASL_MECHANISM=scram-sha-512 "PROBE_KAFKA_SASL_USERNAME=$SECURE_SASL_USER" \
      "PROBE_KAFKA_SASL_PASSWORD_FILE=$SASL_PASSWORD_FILE" PROBE_KAFKA_GROUPS=1
    [[ -f $RUN_DIR/kafka.pid ]] && printf 'PROBE_KAFKA_PID=%s\n' "$(cat "$RUN_DIR/kafka.pid")"
  fi
  if [[ " $* " == *" mongo "* ]]; then
    printf '%s\n' "PROBE_MONGO_URI=mongodb://127.0.0.1:$MONGO_TLS_PORT/" "PROBE_MONGO_CA=$ca" \
      "PROBE_MTLS_URI=mongodb://127.0.0.1:$MONGO_MTLS_PORT/" "PROBE_MTLS_CA=$ca" \
      "PROBE_MTLS_CERT=$TLS_DIR/client.pem" "PROBE_MTLS_KEY=$TLS_DIR/client.key"
    [[ -f $RUN_DIR/mongo.pid ]] && printf 'PROBE_MONGO_PID=%s\n' "$(cat "$RUN_DIR/mongo.pid")"
  fi
  return 0
}

# Probe SERVERS (kafka and/or mongo) for up to TIMEOUT seconds; sets PROBE_KAFKA/PROBE_MONGO/PROBE_MTLS.
secure_probe() { # timeout servers...
  local timeout="$1" args=()
  shift
  mapfile -t args < <(secure_probe_args "$@")
  run_probe "$timeout" "${args[@]}"
}

start_tls_proxy() {
  # Copies in the run dir: the proxy must not depend on the clone that started it.
  cp -f "$TOOLS_DIR/tls-proxy/tls-proxy.mjs" "$RUN_DIR/tls-proxy.mjs"
  local target="127.0.0.1:$MONGO_PORT"
  node -e 'const [cert, key, ca, tlsListen, mtlsListen, target] = process.argv.slice(1);
    process.stdout.write(JSON.stringify({ cert, key, ca, routes: [
      { listen: tlsListen, target, clientCert: "none" },
      { listen: mtlsListen, target, clientCert: "require" } ] }, null, 2));' \
    "$TLS_DIR/server.pem" "$TLS_DIR/server.key" "$TLS_DIR/ca.pem" "127.0.0.1:$MONGO_TLS_PORT" \
    "127.0.0.1:$MONGO_MTLS_PORT" "$target" >"$RUN_DIR/tls-proxy.json"
  launch tlsproxy "$RUN_DIR/tlsproxy.log" node "$RUN_DIR/tls-proxy.mjs" "$RUN_DIR/tls-proxy.json" \
    "$(marker_for tlsproxy)"
  secure_port_line tlsproxy >"$RUN_DIR/tlsproxy.port"
}

secure_require_ports() { # servers...
  local s
  for s in "$@"; do
    case "$s" in
      kafka)
        require_free_port "$KAFKA_PORT" "EDU_KAFKA_SECURE_INTERNAL_PORT, secure kafka"
        require_free_port "$KAFKA_CONTROLLER_PORT" "EDU_KAFKA_SECURE_CONTROLLER_PORT, secure kafka controller"
        require_free_port "$KAFKA_SECURE_PORT" "EDU_KAFKA_SECURE_PORT, secure kafka SASL_SSL"
        require_free_port "$KAFKA_SECURE_NODE_PORT" "EDU_KAFKA_SECURE_NODE_PORT, secure kafka SASL_SSL for pods"
        ;;
      mongo) require_free_port "$MONGO_PORT" "EDU_SECURE_MONGO_PORT, secure mongo stand-in" ;;
      tlsproxy)
        require_free_port "$MONGO_TLS_PORT" "EDU_MONGO_TLS_PORT, mongo TLS proxy"
        require_free_port "$MONGO_MTLS_PORT" "EDU_MONGO_MTLS_PORT, mongo mTLS proxy"
        ;;
    esac
  done
}

# Start the named servers, wait for all of them (a real SASL_SSL metadata round trip, a TLS and an
# mTLS MongoDB round trip through the proxy); on failure stop what was started and exit 1.
secure_start() { # keep-data|fresh servers...
  local mode="$1" t0=$SECONDS failed=0 s
  shift
  secure_require_ports "$@"
  [[ " $* " == *" kafka "* ]] && ensure_kafka
  [[ " $* " == *" mongo "* ]] && ensure_mongo_java_server
  for s in "$@"; do
    case "$s" in
      mongo)
        log "starting mongo-java-server on 127.0.0.1:$MONGO_PORT (behind the TLS proxy)"
        start_mongo_java_server
        ;;
      tlsproxy)
        log "starting the TLS proxy on 127.0.0.1:$MONGO_TLS_PORT and :$MONGO_MTLS_PORT (client certificate required)"
        start_tls_proxy
        ;;
      kafka)
        log "starting kafka $KAFKA_VERSION, SASL_SSL on 127.0.0.1:$KAFKA_SECURE_PORT and :$KAFKA_SECURE_NODE_PORT (advertised $NODE_HOST_IP)"
        if [[ $mode == keep-data ]]; then start_kafka keep-data; else start_kafka; fi
        ;;
    esac
  done
  local probe=()
  [[ " $* " == *" kafka "* ]] && probe+=(kafka)
  [[ " $* " == *" mongo "* || " $* " == *" tlsproxy "* ]] && probe+=(mongo)
  secure_probe "$READY_TIMEOUT" "${probe[@]}"
  if [[ " ${probe[*]} " == *" kafka "* && "$PROBE_KAFKA" != ok* ]]; then
    report_start_failure kafka "${PROBE_KAFKA#fail }" "$RUN_DIR/kafka.log"
    failed=1
  fi
  if [[ " ${probe[*]} " == *" mongo "* && ("$PROBE_MONGO" != ok* || "$PROBE_MTLS" != ok*) ]]; then
    report_start_failure "mongo behind the TLS proxy" "tls: ${PROBE_MONGO#fail }; mtls: ${PROBE_MTLS#fail }" \
      "$RUN_DIR/tlsproxy.log"
    [[ -f $RUN_DIR/mongo.log ]] && tail -n 20 "$RUN_DIR/mongo.log" >&2
    failed=1
  fi
  if ((failed)); then
    stop_servers "$@"
    exit 1
  fi
  log "ready: $* ($((SECONDS - t0)) s after start)"
}

secure_write_env() {
  local ca="$TLS_DIR/ca.pem" node_mongo="mongodb://$NODE_HOST_IP"
  (umask 077 && {
    printf 'KAFKA_BROKERS=127.0.0.1:%s\n' "$KAFKA_SECURE_PORT"
    printf 'KAFKA_SSL=true\nKAFKA_SSL_CA_FILE=%s\n' "$ca"
    printf 'KAFKA_SASL_MECHANISM=scram-sha-512\nKAFKA_SASL_USERNAME=%s\n' "$SECURE_SASL_USER"
    printf 'KAFKA_SASL_PASSWORD=%s\n' "$SASL_PASSWORD"
    printf 'KAFKA_NODE_BROKERS=%s:%s\n' "$NODE_HOST_IP" "$KAFKA_SECURE_NODE_PORT"
    printf 'MONGODB_URI=mongodb://127.0.0.1:%s/?tls=true\n' "$MONGO_TLS_PORT"
    printf 'MONGODB_TLS=true\nMONGODB_TLS_CA_FILE=%s\nMONGODB_TRANSACTIONS=false\n' "$ca"
    printf 'SECURE_MONGODB_MTLS_URI=mongodb://127.0.0.1:%s/?tls=true\n' "$MONGO_MTLS_PORT"
    printf 'SECURE_MONGODB_NODE_URI=%s:%s/?tls=true\n' "$node_mongo" "$MONGO_TLS_PORT"
    printf 'SECURE_MONGODB_MTLS_NODE_URI=%s:%s/?tls=true\n' "$node_mongo" "$MONGO_MTLS_PORT"
    printf 'SECURE_CLIENT_CERT_FILE=%s\nSECURE_CLIENT_KEY_FILE=%s\n' "$TLS_DIR/client.pem" "$TLS_DIR/client.key"
    printf 'SECURE_CA_FILE=%s\n' "$ca"
  } >"$ENV_FILE.tmp")
  mv -f "$ENV_FILE.tmp" "$ENV_FILE"
}

secure_up() {
  lock_profile
  require_node_modules
  require_cmd openssl "apt-get install openssl"
  local lease s
  lease="$(lease_name "$LEASE_ARG")" || exit 2
  if [[ ! -d $LEASES ]] && owned_pid kafka >/dev/null; then lease_take "$LEASES" manual; fi
  secure_wait_outage "$lease"
  secure_prepare
  # The broker and the proxy read their certificates at start.
  ((TLS_CHANGED)) && stop_servers kafka tlsproxy

  # 1. Reuse what runs on the wanted ports and answers; restart what does not.
  local running=() missing=()
  for s in "${SECURE_SERVERS[@]}"; do
    if secure_running "$s" >/dev/null; then running+=("$s"); else missing+=("$s"); fi
  done
  if ((${#running[@]})); then
    local check=()
    [[ " ${running[*]} " == *" kafka "* ]] && check+=(kafka)
    [[ " ${running[*]} " == *" tlsproxy "* && " ${running[*]} " == *" mongo "* ]] && check+=(mongo)
    if ((${#check[@]})); then
      secure_probe "$REUSE_TIMEOUT" "${check[@]}"
      if [[ " ${check[*]} " == *" kafka "* && "$PROBE_KAFKA" != ok* ]]; then
        log "kafka is running but unhealthy (${PROBE_KAFKA#fail }); restarting it"
        stop_servers kafka
        missing+=(kafka)
      fi
      if [[ " ${check[*]} " == *" mongo "* && ("$PROBE_MONGO" != ok* || "$PROBE_MTLS" != ok*) ]]; then
        log "mongo behind the TLS proxy is unhealthy (${PROBE_MONGO#fail } / ${PROBE_MTLS#fail }); restarting both"
        stop_servers tlsproxy mongo
        missing+=(tlsproxy mongo)
      fi
    fi
  fi
  # 2. Start what is missing (mongo before the proxy: same order as in SECURE_SERVERS reversed).
  # A broker started afresh has an empty data dir, unless someone may still use the data: another
  # run holding a lease (restart after a certificate renewal), or this run's own kafka-stop.
  local order=() mode=fresh
  for s in mongo tlsproxy kafka; do [[ " ${missing[*]} " == *" $s "* ]] && order+=("$s"); done
  if secure_outage_holder >/dev/null || [[ -n "$(lease_live "$LEASES" | grep -vx -e "$lease" || true)" ]]; then
    mode=keep-data
  fi
  ((${#order[@]})) && secure_start "$mode" "${order[@]}"
  rm -f "$RUN_DIR/kafka.outage"

  # 3. Record and print.
  secure_write_env
  lease_take "$LEASES" "$lease"
  cat "$ENV_FILE"
}

secure_down() { cmd_down "${SECURE_SERVERS[@]}" -- "$RUN_DIR/kafka.outage"; }

# Outage tests: stop only the broker (SIGTERM, a clean shutdown), and start it again on the same
# ports with the same data (topics, offsets and SCRAM credentials survive).
#
# An outage must not hit another run that shares the profile: kafka-stop waits (up to
# EDU_INFRA_OUTAGE_WAIT seconds, default 300) until no other run holds a lease (the manual lease
# of a person does not count; --force does not wait). While Kafka is down on purpose,
# run/secure/kafka.outage names who stopped it, and another run's `up` waits for kafka-start
# instead of starting a fresh (wiped) broker; a marker whose process is gone is ignored.
readonly OUTAGE_WAIT="${EDU_INFRA_OUTAGE_WAIT:-300}"

# Give the profile lock up for a second, then take it again.
relock_profile() {
  exec 9>&-
  sleep 1
  lock_profile
}

# Prints who stopped Kafka on purpose (a pid, or manual) while that process still runs.
secure_outage_holder() {
  local holder start
  [[ -f $RUN_DIR/kafka.outage ]] && read -r holder start <"$RUN_DIR/kafka.outage" || return 1
  [[ $holder == manual || "$(lease_proc_start "$holder" 2>/dev/null)" == "$start" ]] || return 1
  printf '%s\n' "$holder"
}

# Called with the lock held by `up`; returns with it held once no outage by another run is on.
secure_wait_outage() { # lease
  local deadline=$((SECONDS + OUTAGE_WAIT)) holder said=0
  while holder="$(secure_outage_holder)" && [[ $holder != "$1" ]]; do
    ((SECONDS < deadline)) || die "the secure profile's kafka is stopped on purpose by $holder (an outage test)" \
      "and still down after ${OUTAGE_WAIT}s (scripts/infra.sh kafka-start --profile secure starts it)"
    ((said)) || log "kafka is stopped on purpose by $holder (an outage test); waiting for it to be started again"
    said=1
    relock_profile
  done
}

secure_kafka_stop() {
  lock_profile
  local me others deadline=$((SECONDS + OUTAGE_WAIT)) said=0
  me="$(lease_name "$LEASE_ARG")" || exit 2
  while :; do
    others="$(lease_live "$LEASES" | grep -vx -e "$me" -e manual | tr '\n' ' ' || true)"
    [[ -z $others || $FORCE == 1 ]] && break
    ((SECONDS < deadline)) || die "other runs still use the secure profile after ${OUTAGE_WAIT}s: ${others% }" \
      "(--force stops its kafka anyway)"
    ((said)) || log "waiting for the other runs on the secure profile (${others% }) to finish before stopping its kafka"
    said=1
    relock_profile
  done
  if [[ $me == manual ]]; then
    printf 'manual\n' >"$RUN_DIR/kafka.outage"
  else
    printf '%s %s\n' "$me" "$(lease_proc_start "$me")" >"$RUN_DIR/kafka.outage"
  fi
  owned_pid kafka >/dev/null || {
    log "the secure profile's kafka is not running"
    return 0
  }
  stop_servers kafka
}

secure_kafka_start() {
  lock_profile
  [[ -f $ENV_FILE ]] || die "profile secure is not up (scripts/infra.sh up --profile secure first)"
  if owned_pid kafka >/dev/null; then
    log "the secure profile's kafka is already running"
    rm -f "$RUN_DIR/kafka.outage"
    return 0
  fi
  require_node_modules
  secure_prepare
  secure_start keep-data kafka
  rm -f "$RUN_DIR/kafka.outage"
}

secure_status() {
  local s pid all_up=0 what
  for s in "${SECURE_SERVERS[@]}"; do
    case "$s" in
      kafka) what="SASL_SSL 127.0.0.1:$KAFKA_SECURE_PORT, node $NODE_HOST_IP:$KAFKA_SECURE_NODE_PORT" ;;
      tlsproxy) what="TLS 127.0.0.1:$MONGO_TLS_PORT, mTLS 127.0.0.1:$MONGO_MTLS_PORT" ;;
      mongo) what="plain 127.0.0.1:$MONGO_PORT (behind the proxy)" ;;
    esac
    if pid="$(owned_pid "$s")"; then
      printf '%-9s running  pid=%s rss=%sMB %s\n' "$s" "$pid" "$(rss_mb "$pid")" "$what"
    else
      printf '%-9s stopped  %s\n' "$s" "$what"
      all_up=1
    fi
  done
  return "$all_up"
}

secure_env() {
  local s
  for s in "${SECURE_SERVERS[@]}"; do
    if [[ ! -f $ENV_FILE ]] || ! owned_pid "$s" >/dev/null; then
      log "profile $PROFILE is not up (start it with: scripts/infra.sh up --profile $PROFILE)"
      return 1
    fi
  done
  cat "$ENV_FILE"
}
