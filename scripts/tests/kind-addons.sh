#!/usr/bin/env bash
# In-cluster check of what a registry-less kind cluster gets from scripts/images.sh (k8s-tests/kind):
#  - kube-router.yaml: the DaemonSet's pods become Ready on every node; a NetworkPolicy that admits
#    only role=allowed to an echo server drops the denied client pods while the allowed ones still
#    pass, by pod IP and Service, from the server's node and (two nodes or more) from another;
#    when this run created the DaemonSet, deleting it leaves no chain or ipset on the nodes;
#  - mongo-standin.yaml: the Deployment becomes Ready (non-root, read-only root filesystem) and a
#    pod with the project's mongodb driver (the platform image) pings, inserts and finds through
#    the Service mongodb-standin.
#   scripts/tests/kind-addons.sh [--name CLUSTER] [--keep] [--one-node]
# --one-node: every client on the server's node (a CNI or host that SNATs pod traffic between
# nodes makes a podSelector unable to admit a client from another node).
# Runs `scripts/kind.sh up --lease` (reuses the cluster, or creates one and deletes it at the end
# when no other lease is left). Builds what is missing
# (images.sh build mongo|kube-router|platform, netpol.sh build for the echo image), loads the
# archives with scripts/kind.sh load. Works in a namespace of its own, deleted at the end; the
# DaemonSet and its RBAC are removed again only if this run created them (--keep: left in place).
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}"
NS="edu-kind-addons-$$"
ECHO_IMAGE=localhost/edu-netpol/echo:1 # scripts/netpol.sh's IMAGE_TAG
PORT=8080
NAME_ARGS=()
KEEP=false
ONE_NODE=false
while (($#)); do
  case "$1" in
    --name)
      NAME_ARGS=(--name "${2:?--name needs a cluster name}")
      shift
      ;;
    --keep) KEEP=true ;;
    --one-node) ONE_NODE=true ;;
    *)
      sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
      exit 2
      ;;
  esac
  shift
done

t0=$SECONDS
log() { printf '[kind-addons %3ds] %s\n' $((SECONDS - t0)) "$*" >&2; }
fail() {
  log "FAIL: $*"
  exit 1
}

CREATED_DS=false
LEASED=false
KUBECTL=""
k() { "$KUBECTL" "$@"; }
cleanup() {
  local rc=$?
  if [[ -n "$KUBECTL" && -f "${KUBECONFIG:-}" ]]; then
    if ((rc != 0)); then
      k -n "$NS" get pods -o wide >&2 2>/dev/null || true
      k -n kube-system logs -l app.kubernetes.io/name=kube-router --tail=20 --prefix >&2 2>/dev/null || true
    fi
    if [[ $CREATED_DS == true && $KEEP == false ]]; then
      k delete -f "$REPO_ROOT/k8s-tests/kind/kube-router.yaml" --ignore-not-found --wait=true --timeout=60s >/dev/null 2>&1 || true
    fi
    k delete namespace "$NS" --ignore-not-found --wait=true --timeout=90s >/dev/null 2>&1 || true
  fi
  [[ $LEASED == false ]] || "$REPO_ROOT/scripts/kind.sh" down "${NAME_ARGS[@]}" --lease $$ >&2 || true
}
trap cleanup EXIT

# A lease on the cluster for this run: reused, or created and then deleted at the end when no
# other lease is left. Given back even if `up` fails half-way.
LEASED=true
KUBECONFIG="$("$REPO_ROOT/scripts/kind.sh" up "${NAME_ARGS[@]}" --lease $$ | sed -n 's/^KUBECONFIG=//p')"
[[ -f "$KUBECONFIG" ]] || fail "scripts/kind.sh up printed no usable KUBECONFIG"
export KUBECONFIG
KUBECTL="$(command -v kubectl || true)"
for kc in "$CACHE"/kind-*/bin/kubectl "$CACHE"/k8s-cli-*/bin/kubectl; do
  [[ -n "$KUBECTL" ]] && break
  [[ -x "$kc" ]] && KUBECTL="$kc"
done
[[ -n "$KUBECTL" ]] || fail "no kubectl (PATH, scripts/kind.sh's or scripts/cluster.sh's cache)"

# ---------------------------------------------------------------------------------------------
log "images (cached builds)"
"$REPO_ROOT/scripts/images.sh" build mongo >/dev/null
"$REPO_ROOT/scripts/images.sh" build kube-router >/dev/null
# The platform image only serves as a client with the project's mongodb driver: any built one
# will do (a rebuild after a source change would cost minutes of npm ci).
"$REPO_ROOT/scripts/images.sh" archive-path platform >/dev/null 2>&1 ||
  "$REPO_ROOT/scripts/images.sh" build platform --no-load >/dev/null
bash "$REPO_ROOT/scripts/netpol.sh" build
archives=(
  "$("$REPO_ROOT/scripts/images.sh" archive-path kube-router)"
  "$("$REPO_ROOT/scripts/images.sh" archive-path mongo)"
  "$("$REPO_ROOT/scripts/images.sh" archive-path platform)"
  "$CACHE/netpol-kube-router-v2.1.0/images/echo.tar"
)
log "loading ${archives[*]##*/}"
"$REPO_ROOT/scripts/kind.sh" load "${NAME_ARGS[@]}" "${archives[@]}" >&2

