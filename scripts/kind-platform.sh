#!/usr/bin/env bash
# The platform on the kind cluster of scripts/kind.sh: what `make kind-load`, `make helm-install`
# and the kind suite (k8s-tests/helpers/kind-setup.ts) all need, said once. Two cases:
#   - Docker provider (a laptop): registries are reachable. The platform image is built with
#     `docker build` from ./Dockerfile and loaded by name; the chart's in-cluster Kafka and MongoDB
#     use their official images; kind's own CNI (kindnetd) enforces NetworkPolicies.
#   - podman provider (this kind of machine: no registry). Every image is built here
#     (scripts/images.sh: platform, Kafka, the MongoDB stand-in, the policy controller) and loaded
#     from its archive; MongoDB is the stand-in Deployment in the release's namespace; kube-router
#     enforces NetworkPolicies (the kindnetd stand-in does not).
#
#   scripts/kind-platform.sh images [--tag TAG]   build and load the images (default tag dev)
#   scripts/kind-platform.sh addons               podman: the policy controller, Ready on every node
#   scripts/kind-platform.sh values               the chart values files for this provider, one per line
#   scripts/kind-platform.sh standin NAMESPACE    podman: the MongoDB stand-in in NAMESPACE, Ready
#   scripts/kind-platform.sh install [--namespace NS] [--tag TAG] [helm args...]
#                                                 all of the above, then helm upgrade --install --wait
#
# Env: KUBECTL, HELM (default: on PATH, else scripts/cluster.sh tools), and scripts/kind.sh's.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHART=$ROOT/charts/edu-platform
KIND=$ROOT/scripts/kind.sh
IMAGES=$ROOT/scripts/images.sh
ADDONS=$ROOT/k8s-tests/kind
RELEASE=${EDU_RELEASE:-edu-platform}
READY_TIMEOUT=${EDU_READY_TIMEOUT:-300}

log() { printf '[kind-platform] %s\n' "$*" >&2; }
# shellcheck source=scripts/lib/clients.sh
source "$ROOT/scripts/lib/clients.sh"

die() {
  log "error: $*"
  exit 1
}

# The running cluster's KUBECONFIG, KIND_CLUSTER and KIND_PROVIDER (scripts/kind.sh env).
cluster_env() {
  local lines
  lines=$(bash "$KIND" env) || die "no kind cluster is up: run \`make kind-up\` (scripts/kind.sh up) first"
  eval "$lines"
  export KUBECONFIG KIND_CLUSTER KIND_PROVIDER
}

local_images() { [[ $KIND_PROVIDER == podman ]]; }

cmd_images() {
  local tag=$1
  if ! local_images; then
    log "building edu-platform:$tag with docker and loading it into $KIND_CLUSTER"
    docker build -t "edu-platform:$tag" "$ROOT" >&2
    bash "$KIND" load --name "$KIND_CLUSTER" "edu-platform:$tag" >&2
    return 0
  fi
  local what archives=()
  bash "$IMAGES" build platform --tag "$tag" >&2
  for what in kafka mongo kube-router; do bash "$IMAGES" build "$what" >&2; done
  archives+=("$(bash "$IMAGES" archive-path platform --tag "$tag")")
  for what in kafka mongo kube-router; do archives+=("$(bash "$IMAGES" archive-path "$what")"); done
  bash "$KIND" load --name "$KIND_CLUSTER" "${archives[@]}" >&2
}

cmd_addons() {
  local_images || return 0
  log "applying the policy controller (kube-router) and waiting until it is Ready on every node"
  "$KUBECTL" apply -f "$ADDONS/kube-router.yaml" >&2
  "$KUBECTL" -n kube-system rollout status daemonset/kube-router --timeout "${READY_TIMEOUT}s" >&2
}

cmd_values() {
  echo "$CHART/ci/kind-values.yaml"
  if local_images; then echo "$CHART/ci/kind-local-values.yaml"; fi
}

cmd_standin() { # namespace
  local_images || return 0
  local ns=$1
  "$KUBECTL" create namespace "$ns" --dry-run=client -o yaml | "$KUBECTL" apply -f - >&2
  "$KUBECTL" -n "$ns" apply -f "$ADDONS/mongo-standin.yaml" >&2
  "$KUBECTL" -n "$ns" rollout status deployment/mongodb-standin --timeout "${READY_TIMEOUT}s" >&2
}

cmd_install() {
  local ns=edu-platform tag=dev
  while (($#)); do
    case $1 in
      --namespace) ns=$2 && shift 2 ;;
      --tag) tag=$2 && shift 2 ;;
      *) break ;;
    esac
  done
  cmd_images "$tag"
  cmd_addons
  cmd_standin "$ns"
  local values=() file
  while read -r file; do values+=(-f "$file"); done < <(cmd_values)
  "$HELM" upgrade --install "$RELEASE" "$CHART" --namespace "$ns" --create-namespace "${values[@]}" \
    --set "image.tag=$tag" --wait --timeout 12m "$@" >&2
  "$KUBECTL" get pods -n "$ns"
}

main() {
  local cmd=${1:-}
  shift || true
  local tag=dev
  [[ ${1:-} == --tag ]] && tag=${2:?--tag needs a value}
  case $cmd in
    images) cluster_env && cmd_images "$tag" ;;
    addons) cluster_env && k8s_clients && cmd_addons ;;
    values) cluster_env && cmd_values ;;
    standin) cluster_env && k8s_clients && cmd_standin "${1:?standin needs a namespace}" ;;
    install) cluster_env && k8s_clients && cmd_install "$@" ;;
    *)
      sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
      exit 2
      ;;
  esac
}

main "$@"
