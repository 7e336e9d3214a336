#!/usr/bin/env bash
# Runs a command (a benchmark) against the test profile's Kafka + MongoDB and, with --cluster, the
# local control plane; exports MONGODB_URI, KAFKA_BROKERS (and KUBECONFIG, KUBECTL, HELM). It holds a
# lease on them for its own shell's pid and gives it back at the end: they stop only when nobody
# else (another run, or a developer's `up`) holds one.
#   scripts/with-servers.sh [--cluster] -- <command...>
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cluster=false
if [[ ${1:-} == --cluster ]]; then
  cluster=true
  shift
fi
[[ ${1:-} == -- ]] && shift
(($# > 0)) || {
  echo "usage: scripts/with-servers.sh [--cluster] -- <command...>" >&2
  exit 2
}

stops=()
cleanup() {
  local i
  for ((i = ${#stops[@]} - 1; i >= 0; i--)); do eval "${stops[i]}" || true; done
}
trap cleanup EXIT

infra="$REPO_ROOT/scripts/infra.sh"
env_lines=$("$infra" up --profile test --lease $$)
stops+=("'$infra' down --profile test --lease $$")
while IFS= read -r line; do
  case $line in
    MONGODB_URI=* | KAFKA_BROKERS=*) export "${line?}" ;;
  esac
done <<<"$env_lines"

if $cluster; then
  k8s="$REPO_ROOT/scripts/cluster.sh"
  if [[ -z ${KUBECONFIG:-} ]]; then
    KUBECONFIG=$("$k8s" up --lease $$ | sed -n 's/^KUBECONFIG=//p')
    stops+=("'$k8s' down --wipe --lease $$")
    export KUBECONFIG
  fi
  while IFS= read -r line; do
    case $line in
      KUBECTL=* | HELM=*) export "${line?}" ;;
    esac
  done < <("$k8s" env)
fi

"$@"
