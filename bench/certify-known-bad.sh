#!/usr/bin/env bash
# bench/certify-known-bad.sh [STEALCHECK] [-- BOUND...]: for every known-bad variant with
# scenarios, the smallest failing scenario `stealcheck certify` finds within BOUND (default
# --owner 4 --thieves 2 --steals 2), beside the built-in model clients that catch it
# (`stealcheck model VARIANT`: the clients reported with a bug under RC11). Each certify run is
# stopped after SECONDS (default 300). A Markdown table on stdout; docs/certify.md quotes it.
set -uo pipefail
bin=${1:-build/release/tools/stealcheck}
shift $(($# > 0 ? 1 : 0))
[ "${1:-}" = "--" ] && shift
bound=("$@")
[ ${#bound[@]} -gt 0 ] || bound=(--owner 4 --thieves 2 --steals 2)
echo "bound: ${bound[*]}"
echo
echo "| known-bad | smallest failing scenario (certify) | steps | certify s | built-in clients that catch it |"
echo "|---|---|---|---|---|"
for v in $("$bin" list | awk '/KNOWN-BAD/ && $1 !~ /^sched/ {print $1}'); do
  start=$(date +%s.%N)
  out=$(timeout "${SECONDS_EACH:-300}" "$bin" certify "$v" "${bound[@]}" 2>&1)
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  if [ $rc -eq 1 ]; then
    scenario=$(echo "$out" | sed -n 's/^VIOLATION in \(.*\) (\([0-9]*\) steps.*/\1/p')
    steps=$(echo "$out" | sed -n 's/^VIOLATION in .* (\([0-9]*\) steps.*/\1/p')
  elif [ $rc -eq 124 ]; then
    scenario="not finished in ${SECONDS_EACH:-300} s"
    steps="-"
  else
    scenario="none within the bound (exit $rc)"
    steps="-"
  fi
  clients=$("$bin" model "$v" 2>&1 |
    awk '/^[^ ].*\[rc11\]/ {split($1, p, "/"); c = p[2]} /^  BUG/ && c != "" {print c; c = ""}' |
    head -n 3 | paste -sd, - | sed 's/,/, /g')
  printf '| %s | `%s` | %s | %.1f | %s |\n' "$v" "$scenario" "$steps" "$secs" "${clients:-none}"
done
# SPDX-License-Identifier: Apache-2.0
