#!/bin/bash
# The image's entrypoint: kube-router with the DaemonSet's arguments, after pointing Debian's
# iptables alternatives at the backend the node already uses, and its policy chains and ipsets
# removed from the node when the pod is stopped.
#   edu-kube-router-start.sh KUBE-ROUTER-ARGS...   run kube-router (SIGTERM: stop it, then clean up)
#   edu-kube-router-start.sh cleanup               only remove kube-router's chains and ipsets
# Backend: Debian defaults to iptables-nft; a node whose kube-proxy and kubelet write legacy
# (xtables) rules needs kube-router's chains there, or its jumps from FORWARD/INPUT/OUTPUT would sit
# in the other backend's hooks, ordered arbitrarily against kube-proxy's. The backend with more
# rules wins (nft on a tie: nothing yet).
# Cleanup: kube-router leaves its rules behind when it stops, and a rule keyed on a deleted pod's IP
# would apply that pod's policy to whichever pod gets the IP next; so a stopped pod (DaemonSet
# deleted, rolled or drained) removes them, and the next one rebuilds them in its first sync. A
# crash (kube-router exits by itself) keeps them: the restarted container takes them over.
#   EDU_IPTABLES_MODE          legacy|nft: skip the detection
#   EDU_CLEANUP_ON_STOP        false: keep the rules when the pod stops
# Needs a writable /etc/alternatives (the DaemonSet's root filesystem is not read-only).
set -euo pipefail

# What kube-router's policy controller creates (pkg/controllers/netpol, v2.1.0), as
# scripts/netpol.sh names them for the host: filter chains, and ipsets (TMP- while it swaps a set).
CHAIN_RE='^(KUBE-ROUTER-|KUBE-POD-FW-|KUBE-NWPLCY-)'
IPSET_RE='^(inet6:)?(KUBE-SRC-|KUBE-DST-|TMP-)'

log() { echo "edu-kube-router: $*" >&2; }

rules() { # save-command...: the number of rules it lists (0 when the backend is unusable)
  { timeout 10 "$@" 2>/dev/null || true; } | grep -c '^-' || true
}

choose_backend() {
  local mode="${EDU_IPTABLES_MODE:-}" legacy nft
  if [[ -z "$mode" ]]; then
    legacy=$(($(rules iptables-legacy-save) + $(rules ip6tables-legacy-save)))
    nft=$(($(rules iptables-nft-save) + $(rules ip6tables-nft-save)))
    mode=nft
    ((legacy <= nft)) || mode=legacy
    log "iptables-$mode (rules on this node: legacy $legacy, nft $nft)"
  fi
  [[ "$mode" == legacy || "$mode" == nft ]] || {
    log "EDU_IPTABLES_MODE must be legacy or nft, not '$mode'"
    exit 2
  }
  update-alternatives --quiet --set iptables "/usr/sbin/iptables-$mode"
  update-alternatives --quiet --set ip6tables "/usr/sbin/ip6tables-$mode"
}

# The jumps into kube-router's chains from the node's own chains, then its chains, in one
# iptables-restore transaction per family; then its ipsets, which nothing references any more.
cleanup() {
  local family chains script c n=0 sets=0
  for family in iptables ip6tables; do
    chains="$("$family-save" -t filter 2>/dev/null | sed -n 's/^:\([^ ]*\) .*/\1/p' | grep -E "$CHAIN_RE")" || continue
    script="$("$family-save" -t filter 2>/dev/null | awk -v re="$CHAIN_RE" '
      /^-A / { tgt = ""; for (i = 3; i < NF; i++) if ($i == "-j" || $i == "-g") tgt = $(i + 1)
        if ($2 !~ re && tgt ~ re) { sub(/^-A/, "-D"); print } }')"
    for c in $chains; do script+=$'\n'"-F $c"; done
    for c in $chains; do script+=$'\n'"-X $c"; done
    if printf '*filter\n%s\nCOMMIT\n' "$script" | "$family-restore" --noflush; then
      n=$((n + $(wc -w <<<"$chains")))
    else
      log "warning: could not remove the $family chains $(tr '\n' ' ' <<<"$chains")"
    fi
  done
  for c in $(ipset list -n 2>/dev/null | grep -E "$IPSET_RE" || true); do
    if ipset destroy "$c"; then sets=$((sets + 1)); else log "warning: could not destroy ipset $c"; fi
  done
  log "removed $n chains and $sets ipsets"
}

choose_backend
if [[ "${1:-}" == cleanup ]]; then
  cleanup
  exit 0
fi

# kube-router as a child, not exec'd: the shell must outlive it to clean up after a SIGTERM.
/usr/local/bin/kube-router "$@" &
pid=$!
stopping=false
trap 'stopping=true; kill -TERM "$pid" 2>/dev/null || true' TERM INT
set +e
while :; do
  wait "$pid"
  rc=$?
  # A trapped signal interrupts wait while kube-router still shuts down: wait again.
  kill -0 "$pid" 2>/dev/null || break
done
set -e
if [[ "$stopping" == true && "${EDU_CLEANUP_ON_STOP:-true}" != false ]]; then
  cleanup
  exit 0
fi
exit "$rc"
