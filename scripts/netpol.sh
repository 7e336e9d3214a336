#!/usr/bin/env bash
# NetworkPolicy enforcement on the local node of scripts/node.sh, whose bridge CNI plugin ignores
# policies: kube-router's network policy controller alone (--run-firewall, no routing, no service
# proxy) as a host process, built from the Go module proxy (tools/netpol). It programs iptables
# filter chains (KUBE-ROUTER-*, KUBE-POD-FW-*, KUBE-NWPLCY-*) and ipsets (KUBE-SRC-*, KUBE-DST-*)
# for the pods on the node; br_netfilter (set by node.sh) hands bridged pod traffic to them.
#
#   scripts/netpol.sh build               install ipset/iptables if missing, build and cache
#                                         kube-router and the test image (netpol-echo)
#   scripts/netpol.sh up [--lease PID]    bring the node up with the same lease (scripts/node.sh up),
#                                         import the test image, start kube-router, wait until it
#                                         is healthy; prints the env lines; takes a lease
#   scripts/netpol.sh down [--lease PID] [--force]
#                                         give the lease back; when none is left, stop kube-router
#                                         and remove the chains and ipsets it created (nothing
#                                         else), then give the node lease back
#   scripts/netpol.sh status              exit 0 only if kube-router runs and reports healthy
#   scripts/netpol.sh env                 prints NETPOL_CONTROLLER=, NETPOL_ECHO_IMAGE=, ... lines
#
# Env: EDU_CACHE_DIR (default ~/.cache/edu-platform), EDU_NODE_NAME (edu-node, as node.sh),
#      EDU_NETPOL_SERVICE_CIDR (10.0.0.0/24: cluster.sh's --service-cluster-ip-range),
#      EDU_NETPOL_HEALTH_PORT (20244), EDU_READY_TIMEOUT (seconds, 120), EDU_BUILD_JOBS (go build -p).
# Needs root (iptables, ipset). Never touches a process, chain or ipset it did not create.
set -euo pipefail

IMAGE_TAG=1

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# KUBE_ROUTER_VERSION: must match tools/netpol/go.mod (gen.sh writes it).
# shellcheck source=scripts/lib/versions.sh
source "$ROOT/scripts/lib/versions.sh"
MOD=$ROOT/tools/netpol
NODE=$ROOT/scripts/node.sh
CACHE=${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}
DIR=$CACHE/netpol-kube-router-$KUBE_ROUTER_VERSION
BIN=$DIR/bin
RUN=$CACHE/run/netpol
HOST_STATE=$RUN/host
NODE_NAME=${EDU_NODE_NAME:-edu-node}
SERVICE_CIDR=${EDU_NETPOL_SERVICE_CIDR:-10.0.0.0/24}
HEALTH_PORT=${EDU_NETPOL_HEALTH_PORT:-20244}
READY_TIMEOUT=${EDU_READY_TIMEOUT:-120}
ECHO_IMAGE=localhost/edu-netpol/echo:$IMAGE_TAG
# What kube-router's policy controller creates (pkg/controllers/netpol, v2.1.0): filter chains
# only, IPv4 only here; TMP- sets exist while it swaps a set's members.
CHAIN_RE='^(KUBE-ROUTER-|KUBE-POD-FW-|KUBE-NWPLCY-)'
IPSET_RE='^(inet6:)?(KUBE-SRC-|KUBE-DST-|TMP-)'

LOG_TAG=netpol
# shellcheck source=scripts/lib/common.sh
source "$ROOT/scripts/lib/common.sh"

# fd 7 (cluster.sh holds 5, node.sh 6, builds 8), held until the script exits; every child that
# outlives us is started with 7>&- so it never holds it.
lock_netpol() { lock_run_dir 7 netpol; }

node_() { bash "$NODE" "$@" 7>&-; }

# ---------------------------------------------------------------------------------------
# packages and build

ensure_packages() {
  local missing=()
  command -v ipset >/dev/null || missing+=(ipset)
  command -v iptables >/dev/null && command -v iptables-restore >/dev/null || missing+=(iptables)
  install_packages "${missing[@]}"
}

stamp() {
  printf '%s go.sum:%s src:%s image:%s\n' "$KUBE_ROUTER_VERSION" "$(sha256sum "$MOD/go.sum" | cut -c1-16)" \
    "$(cat "$MOD"/cmd/*/main.go | sha256sum | cut -c1-16)" "$ECHO_IMAGE"
}
built() { [[ -f $DIR/.complete && "$(cat "$DIR/.complete")" == "$(stamp)" ]]; }

# shellcheck source=scripts/oci-image.sh
source "$ROOT/scripts/oci-image.sh"

go_build() { # what log args...
  local what=$1 logf=$2 start=$SECONDS
  shift 2
  log "building $what ..."
  if ! go build "$@" 2>>"$logf"; then
    tail -n 40 "$logf" >&2
    die "go build of $what failed (full log: $logf)"
  fi
  log "  $what done in $((SECONDS - start))s"
}

