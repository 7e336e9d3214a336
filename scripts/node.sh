#!/usr/bin/env bash
# A real Kubernetes node beside the local control plane of scripts/cluster.sh, without Docker:
# Debian's containerd + runc + CNI plugins, kubelet, kube-scheduler and kube-proxy v1.34.10 built
# from the Go module proxy (tools/k8s-testbin), CoreDNS (tools/coredns) as a host process on the
# bridge gateway, and a pause image built here (tools/node/pause.c). Pods reach host processes
# through the bridge gateway address (NODE_HOST_IP); the MongoDB stand-in's ports are forwarded
# from there to 127.0.0.1 (EDU_NODE_HOST_PORTS).
#
#   scripts/node.sh build               install missing apt packages, build and cache the binaries
#                                       and the pause/probe images (~4 min cold, seconds warm)
#   scripts/node.sh up [--lease PID]    start (idempotent; brings the control plane up with the same
#                                       lease), wait until the node is Ready and a pod Running;
#                                       prints the env lines on stdout; takes a lease
#   scripts/node.sh down [--lease PID] [--force]
#                                       give the lease back; when none is left, remove every pod
#                                       sandbox, stop what this script started, undo its host
#                                       changes (bridge, iptables chains, mounts, sysctls, cgroups),
#                                       unregister the node; a --lease PID's control plane lease
#                                       goes back too (the manual one stays: cluster.sh down)
#   scripts/node.sh status              exit 0 only if every component runs and the node is Ready
#   scripts/node.sh env                 prints NODE_HOST_IP=, NODE_NAME=, KUBECONFIG=, ... lines
#   scripts/node.sh load ARCHIVE NAME:TAG
#                                       import an OCI archive into the node's containerd as NAME:TAG
#                                       (a name without registry becomes docker.io/library/NAME,
#                                       as kubelet resolves it); pods use imagePullPolicy: Never
#
# Env: EDU_CACHE_DIR (default ~/.cache/edu-platform), EDU_NODE_NAME (edu-node),
#      EDU_NODE_HOST_IP (10.244.0.1, the bridge gateway; keep in step with cluster.sh's default),
#      EDU_NODE_POD_CIDR (10.244.0.0/24), EDU_NODE_BRIDGE (edu0),
#      EDU_NODE_HOST_PORTS ("27017 27027 27037 27047 27057 19295": host ports on 127.0.0.1 that pods reach at
#      NODE_HOST_IP), EDU_READY_TIMEOUT (seconds, 120), EDU_BUILD_JOBS (go build -p).
# Needs root (bridge, iptables, mounts). Never touches a process, chain or mount it did not create.
set -euo pipefail

IMAGE_TAG=1

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# K8S_VERSION: must match tools/k8s-testbin/go.mod, as in cluster.sh.
# shellcheck source=scripts/lib/versions.sh
source "$ROOT/scripts/lib/versions.sh"
K8S_MOD=$ROOT/tools/k8s-testbin
DNS_MOD=$ROOT/tools/coredns
TPL=$ROOT/tools/node
CLUSTER=$ROOT/scripts/cluster.sh
CACHE=${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}
NODE_DIR=$CACHE/k8s-node-$K8S_VERSION
BIN=$NODE_DIR/bin
RUN=$CACHE/run/node
HOST_STATE=$RUN/host
SOCK=$RUN/containerd/containerd.sock
NODE_NAME=${EDU_NODE_NAME:-edu-node}
NODE_HOST_IP=${EDU_NODE_HOST_IP:-10.244.0.1}
POD_CIDR=${EDU_NODE_POD_CIDR:-10.244.0.0/24}
BRIDGE=${EDU_NODE_BRIDGE:-edu0}
HOST_PORTS=${EDU_NODE_HOST_PORTS:-27017 27027 27037 27047 27057 19295}
READY_TIMEOUT=${EDU_READY_TIMEOUT:-120}
PAUSE_IMAGE=localhost/edu-node/pause:$IMAGE_TAG
PROBE_IMAGE=localhost/edu-node/probe:$IMAGE_TAG
KUBELET_HEALTHZ_PORT=10248
SCHEDULER_PORT=10259
PROXY_HEALTHZ_PORT=10256
PROXY_METRICS_PORT=10249
DNS_HEALTH_PORT=18180
DNS_READY_PORT=18181
# What kubelet (kernel tunables), the bridge plugin (forwarding) and kube-proxy may change.
SYSCTLS="net.ipv4.ip_forward net.bridge.bridge-nf-call-iptables net.bridge.bridge-nf-call-ip6tables
vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys
kernel.keys.root_maxbytes net.ipv4.conf.all.route_localnet"
CGROUP_ROOTS="cpu cpuacct cpuset memory devices freezer blkio pids systemd unified hugetlb"
COMPONENTS="containerd coredns kube-scheduler kube-proxy kubelet"

