#!/bin/bash
# The image's entrypoint: kube-router with the DaemonSet's arguments, after pointing Debian's
# iptables alternatives at the backend the node already uses. Debian defaults to iptables-nft; a
# node whose kube-proxy and kubelet write legacy (xtables) rules needs kube-router's chains there,
# or its jumps from FORWARD/INPUT/OUTPUT would sit in the other backend's hooks, ordered
# arbitrarily against kube-proxy's. The backend with more rules wins (nft on a tie: nothing yet).
#   EDU_IPTABLES_MODE   legacy|nft: skip the detection
# Needs a writable /etc/alternatives (the DaemonSet's root filesystem is not read-only).
set -euo pipefail

rules() { # save-command...: the number of rules it lists (0 when the backend is unusable)
  { timeout 10 "$@" 2>/dev/null || true; } | grep -c '^-' || true
}

mode="${EDU_IPTABLES_MODE:-}"
if [[ -z "$mode" ]]; then
  legacy=$(($(rules iptables-legacy-save) + $(rules ip6tables-legacy-save)))
  nft=$(($(rules iptables-nft-save) + $(rules ip6tables-nft-save)))
  mode=nft
  ((legacy <= nft)) || mode=legacy
  echo "edu-kube-router: iptables-$mode (rules on this node: legacy $legacy, nft $nft)" >&2
fi
[[ "$mode" == legacy || "$mode" == nft ]] || {
  echo "edu-kube-router: EDU_IPTABLES_MODE must be legacy or nft, not '$mode'" >&2
  exit 2
}
update-alternatives --quiet --set iptables "/usr/sbin/iptables-$mode"
update-alternatives --quiet --set ip6tables "/usr/sbin/ip6tables-$mode"
exec /usr/local/bin/kube-router "$@"
