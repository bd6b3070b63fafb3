#!/usr/bin/env bash
# ci/format.sh [--check] [FILES...]: clang-format (the repository's .clang-format) over FILES,
# by default every C++ source and header of the tree (git's tracked files, or every *.cpp, *.hpp
# and *.h outside build/ when the tree is no git checkout) and, with gofmt, the Go peer's sources.
# Without --check it rewrites them; with --check it changes nothing and exits 1 naming each file
# that is not formatted (CTest: repo.clang_format). Exit 2 if clang-format is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
command -v clang-format >/dev/null || { echo "ci/format.sh: error: clang-format not found (bash ci/install-deps.sh)" >&2; exit 2; }
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
  else
    mapfile -t files < <(find . -path ./build -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print)
  fi
fi
# The Go peer (bench/peers/go/): gofmt's layout, when gofmt is installed and no FILES are named.
go_files=()
if [ $# -eq 0 ] && command -v gofmt >/dev/null; then
  mapfile -t go_files < <(find bench/peers -name '*.go')
fi
if [ "$check" -eq 0 ]; then
  clang-format -i "${files[@]}"
  [ ${#go_files[@]} -eq 0 ] || gofmt -w "${go_files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "ci/format.sh: $f is not formatted (bash ci/format.sh $f)"
    bad=$((bad + 1))
  fi
done
for f in $( ((${#go_files[@]})) && gofmt -l "${go_files[@]}"); do
  echo "ci/format.sh: $f is not formatted (gofmt -w $f)"
  bad=$((bad + 1))
done
files+=("${go_files[@]}")
echo "ci/format.sh: ${#files[@]} files checked, $bad not formatted"
[ "$bad" -eq 0 ]
# SPDX-License-Identifier: Apache-2.0
