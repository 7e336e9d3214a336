#!/usr/bin/env bash
# In-cluster check of what a registry-less kind cluster gets from scripts/images.sh (k8s-tests/kind):
#  - kube-router.yaml: the DaemonSet's pods become Ready on every node; a NetworkPolicy that admits
#    only role=allowed to an echo server blocks another client pod (on the same node and, when there
#    is one, from the control-plane node) while the allowed one still passes, by pod IP and Service;
#  - mongo-standin.yaml: the Deployment becomes Ready (non-root, read-only root filesystem) and a
#    pod with the project's mongodb driver (the platform image) pings, inserts and finds through
#    the Service mongodb-standin.
#   scripts/tests/kind-addons.sh [--name CLUSTER] [--keep]
# Needs a running cluster of `scripts/kind.sh up` (its env gives KUBECONFIG). Builds what is missing
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
while (($#)); do
  case "$1" in
    --name)
      NAME_ARGS=(--name "${2:?--name needs a cluster name}")
      shift
      ;;
    --keep) KEEP=true ;;
    *)
      sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
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

KUBECONFIG="$("$REPO_ROOT/scripts/kind.sh" env "${NAME_ARGS[@]}" | sed -n 's/^KUBECONFIG=//p')"
[[ -f "$KUBECONFIG" ]] || fail "no cluster: scripts/kind.sh env printed no KUBECONFIG (scripts/kind.sh up first)"
export KUBECONFIG
KUBECTL="$(command -v kubectl || true)"
for k in "$CACHE"/kind-*/bin/kubectl "$CACHE"/k8s-cli-*/bin/kubectl; do
  [[ -n "$KUBECTL" ]] && break
  [[ -x "$k" ]] && KUBECTL="$k"
done
[[ -n "$KUBECTL" ]] || fail "no kubectl (PATH, scripts/kind.sh's or scripts/cluster.sh's cache)"
k() { "$KUBECTL" "$@"; }

CREATED_DS=false
cleanup() {
  local rc=$?
  if ((rc != 0)); then
    k -n "$NS" get pods -o wide >&2 2>/dev/null || true
    k -n kube-system logs -l app.kubernetes.io/name=kube-router --tail=20 --prefix >&2 2>/dev/null || true
  fi
  k delete namespace "$NS" --ignore-not-found --wait=true --timeout=90s >/dev/null 2>&1 || true
  if [[ $CREATED_DS == true && $KEEP == false ]]; then
    k delete -f "$REPO_ROOT/k8s-tests/kind/kube-router.yaml" --ignore-not-found --wait=true --timeout=60s >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------
log "images (cached builds)"
"$REPO_ROOT/scripts/images.sh" build mongo >/dev/null
"$REPO_ROOT/scripts/images.sh" build kube-router >/dev/null
"$REPO_ROOT/scripts/images.sh" build platform --no-load >/dev/null
bash "$REPO_ROOT/scripts/netpol.sh" build
archives=(
  "$("$REPO_ROOT/scripts/images.sh" archive-path kube-router)"
  "$("$REPO_ROOT/scripts/images.sh" archive-path mongo)"
  "$("$REPO_ROOT/scripts/images.sh" archive-path platform)"
  "$(ls "$CACHE"/netpol-kube-router-*/images/echo.tar)"
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
cp_node=$(k get nodes -l node-role.kubernetes.io/control-plane -o jsonpath='{.items[0].metadata.name}')
pod() { # name role node-or-empty args...
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
  ${node:+nodeName: $node}
  terminationGracePeriodSeconds: 1
  automountServiceAccountToken: false
  tolerations: [{ key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule }]
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
{
  pod echo server "" serve "$PORT"
  pod allowed allowed "" sleep
  pod denied denied "" sleep
  # From another node too, when the cluster has a worker besides the control plane: the policy is
  # enforced on the destination's node.
  ((nodes > 1)) && pod denied-cp denied "$cp_node" sleep
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
clients=(allowed denied)
((nodes > 1)) && clients+=(denied-cp)
log "echo $echo_ip on $(k -n "$NS" get pod echo -o jsonpath='{.spec.nodeName}'); clients: ${clients[*]}"

dial() { # client target
  k -n "$NS" exec "$1" -- /netpol-echo dial "$2" >/dev/null 2>&1
}
targets=("$echo_ip:$PORT" "echo.$NS.svc.cluster.local:$PORT")
for c in "${clients[@]}"; do
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
for c in "${clients[@]:1}"; do
  while dial "$c" "$echo_ip:$PORT"; do
    ((SECONDS < deadline)) || fail "$c still reaches the echo server 60 s after the policy"
    sleep 1
  done
done
log "the policy blocks ${clients[*]:1} after $((SECONDS - applied)) s"
for c in "${clients[@]:1}"; do
  for t in "${targets[@]}"; do ! dial "$c" "$t" || fail "$c reaches $t through the policy"; done
done
for t in "${targets[@]}"; do dial allowed "$t" || fail "allowed cannot reach $t under the policy"; done
log "under the policy: allowed passes, ${clients[*]:1} are dropped (pod IP and Service)"

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
log "PASS"
