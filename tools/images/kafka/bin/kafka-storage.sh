#!/bin/bash
# kafka-storage.sh format|info|random-uuid ...   (see kafka-run-class.sh)
set -euo pipefail

exec "$(dirname "${BASH_SOURCE[0]}")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
