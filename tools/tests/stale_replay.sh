#!/bin/sh
# A replay token must never show a bug the program no longer has: the token of
# chase_lev_no_pop_fence's bug, replayed against chase_lev (the same deque with the fence),
# is bad input (one error line naming the read, exit 2); replayed against the broken deque it
# still reproduces the bug (exit 1). Usage: stale_replay.sh STEALCHECK
set -u
sc=$1
token=$("$sc" model chase_lev_no_pop_fence --client push2_pop_steal2 |
  sed -n "s/.*--replay '\(v1[^']*\)'.*/\1/p")
[ -n "$token" ] || { echo "no replay token printed"; exit 1; }
"$sc" model chase_lev_no_pop_fence --client push2_pop_steal2 --replay "$token" >out.bug.txt
rc=$?
[ "$rc" -eq 1 ] && grep -q "taken twice" out.bug.txt || { echo "the bug did not replay (rc $rc)"; exit 1; }
"$sc" model chase_lev --client push2_pop_steal2 --replay "$token" >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 2 ] || { echo "stale token: exit $rc, expected 2"; cat out.txt err.txt; exit 1; }
[ "$(wc -l <err.txt)" -eq 1 ] || { echo "stale token: not one error line"; cat err.txt; exit 1; }
grep -q "stealcheck: error: replay token does not fit.*R .*reading from .* is not allowed by rc11" err.txt ||
  { echo "stale token: the error does not name the read"; cat err.txt; exit 1; }
! grep -q "BUG" out.txt || { echo "stale token reported a bug"; exit 1; }
echo "stale token rejected: $(cat err.txt)"
# SPDX-License-Identifier: Apache-2.0
