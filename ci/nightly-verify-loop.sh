#!/usr/bin/env bash
# ci/nightly-verify-loop.sh [RUNS] [PRESET] [-- VERIFY ARGS...]: `stealcheck verify
# --include-known-bad` RUNS times in a row (default 20) on the PRESET build (release, tsan or
# asan-ubsan; default release) while LOAD busy processes (default 2) run beside it, as on a
# loaded machine. Each run's output goes to $OUT/run<N>.txt (default OUT=build/verify-loop),
# and one line per run to stdout and $OUT/summary.txt: its exit code, seconds and the load
# average. Exits 1 after the loop if any run failed, naming them.
#
# A nightly recipe, not a timed test: a release run takes about 2-5 minutes on 2 cores under
# this load, a sanitizer run longer (pass `-- --quick` there; under tsan also `--checks
# stress,lincheck` and the correct variants by name: ThreadSanitizer's memory grows with every
# model execution, and it hides the reorderings that catch known-bads natively; docs/verify.md).
# Builds the preset first.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
preset=${2:-release}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = "--" ] && shift
out=${OUT:-build/verify-loop}
load=${LOAD:-2}
bash ci/install-deps.sh
if [ "$preset" = tsan ]; then
  # the tsan preset builds only the tests that run several threads (STEALCHECK_TESTS=threads),
  # not the command: build it beside, in the same configuration with every target
  BUILD_DIR=build/tsan-command CMAKE_ARGS=-DSTEALCHECK_TESTS=all bash ci/build.sh tsan stealcheck
  bin=build/tsan-command/tools/stealcheck
else
  bash ci/build.sh "$preset" stealcheck
  bin=build/$preset/tools/stealcheck
fi
mkdir -p "$out"
: >"$out/summary.txt"
busy=()
for ((k = 0; k < load; ++k)); do
  (while :; do :; done) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null || true' EXIT
failed=()
for ((i = 1; i <= runs; ++i)); do
  start=$(date +%s)
  rc=0
  "$bin" verify --include-known-bad "$@" >"$out/run$i.txt" 2>&1 || rc=$?
  line="run $i: exit $rc, $(($(date +%s) - start)) s, load $(cut -d' ' -f1 /proc/loadavg)"
  echo "$line" | tee -a "$out/summary.txt"
  ((rc == 0)) || failed+=("$i")
done
if ((${#failed[@]})); then
  echo "ci/nightly-verify-loop.sh: runs ${failed[*]} failed (outputs in $out)" >&2
  exit 1
fi
echo "ci/nightly-verify-loop.sh: $runs runs passed ($preset, $load busy processes beside)"
# SPDX-License-Identifier: Apache-2.0
