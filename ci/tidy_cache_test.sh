#!/usr/bin/env bash
# ci/tidy_cache_test.sh: the cache of ci/tidy_run.py never hides a finding. A unit that passes is
# cached and not run again; once a header it includes gains a finding (the unit itself
# unchanged), or a NOLINT it relies on is removed, the unit is run again and the finding
# reported. Runs in a temporary folder with the repository's .clang-tidy and a cache of its own.
# CTest: repo.clang_tidy_cache_sees_a_changed_header.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tidy=$(command -v clang-tidy-16) || { echo "clang-tidy-16 not found"; exit 2; }
tmp=$(mktemp -d) && cd "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT
cp "$repo/.clang-tidy" .
mkdir -p build lib
export STEALCHECK_TIDY_CACHE="$tmp/cache"
printf '#pragma once\nstruct probe {\n  int x = 0;\n  probe() {}\n};\n' >lib/probe.hpp
printf '#include "lib/probe.hpp"\nint use() { return probe().x; }\n' >lib/unit.cpp
printf '[{"directory": "%s/build", "command": "/usr/bin/g++ -I%s -std=c++20 -o unit.o -c %s/lib/unit.cpp", "file": "%s/lib/unit.cpp"}]\n' \
  "$tmp" "$tmp" "$tmp" "$tmp" >build/compile_commands.json
run() { python3 "$repo/ci/tidy_run.py" "$tidy" build "$tmp/lib/" lib/unit.cpp 2>&1; }
expect() {  # expect WHAT PATTERN: the last run printed PATTERN
  grep -q -- "$2" <<<"$out" || { echo "FAIL: $1: no '$2' in:"; echo "$out"; exit 1; }
}
out=$(run) && expect "clean unit, first run" "1 units, 0 from the cache"
out=$(run) && expect "clean unit, second run" "1 units, 1 from the cache"
sed -i 's/int x = 0;/int x;/' lib/probe.hpp
out=$(run) && expect "header gained a finding" "does not initialize these fields: x"
expect "header gained a finding" "0 from the cache"
sed -i 's|  probe() {}|  probe() {}  // NOLINT(cppcoreguidelines-pro-type-member-init)|' lib/probe.hpp
out=$(run) && expect "NOLINT added" "1 units, 0 from the cache"
out=$(run) && expect "NOLINT kept" "1 units, 1 from the cache"
sed -i 's|  // NOLINT(cppcoreguidelines-pro-type-member-init)||' lib/probe.hpp
out=$(run) && expect "NOLINT removed" "does not initialize these fields: x"
echo "tidy cache: a clean unit is cached; a changed header or NOLINT runs it again"
# SPDX-License-Identifier: Apache-2.0
