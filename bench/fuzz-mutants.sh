#!/usr/bin/env bash
# bench/fuzz-mutants.sh STEALCHECK [SEEDS] [SECONDS] [JOBS]: recall of `stealcheck fuzz` on the
# mutants that `stealcheck mutate` kills.
#
# For each correct variant with generated scenarios (VARIANTS="a b" limits them), runs
#   STEALCHECK mutate VARIANT --json F
# and takes every mutant it reports killed (one site weakened to one order, a model client finds
# a bug); for each such mutant and seed 1..SEEDS one run of
#   STEALCHECK fuzz VARIANT --site SITE=ORDER --seed N --no-minimize --seconds SECONDS --json F
# with the default strategy and sizes (FUZZ_ARGS="..." adds options to every run, e.g.
# --no-steal-from-thieves; MUTANTS="VARIANT SITE=ORDER; ..." takes those mutants instead of asking
# `mutate`). Prints a Markdown table, a row per mutant: runs that found
# a bug (n/SEEDS), the median execution of the first bug and the median seconds (over the runs
# that found it), and the slowest such run; then the mutants found by every seed, of all.
# Defaults: 20 seeds, 10 s, 2 jobs (one run per core of a 2-core machine). Needs GNU parallel
# and jq.
set -euo pipefail
sc=${1:?usage: bench/fuzz-mutants.sh STEALCHECK [SEEDS] [SECONDS] [JOBS]}
seeds=${2:-20}
seconds=${3:-10}
jobs=${4:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ -n "${MUTANTS:-}" ]; then
  tr ';' '\n' <<<"$MUTANTS" | awk 'NF == 2 {print $1, $2}' >"$out/mutants.txt"
else
  variants=${VARIANTS:-$("$sc" list | awk 'NR > 1 && !/KNOWN-BAD/ && $1 != "sched" {print $1}')}
  for v in $variants; do
    "$sc" mutate "$v" --jobs "$jobs" --json "$out/$v.mutate.json" >/dev/null 2>&1 || true
    jq -r --arg v "$v" '(.mutants // [])[] | select(.verdict == "killed") | "\($v) \(.site)=\(.order)"' \
      "$out/$v.mutate.json"
  done >"$out/mutants.txt"
fi
fuzz_args=${FUZZ_ARGS:-}
export sc seconds out fuzz_args
run() {  # variant site=order seed
  # shellcheck disable=SC2086 # FUZZ_ARGS: words of their own
  "$sc" fuzz "$1" --site "$2" --seed "$3" --no-minimize --seconds "$seconds" $fuzz_args \
    --json "$out/$1.$2.$3.json" >/dev/null 2>&1 || true
}
export -f run
parallel -j "$jobs" --colsep ' ' run {1} {2} {3} :::: "$out/mutants.txt" ::: $(seq 1 "$seeds")
. "$(dirname "$0")/fuzz-cell.sh"
echo "| variant | mutant | found, median execution, median s, slowest s |"
echo "|---|---|---|"
all=0
every=0
while read -r v m; do
  cell=$(fuzz_cell "$out/$v.$m" "$seeds")
  all=$((all + 1))
  [ "${cell%%/*}" -lt "$seeds" ] || every=$((every + 1))
  echo "| \`$v\` | \`$m\` | $cell |"
done <"$out/mutants.txt"
echo
echo "$every of $all killed mutants found by $seeds/$seeds seeds within $seconds s"
# SPDX-License-Identifier: Apache-2.0
