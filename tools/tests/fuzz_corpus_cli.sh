#!/bin/sh
# Every input of the fuzz corpora, given to the command as a user would type it: the command
# exits 0 (a replay or override it accepts; the correct deque has no bug), 1 (an accepted site
# override that weakens chase_lev until a client fails; a history file that is not
# linearizable) or 2 with exactly one error line (rejected). Replay and site inputs with a NUL
# or a newline cannot be one argument and are skipped; history inputs are given as files.
# Usage: fuzz_corpus_cli.sh STEALCHECK REPLAY_CORPUS_DIR... -- SITE_CORPUS_DIR... \
#          -- HISTORY_CORPUS_DIR...
set -u
sc=$1
shift
kind=replay
n=0
rejected=0
for d in "$@"; do
  if [ "$d" = "--" ]; then
    [ "$kind" = replay ] && kind=site || kind=history
    continue
  fi
  [ -d "$d" ] || continue
  for f in $(ls "$d" | head -n 100); do
    f="$d/$f"
    [ -f "$f" ] || continue
    if [ "$kind" = history ]; then
      "$sc" lincheck --history "$f" >out.fz.txt 2>err.fz.txt
      rc=$?
      n=$((n + 1))
      case $rc in
        0 | 1) continue ;;
        2)
          rejected=$((rejected + 1))
          [ "$(wc -l <err.fz.txt)" -eq 1 ] && grep -q "^stealcheck: error: " err.fz.txt ||
            { echo "history input $f: not one error line"; cat err.fz.txt; exit 1; }
          continue
          ;;
        *) echo "history input $f: exit $rc"; cat err.fz.txt; exit 1 ;;
      esac
    fi
    [ "$(tr -d '\000\n' <"$f" | wc -c)" -eq "$(wc -c <"$f")" ] || continue
    arg=$(cat "$f")
    if [ "$kind" = replay ]; then
      "$sc" model chase_lev --client push_pop_steal2 --replay "$arg" >out.fz.txt 2>err.fz.txt
    else
      "$sc" model chase_lev --client push_pop_steal2 --site "$arg" >out.fz.txt 2>err.fz.txt
    fi
    rc=$?
    n=$((n + 1))
    case $rc in
      0) ;;
      1) [ "$kind" = site ] || { echo "replay of $f reported a bug of the correct deque"; exit 1; } ;;
      2)
        rejected=$((rejected + 1))
        [ "$(wc -l <err.fz.txt)" -eq 1 ] && grep -q "^stealcheck: error: " err.fz.txt ||
          { echo "$kind input $f: not one error line"; cat err.fz.txt; exit 1; }
        ;;
      *) echo "$kind input $f: exit $rc"; cat err.fz.txt; exit 1 ;;
    esac
  done
done
[ "$n" -gt 0 ] || { echo "no corpus input found"; exit 1; }
echo "$n corpus inputs: $rejected rejected with one error line and exit 2, the rest accepted"
# SPDX-License-Identifier: Apache-2.0
