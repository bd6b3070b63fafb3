#!/usr/bin/env bash
# bench/fuzz-detection.sh STEALCHECK [EXECUTIONS] [VARIANT]: the detection rate per execution
# (the share of single sampled executions that show the bug, C11Tester's metric) of each
# sampler, on the weak-memory mutants of a variant (default chase_lev: the C11 Chase-Lev deque
# of Le, Pop, Cohen and Zappa Nardelli, PPoPP 2013) in their smallest killing client.
#
# Runs `STEALCHECK mutate VARIANT --json F`, and for every mutant it reports killed takes the
# first client that kills it (the clients are listed smallest first); then for each sampler
#   STEALCHECK fuzz VARIANT --site SITE=ORDER --client CLIENT --strategy S --per-scenario 1 \
#     --executions EXECUTIONS --keep-going --no-minimize --seed 1 --json F
# (each scenario is one execution from a seed of its own) and prints a Markdown table: per
# mutant, the percentage of executions that showed a bug under random, pct and tree, and the
# mutants' median per sampler. Executions count the same on every machine (default 1000).
# Needs jq.
set -euo pipefail
sc=${1:?usage: bench/fuzz-detection.sh STEALCHECK [EXECUTIONS] [VARIANT]}
execs=${2:-1000}
variant=${3:-chase_lev}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$sc" mutate "$variant" --json "$out/mutate.json" >/dev/null 2>&1 || true
jq -r '(.mutants // [])[] | select(.verdict == "killed") | "\(.site)=\(.order) \(.killers[0])"' \
  "$out/mutate.json" >"$out/mutants.txt"
strategies="random pct tree"
echo "| mutant of \`$variant\` | client | random | pct | tree |"
echo "|---|---|---|---|---|"
for s in $strategies; do : >"$out/rates.$s"; done
while read -r m client; do
  row="| \`$m\` | \`$client\` |"
  for s in $strategies; do
    f="$out/$m.$s.json"
    "$sc" fuzz "$variant" --site "$m" --client "$client" --strategy "$s" --per-scenario 1 \
      --executions "$execs" --keep-going --no-minimize --seed 1 --json "$f" >/dev/null 2>&1 || true
    rate=$(jq '100 * (.scenarios_with_bug // 0) / ([.scenarios, 1] | max)' "$f")
    printf '%.1f\n' "$rate" >>"$out/rates.$s"
    row="$row $(printf '%.1f' "$rate") % |"
  done
  echo "$row"
done <"$out/mutants.txt"
median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) print "-"; else print v[int((NR + 1) / 2)]}'; }
row="| median of $(wc -l <"$out/mutants.txt") mutants | |"
for s in $strategies; do row="$row $(median <"$out/rates.$s") % |"; done
echo "$row"
# SPDX-License-Identifier: Apache-2.0