build() {
  begin_build "$DIR" built || return 0
  local tmp=$BUILD_TMP start=$SECONDS jobs=${EDU_BUILD_JOBS:-$(nproc)} date
  mkdir -p "$tmp/bin" "$tmp/images"
  cd "$MOD"
  date=$(go list -m -f '{{.Time}}' github.com/cloudnativelabs/kube-router/v2 | cut -d' ' -f1)
  go_build "kube-router $KUBE_ROUTER_VERSION" "$tmp/build.log" -p "$jobs" -o "$tmp/bin/kube-router" \
    -ldflags "-s -w -X github.com/cloudnativelabs/kube-router/v2/pkg/version.Version=$KUBE_ROUTER_VERSION -X github.com/cloudnativelabs/kube-router/v2/pkg/version.BuildDate=$date" \
    github.com/cloudnativelabs/kube-router/v2/cmd/kube-router
  go_build netpol-echo "$tmp/build.log" -p "$jobs" -ldflags "-s -w" -o "$tmp/bin/netpol-echo" ./cmd/netpol-echo
  cd "$ROOT"
  "$tmp/bin/kube-router" --version 2>&1 | grep -F "version $KUBE_ROUTER_VERSION," >/dev/null ||
    die "kube-router --version does not say $KUBE_ROUTER_VERSION"
  make_oci_image "$tmp/images/echo.tar" "$ECHO_IMAGE" /netpol-echo "$tmp/bin/netpol-echo"
  finish_build "$tmp" "$DIR" stamp
  log "kube-router and the echo image built in $((SECONDS - start))s into $DIR"
}

cmd_build() {
  ensure_packages
  command -v go >/dev/null || die "go not found (need Go >= $GO_MIN_VERSION)"
  # kube-router has no entry in the checksum database reachable here (tools/netpol/gen.sh): its
  # hash is pinned in go.sum instead; every other module is verified as usual.
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -mod=readonly" \
    GONOSUMDB=github.com/cloudnativelabs/kube-router/v2
  local modv
  modv=$(cd "$MOD" && go list -m -f '{{.Version}}' github.com/cloudnativelabs/kube-router/v2)
  [[ $modv == "$KUBE_ROUTER_VERSION" ]] || die "tools/netpol pins kube-router $modv but this script says $KUBE_ROUTER_VERSION"
  mkdir -p "$CACHE"
  built || build
  log "up to date: $BIN/kube-router, $DIR/images/echo.tar"
}

# ---------------------------------------------------------------------------------------
# the process: only the pid in our pidfile whose command line is our cached binary is signalled

PIDFILE=$RUN/kube-router.pid

our_pid() {
  local pid cmdline
  [[ -f $PIDFILE ]] || return 1
  pid=$(<"$PIDFILE")
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
  cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  [[ $cmdline == "$BIN/kube-router "* ]] || return 1
  [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]] || return 1
  echo "$pid"
}

stop_controller() {
  local pid i
  if pid=$(our_pid); then
    log "stopping kube-router (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      our_pid >/dev/null || break
      sleep 0.2
    done
    if our_pid >/dev/null; then
      log "kube-router did not exit after 20s, sending SIGKILL to $pid"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$PIDFILE"
}

healthy() { [[ $(curl -sf --max-time 2 "http://127.0.0.1:$HEALTH_PORT/healthz") == OK ]]; }
# kube-router reports healthy from its start and a killed run leaves its chains behind: only the
# first full sync of this process (logged at -v=1) says the rules match the cluster.
LOG_OFFSET=-1 # -1: this run started no kube-router (one already runs)
# grep reads all of tail's output (no -q): with pipefail, an early exit would fail tail by SIGPIPE
# on a long log and hide a sync that happened.
first_sync_done() { ((LOG_OFFSET < 0)) || tail -c "+$((LOG_OFFSET + 1))" "$RUN/kube-router.log" | grep 'sync iptables took' >/dev/null; }

wait_ready() {
  local start=$SECONDS
  until healthy && first_sync_done; do
    if ! our_pid >/dev/null; then
      tail -n 30 "$RUN/kube-router.log" >&2
      die "kube-router exited (log: $RUN/kube-router.log)"
    fi
    ((SECONDS - start < READY_TIMEOUT)) || die "kube-router not healthy after ${READY_TIMEOUT}s (log: $RUN/kube-router.log)"
    sleep 0.25
  done
}

# ---------------------------------------------------------------------------------------
# host changes: the chains and ipsets that exist before the first `up` are recorded, and `down`
# removes only those of kube-router's names that were not there.

# kube-router's chains (CHAIN_RE): filter table, IPv4 (lib/host.sh's snapshot and removal).
CHAIN_SCOPE=(iptables filter) # families tables

