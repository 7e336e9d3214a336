#!/usr/bin/env bash
# Runs every check `make test` promises and prints one closing line: "N passed, M failed, K skipped".
# Mocha's own summaries are per suite; this adds them up (its "pending" tests are the skipped
# ones), and counts a failed type check, lint, schemathesis run or a suite that could not start as
# one failure each, so a broken step can never read as green.
set -uo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
LOG_DIR="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/run/test-logs"
mkdir -p "$LOG_DIR"
passed=0
failed=0
skipped=0

step() { printf '\n== %s ==\n' "$*"; }

# A step that is one check: it passes or it fails.
check() {
  local name=$1
  shift
  step "$name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi
}

# A mocha suite: add its passing/failing/pending counts; a run that printed no summary is one failure.
suite() {
  local name=$1 log="$LOG_DIR/$1.log"
  shift
  step "$name"
  "$@" 2>&1 | tee "$log"
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

check typecheck npx tsc -p tsconfig.json --noEmit
check lint npx eslint .
check format npx prettier --check --log-level warn .
check infra-leases scripts/tests/infra-leases.sh
suite unit npx mocha
# The OpenAPI documents checked by a tool nobody here wrote (scripts/schemathesis.sh). 50 examples
# per operation keep `make test` under 20 minutes with seven services (about 250 operations);
# `scripts/schemathesis.sh` alone fuzzes with 100.
check schemathesis env EDU_ST_MAX_EXAMPLES="${EDU_ST_MAX_EXAMPLES:-50}" scripts/schemathesis.sh
if [[ ${EDU_SKIP_K8S_TESTS:-0} != 1 ]]; then
  suite k8s npx mocha --config k8s-tests/.mocharc.json
  # The platform in real pods on the local node (k8s-tests/node.mocharc.json brings the node, the
  # policy controller and the images up once, under leases; EDU_NODE_EXTERNAL=1 uses KUBECONFIG).
  if [[ ${EDU_SKIP_NODE_TESTS:-0} != 1 ]]; then
    suite node npx mocha --config k8s-tests/node.mocharc.json
  fi
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 ]]