LOG_TAG=node
# shellcheck source=scripts/lib/common.sh
source "$ROOT/scripts/lib/common.sh"

# fd 6 (cluster.sh holds 5 for its own lock while we call it), held until the script exits.
lock_node() { lock_run_dir 6 node; }

coredns_version() { (cd "$DNS_MOD" && GOTOOLCHAIN=local go list -m -f '{{.Version}}' github.com/coredns/coredns); }
dns_bin() { echo "$CACHE/coredns-$(sed -n 's/^\tgithub.com\/coredns\/coredns \(v[^ ]*\).*/\1/p' "$DNS_MOD/go.mod")/bin/coredns"; }

bin_of() {
  case $1 in
    containerd) command -v containerd ;;
    coredns) dns_bin ;;
    *) echo "$BIN/$1" ;;
  esac
}

# ---------------------------------------------------------------------------------------
# packages and build

ensure_packages() {
  local missing=()
  command -v containerd >/dev/null && command -v ctr >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  [[ -x /usr/lib/cni/bridge && -x /usr/lib/cni/host-local && -x /usr/lib/cni/loopback ]] ||
    missing+=(containernetworking-plugins)
  command -v iptables >/dev/null || missing+=(iptables)
  command -v conntrack >/dev/null || missing+=(conntrack)
  command -v gcc >/dev/null || missing+=(gcc libc6-dev)
  install_packages "${missing[@]}"
}

# Sources that end up in the cached node dir; the stamp invalidates it when any changes.
node_stamp() {
  printf '%s go.sum:%s src:%s\n' "$K8S_VERSION" "$(sha256sum "$K8S_MOD/go.sum" | cut -c1-16)" \
    "$(cat "$K8S_MOD"/cmd/*/main.go "$TPL/pause.c" | sha256sum | cut -c1-16)"
}
node_built() { [[ -f $NODE_DIR/.complete && "$(cat "$NODE_DIR/.complete")" == "$(node_stamp)" ]]; }
dns_stamp() { printf 'go.sum:%s\n' "$(sha256sum "$DNS_MOD/go.sum" | cut -c1-16)"; }
dns_built() {
  local d
  d=$(dirname "$(dirname "$(dns_bin)")")
  [[ -f $d/.complete && "$(cat "$d/.complete")" == "$(dns_stamp)" ]]
}

# shellcheck source=scripts/oci-image.sh
source "$ROOT/scripts/oci-image.sh"

build_node() {
  begin_build "$CACHE/.k8s-node-$K8S_VERSION" node_built || return 0
  local tmp=$BUILD_TMP start=$SECONDS jobs=${EDU_BUILD_JOBS:-$(nproc)} x
  mkdir -p "$tmp/bin" "$tmp/images" "$tmp/stage"
  # The version stamp of cluster.sh, so kubelet reports K8S_VERSION to the API server.
  x=$(k8s_version_ldflags "$K8S_MOD")
  cd "$K8S_MOD"
  run_go_build "kubelet + kube-scheduler + kube-proxy" "$tmp/build.log" -p "$jobs" -ldflags "$x" -o "$tmp/bin/" \
    k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-proxy
  run_go_build "cri-reset + node-probe" "$tmp/build.log" -p "$jobs" -ldflags "-s -w" -o "$tmp/bin/" \
    ./cmd/cri-reset ./cmd/node-probe
  cd "$ROOT"
  log "building the pause and probe images"
  gcc -Os -static -Wall -Wextra -o "$tmp/stage/pause" "$TPL/pause.c"
  strip "$tmp/stage/pause"
  make_oci_image "$tmp/images/pause.tar" "$PAUSE_IMAGE" /pause "$tmp/stage/pause"
  make_oci_image "$tmp/images/probe.tar" "$PROBE_IMAGE" /node-probe "$tmp/bin/node-probe"
  rm -rf "$tmp/stage"
  local b
  for b in kubelet kube-scheduler kube-proxy; do
    "$tmp/bin/$b" --version | grep -x "Kubernetes $K8S_VERSION" >/dev/null || die "$b --version does not say $K8S_VERSION"
  done
  finish_build "$tmp" "$NODE_DIR" node_stamp
  log "node binaries and images built in $((SECONDS - start))s into $NODE_DIR"
}