# ---------------------------------------------------------------------------------------------
k -n kube-system get daemonset kube-router >/dev/null 2>&1 || CREATED_DS=true
log "kube-router DaemonSet (created by this run: $CREATED_DS)"
k apply -f "$REPO_ROOT/k8s-tests/kind/kube-router.yaml" >&2
k -n kube-system rollout status daemonset/kube-router --timeout=180s >&2 ||
  fail "the kube-router pods did not become ready"
nodes=$(k get nodes -o name | wc -l)
ready=$(k -n kube-system get daemonset kube-router -o jsonpath='{.status.numberReady}')
((ready == nodes)) || fail "kube-router ready on $ready of $nodes nodes"
k -n kube-system logs -l app.kubernetes.io/name=kube-router --prefix --tail=-1 | grep 'edu-kube-router: iptables-' >&2 ||
  fail "no pod logged its iptables backend"
log "kube-router ready on $ready/$nodes nodes"

k create namespace "$NS" >/dev/null
k label namespace "$NS" app.kubernetes.io/part-of=edu-platform-tests >/dev/null
# The echo server and one client of each kind on one node (a worker when there is one), and when
# the cluster has two nodes one of each on the other: a policy is enforced on the destination's
# node, and must still know a client from another node by its pod IP.
home=$(k get nodes -l '!node-role.kubernetes.io/control-plane' -o jsonpath='{.items[0].metadata.name}')
[[ -n "$home" ]] || home=$(k get nodes -o jsonpath='{.items[0].metadata.name}')
other=""
[[ $ONE_NODE == true ]] ||
  other=$(k get nodes -o jsonpath='{.items[*].metadata.name}' | tr ' ' '\n' | grep -vx "$home" | head -n 1 || true)
pod() { # name role node args...
  local name=$1 role=$2 node=$3
  shift 3
  local args
  args=$(printf '"%s",' "$@")
  cat <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: $name
  labels: { role: $role }
spec:
  nodeName: $node
  terminationGracePeriodSeconds: 1
  automountServiceAccountToken: false
  securityContext: { runAsNonRoot: true, runAsUser: 65534, seccompProfile: { type: RuntimeDefault } }
  containers:
    - name: main
      image: $ECHO_IMAGE
      imagePullPolicy: IfNotPresent
      args: [${args%,}]
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: [ALL] } }
---
YAML
}
allowed=(allowed)
denied=(denied)
[[ -z "$other" ]] || allowed+=(allowed-other) denied+=(denied-other)
{
  pod echo server "$home" serve "$PORT"
  pod allowed allowed "$home" sleep
  pod denied denied "$home" sleep
  if [[ -n "$other" ]]; then
    pod allowed-other allowed "$other" sleep
    pod denied-other denied "$other" sleep
  fi
  cat <<YAML
apiVersion: v1
kind: Service
metadata:
  name: echo
spec:
  selector: { role: server }
  ports: [{ port: $PORT, targetPort: $PORT }]
YAML
} | k -n "$NS" apply -f - >&2
k -n "$NS" wait --for=condition=Ready pod --all --timeout=120s >&2 || fail "the test pods did not become ready"
echo_ip=$(k -n "$NS" get pod echo -o jsonpath='{.status.podIP}')
log "echo $echo_ip on $home; clients on $home${other:+ and $other}: ${allowed[*]} ${denied[*]}"

dial() { # client target
  k -n "$NS" exec "$1" -- /netpol-echo dial "$2" >/dev/null 2>&1
}
targets=("$echo_ip:$PORT" "echo.$NS.svc.cluster.local:$PORT")
for c in "${allowed[@]}" "${denied[@]}"; do
  for t in "${targets[@]}"; do dial "$c" "$t" || fail "$c cannot reach $t before any policy"; done
done
log "without a policy every client reaches the echo server"

k -n "$NS" apply -f - >&2 <<YAML
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: echo-only-allowed
spec:
  podSelector: { matchLabels: { role: server } }
  policyTypes: [Ingress]
  ingress:
    - from: [{ podSelector: { matchLabels: { role: allowed } } }]
      ports: [{ protocol: TCP, port: $PORT }]
YAML
applied=$SECONDS
deadline=$((SECONDS + 60))
for c in "${denied[@]}"; do
  while dial "$c" "$echo_ip:$PORT"; do
    ((SECONDS < deadline)) || fail "$c still reaches the echo server 60 s after the policy"
    sleep 1
  done
done
log "the policy blocks ${denied[*]} after $((SECONDS - applied)) s"
for c in "${denied[@]}"; do
  for t in "${targets[@]}"; do ! dial "$c" "$t" || fail "$c reaches $t through the policy"; done
