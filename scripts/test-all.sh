#!/usr/bin/env bash
# Runs every check `make test` promises and prints one closing line: "N passed, M failed, K skipped".
# Mocha's own summaries are per suite; this adds them up (its "pending" tests are the skipped
# ones), and counts a failed type check, lint, schemathesis run or a suite that could not start as
# one failure each, so a broken step can never read as green.
# EDU_TEST_STEPS (default: all) names the steps to run, e.g. "unit kind": typecheck lint format
# shell infra-leases unit schemathesis k8s kind node.
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT" || exit 1
LOG_DIR="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/run/test-logs"
mkdir -p "$LOG_DIR"
# Each suite is counted from this run's own copy of its output: two clones running `make test` on
# one machine share LOG_DIR, and counting from a log the other run is writing garbles the summary.
# The copy in LOG_DIR stays for reading afterwards (the last run's).
RUN_LOGS=$(mktemp -d "${TMPDIR:-/tmp}/edu-test-all.XXXXXX")
trap 'rm -rf "$RUN_LOGS"' EXIT
passed=0
failed=0
skipped=0

step() { printf '\n== %s ==\n' "$*"; }

wanted() { [[ -z ${EDU_TEST_STEPS:-} || " $EDU_TEST_STEPS " == *" $1 "* ]]; }

# A step that is one check: it passes or it fails.
check() {
  local name=$1
  shift
  step "$name"
  if "$@"; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    echo "FAILED: $name"
  fi
}

# A mocha suite: add its passing/failing/pending counts; a run that printed no summary is one failure.
suite() {
  local name=$1 log="$RUN_LOGS/$1.log"
  shift
  step "$name"
  "$@" 2>&1 | tee "$log"
  cp "$log" "$LOG_DIR/$name.log" 2>/dev/null || true
  local rc=${PIPESTATUS[0]} p f k
  p=$(grep -Eo '^ *[0-9]+ passing' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  f=$(grep -Eo '^ *[0-9]+ failing' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  k=$(grep -Eo '^ *[0-9]+ pending' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  skipped=$((skipped + ${k:-0}))
  if [[ -z $p && $rc -ne 0 ]] || [[ ${f:-0} -eq 0 && $rc -ne 0 ]]; then
    failed=$((failed + 1))
    echo "FAILED: $name exited $rc"
  fi
}

# A suite this machine cannot run (no root, not Linux, no Go: scripts/lib/suite-prerequisites.ts
# decides) is not a failure: one line says why and how to run it, and its tests, counted without
# running them (mocha --dry-run), are added to the skipped.
skip_suite() { # name reason mocha-config
  local name=$1 reason=$2 config=$3 n
  step "$name"
  n=$(npx mocha --config "$config" --dry-run 2>/dev/null | grep -Eo '^ *[0-9]+ passing' | tail -1 | grep -Eo '[0-9]+' || true)
  echo "SKIPPED: the $name suite (${n:-1} tests): $reason"
  skipped=$((skipped + ${n:-1}))
}

# The reason this machine cannot run a suite (k8s or node), empty when it can.
cannot_run() { node --import tsx scripts/lib/suite-prerequisites.ts "$1"; }

wanted typecheck && check typecheck npx tsc -p tsconfig.json --noEmit
wanted lint && check lint npx eslint .
wanted format && check format npx prettier --check --log-level warn .
wanted shell && check shell scripts/lint-shell.sh
wanted infra-leases && check infra-leases scripts/tests/infra-leases.sh
wanted unit && suite unit npx mocha
# The OpenAPI documents checked by a tool nobody here wrote (scripts/schemathesis.sh). 50 examples
# per operation keep `make test` under 20 minutes with seven services (about 250 operations);
# `scripts/schemathesis.sh` alone fuzzes with 100.
wanted schemathesis && check schemathesis env EDU_ST_MAX_EXAMPLES="${EDU_ST_MAX_EXAMPLES:-50}" scripts/schemathesis.sh
# The cluster suite (the local control plane unless KUBECONFIG is set); the platform in real pods
# on kind (scripts/kind-test.sh platform: the cluster created or reused, the images built and
# loaded, the chart installed with in-cluster stores, reached through port-forwards); then the same
# platform tests on the project's host node against the secure profile's external SASL_SSL Kafka
# and mTLS MongoDB (k8s-tests/node.mocharc.json; docs/kind.md says why both stay). Each runs only
# where it can (scripts/lib/suite-prerequisites.ts; EDU_SKIP_K8S_TESTS=1, EDU_SKIP_KIND_TESTS=1 and
# EDU_SKIP_NODE_TESTS=1 skip them by hand); the node suite needs the cluster suite's control plane.
k8s_reason=$(cannot_run k8s)
kind_reason=$(cannot_run kind)
node_reason=$(cannot_run node)
[[ -z $k8s_reason || -n $node_reason ]] || node_reason="needs the local control plane: $k8s_reason"
if wanted k8s; then
  if [[ -n $k8s_reason ]]; then
    skip_suite k8s "$k8s_reason" k8s-tests/.mocharc.json
  else
    suite k8s npx mocha --config k8s-tests/.mocharc.json
  fi
fi
if wanted kind; then
  if [[ -n $kind_reason ]]; then
    skip_suite kind "$kind_reason" k8s-tests/kind.mocharc.json
  else
    suite kind scripts/kind-test.sh platform
  fi
fi
if wanted node; then
  if [[ -n $node_reason ]]; then
    skip_suite node "$node_reason" k8s-tests/node.mocharc.json
  else
    suite node npx mocha --config k8s-tests/node.mocharc.json
  fi
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
