#!/usr/bin/env bash
# ci/tidy.sh [BUILD_DIR] [FILES...]: clang-tidy (the repository's .clang-tidy) on the layers
# below the model checker: the deque variants' headers (the code that users cite and copy), the
# axiomatic oracle and the harness. It analyses the translation units that include every deque
# (deques/tests/registry_test.cpp, sequential_test.cpp, harness/tests/linearize_test.cpp) and
# every source of oracle/ and harness/ (or FILES) with BUILD_DIR's compile commands (default
# build/release) and reports findings in those three folders (a finding in a named FILE always).
# About a minute. models/ is not linted: clang 14's front end, the one clang-tidy has here,
# rejects some of its sources (lambdas that capture structured bindings, C++20 that clang 16
# takes). Exit 1 naming each finding (CTest: repo.clang_tidy), 2 if clang-tidy or the compile
# commands are missing.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
shift $(($# > 0 ? 1 : 0))
files=("$@")
[ ${#files[@]} -gt 0 ] ||
  files=(deques/tests/registry_test.cpp deques/tests/sequential_test.cpp harness/tests/linearize_test.cpp
         oracle/*.cpp harness/*.cpp)
command -v clang-tidy >/dev/null || { echo "ci/tidy.sh: error: clang-tidy not found (bash ci/install-deps.sh)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "ci/tidy.sh: error: no $build/compile_commands.json (configure the preset first)" >&2; exit 2; }
# (the layers are included as stealcheck/detail/<layer>/..., which links to <layer>/ here)
out=$(clang-tidy -p "$build" --quiet \
  --header-filter="$PWD/(include/stealcheck/detail/)?(deques|oracle|harness)/" "${files[@]}" 2>&1)
findings=$(grep -E '(error|warning): .*\[[a-z]' <<<"$out" | sed -e "s|^$PWD/||" -e "s|^include/stealcheck/detail/||" | sort -u)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "ci/tidy.sh: $(wc -l <<<"$findings") finding(s) in ${#files[@]} translation units"
  exit 1
fi
echo "ci/tidy.sh: ${#files[@]} translation units, no finding"
# SPDX-License-Identifier: Apache-2.0
