#!/usr/bin/env bash
# bench/certify-bounds.sh [STEALCHECK] [SECONDS] [VARIANT...]: how far `stealcheck certify` goes
# within SECONDS (default 600) on this machine with --jobs 2, for every correct built-in variant
# (or the ones named). The bound grows along one line: 2 thieves of at most 2 steals, no prefix,
# and the owner's operations from 2 up, one at a time. Before a bound that may not fit, a 1/16
# shard of it (`--shard 0/16`: every 16th class, smallest first, so a fair sample) estimates its
# time, 16 times the shard's: a bound estimated over 90 % of SECONDS is not run, and the estimate
# is printed instead (a shard still running at 90 % of SECONDS / 16 is stopped: the bound is over
# then); a bound that runs and does not end within SECONDS is stopped. The answer is the last
# bound that ended, up to the largest owner bound certify takes. One Markdown row per variant:
#   | variant | owner N | classes (scenarios) | executions | s | next bound |
# A benchmark: up to SECONDS and a bit per variant on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/tools/stealcheck}
budget=${2:-600}
shift $(($# > 0 ? 1 : 0))
shift $(($# > 0 ? 1 : 0))
variants=("$@")
[ -x "$bin" ] || { echo "bench/certify-bounds.sh: error: no executable $bin" >&2; exit 2; }
[ ${#variants[@]} -gt 0 ] ||
  mapfile -t variants < <("$bin" list | awk 'NR > 1 && !/KNOWN-BAD/ && $1 != "sched" {print $1}')
fixed=(--thieves 2 --steals 2 --jobs 2 --no-progress)
# the largest --owner certify takes (its range error names it); past it the line ends
max_owner=$({ "$bin" certify chase_lev --owner 999 2>&1 || true; } |
  sed -nE 's/.*not in range [0-9]+ to ([0-9]+).*/\1/p')

# run LIMIT ARGS...: the certificate line of `certify ARGS`, or nothing when it did not end in
# LIMIT seconds; exits on a violation or an error (no bound to measure then).
run() {
  local limit=$1 out rc=0
  shift
  out=$(timeout "$limit" "$bin" certify "$@" "${fixed[@]}" 2>&1) || rc=$?
  [ $rc -eq 124 ] && return 0
  if [ $rc -ne 0 ]; then
    echo "bench/certify-bounds.sh: certify $* ended with $rc:" >&2
    echo "$out" | head -5 >&2
    exit 1
  fi
  echo "$out" | grep '^certificate'
}

# field LINE: "classes (scenarios)|executions|seconds" of a certificate line.
field() {
  sed -E 's/.*: ([0-9]+) classes \(([0-9]+) scenarios\), ([0-9]+) executions .*; ([0-9.]+) s$/\1 (\2)|\3|\4/' <<<"$1"
}

echo "| variant | owner N | classes (scenarios) | executions | s | next bound |"
echo "|---|---|---|---|---|---|"
for v in "${variants[@]}"; do
  n=2 best="" next="" secs=0
  while :; do
    if [ -n "$max_owner" ] && [ "$n" -gt "$max_owner" ]; then
      next="owner $n: past certify's largest, $max_owner"
      break
    fi
    # The last bound took under a 256th of the budget: the next one is run without an
    # estimate. One owner operation more multiplied the time by up to 8 on the variants whose
    # thieves only steal, and by over 30 on batch stealers (go's owner 4 to 5), whose thief
    # step is a steal or a batch steal: a larger bound is estimated first.
    if awk -v s="$secs" -v b="$budget" 'BEGIN { exit !(s * 256 >= b) }'; then
      shard_limit=$(awk -v b="$budget" 'BEGIN { printf "%d", 0.9 * b / 16 + 1 }')
      shard=$(run "$shard_limit" "$v" --owner "$n" --shard 0/16)
      if [ -z "$shard" ]; then
        next="owner $n: its 1/16 shard not done in $shard_limit s (whole: over $((shard_limit * 16)) s)"
        break
      fi
      s16=$(sed -E 's/.*; ([0-9.]+) s$/\1/' <<<"$shard")
      estimate=$(awk -v s="$s16" 'BEGIN { printf "%.0f", s * 16 }')
      if awk -v e="$estimate" -v b="$budget" 'BEGIN { exit !(e >= 0.9 * b) }'; then
        next="owner $n: its 1/16 shard $s16 s (whole: about $estimate s)"
        break
      fi
    fi
    line=$(run "$budget" "$v" --owner "$n")
    if [ -z "$line" ]; then
      next="owner $n: not done in $budget s"
      break
    fi
    best="$n|$(field "$line")"
    secs=$(cut -d'|' -f4 <<<"$best")
    n=$((n + 1))
  done
  [ -n "$best" ] || best="-|-|-|-"
  echo "| \`$v\` | ${best//|/ | } | $next |"
done
# SPDX-License-Identifier: Apache-2.0
