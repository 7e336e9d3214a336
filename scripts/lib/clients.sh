# shellcheck shell=bash
# kubectl and helm for the scripts that drive a cluster (kind-test.sh, kind-platform.sh, `make
# helm-install`): $KUBECTL/$HELM when set, else the ones on PATH (a laptop's, any OS), else the
# project's Linux builds (scripts/cluster.sh tools, fetched once into the cache). Sourcing runs nothing.
k8s_clients() {
  [[ -n ${KUBECTL:-} && -n ${HELM:-} ]] && {
    export KUBECTL HELM
    return 0
  }
  if command -v kubectl >/dev/null && command -v helm >/dev/null; then
    KUBECTL=$(command -v kubectl) HELM=$(command -v helm)
  else
    local cluster
    cluster="$(dirname "${BASH_SOURCE[0]}")/../cluster.sh"
    bash "$cluster" tools >&2 || return 1
    eval "$(bash "$cluster" env | grep -E '^(KUBECTL|HELM)=')"
  fi
  export KUBECTL HELM
}
