#!/usr/bin/env bash
# Quick start 2: install what is missing, then build and run the whole test suite (ctest) in
# the release, tsan and asan-ubsan presets, and in release also the outside-project check
# (ci/example.sh: install, build examples/ against the package), the coverage of the deques
# by the model clients (ci/coverage.sh) and the manual's site with its API reference
# (ci/docs.sh: fails on a warning or a broken link). PRESETS="release" runs fewer. It installs the
# bench's optional peers too (ci/install-deps.sh --peers), so bench_quick runs each of them.
set -uo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh --peers || exit 1  # with Mono: the suite smoke-runs every bench peer
passed=0
failed=0
status=0
failures=()  # "preset: what failed", repeated after the total so the last lines name them
why=$(mktemp)  # the first lines of each failure's own output, printed last as well
for preset in ${PRESETS:-release tsan asan-ubsan}; do
  echo "== preset $preset: build"
  start=$(date +%s)
  if ! bash ci/build.sh "$preset"; then
    echo "== preset $preset: BUILD FAILED"
    status=1
    failed=$((failed + 1))
    failures+=("$preset: build")
    continue
  fi
  echo "== preset $preset: test"
  log=$(mktemp)
  ctest --preset "$preset" -j 2 --timeout 900 --output-on-failure 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  bad=$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")
  passed=$((passed + ${total:-0} - ${bad:-0}))
  failed=$((failed + ${bad:-0}))
  [ "$rc" -eq 0 ] || status=1
  [ -n "$line" ] || { echo "== preset $preset: ctest printed no summary"; status=1; }
  while IFS= read -r t; do
    failures+=("$preset: $t")
  done < <(sed -n '/The following tests FAILED:/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - ' |
    sed -E 's/^[[:space:]]+//')
  # what each failed test printed that names the failure (the lines with FAIL, error, Failure)
  awk -v p="$preset" '/Test +#[0-9]+: .*(\*\*\*|Failed|Timeout)/ && !/Passed/ {name=$0; n=0; next}
    /Test +#[0-9]+: .*Passed/ || /^ *Start +[0-9]+:/ {name=""}
    name != "" && n < 5 && /FAIL|[Ee]rror|Failure|BUG|taken twice|lost|never|did not|killed|grew/ {
      print p ": " substr($0, 1, 160); n++ }' "$log" >>"$why"
  # As a user would: install this build, build examples/ against the installed package only,
  # its correct deques pass and its buggy one is caught (ci/example.sh).
  # And the model clients still reach every branch of each built-in variant that
  # proofs/<variant>.coverage.md records (ci/coverage.sh: the coverage preset, gcov).
  # And the manual builds as a site, with no warning and no broken link (ci/docs.sh).
  if [ "$preset" = release ]; then
    for check in "ci/example.sh build/$preset" "ci/coverage.sh" "ci/docs.sh build/docs"; do
      out=$(mktemp)
      bash $check 2>&1 | tee "$out"
      if [ "${PIPESTATUS[0]}" -eq 0 ]; then
        passed=$((passed + 1))
      else
        failed=$((failed + 1))
        status=1
        failures+=("$preset: $check")
        grep -E 'FAIL|[Ee]rror' "$out" | tail -n 4 | cut -c1-160 | sed "s|^|$preset: $check: |" >>"$why"
      fi
      rm -f "$out"
    done
  fi
  echo "== preset $preset: done in $(($(date +%s) - start)) s"
  rm -f "$log"
done
cat "$why"
rm -f "$why"
for f in "${failures[@]}"; do
  echo "FAILED $f"
done
echo "total: $passed passed, $failed failed"
exit $status
# SPDX-License-Identifier: Apache-2.0