record_host() {
  [[ -f $HOST_STATE/.complete ]] && return
  rm -rf "$HOST_STATE"
  mkdir -p "$HOST_STATE"
  # host.sh hides iptables-save's stderr: say what failed.
  host_record_chains "$HOST_STATE" "${CHAIN_SCOPE[@]}" ||
    die "could not read the iptables filter table (iptables-save -t filter)"
  ipset list -n >"$HOST_STATE/ipsets"
  touch "$HOST_STATE/.complete"
}

new_names() { # recorded-file current-names regex
  comm -13 <(sort "$1") <(grep -E "$3" <<<"$2" | sort) || true
}

drop_new_ipsets() {
  local s
  for s in $(new_names "$HOST_STATE/ipsets" "$(ipset list -n)" "$IPSET_RE"); do
    ipset destroy "$s" 2>/dev/null || log "warning: could not destroy ipset $s (still referenced?)"
  done
}

undo_host() {
  [[ -f $HOST_STATE/.complete ]] || return 0
  # A snapshot taken by an earlier netpol.sh: filter chain names alone, in the file "chains".
  if [[ -f $HOST_STATE/chains && ! -f $HOST_STATE/chains.iptables ]]; then
    sed 's/^/filter /' "$HOST_STATE/chains" >"$HOST_STATE/chains.iptables"
  fi
  host_drop_new_chains "$HOST_STATE" "$CHAIN_RE" "${CHAIN_SCOPE[@]}"
  drop_new_ipsets
  rm -rf "$HOST_STATE"
  log "kube-router's chains and ipsets removed"
}

# ---------------------------------------------------------------------------------------
# commands

cmd_env() {
  echo "NETPOL_CONTROLLER=kube-router $KUBE_ROUTER_VERSION"
  echo "NETPOL_ECHO_IMAGE=$ECHO_IMAGE"
  echo "NETPOL_HEALTH_URL=http://127.0.0.1:$HEALTH_PORT/healthz"
}

start_controller() {
  local kubeconfig=$1
  our_pid >/dev/null && return 0
  LOG_OFFSET=$(stat -c %s "$RUN/kube-router.log" 2>/dev/null || echo 0)
  log "starting kube-router $KUBE_ROUTER_VERSION (network policy controller only)"
  # 5>&- 6>&- 7>&- 8>&-: no lock of cluster.sh, node.sh or ours is held for as long as it runs.
  setsid nohup "$BIN/kube-router" --kubeconfig="$kubeconfig" --hostname-override="$NODE_NAME" \
    --run-firewall=true --run-router=false --run-service-proxy=false --enable-cni=false \
    --enable-ipv4=true --enable-ipv6=false --service-cluster-ip-range="$SERVICE_CIDR" \
    --health-port="$HEALTH_PORT" --metrics-port=0 --v=1 \
    >>"$RUN/kube-router.log" 2>&1 </dev/null 5>&- 6>&- 7>&- 8>&- &
  local pid=$! i
  echo "$pid" >"$PIDFILE"
  # setsid and nohup exec into kube-router: until they have, the pid's command line is theirs and
  # our_pid would read a starting controller as a dead one.
  for ((i = 0; i < 100; i++)); do
    our_pid >/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.05
  done
}

cmd_up() {
  [[ $EUID -eq 0 ]] || die "kube-router needs root (iptables, ipset)"
  lock_netpol
  local lease out kubeconfig start
  lease=$(lease_name "$LEASE_ARG") || exit 2
  if [[ ! -d $LEASES ]] && our_pid >/dev/null; then lease_take "$LEASES" manual; fi
  ensure_packages
  built || cmd_build
  command -v curl >/dev/null || die "curl not found"
  out=$(node_ up ${LEASE_ARG:+--lease "$LEASE_ARG"})
  kubeconfig=$(sed -n 's/^KUBECONFIG=//p' <<<"$out")
  [[ -f $kubeconfig ]] || die "scripts/node.sh up printed no usable KUBECONFIG"
  node_ load "$DIR/images/echo.tar" "$ECHO_IMAGE" >/dev/null
  start=$SECONDS
  record_host
  start_controller "$kubeconfig"
  wait_ready
  lease_take "$LEASES" "$lease"
  log "kube-router enforces NetworkPolicy on node $NODE_NAME (ready in $((SECONDS - start))s)"
  cmd_env
}

cmd_down() {
  lock_netpol
  if release_lease "$LEASES" kube-router stops; then
    rm -rf "$LEASES"
    stop_controller
    undo_host
    log "stopped"
  fi
  # The node lease `up` took under the same name.
  node_ down ${LEASE_ARG:+--lease "$LEASE_ARG"}
}

cmd_status() {
  local pid
  if ! pid=$(our_pid); then
    log "kube-router: stopped"
    return 1
  fi
  if ! healthy; then
    log "kube-router: running (pid $pid) but not healthy (log: $RUN/kube-router.log)"
    return 1
  fi
  log "kube-router: running (pid $pid), healthy"
}

parse_args "lease force" "$@"

run_command "build up down status env"
