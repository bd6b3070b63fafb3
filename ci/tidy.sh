#!/usr/bin/env bash
# ci/tidy.sh [BUILD_DIR] [FILES...]: clang-tidy (the repository's .clang-tidy) over the whole
# tree: every translation unit of BUILD_DIR's compile commands (default build/release) that is a
# source of the repository, tests included, or only FILES. Findings count in every project
# header the units include (deques/ ... tools/, include/) and in the units themselves; findings
# in system headers do not. Uses clang-tidy-16 (Debian 12's newest; bash ci/install-deps.sh
# installs it), whose front end takes all of the C++20 the project uses; runs $(nproc) units at
# a time (about nine minutes of both cores here). A unit with no finding is remembered, keyed by
# what clang-tidy reads of it, and not run again until that changes (ci/tidy_run.py says how;
# STEALCHECK_TIDY_CACHE=off runs every unit). Exit 1 naming each finding (CTest:
# repo.clang_tidy), 2 if clang-tidy or the compile commands are missing.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
shift $(($# > 0 ? 1 : 0))
files=("$@")
tidy=$(command -v clang-tidy-16) ||
  { echo "ci/tidy.sh: error: clang-tidy-16 not found (bash ci/install-deps.sh)" >&2; exit 2; }
[ -f "$build/compile_commands.json" ] ||
  { echo "ci/tidy.sh: error: no $build/compile_commands.json (configure the preset first)" >&2; exit 2; }
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(python3 - "$build/compile_commands.json" "$PWD" <<'EOF'
import json, sys
root = sys.argv[2] + "/"
units = {c["file"] for c in json.load(open(sys.argv[1]))}
for f in sorted(units):
    # the repository's sources; not what a build generates (its own tree) or a test writes
    if f.startswith(root) and not f[len(root):].startswith("build"):
        print(f[len(root):])
EOF
  )
fi
# (the layers are included as stealcheck/detail/<layer>/..., which links to <layer>/ here)
layers='deques|oracle|harness|models|stress|scheduler|litmus|bench|testing|tools|include'
out=$(python3 ci/tidy_run.py "$tidy" "$build" "$PWD/(include/stealcheck/detail/)?($layers)/" \
  "${files[@]}" 2>&1)
cached=$(grep '^tidy_run: ' <<<"$out" | sed 's/^tidy_run: [0-9]* units, //')
# a finding in a unit given by path outside the tree (the test's broken file) counts too
findings=$(grep -E '(error|warning): .*\[[a-z]' <<<"$out" | grep -v '^/usr/' |
  sed -e "s|^$PWD/||" -e "s|^include/stealcheck/detail/||" | sort -u)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "ci/tidy.sh: $(wc -l <<<"$findings") finding(s) in ${#files[@]} translation units"
  exit 1
fi
echo "ci/tidy.sh: ${#files[@]} translation units, no finding (${cached:-none from the cache})"
# SPDX-License-Identifier: Apache-2.0
