#!/usr/bin/env bash
# bench/fuzz-throughput.sh STEALCHECK [SECONDS] [VARIANT]: executions and events per second of
# `stealcheck fuzz` on one core, by strategy, at scenarios of about 100, 1,000 and 10,000 events
# per execution and at 8 threads (the owner and 7 thieves) of 100 operations each.
#
# For each size and strategy one run of
#   STEALCHECK fuzz VARIANT SIZES --strategy S --no-clients --per-scenario 20 --seconds SECONDS \
#     --seed 1 --json F
# (generated scenarios only, so that every execution has the size of its row; the time is
# checked between scenarios, so a sampler that takes seconds per execution overruns SECONDS by
# up to 20 of them) and prints a
# Markdown table: per size, the events of an execution (mean) and per strategy executions per
# second and events per second. Rates depend on the machine; run it with nothing else running.
# Defaults: 5 s a run, chase_lev. Needs jq.
set -euo pipefail
sc=${1:?usage: bench/fuzz-throughput.sh STEALCHECK [SECONDS] [VARIANT]}
seconds=${2:-5}
variant=${3:-chase_lev}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sizes=(
  "--thieves 1 --ops 6 --steals 4 --prefix 2"
  "--thieves 3 --ops 80 --steals 40 --prefix 20"
  "--thieves 7 --ops 600 --steals 300 --prefix 100"
  "--thieves 7 --ops 100 --steals 100 --prefix 0"
)
strategies="greybox random pct tree"
echo "| \`fuzz $variant\` sizes | events per execution | greybox: execs/s, events/s | random | pct | tree |"
echo "|---|---|---|---|---|---|"
for z in "${sizes[@]}"; do
  row=""
  events=""
  for s in $strategies; do
    f="$out/run.json"
    # shellcheck disable=SC2086 # the sizes are words
    "$sc" fuzz "$variant" $z --strategy "$s" --no-clients --per-scenario 20 --seconds "$seconds" \
      --seed 1 --json "$f" >/dev/null 2>&1 || true
    read -r x e per < <(jq -r '[.executions / .seconds, .events / .seconds,
      .events / ([.executions, 1] | max)] | map(floor) | @tsv' "$f")
    [ -n "$events" ] || events=$per
    row="$row $x, $e |"
  done
  echo "| \`$z\` | $events |$row"
done
# SPDX-License-Identifier: Apache-2.0
