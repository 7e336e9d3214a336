#!/usr/bin/env bash
# Runs a command (a benchmark) against the test profile's Kafka + MongoDB and, with --cluster, the
# local control plane; exports MONGODB_URI, KAFKA_BROKERS (and KUBECONFIG, KUBECTL, HELM); afterwards stops only
# what it had to start, so a developer's running servers stay as they were.
#   scripts/with-servers.sh [--cluster] -- <command...>
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cluster=false
if [[ ${1:-} == --cluster ]]; then
  cluster=true
  shift
fi
[[ ${1:-} == -- ]] && shift
(($# > 0)) || { echo "usage: scripts/with-servers.sh [--cluster] -- <command...>" >&2; exit 2; }

stops=()
cleanup() {
  local i
  for ((i = ${#stops[@]} - 1; i >= 0; i--)); do eval "${stops[i]}" || true; done
}
trap cleanup EXIT

infra="$REPO_ROOT/scripts/infra.sh"
"$infra" env --profile test >/dev/null 2>&1 || stops+=("'$infra' down --profile test")
while IFS= read -r line; do
  case $line in
    MONGODB_URI=* | KAFKA_BROKERS=*) export "${line?}" ;;
  esac
done < <("$infra" up --profile test)

if $cluster; then
  k8s="$REPO_ROOT/scripts/cluster.sh"
  if [[ -z ${KUBECONFIG:-} ]]; then
    "$k8s" status >/dev/null 2>&1 || stops+=("'$k8s' down --wipe")
    KUBECONFIG=$("$k8s" up | sed -n 's/^KUBECONFIG=//p')
    export KUBECONFIG
  fi
  while IFS= read -r line; do
    case $line in
      KUBECTL=* | HELM=*) export "${line?}" ;;
    esac
  done < <("$k8s" env)
fi

"$@"
