#!/usr/bin/env bash
# ci/tidy.sh [BUILD_DIR] [FILES...]: clang-tidy (the repository's .clang-tidy) on the deque
# variants' headers, the code that users cite and copy: it analyses the translation units that
# include every one of them (deques/tests/registry_test.cpp, sequential_test.cpp and
# harness/tests/linearize_test.cpp, or FILES) with BUILD_DIR's compile commands (default
# build/release) and reports findings in deques/ only. About 15 s. The model checker's
# translation units take minutes each under clang-tidy, which is why they are not linted here.
# Exit 1 naming each finding (CTest: repo.clang_tidy_deques), 2 if clang-tidy or the compile
# commands are missing.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
shift $(($# > 0 ? 1 : 0))
files=("$@")
[ ${#files[@]} -gt 0 ] ||
  files=(deques/tests/registry_test.cpp deques/tests/sequential_test.cpp harness/tests/linearize_test.cpp)
command -v clang-tidy >/dev/null || { echo "ci/tidy.sh: error: clang-tidy not found (bash ci/install-deps.sh)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] || { echo "ci/tidy.sh: error: no $build/compile_commands.json (configure the preset first)" >&2; exit 2; }
# (the deques are included as stealcheck/detail/deques/..., which links to deques/ here)
out=$(clang-tidy -p "$build" --quiet --header-filter="$PWD/(include/stealcheck/detail/)?deques/" "${files[@]}" 2>&1)
findings=$(grep -E '(error|warning): .*\[[a-z]' <<<"$out" | sed -e "s|^$PWD/||" -e "s|^include/stealcheck/detail/||" | sort -u)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "ci/tidy.sh: $(wc -l <<<"$findings") finding(s) in ${#files[@]} translation units"
  exit 1
fi
echo "ci/tidy.sh: ${#files[@]} translation units, no finding"
# SPDX-License-Identifier: Apache-2.0
