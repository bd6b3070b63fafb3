#!/bin/sh
# tools/tests/fuzz_cli.sh STEALCHECK [quick]: `stealcheck fuzz` end to end (quick: the sanitizer
# presets, three known-bads found early and three correct variants at 300 executions).
#  - every known-bad variant with generated scenarios (all but the scheduler's, which has model
#    clients only) is found with the default sizes within 50,000 executions (exit 1), and the
#    command the report gives to repeat it (the minimized scenario) finds the same bug again;
#  - the deep known-bads pass every model client (their bugs need a larger scenario);
#  - every correct variant shows no bug in 2,000 executions (exit 0, "NOT exhaustive"), and so
#    do the deep known-bads' controls (the correct variant at the same capacity);
#  - the same seed repeats the same run.
set -u
bin=$1
quick=${2:-}
fail=0
known_bad=$("$bin" list | awk '/KNOWN-BAD/ && $1 !~ /^sched/ {print $1}')
correct=$("$bin" list | awk 'NR > 1 && !/KNOWN-BAD/ && $1 != "sched" {print $1}')
[ -n "$known_bad" ] && [ -n "$correct" ] || { echo "no variants listed"; exit 1; }
clean=2000  # executions of each correct variant
if [ "$quick" = quick ]; then  # the bugs found within 500 executions with seed 1
  known_bad=$(echo "$known_bad" | grep -E '^(chase_lev_no_pop_fence|go_pop_runnext_no_cas|tokio_narrow_index)$')
  correct=$(echo "$correct" | grep -E '^(chase_lev|go|tokio)$')
  clean=300
fi
for v in $known_bad; do
  out=$("$bin" fuzz "$v" --seed 1 --executions 50000 2>&1)
  rc=$?
  first=$(echo "$out" | sed -n '/^BUG/,$p' | grep -v -E '^  (scenario|client):' | grep -m1 -E '^  [a-z_]+: ')
  if [ $rc -ne 1 ] || [ -z "$first" ]; then
    echo "FAIL $v: exit $rc, not a bug report"
    echo "$out" | head -5
    fail=1
    continue
  fi
  again=$(echo "$out" | sed -n 's/^  repeat this bug: [^ ]* //p')
  out2=$(eval "\"\$bin\" $again" 2>&1)  # the command quotes its scenario for a shell
  rc2=$?
  first2=$(echo "$out2" | sed -n '/^BUG/,$p' | grep -v -E '^  (scenario|client):' | grep -m1 -E '^  [a-z_]+: ')
  if [ $rc2 -ne 1 ] || [ "$first2" != "$first" ]; then
    echo "FAIL $v: the repeat gave exit $rc2 and '$first2', not '$first'"
    fail=1
  fi
  echo "ok $v: $(echo "$out" | grep -m1 '^BUG')"
done
for v in $("$bin" list | awk '/KNOWN-BAD [a-z_]*, deep/ {print $1}'); do
  "$bin" model "$v" >/dev/null 2>&1 || { echo "FAIL $v: a model client caught a deep bug"; fail=1; }
