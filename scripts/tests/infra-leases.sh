#!/usr/bin/env bash
# Script-level test of the leases on local servers: two fake clones share one private cache and
# private ports, each runs `up` at the same moment as a test run would (a lease on a process of
# its own); the first `down` must leave the second's servers running and untouched, the last
# `down` stops them, a dead run's lease does not keep them up, and `cluster.sh up` takes its lock.
# Uses the real cache's provisioned jars when present (read only); otherwise provisions them.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REAL_CACHE="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}"
WORK=$(mktemp -d /tmp/edu-leases-test.XXXXXX)
CACHE="$WORK/cache"
holders=()
cleanup() {
  local h
  for h in "${holders[@]}"; do kill "$h" 2>/dev/null || true; done
  EDU_CACHE_DIR=$CACHE "$WORK/a/scripts/infra.sh" down --profile test --force >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export EDU_MONGO_PORT EDU_KAFKA_PORT EDU_KAFKA_CONTROLLER_PORT
EDU_MONGO_PORT=$(free_port) EDU_KAFKA_PORT=$(free_port) EDU_KAFKA_CONTROLLER_PORT=$(free_port)
unset MONGODB_URI KAFKA_BROKERS

mkdir -p "$CACHE"
for entry in "$REAL_CACHE"/kafka-* "$REAL_CACHE"/mongo-java-server-*; do
  [[ -f $entry/.complete ]] && ln -s "$entry" "$CACHE/${entry##*/}"
done
for clone in a b; do
  mkdir -p "$WORK/$clone"
  cp -r "$REPO_ROOT/scripts" "$REPO_ROOT/tools" "$WORK/$clone/"
  # infra.sh's readiness probe (scripts/lib/probe.ts) takes the kit's import-free timing module.
  mkdir -p "$WORK/$clone/services/kit/src/core"
  cp "$REPO_ROOT/services/kit/src/core/timing.ts" "$WORK/$clone/services/kit/src/core/"
  ln -s "$REPO_ROOT/node_modules" "$WORK/$clone/node_modules"
done

infra() { # clone args...
  local clone=$1
  shift
  EDU_CACHE_DIR=$CACHE "$WORK/$clone/scripts/infra.sh" "$@"
}
pid_of() { cat "$CACHE/run/test/$1.pid"; }
# Alive and not a zombie (a stopped server may wait to be reaped by whoever adopted it).
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

# Each "test run" is a process of its own that holds the lease, like mocha does.
sleep 600 &
holder_a=$!
sleep 600 &
holder_b=$!
holders+=("$holder_a" "$holder_b")

echo "two runs start the test profile at the same moment"
infra a up --profile test --lease "$holder_a" >"$WORK/a.env" 2>"$WORK/a.log" &
up_a=$!
infra b up --profile test --lease "$holder_b" >"$WORK/b.env" 2>"$WORK/b.log" &
up_b=$!
wait "$up_a" || fail "up from clone a failed: $(cat "$WORK/a.log")"
wait "$up_b" || fail "up from clone b failed: $(cat "$WORK/b.log")"
cmp -s "$WORK/a.env" "$WORK/b.env" || fail "the two runs got different servers"
grep -qx "KAFKA_BROKERS=127.0.0.1:$EDU_KAFKA_PORT" "$WORK/a.env" || fail "not on the private kafka port"
mongo=$(pid_of mongo) kafka=$(pid_of kafka)

echo "b writes a document; a finishes and calls down"
uri=$(sed -n 's/^MONGODB_URI=//p' "$WORK/b.env")
(cd "$REPO_ROOT" && node -e '
  const { MongoClient } = require("mongodb");
  const c = new MongoClient(process.argv[1]);
  c.connect().then(() => c.db("leases").collection("t").insertOne({ _id: "b" })).finally(() => c.close());
' "$uri")
infra a down --profile test --lease "$holder_a" 2>"$WORK/down-a.log"
grep -q "stays up" "$WORK/down-a.log" || fail "first down did not say the profile stays up: $(cat "$WORK/down-a.log")"
{ running "$mongo" && running "$kafka"; } || fail "the first down stopped the second run's servers"
infra b status --profile test >/dev/null || fail "status after the first down is not all up"
count=$(cd "$REPO_ROOT" && node -e '
  const { MongoClient } = require("mongodb");
  const c = new MongoClient(process.argv[1]);
  c.connect().then(() => c.db("leases").collection("t").countDocuments()).then((n) => console.log(n)).finally(() => c.close());
' "$uri")
[[ $count == 1 ]] || fail "the second run's data was wiped (count $count)"

echo "a run killed without down leaves a stale lease that does not keep the servers up"
sleep 600 &
holder_c=$!
holders+=("$holder_c")
infra a up --profile test --lease "$holder_c" >/dev/null 2>&1 || fail "up for run c failed"
kill "$holder_c"
wait "$holder_c" 2>/dev/null || true
infra b down --profile test --lease "$holder_b" 2>/dev/null
running "$mongo" && fail "mongo still runs after the last live lease was given back"
running "$kafka" && fail "kafka still runs after the last live lease was given back"
infra b status --profile test >/dev/null 2>&1 && fail "status says up after the last down"

echo "a manual up is not stopped by a test run's down"
infra a up --profile test >/dev/null 2>&1 || fail "manual up failed"
infra b up --profile test --lease "$holder_a" >/dev/null 2>&1 || fail "leased up failed"
infra b down --profile test --lease "$holder_a" 2>/dev/null
infra a status --profile test >/dev/null || fail "a test run's down stopped servers started by hand"
infra a down --profile test 2>/dev/null
infra a status --profile test >/dev/null 2>&1 && fail "the manual down did not stop the servers"

echo "cluster.sh up takes the cluster lock"
grep -q 'flock' "$REPO_ROOT/scripts/cluster.sh" || fail "cluster.sh has no flock"
mkdir -p "$CACHE/run/cluster"
exec 6>"$CACHE/run/cluster/.lock"
flock 6
if EDU_CACHE_DIR=$CACHE EDU_CLUSTER_LOCK_TIMEOUT=1 "$WORK/a/scripts/cluster.sh" up >/dev/null 2>"$WORK/cl.log"; then
  fail "cluster.sh up ran while another up held the lock"
fi
grep -q "lock" "$WORK/cl.log" || fail "cluster.sh up did not say it waited for the lock: $(cat "$WORK/cl.log")"
exec 6>&-
echo "infra leases: all passed"
