# shellcheck shell=bash
# Process handling of scripts/cluster.sh and scripts/node.sh: only pids from our pidfiles whose
# command line is our binary with our run dir in its arguments are ever signalled, so a reused pid
# or a foreign etcd is safe. Sourced after RUN is set; the script defines bin_of (component →
# binary path). Defines functions only.

pidfile() { echo "$RUN/$1.pid"; }

# Prints the pid if component $1 runs from the script's binary and run dir.
our_pid() {
  local f pid cmdline
  f=$(pidfile "$1")
  [[ -f $f ]] || return 1
  pid=$(<"$f")
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
  cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  [[ $cmdline == "$(bin_of "$1") "* && $cmdline == *"$RUN/"* ]] || return 1
  echo "$pid"
}
