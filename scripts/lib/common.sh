# shellcheck shell=bash
# Sourced by scripts/cluster.sh, node.sh, netpol.sh and kind.sh once they have set ROOT, RUN and
# LOG_TAG: log and die with the script's tag, the leases (scripts/leases.sh), the run-dir lock,
# and the go build (lib/go-build.sh) and host-change (lib/host.sh) helpers. It and the files it
# sources only define functions.

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() {
	log "error: $*"
	exit 1
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
