# shellcheck shell=bash
# Sourced by scripts/cluster.sh, node.sh, netpol.sh and kind.sh once they have set ROOT, RUN and
# LOG_TAG: log and die with the script's tag, their one command-line parser, the leases
# (scripts/leases.sh), the run-dir lock, and the go build (lib/go-build.sh) and host-change
# (lib/host.sh) helpers. Besides functions it sets what they share: LEASES, the leases under $RUN
# (kind.sh keeps a set per cluster instead), and go on PATH from its default install place.

# shellcheck disable=SC2034 # the scripts read it
LEASES=$RUN/leases
command -v go >/dev/null || PATH=/usr/local/go/bin:$PATH

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# parse_args ACCEPTED COMMAND [ARG...]: the command line `script <command> [options] [words]` of
# cluster.sh, node.sh, netpol.sh and kind.sh. Sets CMD to the command, LEASE_ARG (--lease PID, else
# empty), FORCE (--force: true, else false), WIPE (--wipe: true, else false), NAME (--name N; else
# left as the script set it) and ARGS (the other words). ACCEPTED lists what the script takes, of
# lease, force, wipe, name and words; anything else dies with "unknown argument".
# shellcheck disable=SC2034 # the calling script reads what this sets
parse_args() {
  local accepted=" $1 " kind
  shift
  CMD=${1:-}
  (($#)) && shift
  LEASE_ARG="" FORCE=false WIPE=false ARGS=()
  while (($#)); do
    kind=words
    [[ $1 == -* ]] && kind=${1#--}
    [[ $accepted == *" $kind "* ]] || die "unknown argument: $1 (see $0 --help)"
    case $1 in
      --lease)
        [[ $# -ge 2 ]] || die "--lease needs a pid"
        LEASE_ARG=$2
        shift
        ;;
      --name)
        [[ $# -ge 2 ]] || die "--name needs a cluster name"
        NAME=$2
        shift
        ;;
      --force) FORCE=true ;;
      --wipe) WIPE=true ;;
      *) ARGS+=("$1") ;;
    esac
    shift
  done
}

# Runs cmd_<CMD> (a dash as an underscore) when CMD is one of COMMANDS; else prints the script's
# header comment, its usage, and exits 2.
run_command() { # commands
  if [[ $CMD =~ ^[a-z-]+$ && " $1 " == *" $CMD "* ]]; then
    "cmd_${CMD//-/_}"
    return
  fi
  sed -n '2,/^set -euo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Installs the Debian packages named (none: nothing to do), as root; waits for another installer's
# dpkg lock rather than failing.
install_packages() { # package...
  (($#)) || return 0
  [[ $EUID -eq 0 ]] || die "missing packages $*; run as root to install them"
  log "installing $* from Debian"
  apt-get -o DPkg::Lock::Timeout=900 update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q \
    --no-install-recommends "$@" >&2
}

# Gives back the caller's lease on DIR (--lease PID, even of a process that has exited since; else
# the manual lease). Succeeds when no live lease is left or --force was given: the caller then
# stops what it runs. Otherwise says who still holds it ("WHAT stays up ... --force VERB it
# anyway") and fails.
release_lease() { # dir what verb
  local lease others
  if [[ $LEASE_ARG =~ ^[0-9]+$ ]]; then lease=$LEASE_ARG; else lease=$(lease_name "$LEASE_ARG") || exit 2; fi
  lease_release "$1" "$lease"
  others=$(lease_live "$1" | tr '\n' ' ')
  [[ -n $others && $FORCE != true ]] || return 0
  log "$2 stays up: still leased by ${others% } (--force $3 it anyway)"
  return 1
}

# $RUN/.lock on the given fd (one digit), held until the script exits; `what` names the lock in the
# timeout message.
lock_run_dir() { # fd what
  [[ $1 == [0-9] ]] || die "lock_run_dir: fd must be one digit (got '$1')"
  mkdir -p "$RUN"
  eval "exec $1>\"\$RUN/.lock\""
  flock -w "${EDU_CLUSTER_LOCK_TIMEOUT:-3600}" "$1" ||
    die "timed out waiting for the $2 lock $RUN/.lock (another up or down is running)"
}

# shellcheck source=scripts/leases.sh
source "$ROOT/scripts/leases.sh"
# shellcheck source=scripts/lib/go-build.sh
source "$ROOT/scripts/lib/go-build.sh"
# shellcheck source=scripts/lib/host.sh
source "$ROOT/scripts/lib/host.sh"
