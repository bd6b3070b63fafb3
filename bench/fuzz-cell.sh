#!/usr/bin/env bash
# bench/fuzz-cell.sh: sourced by bench/fuzz-strategies.sh and bench/fuzz-mutants.sh.
# fuzz_cell PREFIX SEEDS reads the `stealcheck fuzz --json` files PREFIX.1.json ..
# PREFIX.SEEDS.json (a missing one counts as not found) and prints one table cell: runs that
# found a bug (n/SEEDS), the median execution of the first bug and the median seconds over those
# runs, and the slowest such run ("-" where no run found it). Sets `found` to n. Needs jq.
median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) print "-"; else print v[int((NR + 1) / 2)]}'; }
secs2() { if [ -z "$1" ] || [ "$1" = - ]; then echo -; else printf '%.2f' "$1"; fi; }
fuzz_cell() {
  local prefix=$1 seeds=$2 n f me ms slow
  local execs=() secs=()
  found=0
  for n in $(seq 1 "$seeds"); do
    f="$prefix.$n.json"
    [ -s "$f" ] || continue
    if [ "$(jq '.bug != null' "$f")" = true ]; then
      found=$((found + 1))
      execs+=("$(jq '.executions + 1' "$f")")
      secs+=("$(jq '.seconds' "$f")")
    fi
  done
  me=$(printf '%s\n' "${execs[@]:-}" | grep . | median || true)
  ms=$(printf '%s\n' "${secs[@]:-}" | grep . | median || true)
  slow=$(printf '%s\n' "${secs[@]:-}" | grep . | sort -g | tail -1 || true)
  echo "$found/$seeds, ${me:--}, $(secs2 "$ms"), $(secs2 "$slow")"
}
# SPDX-License-Identifier: Apache-2.0
