#!/bin/sh
# Every known-bad declares where it is fixed, and that declaration must hold: a bug in a memory
# order names its broken sites (a reason that says KNOWN-BAD), each with the order a correct
# variant gives it ("fixed at SITE=ORDER"); a bug in the code names the correct variant that is
# the same code with the fix ("fixed in VARIANT: CHANGE"). For each built-in known-bad, `verify`
# prints the catching run of the model checker or the fuzzer with the fix, and that run must
# pass, while the same run on the known-bad as it is must fail (exit 1). A fix nobody can check
# ("=?", or a variant that is not a registered correct one: "VARIANT?") fails the test.
# Usage: known_bad_fixed.sh STEALCHECK
set -u
sc=$1
tmp=$(mktemp -d) && cd "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
"$sc" list >list.txt || { echo "list failed"; exit 1; }
! grep -q "fixed at [^)]*=?" list.txt || { echo "a broken site no correct variant has:"; grep "=?" list.txt; exit 1; }
! grep -q "fixed in [a-z0-9_]*?:" list.txt || { echo "a fix in an unknown variant:"; grep "fixed in [a-z0-9_]*?:" list.txt; exit 1; }
undeclared=$(grep "KNOWN-BAD" list.txt | grep -v "(fixed \(at\|in\) " | cut -d' ' -f1)
[ -z "$undeclared" ] || { echo "known-bads that do not say where they are fixed: $undeclared"; exit 1; }
variants=$(sed -n 's/^\([a-z0-9_]*\) .*(fixed \(at\|in\) .*/\1/p' list.txt)
[ "$(echo "$variants" | wc -w)" -ge 25 ] || { echo "too few known-bads: $variants"; exit 1; }
for v in $variants; do
  # the deep ones need fuzz's full budget; --quick catches the rest
  quick=--quick
  ! grep -q "^$v .*KNOWN-BAD [a-z0-9_]*, deep" list.txt || quick=
  # the model checker's and the fuzzer's runs replay exactly; a known-bad that only a native
  # run catches (stress, lincheck) is run with every checker
  "$sc" verify "$v" --checks model,fuzz $quick --seed 1 >verify.txt 2>&1 ||
    "$sc" verify "$v" $quick --seed 1 >verify.txt 2>&1
  [ $? -eq 0 ] || { echo "$v: not caught"; cat verify.txt; exit 1; }
  fixed=$(sed -n 's/^  fixed \(at\|in\) .* (the same run, fixed: \(.*\))$/\2/p' verify.txt)
  [ -n "$fixed" ] || { echo "$v: no run with the fix printed"; cat verify.txt; exit 1; }
  # the command as printed, with the program this test was given
  cmd="\"$sc\" ${fixed#* }"
  eval "$cmd" >fixed.txt 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || { echo "$v: still fails with the fix (exit $rc): $fixed"; tail -5 fixed.txt; exit 1; }
  # the same run on the known-bad as it is: its own name, no --site (a native run need not
  # fail again with its seed: the catching run above is its failure)
  case "$fixed" in *" model "* | *" fuzz "*) ;; *)
    echo "$v: fails, and passes with the fix: ${fixed#* }"; continue ;; esac
  broken=$(echo "$cmd" | sed -e 's/ --site [^ ]*//g' -e "s/^\\(\"[^\"]*\" [a-z]*\\) [a-z0-9_]*/\\1 $v/")
  eval "$broken" >broken.txt 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || { echo "$v: the same run without the fix exits $rc, not 1: $broken"; exit 1; }
  echo "$v: fails, and passes with the fix: ${fixed#* }"
done
# SPDX-License-Identifier: Apache-2.0
