#!/usr/bin/env bash
# `make kind-test`: the cluster suite and the platform suite on a kind cluster, as a laptop runs
# them. scripts/kind.sh creates the cluster (or reuses the one of that name) with Docker where an
# engine answers, else podman (root, a node image built here); the platform suite's root hooks
# (k8s-tests/helpers/kind-setup.ts) build and load the images and install the chart; the tests reach
# the platform through port-forwards, never through ClusterIP addresses. On failure the cluster's
# pods, events and logs are written under the test logs. The cluster is deleted at the end when
# this run created it and no other run still holds a lease on it (EDU_KEEP_INFRA=1 keeps it).
#
#   scripts/kind-test.sh [cluster] [platform]    default: both, in that order
#
# Env: EDU_CACHE_DIR, EDU_KIND_NAME, EDU_KIND_PROVIDER, EDU_KIND_WORKERS (scripts/kind.sh).
# Exits non-zero when a suite failed; each suite prints its own mocha summary.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
CACHE=${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}
LOG_DIR=$CACHE/run/test-logs

log() { printf '[kind-test] %s\n' "$*" >&2; }

# shellcheck source=scripts/lib/clients.sh
source "$ROOT/scripts/lib/clients.sh"

# What a failed run leaves for reading: every pod, the events, and the logs of each container
# (the previous instance's too, for a crash loop), under $LOG_DIR/kind-failure-<time>/.
collect() {
  local dir
  dir=$LOG_DIR/kind-failure-$(date +%Y%m%d-%H%M%S)
  mkdir -p "$dir"
  "$KUBECTL" get pods -A -o wide >"$dir/pods.txt" 2>&1
  "$KUBECTL" get events -A --sort-by=.lastTimestamp >"$dir/events.txt" 2>&1
  "$KUBECTL" get dij -A -o yaml >"$dir/docximportjobs.yaml" 2>&1
  local ns pod
  while read -r ns pod; do
    [[ -n $pod ]] || continue
    "$KUBECTL" logs -n "$ns" "$pod" --all-containers --tail=500 >"$dir/$ns.$pod.log" 2>&1
    "$KUBECTL" logs -n "$ns" "$pod" --all-containers --previous --tail=200 >"$dir/$ns.$pod.previous.log" 2>/dev/null ||
      rm -f "$dir/$ns.$pod.previous.log"
  done < <("$KUBECTL" get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' 2>/dev/null)
  log "failure: the cluster's pods, events and logs are in $dir"
}

main() {
  local suites=("$@")
  ((${#suites[@]})) || suites=(cluster platform)
  mkdir -p "$LOG_DIR"
  k8s_clients || {
    log "could not get kubectl and helm"
    return 1
  }
  local lease=(--lease $$) env_lines
  [[ ${EDU_KEEP_INFRA:-} == 1 ]] && lease=()
  env_lines=$(bash scripts/kind.sh up "${lease[@]}") || {
    log "the kind cluster did not come up (scripts/kind.sh up)"
    return 1
  }
  eval "$env_lines"
  export KUBECONFIG KIND_CLUSTER KIND_PROVIDER
  ((${#lease[@]})) && trap 'bash scripts/kind.sh down --lease $$ >&2' EXIT
  log "cluster $KIND_CLUSTER ($KIND_PROVIDER provider), KUBECONFIG=$KUBECONFIG"
  local rc=0 suite
  for suite in "${suites[@]}"; do
    case $suite in
      cluster) npx mocha --config k8s-tests/.mocharc.json || rc=1 ;;
      platform) npx mocha --config k8s-tests/kind.mocharc.json || rc=1 ;;
      *)
        log "unknown suite $suite (cluster or platform)"
        return 2
        ;;
    esac
  done
  ((rc == 0)) || collect
  return "$rc"
}

main "$@"
