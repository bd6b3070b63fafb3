#!/bin/sh
# The debugger recipe of docs/model-checker.md: with one breakpoint on stealcheck_bug_hit, gdb stops a
# replay at the failing check, on the model thread's stack (the client's frames below it).
# Usage: gdb_recipe.sh STEALCHECK
set -u
sc=$1
token=$("$sc" model chase_lev_no_pop_fence --client push2_pop_steal2 |
  sed -n "s/.*--replay '\(v1[^']*\)'.*/\1/p")
[ -n "$token" ] || { echo "no replay token printed"; exit 1; }
gdb -nx -batch -ex 'break stealcheck_bug_hit' -ex run -ex bt -ex kill \
  --args "$sc" model chase_lev_no_pop_fence --client push2_pop_steal2 --replay "$token" \
  >gdb.txt 2>&1
grep -q 'Breakpoint 1, stealcheck_bug_hit (kind=.*"assertion", message=.*taken twice' gdb.txt ||
  { echo "gdb did not stop at stealcheck_bug_hit with the bug"; cat gdb.txt; exit 1; }
grep -qE 'history::(check_all|judge_taken)' gdb.txt && grep -q 'clients.hpp' gdb.txt ||
  { echo "the backtrace does not reach the client's check"; cat gdb.txt; exit 1; }
echo "gdb stopped at: $(grep -m1 'Breakpoint 1,' gdb.txt)"
# SPDX-License-Identifier: Apache-2.0