build_coredns() {
  local dir tmp start=$SECONDS
  dir=$(dirname "$(dirname "$(dns_bin)")")
  begin_build "$dir" dns_built || return 0
  tmp=$BUILD_TMP
  mkdir -p "$tmp/bin"
  cd "$DNS_MOD"
  run_go_build "coredns $(coredns_version)" "$tmp/build.log" -p "${EDU_BUILD_JOBS:-$(nproc)}" -ldflags "-s -w" \
    -o "$tmp/bin/coredns" github.com/coredns/coredns
  cd "$ROOT"
  "$tmp/bin/coredns" -version >/dev/null || die "coredns binary missing or broken"
  finish_build "$tmp" "$dir" dns_stamp
  log "coredns built in $((SECONDS - start))s"
}

cmd_build() {
  ensure_packages
  command -v go >/dev/null || die "go not found (need Go >= $GO_MIN_VERSION)"
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -mod=readonly"
  local modv
  modv=$(cd "$K8S_MOD" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
  [[ $modv == "$K8S_VERSION" ]] || die "tools/k8s-testbin pins k8s.io/kubernetes $modv but this script says $K8S_VERSION"
  mkdir -p "$CACHE"
  node_built || build_node
  dns_built || build_coredns
  log "binaries up to date: $BIN, $(dns_bin)"
}

# ---------------------------------------------------------------------------------------
# process handling (pidfile, our_pid, with bin_of above): see scripts/lib/pids.sh
# shellcheck source=scripts/lib/pids.sh
source "$ROOT/scripts/lib/pids.sh"

stop_pid() { # name pid
  local i
  log "stopping $1 (pid $2)"
  kill -TERM "$2" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    [[ -e /proc/$2 ]] || return 0
    [[ $(awk '{print $3}' "/proc/$2/stat" 2>/dev/null) == Z ]] && return 0
    sleep 0.2
  done
  log "$1 did not exit after 20s, sending SIGKILL to $2"
  kill -KILL "$2" 2>/dev/null || true
}

stop_one() {
  local pid
  if pid=$(our_pid "$1"); then stop_pid "$1" "$pid"; fi
  rm -f "$(pidfile "$1")"
}

spawn() {
  local name=$1
  shift
  log "starting $name"
  mkdir -p "$RUN/logs"
  # 5>&- 6>&- 8>&-: a component must not inherit a lock and hold it for as long as it runs.
  setsid nohup "$(bin_of "$name")" "$@" >>"$RUN/logs/$name.log" 2>&1 </dev/null 5>&- 6>&- 8>&- &
  echo $! >"$(pidfile "$name")"
}

started_alive() {
  local pid
  pid=$(<"$(pidfile "$1")") || return 1
  [[ -e /proc/$pid && $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]
}

wait_until() { # name|- what command...
  local name=$1 what=$2 start=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [[ $name != - ]] && ! started_alive "$name"; then
      tail -n 30 "$RUN/logs/$name.log" >&2
      die "$name exited (log: $RUN/logs/$name.log)"
    fi
    ((SECONDS - start < READY_TIMEOUT)) || die "$what not ready after ${READY_TIMEOUT}s (logs: $RUN/logs)"
    sleep 0.25
  done
}

ctr_() { ctr -a "$SOCK" -n k8s.io "$@"; }
http_ok() { [[ $(curl -sfk --max-time 2 "$1") == "$2" ]]; }
containerd_ready() { ctr -a "$SOCK" version; }
coredns_ready() { http_ok "http://127.0.0.1:$DNS_READY_PORT/ready" OK; }
scheduler_ready() { http_ok "https://127.0.0.1:$SCHEDULER_PORT/healthz" ok; }
# /livez: /healthz stays 503 until the Node object exists and is eligible.
proxy_ready() { curl -sf --max-time 2 "http://127.0.0.1:$PROXY_HEALTHZ_PORT/livez" >/dev/null; }
kubelet_ready() { http_ok "http://127.0.0.1:$KUBELET_HEALTHZ_PORT/healthz" ok; }

# ---------------------------------------------------------------------------------------
# host changes: each is recorded in $HOST_STATE before it is made, and `down` undoes exactly
# what was recorded.

record_host() {
  [[ -f $HOST_STATE/.complete ]] && return
  rm -rf "$HOST_STATE"
  mkdir -p "$HOST_STATE"
  local c
  host_record_sysctls "$HOST_STATE" "$SYSCTLS"
  host_record_chains "$HOST_STATE"
  for c in $CGROUP_ROOTS; do
    [[ -d /sys/fs/cgroup/$c/kubepods ]] && echo "$c"
  done >"$HOST_STATE/kubepods.existing" || true
  find /run/netns -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null >"$HOST_STATE/netns.existing" || true
  if ip link show "$BRIDGE" >/dev/null 2>&1; then
    die "a network interface $BRIDGE exists that this script did not create; set EDU_NODE_BRIDGE"
  fi
  touch "$HOST_STATE/.complete"
}

setup_bridge() {
  if [[ ! -f $HOST_STATE/bridge ]]; then
    ip link add "$BRIDGE" type bridge
    touch "$HOST_STATE/bridge"
  fi
  ip addr replace "$NODE_HOST_IP/${POD_CIDR#*/}" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  # Lets the DNAT below hand pod connections to servers bound to 127.0.0.1; on this bridge only.
  sysctl -qw "net.ipv4.conf.$BRIDGE.route_localnet=1"
}

setup_sysctls() {
  # Pods on the bridge reach Services only if bridged traffic passes iptables and is forwarded.
  sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1
}

# Pods connect to NODE_HOST_IP:port; host servers listen on 127.0.0.1:port.
setup_host_ports() {
  local p
  iptables -t nat -N EDU-NODE-HOSTS 2>/dev/null || iptables -t nat -F EDU-NODE-HOSTS
  for p in $HOST_PORTS; do
    iptables -t nat -A EDU-NODE-HOSTS -p tcp --dport "$p" -j DNAT --to-destination "127.0.0.1:$p"
  done
  local jump=(PREROUTING -i "$BRIDGE" -d "$NODE_HOST_IP/32" -j EDU-NODE-HOSTS)
  iptables -t nat -C "${jump[@]}" 2>/dev/null || iptables -t nat -A "${jump[@]}"
}

# Chains named KUBE-* or EDU-NODE-* that were not there before `up`.
NEW_CHAIN_RE='^(KUBE-|EDU-NODE-)'

# Mount points under the run dir (overlay rootfs, shm, kubelet volumes), deepest first.
unmount_run_dir() {
  local m
  while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" || log "warning: could not unmount $m"
  done < <(awk -v p="$RUN/" 'index($5, p) == 1 { print $5 }' /proc/self/mountinfo | sort -r)
}

remove_new_netns() {
  local f n
  for f in /run/netns/cni-*; do
    [[ -e $f ]] || continue
    n=${f##*/}
    grep -qxF "$n" "$HOST_STATE/netns.existing" && continue
    ip netns delete "$n" 2>/dev/null || log "warning: could not delete netns $n"
  done
}

remove_kubepods_cgroups() {
  local c
  for c in $CGROUP_ROOTS; do
    [[ -d /sys/fs/cgroup/$c/kubepods ]] || continue
    grep -qx "$c" "$HOST_STATE/kubepods.existing" && continue
    find "/sys/fs/cgroup/$c/kubepods" -depth -type d -exec rmdir {} + 2>/dev/null ||
      log "warning: cgroup /sys/fs/cgroup/$c/kubepods not empty, left in place"
  done
}

undo_host() {
  [[ -f $HOST_STATE/.complete ]] || return 0
  host_drop_new_chains "$HOST_STATE" "$NEW_CHAIN_RE"
  unmount_run_dir
  remove_new_netns
  remove_kubepods_cgroups
  if [[ -f $HOST_STATE/bridge ]]; then
    ip link delete "$BRIDGE" 2>/dev/null || true
  fi
  host_restore_sysctls "$HOST_STATE"
  rm -rf "$HOST_STATE"
  log "host changes undone (bridge, iptables chains, mounts, netns, cgroups, sysctls)"
}

# ---------------------------------------------------------------------------------------
# up

render() { # template output
  sed -e "s|@RUN@|$RUN|g" -e "s|@SOCK@|$SOCK|g" -e "s|@NODE_HOST_IP@|$NODE_HOST_IP|g" \
    -e "s|@POD_CIDR@|$POD_CIDR|g" -e "s|@BRIDGE@|$BRIDGE|g" -e "s|@NODE_NAME@|$NODE_NAME|g" \
    -e "s|@KUBECONFIG@|$KUBECONFIG_PATH|g" -e "s|@PAUSE_IMAGE@|$PAUSE_IMAGE|g" \
    -e "s|@PROBE_IMAGE@|$PROBE_IMAGE|g" -e "s|@KUBELET_HEALTHZ_PORT@|$KUBELET_HEALTHZ_PORT|g" \
    -e "s|@PROXY_HEALTHZ_PORT@|$PROXY_HEALTHZ_PORT|g" -e "s|@PROXY_METRICS_PORT@|$PROXY_METRICS_PORT|g" \
    -e "s|@DNS_HEALTH_PORT@|$DNS_HEALTH_PORT|g" -e "s|@DNS_READY_PORT@|$DNS_READY_PORT|g" \
    "$TPL/$1" >"$2.tmp"
  mv "$2.tmp" "$2"
}

write_configs() {
  mkdir -p "$RUN/containerd" "$RUN/cni/net.d" "$RUN/cni/ipam" "$RUN/kubelet" "$RUN/coredns"
  render containerd.toml "$RUN/containerd/config.toml"
  render cni.conflist "$RUN/cni/net.d/10-edu-node.conflist"
  render kubelet.yaml "$RUN/kubelet/config.yaml"
  render kube-proxy.yaml "$RUN/kube-proxy.yaml"
  render Corefile "$RUN/coredns/Corefile"
  render check-pod.yaml "$RUN/check-pod.yaml"
}

# The control plane with the same lease as ours; its API server must have the flags a node
# needs (an older cluster.sh started it without them: restart it, etcd data kept).
ensure_control_plane() {
  local out pid
  # 6>&-: etcd and the API server it may start must not inherit (and hold) the node lock.
  out=$(bash "$CLUSTER" up ${LEASE_ARG:+--lease "$LEASE_ARG"} 6>&-)
  KUBECONFIG_PATH=$(sed -n 's/^KUBECONFIG=//p' <<<"$out")
  KUBECTL=$(bash "$CLUSTER" env | sed -n 's/^KUBECTL=//p')
  [[ -f $KUBECONFIG_PATH && -x $KUBECTL ]] || die "cluster.sh up printed no usable KUBECONFIG"
  pid=$(<"$CACHE/run/cluster/kube-apiserver.pid")
  if ! tr '\0' '\n' <"/proc/$pid/cmdline" | grep -x -- '--kubelet-preferred-address-types=InternalIP,Hostname' >/dev/null; then
    log "the running kube-apiserver lacks the node flags; restarting it"
    bash "$CLUSTER" restart-apiserver 6>&-
  fi
}

kc() { "$KUBECTL" --kubeconfig "$KUBECONFIG_PATH" "$@"; }

start_containerd() {
  if ! our_pid containerd >/dev/null; then
    spawn containerd --config "$RUN/containerd/config.toml"
  fi
  wait_until containerd containerd containerd_ready
  local img
  for img in pause probe; do
    ctr_ images import "$NODE_DIR/images/$img.tar" >/dev/null
  done
}

start_coredns() {
  our_pid coredns >/dev/null || spawn coredns -conf "$RUN/coredns/Corefile"
  wait_until coredns coredns coredns_ready
}

start_scheduler() {
  our_pid kube-scheduler >/dev/null ||
    spawn kube-scheduler --kubeconfig="$KUBECONFIG_PATH" \
      --authentication-kubeconfig="$KUBECONFIG_PATH" --authorization-kubeconfig="$KUBECONFIG_PATH" \
      --leader-elect=false --bind-address=127.0.0.1 --secure-port="$SCHEDULER_PORT" \
      --cert-dir="$RUN/scheduler-certs" --profiling=false
  wait_until kube-scheduler kube-scheduler scheduler_ready
}

start_proxy() {
  our_pid kube-proxy >/dev/null || spawn kube-proxy --config="$RUN/kube-proxy.yaml"
  wait_until kube-proxy kube-proxy proxy_ready
}

# The admin credentials of the local control plane: RBAC has no Node authorizer here, and a
# node client certificate would add PKI for no test's benefit.
start_kubelet() {
  our_pid kubelet >/dev/null ||
    spawn kubelet --config="$RUN/kubelet/config.yaml" --kubeconfig="$KUBECONFIG_PATH" \
      --root-dir="$RUN/kubelet/root" --cert-dir="$RUN/kubelet/pki" \
      --hostname-override="$NODE_NAME" --node-ip="$NODE_HOST_IP"
  wait_until kubelet kubelet kubelet_ready
}

node_ready() {
  [[ $(kc get node "$NODE_NAME" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}') == True ]]
}
check_pod_running() {
  [[ $(kc -n kube-system get pod edu-node-check -o 'jsonpath={.status.phase}') == Running ]]
}

run_check_pod() {
  kc -n kube-system delete pod edu-node-check --ignore-not-found --wait=true >/dev/null
  # ServiceAccount admission refuses pods until the controller manager made the namespace's
  # default ServiceAccount (a fresh etcd).
  wait_until - "kube-system/default ServiceAccount" kc -n kube-system get serviceaccount default
  kc apply -f "$RUN/check-pod.yaml" >/dev/null
  wait_until kubelet "pod kube-system/edu-node-check" check_pod_running
  kc -n kube-system delete pod edu-node-check --wait=false >/dev/null
}

cmd_env() {
  local kubeconfig
  kubeconfig=$(bash "$CLUSTER" env | sed -n 's/^KUBECONFIG=//p')
  echo "NODE_NAME=$NODE_NAME"
  echo "NODE_HOST_IP=$NODE_HOST_IP"
  echo "NODE_POD_CIDR=$POD_CIDR"
  echo "NODE_CONTAINERD_ADDRESS=$SOCK"
  echo "NODE_PAUSE_IMAGE=$PAUSE_IMAGE"
  echo "NODE_PROBE_IMAGE=$PROBE_IMAGE"
  echo "KUBECONFIG=$kubeconfig"
}

cmd_up() {
  [[ $EUID -eq 0 ]] || die "the node needs root (bridge, iptables, mounts)"
  lock_node
  local lease start
  lease=$(lease_name "$LEASE_ARG") || exit 2
  if [[ ! -d $LEASES ]] && our_pid kubelet >/dev/null; then lease_take "$LEASES" manual; fi
  ensure_packages
  if ! node_built || ! dns_built; then cmd_build; fi
  command -v curl >/dev/null || die "curl not found"
  ensure_control_plane
  start=$SECONDS
  record_host
  write_configs
  setup_bridge
  setup_sysctls
  setup_host_ports
  start_containerd
  start_coredns
  start_scheduler
  start_kubelet
  start_proxy
  wait_until kubelet "node $NODE_NAME" node_ready
  run_check_pod
  lease_take "$LEASES" "$lease"
  log "node $NODE_NAME Ready with a pod Running in $((SECONDS - start))s (pods reach the host at $NODE_HOST_IP)"
  cmd_env
}

# ---------------------------------------------------------------------------------------
# down

# Our containerd's shims outlive it; only those naming our socket are ours.
stop_shims() {
  local pid cmdline
  for pid in $(pgrep -f containerd-shim-runc-v2 || true); do
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || continue
    [[ $cmdline == *"-address $SOCK "* ]] && stop_pid containerd-shim "$pid"
  done
  return 0
}

stop_node() {
  stop_one kubelet
  if our_pid containerd >/dev/null; then
    "$BIN/cri-reset" "unix://$SOCK" >&2 || log "warning: some pod sandboxes were not removed"
  fi
  stop_one kube-proxy
  # Removes the rules kube-proxy made (services, masquerade); leftovers go in undo_host.
  "$BIN/kube-proxy" --cleanup --config="$RUN/kube-proxy.yaml" >>"$RUN/logs/kube-proxy.log" 2>&1 || true
  stop_one kube-scheduler
  stop_one coredns
  stop_one containerd
  stop_shims
  undo_host
}

unregister_node() {
  local kubeconfig kubectl
  kubeconfig=$(bash "$CLUSTER" env | sed -n 's/^KUBECONFIG=//p')
  kubectl=$(bash "$CLUSTER" env | sed -n 's/^KUBECTL=//p')
  bash "$CLUSTER" status >/dev/null 2>&1 || return 0
  "$kubectl" --kubeconfig "$kubeconfig" delete node "$NODE_NAME" --ignore-not-found --wait=false >&2 ||
    log "warning: could not delete node $NODE_NAME"
}

cmd_down() {
  lock_node
  if release_lease "$LEASES" node stops; then
    rm -rf "$LEASES"
    stop_node
    unregister_node
    log "stopped"
  fi
  # A test run's lease on the control plane (taken by `up` under the same pid) goes back too, so
  # the run leaves no servers behind; the manual lease stays: the control plane outlives a
  # `make node-down` until `scripts/cluster.sh down`.
  if [[ $LEASE_ARG =~ ^[0-9]+$ ]]; then bash "$CLUSTER" down --lease "$LEASE_ARG" 6>&-; fi
}

cmd_status() {
  local ok=0 name pid
  for name in $COMPONENTS; do
    if pid=$(our_pid "$name"); then log "$name: running (pid $pid)"; else
      log "$name: stopped"
      ok=1
    fi
  done
  KUBECONFIG_PATH=$(bash "$CLUSTER" env | sed -n 's/^KUBECONFIG=//p')
  KUBECTL=$(bash "$CLUSTER" env | sed -n 's/^KUBECTL=//p')
  if node_ready 2>/dev/null; then log "node $NODE_NAME: Ready"; else
    log "node $NODE_NAME: not Ready"
    ok=1
  fi
  return $ok
}

# Docker-style short names resolve as kubelet resolves them, so a pod's `image:` finds it.
normalize_ref() {
  local ref=$1 first=${1%%/*}
  if [[ $ref != */* ]]; then
    ref=docker.io/library/$ref
  elif [[ $first != *.* && $first != *:* && $first != localhost ]]; then
    ref=docker.io/$ref
  fi
  [[ ${ref##*/} == *:* || $ref == *@* ]] || ref+=:latest
  echo "$ref"
}

cmd_load() {
  local archive=${ARGS[0]:-} name=${ARGS[1]:-} ref
  [[ -f $archive && -n $name ]] || die "usage: $0 load <oci-archive> <name:tag>"
  lock_node
  our_pid containerd >/dev/null || die "the node is not up (run '$0 up')"
  ref=$(normalize_ref "$name")
  # --index-name keeps the archive's index under exactly this name; the --base-name filter
  # drops the archive's own tag-only names (which ctr would otherwise prefix with import-DATE).
  ctr_ images import --base-name edu-node-load.invalid/none --index-name "$ref" "$archive" >&2
  # grep reads all of ls's output (no -q): with pipefail, an early exit would fail ctr by SIGPIPE.
  ctr_ images ls -q | grep -xF "$ref" >/dev/null || die "import of $archive did not create $ref"
  log "imported $archive as $ref"
  echo "$ref"
}

parse_args "lease force words" "$@"

run_command "build up down status env load"
