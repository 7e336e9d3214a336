#!/usr/bin/env bash
# Runs only the named test files (mocha's config spec would add every suite):
#   scripts/test-one.sh services/kit/test/errors.test.ts [more files] [mocha flags]
# With MONGODB_URI and KAFKA_BROKERS set, the global hooks use those servers and start nothing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec npx mocha --no-config --node-option import=tsx --extension ts \
  --require services/kit/test/support/global-hooks.ts --timeout 20000 --reporter spec "$@"
