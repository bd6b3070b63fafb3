#!/bin/sh
# A known-bad whose bug is a memory order declares where it is fixed (its sites whose reason
# says KNOWN-BAD), and that declaration must hold: for each such built-in known-bad, `verify`
# prints "fixed at SITE=ORDER" with the catching run of the model checker or the fuzzer, and
# that run passes with the fix and fails without it. Every broken site must have a correct
# variant that gives it an order ("=?" is a declaration nobody can check).
# Usage: known_bad_fixed_at.sh STEALCHECK
set -u
sc=$1
tmp=$(mktemp -d) && cd "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
"$sc" list >list.txt || { echo "list failed"; exit 1; }
! grep -q "fixed at [^)]*=?" list.txt || { echo "a broken site no correct variant has:"; grep "=?" list.txt; exit 1; }
variants=$(sed -n 's/^\([a-z0-9_]*\) .*(fixed at .*/\1/p' list.txt)
[ "$(echo "$variants" | wc -w)" -ge 10 ] || { echo "too few known-bads declare a fix: $variants"; exit 1; }
for v in $variants; do
  "$sc" verify "$v" --checks model,fuzz --quick --seed 1 >verify.txt 2>&1
  [ $? -eq 0 ] || { echo "$v: not caught"; cat verify.txt; exit 1; }
  fixed=$(sed -n 's/^  fixed at .* (the same run, fixed: \(.*\))$/\1/p' verify.txt)
  [ -n "$fixed" ] || { echo "$v: no run with the fix printed"; cat verify.txt; exit 1; }
  # the command as printed, with the program this test was given
  cmd="\"$sc\" ${fixed#* }"
  eval "$cmd" >fixed.txt 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || { echo "$v: still fails with the fix (exit $rc): $fixed"; tail -5 fixed.txt; exit 1; }
  broken=$(echo "$cmd" | sed 's/ --site [^ ]*//g')
  eval "$broken" >broken.txt 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || { echo "$v: the same run without the fix exits $rc, not 1: $broken"; exit 1; }
  echo "$v: fails, and passes $(grep -o -- '--site [^ ]*' <<EOF2 | tr '\n' ' '
$fixed
EOF2
)"
done
# SPDX-License-Identifier: Apache-2.0