done
for c in "${allowed[@]}"; do
  for t in "${targets[@]}"; do
    # A client on another node that is dropped here most likely reaches the node masqueraded (the
    # CNI's SNAT to its node's address), so that no podSelector can match it.
    dial "$c" "$t" || fail "$c cannot reach $t under the policy${other:+ (from $other: traffic between nodes SNATed? try --one-node)}"
  done
done
log "under the policy: ${allowed[*]} pass, ${denied[*]} are dropped (pod IP and Service)"

# ---------------------------------------------------------------------------------------------
log "mongo stand-in"
k -n "$NS" apply -f "$REPO_ROOT/k8s-tests/kind/mongo-standin.yaml" >&2
k -n "$NS" rollout status deployment/mongodb-standin --timeout=120s >&2 || fail "mongodb-standin did not become ready"
mongo_js=$(
  cat <<'JS'
const { MongoClient } = require('/app/node_modules/mongodb');
(async () => {
  const c = new MongoClient('mongodb://mongodb-standin:27017/?directConnection=true', { serverSelectionTimeoutMS: 20000 });
  await c.connect();
  await c.db('admin').command({ ping: 1 });
  const col = c.db('edu_kind_addons').collection('probe');
  await col.insertOne({ _id: 'probe', text: 'from a pod' });
  const d = await col.findOne({ _id: 'probe' });
  if (!d || d.text !== 'from a pod') throw new Error(`found ${JSON.stringify(d)}`);
  await c.close();
  console.log('mongo-client: ping, insert and find through mongodb-standin ok');
})().catch((e) => { console.error(`mongo-client: ${e.message}`); process.exit(1); });
JS
)
k -n "$NS" run mongo-client --image="localhost/edu-platform:${EDU_IMAGE_TAG:-dev}" --image-pull-policy=IfNotPresent \
  --restart=Never --command -- node -e "$mongo_js" >/dev/null
k -n "$NS" wait pod/mongo-client --for=jsonpath='{.status.phase}'=Succeeded --timeout=90s >/dev/null ||
  fail "mongo client: $(k -n "$NS" logs mongo-client 2>&1 | tail -n 5)"
log "$(k -n "$NS" logs mongo-client)"
log "stand-in pod: uid $(k -n "$NS" exec deploy/mongodb-standin -- id -u), read-only root: $(k -n "$NS" get deploy mongodb-standin -o jsonpath='{.spec.template.spec.containers[0].securityContext.readOnlyRootFilesystem}')"

# ---------------------------------------------------------------------------------------------
# A stopped kube-router pod removes its chains and ipsets from its node (tools/images/kube-router):
# checked only when this run created the DaemonSet and may delete it, while this namespace's
# policy still has rules and sets on the nodes; the check pods see each node's tables.
if [[ $CREATED_DS == true && $KEEP == false ]]; then
  log "deleting the DaemonSet: its pods must leave no rule behind"
  removed_log=$(mktemp)
  k -n kube-system logs -f -l app.kubernetes.io/name=kube-router --prefix --tail=0 >"$removed_log" 2>&1 &
  follower=$!
  sleep 1
  k delete -f "$REPO_ROOT/k8s-tests/kind/kube-router.yaml" --wait=true --timeout=60s >&2
  k -n kube-system wait pod -l app.kubernetes.io/name=kube-router --for=delete --timeout=60s >&2 || true
  kill "$follower" 2>/dev/null || true
  wait "$follower" 2>/dev/null || true
  log "$(grep 'edu-kube-router: removed' "$removed_log" | tr '\n' ' ')"
  rm -f "$removed_log"
  for node in $(k get nodes -o jsonpath='{.items[*].metadata.name}'); do
    k -n "$NS" apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: rules-$node
spec:
  nodeName: $node
  hostNetwork: true
  restartPolicy: Never
  automountServiceAccountToken: false
  containers:
    - name: main
      image: localhost/edu-kube-router:v2.1.0
      imagePullPolicy: IfNotPresent
      securityContext: { privileged: true }
      command: [sh, -c, 'iptables-nft-save 2>/dev/null; iptables-legacy-save 2>/dev/null; ipset list -n']
YAML
  done
  for node in $(k get nodes -o jsonpath='{.items[*].metadata.name}'); do
    k -n "$NS" wait "pod/rules-$node" --for=jsonpath='{.status.phase}'=Succeeded --timeout=60s >/dev/null ||
      fail "the rules check pod on $node did not complete"
    left=$(k -n "$NS" logs "rules-$node" | grep -cE '^(:|-A )?(KUBE-ROUTER-|KUBE-POD-FW-|KUBE-NWPLCY-|KUBE-SRC-|KUBE-DST-)|-j KUBE-(ROUTER|POD-FW|NWPLCY)-' || true)
    ((left == 0)) || fail "$left kube-router chains, rules or ipsets left on $node: $(k -n "$NS" logs "rules-$node" | grep -E 'KUBE-(ROUTER|POD-FW|NWPLCY|SRC|DST)-' | head -n 5)"
  done
  CREATED_DS=false
  log "no kube-router chain, jump or ipset left on any node"
fi
log "PASS"
