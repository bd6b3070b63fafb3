#!/usr/bin/env bash
# bench/fuzz-strategies.sh STEALCHECK [SEEDS] [SECONDS] [STRATEGIES] [JOBS]: the strategies of
# `stealcheck fuzz` side by side, on every known-bad variant that has generated scenarios.
#
# For each (known-bad, strategy, seed 1..SEEDS) one run of
#   STEALCHECK fuzz VARIANT --strategy S --seed N --no-minimize --seconds SECONDS --json F
# with the default sizes; from its JSON, whether it found the bug and at which execution and
# second. Prints a Markdown table: per known-bad and strategy, runs that found the bug (n/SEEDS),
# the median execution of the first bug and the median seconds (over the runs that found it),
# and the slowest run's seconds. Executions count the same on every machine; seconds depend on
# the machine and on JOBS runs side by side (default 2: one per core of a 2-core machine).
# Defaults: 20 seeds, 10 s, "greybox random pct tree". VARIANTS="a b" limits the run to those
# known-bads (the deep ones: VARIANTS="$(STEALCHECK list | awk '/, deep/ {print $1}')");
# SIZES="--thieves 7 --ops 100 --steals 100 --prefix 0" replaces the default sizes.
# Needs GNU parallel and jq.
set -euo pipefail
sc=${1:?usage: bench/fuzz-strategies.sh STEALCHECK [SEEDS] [SECONDS] [STRATEGIES] [JOBS]}
seeds=${2:-20}
seconds=${3:-10}
strategies=${4:-greybox random pct tree}
jobs=${5:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
variants=${VARIANTS:-$("$sc" list | awk '/KNOWN-BAD/ && $1 !~ /^sched/ {print $1}')}
sizes=${SIZES:-}
export sc seconds out sizes
run() {  # variant strategy seed
  # shellcheck disable=SC2086 # the sizes are words
  "$sc" fuzz "$1" $sizes --strategy "$2" --seed "$3" --no-minimize --seconds "$seconds" \
    --json "$out/$1.$2.$3.json" >/dev/null 2>&1 || true
}
export -f run
parallel -j "$jobs" run ::: $variants ::: $strategies ::: $(seq 1 "$seeds")
. "$(dirname "$0")/fuzz-cell.sh"
header="| known-bad |"
rule="|---|"
for s in $strategies; do
  header+=" $s: found, median execution, median s, slowest s |"
  rule+="---|"
done
echo "$header"
echo "$rule"
for v in $variants; do
  row="| \`$v\` |"
  for s in $strategies; do
    row+=" $(fuzz_cell "$out/$v.$s" "$seeds") |"
  done
  echo "$row"
done
# SPDX-License-Identifier: Apache-2.0
