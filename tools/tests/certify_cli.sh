#!/bin/sh
# tools/tests/certify_cli.sh STEALCHECK: `stealcheck certify` end to end.
#  - a correct variant certifies a small bound (exit 0), and its --json counts are those of
#    the text; `merge` adds two shards' up to the whole run's (a missing shard is bad input);
#    --jobs 2 gives the same counts;
#  - a known-bad fails with a smallest failing scenario (exit 1): chase_lev_no_pop_fence with
#    the owner's push push pop against two steals (5 steps: the built-in client
#    push2_pop_steal2 is one of them), and the command the report gives explores it alone to
#    the same bug;
#    under SC (where its bug cannot show) the same bound certifies;
#  - with --steal-from-thieves, a mutant of tokio whose batch steal publishes the values it
#    moved relaxed (--site tokio::steal_into.store_dest_tail=relaxed) fails in a scenario where
#    a thief steals from the batch stealer's deque (steal@1), and the command the report gives
#    explores it alone to the same bug; tokio itself certifies the same bound;
#  - bad input is one error line and exit 2.
set -u
bin=$1
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
no() { echo "FAIL: $*"; fail=1; }
count() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); e=j['executions']; print(j['classes_run'], e['complete'], e['blocked'])" "$1"; }

bound="--owner 3 --thieves 2 --steals 2"
"$bin" certify chase_lev $bound --json "$work/all.json" >"$work/all.txt" 2>&1 ||
  no "certify chase_lev exited $?: $(tail -n 3 "$work/all.txt")"
grep -q "^certificate: chase_lev under RC11, every scenario with at most 3 owner operations" "$work/all.txt" ||
  no "no certificate line: $(cat "$work/all.txt")"
whole=$(count "$work/all.json")
set -- $whole
grep -q "$1 classes .*, $(($2 + $3)) executions ($2 complete, $3 blocked), no violation" "$work/all.txt" ||
  no "the text does not give the JSON's counts ($whole): $(grep '^certificate' "$work/all.txt")"
"$bin" certify chase_lev $bound --shard 0/2 --json "$work/s0.json" >/dev/null 2>&1 || no "shard 0/2"
"$bin" certify chase_lev $bound --shard 1/2 --json "$work/s1.json" >/dev/null 2>&1 || no "shard 1/2"
"$bin" merge "$work/s0.json" "$work/s1.json" --json "$work/merged.json" >"$work/merged.txt" 2>&1 ||
  no "merge of the two shards exited $?: $(cat "$work/merged.txt")"
[ "$(count "$work/merged.json")" = "$whole" ] ||
  no "the shards add up to '$(count "$work/merged.json")', the whole run is '$whole'"
grep -q "command: stealcheck certify chase_lev $bound\$" "$work/merged.txt" ||
  no "merge does not give the whole run's command: $(cat "$work/merged.txt")"
"$bin" merge "$work/s0.json" >/dev/null 2>"$work/err.txt"
[ $? -eq 2 ] && grep -q "shard(s) 1 of 2 missing" "$work/err.txt" || no "a missing shard: $(cat "$work/err.txt")"
"$bin" certify chase_lev $bound --jobs 2 --json "$work/j2.json" >/dev/null 2>&1 || no "--jobs 2"
[ "$(count "$work/j2.json")" = "$whole" ] || no "--jobs 2 counts $(count "$work/j2.json"), not $whole"

"$bin" certify chase_lev_no_pop_fence $bound --jobs 2 >"$work/bad.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || no "certify chase_lev_no_pop_fence exited $rc, not 1"
grep -q "^VIOLATION in prefix \[ \] owner \[ push push pop \] thief1 \[ steal .* (5 steps" "$work/bad.txt" ||
  no "not the smallest failing scenario: $(grep -m1 VIOLATION "$work/bad.txt")"
grep -q "taken twice" "$work/bad.txt" || no "the violation does not name the value taken twice"
again=$(sed -n 's/^  explore it alone: [^ ]* //p' "$work/bad.txt")
(eval "\"\$bin\" $again") >"$work/again.txt" 2>&1
[ $? -eq 1 ] && grep -q "taken twice" "$work/again.txt" ||
  no "'$again' did not explore the scenario to the same bug"
"$bin" certify chase_lev_no_pop_fence $bound --model sc >"$work/sc.txt" 2>&1 ||
  no "under SC chase_lev_no_pop_fence did not certify: $(tail -n 2 "$work/sc.txt")"

stealing="--prefix 4 --owner 0 --thieves 2 --steals 1 --steal-from-thieves"
"$bin" certify tokio $stealing --site tokio::steal_into.store_dest_tail=relaxed --jobs 2 \
  >"$work/pub.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || no "certify of the publication mutant exited $rc, not 1: $(tail -n 2 "$work/pub.txt")"
grep -q "^VIOLATION in .*thief[12] \[ steal@[12] \]" "$work/pub.txt" ||
  no "the failing scenario has no steal@N: $(grep -m1 VIOLATION "$work/pub.txt")"
again=$(sed -n 's/^  explore it alone: [^ ]* //p' "$work/pub.txt")
case $again in *"--site tokio::steal_into.store_dest_tail=relaxed"*) ;; *) no "'$again' drops the mutant's --site" ;; esac
(eval "\"\$bin\" $again") >"$work/again.txt" 2>&1
[ $? -eq 1 ] || no "'$again' did not explore the scenario to a bug"
"$bin" certify tokio $stealing --jobs 2 >"$work/tokio.txt" 2>&1 ||
  no "tokio did not certify $stealing: $(tail -n 2 "$work/tokio.txt")"
grep -q "steals, batch steals or steals from another thief each: .*no violation" "$work/tokio.txt" ||
  no "the certificate does not name steals from another thief: $(grep -m1 '^certificate' "$work/tokio.txt")"

for args in "nope" "chase_lev --steal-from-thieves" "chase_lev --site nope=relaxed" \
  "chase_lev --shard 2/2" "chase_lev --shard x" "chase_lev --model tso" \
  "chase_lev --owner 12 --thieves 7 --steals 8 --prefix 8" "chase_lev --json /nonexistent/dir/f.json" \
  "chase_lev --steals 0"; do
  "$bin" certify $args >/dev/null 2>"$work/err.txt"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] ||
    no "certify $args: exit $rc, $(wc -l <"$work/err.txt") error lines: $(head -n 2 "$work/err.txt")"
done
[ $fail -eq 0 ] && echo "certify_cli: OK ($whole)"
exit $fail
# SPDX-License-Identifier: Apache-2.0