done
[ "$quick" = quick ] || correct="$correct chase_lev:8 tokio:8"
for vc in $correct; do
  v=${vc%%:*}
  cap=""
  [ "$v" = "$vc" ] || cap="--capacity ${vc#*:}"
  out=$("$bin" fuzz "$v" $cap --seed 1 --executions "$clean" 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || ! echo "$out" | grep -q 'NOT exhaustive'; then
    echo "FAIL $vc: exit $rc on a correct variant"
    echo "$out" | head -20
    fail=1
  fi
done
# --json: the bug, minimized, with the command that repeats it (generated scenarios only)
"$bin" fuzz chase_lev_no_pop_fence --seed 1 --no-clients --json fuzz.json >/dev/null 2>&1
python3 - fuzz.json <<'PY' || { echo "FAIL: --json"; fail=1; }
import json, sys
j = json.load(open(sys.argv[1]))
b = j["bug"]
assert j["variant"] == "chase_lev_no_pop_fence" and j["seed"] == 1 and j["executions"] > 0, j
assert b["minimized"].startswith("prefix [") and "--scenario" in b["repeat"], b
assert "taken twice" in b["report"], b["report"][:200]
PY
# every strategy finds a bug that needs a stale read and an interleaving
for st in random pct tree; do
  "$bin" fuzz chase_lev_no_pop_fence --strategy "$st" --seed 1 --executions 20000 --no-minimize \
    >/dev/null 2>&1
  rc=$?
  [ $rc -eq 1 ] || { echo "FAIL: --strategy $st missed chase_lev_no_pop_fence (exit $rc)"; fail=1; }
done
# --site: a mutant that a model client kills is found, and its repeat command keeps the site
out=$("$bin" fuzz chase_lev --site chase_lev::steal.load_bottom=relaxed --seed 1 --executions 20000 2>&1)
rc=$?
echo "$out" | grep -q "repeat this bug: .*--site chase_lev::steal.load_bottom=relaxed" && [ $rc -eq 1 ] ||
  { echo "FAIL: --site: exit $rc"; echo "$out" | head -5; fail=1; }
# the built-in clients among the rounds: with --no-steal-from-thieves, a mutant whose bug needs a
# thief that steals from another thief's deque (a shape no generated scenario then has) is found
# in the client that has it, explored exhaustively, and its repeat command names the client;
# --no-clients then misses it (not in quick: the client's turn comes about 2,350 executions in)
site=go::steal_into.store_dest_tail=relaxed
if [ "$quick" != quick ]; then
  out=$("$bin" fuzz go --site $site --no-steal-from-thieves --seed 1 --executions 20000 \
    --json fuzz-client.json 2>&1)
  rc=$?
  { [ $rc -eq 1 ] && echo "$out" | grep -q '^  client: steal_from_thief' &&
    echo "$out" | grep -q '^  explored exhaustively' &&
    echo "$out" | grep -q "repeat this bug: .*--client steal_from_thief .*--site $site"; } ||
    { echo "FAIL: a client's round: exit $rc"; echo "$out" | head -8; fail=1; }
  python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["bug"]; assert b["client"] == "steal_from_thief", b' \
    fuzz-client.json || { echo "FAIL: --json has no client"; fail=1; }
  "$bin" fuzz go --site $site --no-steal-from-thieves --seed 1 --executions 20000 --no-clients \
    >/dev/null 2>&1
  rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: --no-clients gave exit $rc (generated scenarios now reach it?)"; fail=1; }
fi
# steal@N by default on a batch-stealing variant: generated scenarios steal from a thief's deque
# too, and without the clients find the weakened publication of tokio's batch steal, minimized
# to a scenario that keeps such a steal (its repeat command needs no option); with
# --no-steal-from-thieves the repeat command keeps that option; a steal@N that names its own
# thief, or --steal-from-thieves on a variant without batch steals, is bad input
out=$("$bin" fuzz tokio --site tokio::steal_into.store_dest_tail=relaxed --no-clients --seed 1 \
  --executions 20000 2>&1)
rc=$?
{ [ $rc -eq 1 ] && echo "$out" | grep -q '^fuzz tokio: .*(steal@N too)' &&
  echo "$out" | grep -q '^  minimized to .*steal@' &&
  ! echo "$out" | grep -q -- '--steal-from-thieves'; } ||
  { echo "FAIL: steal@N by default: exit $rc"; echo "$out" | head -8; fail=1; }
out=$("$bin" fuzz tokio --no-steal-from-thieves --seed 1 --executions 200 2>&1)
rc=$?
{ [ $rc -eq 0 ] && ! echo "$out" | grep -q 'steal@N too' &&
  echo "$out" | grep -q '^  repeat: .*--no-steal-from-thieves'; } ||
  { echo "FAIL: --no-steal-from-thieves: exit $rc"; echo "$out" | head -8; fail=1; }
for bad in "fuzz go --scenario 'prefix [ ] owner [ ] thief1 [ steal@1 ]'" \
  "fuzz chase_lev --steal-from-thieves"; do
  out=$(eval "\"\$bin\" $bad" 2>&1)
  rc=$?
  { [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ]; } ||
    { echo "FAIL: $bad: exit $rc, not 2 with one line: $out"; fail=1; }
done
# a bug in an execution of thousands of events is reported at once: the_ticket2's deadlock at 8
# threads of 100 operations (execution 2 with seed 13), whose report's search for a cause once
# ran until the model checker's 60 s watchdog ended the run with exit 2 (not in quick)
if [ "$quick" != quick ]; then
  out=$(timeout 50 "$bin" fuzz the_ticket2 --thieves 7 --ops 100 --steals 100 --prefix 0 --seed 13 \
    --no-minimize --executions 100 2>&1)
  rc=$?
  { [ $rc -eq 1 ] && echo "$out" | grep -q 'deadlock'; } ||
    { echo "FAIL: the_ticket2 at 8 threads: exit $rc"; echo "$out" | grep -v '^    ' | head -5; fail=1; }
fi
# --keep-going: the budget runs out, the scenarios with a bug are counted (one execution each:
# the detection rate per execution), strictly between none and all on a mutant; none on the
# correct variant
out=$("$bin" fuzz chase_lev --site chase_lev::steal.load_bottom=relaxed --client push2_pop_steal2 \
  --strategy tree --per-scenario 1 --executions 300 --keep-going --no-minimize --seed 1 2>&1)
rc=$?
counts=$(echo "$out" | sed -n 's/^bugs in \([0-9]*\) of \([0-9]*\) scenarios.*/\1 \2/p')
set -- $counts
{ [ $rc -eq 1 ] && [ "${1:-0}" -gt 0 ] && [ "${1:-0}" -lt "${2:-0}" ] && [ $(($2 - $1)) -ge 300 ]; } ||
  { echo "FAIL: --keep-going: exit $rc, counts '$counts'"; echo "$out" | head -4; fail=1; }
out=$("$bin" fuzz chase_lev --client push2_pop_steal2 --strategy tree --per-scenario 1 \
  --executions 300 --keep-going --seed 1 2>&1)
rc=$?
[ $rc -eq 0 ] && ! echo "$out" | grep -q '^bugs in' ||
  { echo "FAIL: --keep-going on chase_lev: exit $rc"; fail=1; }
# --jobs: two threads share one campaign; a bug stops both and its command repeats it alone
out=$("$bin" fuzz chase_lev_no_pop_fence --seed 1 --jobs 2 --executions 20000 2>&1)
rc=$?
again=$(echo "$out" | sed -n 's/^  repeat this bug: [^ ]* //p')
[ $rc -eq 1 ] && [ -n "$again" ] || { echo "FAIL: --jobs 2 missed the bug (exit $rc)"; fail=1; }
[ -z "$again" ] || eval "\"\$bin\" $again" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: the bug --jobs 2 found did not repeat (exit $rc)"; fail=1; }
"$bin" fuzz chase_lev --seed 1 --jobs 2 --executions 2000 >/dev/null 2>&1 ||
  { echo "FAIL: --jobs 2 on chase_lev"; fail=1; }
# --corpus: a greybox campaign writes the entries that reached new coverage, one file each,
# and a campaign over the same directory reads them; a file that is no scenario is bad input
corpus=$(mktemp -d)
"$bin" fuzz chase_lev --seed 2 --executions 1000 --corpus "$corpus" >/dev/null 2>&1
n=$(ls "$corpus" | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: --corpus wrote no entry"; fail=1; }
out=$("$bin" fuzz chase_lev --seed 3 --executions 100 --corpus "$corpus" 2>&1)
m=$(echo "$out" | sed -n 's/.*, corpus \([0-9]*\);.*/\1/p')
[ "${m:-0}" -ge "$n" ] || { echo "FAIL: --corpus was not read ($n entries): $out"; fail=1; }
echo "owner [ push" > "$corpus/broken.scenario"
"$bin" fuzz chase_lev --seed 3 --executions 100 --corpus "$corpus" >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: a broken corpus file gave exit $rc, not 2"; fail=1; }
rm -rf "$corpus"
a=$("$bin" fuzz chase_lev --seed 5 --executions 500 2>&1 | grep -v ' s (')
b=$("$bin" fuzz chase_lev --seed 5 --executions 500 2>&1 | grep -v ' s (')
[ "$a" = "$b" ] || { echo "FAIL: the same seed printed another run"; fail=1; }
exit $fail
# SPDX-License-Identifier: Apache-2.0
