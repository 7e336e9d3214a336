# shellcheck shell=bash
# The service registry (services/registry.ts) for bash: the scripts read their lists of services
# and processes from it, never from a list of their own. Defines functions only.

# registry_print WHAT [--base N]: the registry's lines for WHAT (names, fuzz, fuzz-with, dev,
# dev-env; see printLines in services/registry.ts). Fails when the printer does.
registry_print() {
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  (cd "$root" && node --import tsx services/registry.ts --print "$@")
}
