# shellcheck shell=bash
# Host-change bookkeeping shared by scripts/node.sh, scripts/kind.sh and scripts/netpol.sh: an
# iptables chain snapshot, then the removal of the chains made since (and of the rules that jump to
# them), and a sysctl record and restore. Sourced: it only defines functions. The caller defines log
# (which gives the lines its own prefix) and keeps its records in a state dir of its own.
#
# The chain functions take the families and tables as optional words (default: iptables and
# ip6tables; filter, nat, mangle and raw); the removal must be given those the snapshot was.

iptables_chains() { # family [tables] -> "table chain" lines
  local t
  for t in ${2:-filter nat mangle raw}; do
    "$1-save" -t "$t" 2>/dev/null | sed -n "s/^:\([^ ]*\) .*/$t \1/p"
  done
}

host_record_chains() { # state-dir [families [tables]]
  local fam
  for fam in ${2:-iptables ip6tables}; do
    iptables_chains "$fam" "${3:-}" >"$1/chains.$fam"
  done
}

# The sysctls of the list that this kernel has, with their values, one "name value" a line.
host_record_sysctls() { # state-dir names (one word)
  local s
  for s in $2; do
    [[ -e /proc/sys/${s//.//} ]] && printf '%s %s\n' "$s" "$(sysctl -n "$s")"
  done >"$1/sysctl" || true
}

# Deletes the chains whose names match the regex and that were not in the snapshot, and the rules
# of other chains that jump to them, in one iptables-restore transaction per table; the families
# in the order given (iptables first, then ip6tables, by default).
host_drop_new_chains() { # state-dir chain-name-regex [families [tables]]
  local dir=$1 re=$2 tables=${4:-filter nat mangle raw} fam t new script
  for fam in ${3:-iptables ip6tables}; do
    for t in $tables; do
      new=$(comm -13 <(sed -n "s/^$t //p" "$dir/chains.$fam" | sort) \
        <(iptables_chains "$fam" "$tables" | sed -n "s/^$t //p" | grep -E "$re" | sort))
      [[ -n $new ]] || continue
      script=$("$fam-save" -t "$t" | awk -v new="$new" '
				BEGIN { n = split(new, a, "\n"); for (i = 1; i <= n; i++) s[a[i]] = 1 }
				/^-A / { tgt = ""; for (i = 3; i < NF; i++) if ($i == "-j" || $i == "-g") tgt = $(i + 1)
					if (!($2 in s) && (tgt in s)) { sub(/^-A/, "-D"); print } }')
      script+=$'\n'$(awk '{ print "-F " $0 }' <<<"$new")$'\n'$(awk '{ print "-X " $0 }' <<<"$new")
      printf '*%s\n%s\nCOMMIT\n' "$t" "$script" | "$fam-restore" --noflush ||
        log "warning: could not remove $fam chains in table $t: $(tr '\n' ' ' <<<"$new")"
    done
  done
}

# Puts back every recorded sysctl that changed, except those for which keep-function (given the
# name; it logs why) succeeds.
host_restore_sysctls() { # state-dir [keep-function]
  local keep=${2:-} s v
  while read -r s v; do
    [[ $(sysctl -n "$s" 2>/dev/null) == "$v" ]] && continue
    [[ -n $keep ]] && "$keep" "$s" && continue
    sysctl -qw "$s=$v" || log "warning: could not restore $s=$v"
  done <"$1/sysctl"
}
