# shellcheck shell=bash
# The backgrounded go command with progress lines, shared by scripts/cluster.sh, scripts/node.sh
# and scripts/kind.sh. Sourced: it only defines functions. The caller defines log and die (their
# prefix is the caller's).

# go build -v names each package it compiles (cache hits are silent), so counting lines gives a
# progress signal for a build that is otherwise quiet for minutes: a line every 30 s.
run_go() { # what log go-args...
	local what=$1 logf=$2 start=$SECONDS
	shift 2
	log "building $what ..."
	go "$@" 2>>"$logf" &
	local pid=$! last=$SECONDS
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if ((SECONDS - last >= 30)); then
			last=$SECONDS
			log "  $what: $(grep -vc '^go: downloading' "$logf" || true) packages compiled so far, $((SECONDS - start))s"
		fi
	done
	if ! wait "$pid"; then
		tail -n 40 "$logf" >&2
		die "go build of $what failed (full log: $logf)"
	fi
	log "  $what done in $((SECONDS - start))s"
}

run_go_build() { # what log go-build-args...
	local what=$1 logf=$2
	shift 2
	run_go "$what" "$logf" build -v "$@"
}
