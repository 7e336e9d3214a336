# shellcheck shell=bash
# Leases on a shared set of local servers (sourced by infra.sh and cluster.sh; needs log()).
# Every user of a profile holds a lease: a test run names a process of its own (`--lease PID`,
# the mocha process or the script's shell), a person who ran `up` by hand holds the `manual`
# lease. `down` gives the caller's lease back and stops the servers only when no live lease is
# left, so one run finishing never stops (or, by a restart, wipes) the servers another run is
# using. A lease whose process has exited (killed run) is dropped the next time leases are read;
# the process's start time is recorded with its pid, so a reused pid does not keep a lease alive.
# Callers hold the profile's lock around these functions.

# Start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), or nothing.
lease_proc_start() { # pid
  local stat rest fields
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  rest=${stat##*) }
  read -r -a fields <<<"$rest"
  printf '%s\n' "${fields[19]}"
}

# The lease name for --lease VALUE ("" = manual); fails for a value that is not a live pid.
lease_name() { # value
  if [[ -z $1 ]]; then
    printf 'manual\n'
  elif [[ $1 =~ ^[0-9]+$ ]] && lease_proc_start "$1" >/dev/null; then
    printf '%s\n' "$1"
  else
    log "error: --lease needs the pid of a running process (got '$1')"
    return 1
  fi
}

lease_take() { # dir name
  mkdir -p "$1"
  if [[ $2 == manual ]]; then
    : >"$1/manual"
  else
    lease_proc_start "$2" >"$1/$2"
  fi
}

lease_release() { rm -f "$1/$2"; } # dir name

# Prints the live leases (one name a line) and removes the stale ones.
lease_live() { # dir
  local f name
  for f in "$1"/*; do
    [[ -e $f ]] || continue
    name=${f##*/}
    if [[ $name == manual ]]; then
      printf 'manual\n'
    elif [[ $name =~ ^[0-9]+$ && "$(lease_proc_start "$name" 2>/dev/null)" == "$(cat "$f" 2>/dev/null)" ]]; then
      printf '%s\n' "$name"
    else
      rm -f "$f"
    fi
  done
}
