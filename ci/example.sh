#!/usr/bin/env bash
# ci/example.sh [BUILD_DIR]: checks stealcheck the way a user does. Packages the built tree
# (default build/release) as a .deb, unpacks it into a fresh root (FROM=install: installs it
# into a fresh prefix), configures and builds examples/ against that root only, and asserts:
#   - the correct deque (ws_deque, and legacy_deque natively and model-checked) passes every
#     conformance test;
#   - the buggy deque (ws_deque_relaxed_array) fails, naming the value it took, with a replay;
#   - the example's own CLI lists its variants beside the built-in ones, and `verify` runs
#     every column on them (the buggy one caught as an expected failure).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
fail() { echo "ci/example.sh: FAIL: $*"; exit 1; }

# The Debian package (cpack -G DEB, cmake/package.cmake), unpacked with dpkg-deb -x into a
# temporary root: what `apt install ./stealcheck_*.deb` would put under /usr. FROM=install uses
# `cmake --install --prefix` instead (the README's "Check your own deque").
if [ "${FROM:-deb}" = deb ]; then
  echo "== package: cpack -G DEB, unpacked with dpkg-deb -x into $work/root"
  cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; fail "cpack -G DEB"; }
  deb=$(ls "$work"/deb/stealcheck_*.deb) || fail "cpack made no .deb"
  dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x $deb"
  for dep in libgtest-dev librapidcheck-dev libcli11-dev libboost-context-dev; do
    dpkg-deb -f "$deb" Depends | grep -q "$dep" || fail "the package does not depend on $dep"
  done
  prefix="$work/root/usr"
  test -f "$prefix/share/man/man1/stealcheck.1" || fail "no man page in the package"
  test -f "$prefix/share/doc/stealcheck/LICENSE" || fail "no LICENSE in the package"
  echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
else
  echo "== install into $work/prefix"
  prefix="$work/prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install"
fi
test -f "$prefix/lib/cmake/stealcheck/stealcheckConfig.cmake" || fail "no package config"
test -x "$prefix/bin/stealcheck" || fail "no stealcheck executable"

echo "== configure and build examples/ against $prefix only"
cmake -S examples -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
cmake --build "$work/build" -j "${JOBS:-2}" >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; fail "build"; }
if grep -qE -- "-I$PWD( |/include)" "$work/build/compile_commands.json"; then
  fail "the example compiled against the source tree"
fi

echo "== the correct deques pass every conformance test"
for t in ws_deque_test legacy_native_test legacy_model_test; do
  "$work/build/$t" --gtest_brief=1 >"$work/$t.log" 2>&1 || { tail -n 40 "$work/$t.log"; fail "$t"; }
  echo "   $t: passed ($(grep -E '^\[  PASSED  \]' "$work/$t.log"))"
done
grep -q "model_push2_pop_steal2_sc" <("$work/build/legacy_model_test" --gtest_list_tests) ||
  fail "legacy_model_test lists no model clients"

echo "== the buggy deque fails, naming the value"
if "$work/build/ws_deque_relaxed_array_test" >"$work/buggy.log" 2>&1; then
  fail "ws_deque_relaxed_array passed every test"
fi
grep -E "FAILED  \] WsDequeRelaxedArray\." "$work/buggy.log" | head -n 3
grep -qE "was never pushed|taken twice|read .* uninitial|value [0-9]+" "$work/buggy.log" ||
  { tail -n 60 "$work/buggy.log"; fail "the failure does not name the value"; }
grep -q "replay" "$work/buggy.log" || fail "no replay command"

echo "== the example's CLI"
cli="$work/build/example-stealcheck"
"$cli" list >"$work/list.log" || fail "list"
grep -q "^ws_deque " "$work/list.log" && grep -q "^chase_lev " "$work/list.log" ||
  { cat "$work/list.log"; fail "list does not show the example's and the built-in variants"; }
"$cli" verify ws_deque ws_deque_relaxed_array --quick >"$work/verify.log" 2>&1
rc=$?
cat "$work/verify.log" | head -n 8
[ "$rc" -eq 0 ] || { cat "$work/verify.log"; fail "verify exited $rc"; }
grep -qE "^ws_deque +\| pass .*\| pass .*\| pass .*\| ok" "$work/verify.log" ||
  fail "verify did not pass ws_deque in every column"
grep -q "ws_deque_relaxed_array.*expected failure: caught" "$work/verify.log" ||
  fail "verify did not catch ws_deque_relaxed_array"
grep -q "replay: example-stealcheck model ws_deque_relaxed_array" "$work/verify.log" ||
  fail "the replay command does not name the example's CLI"
"$cli" model nope >/dev/null 2>"$work/err.log"
[ $? -eq 2 ] && [ "$(wc -l <"$work/err.log")" -eq 1 ] || fail "bad input is not one line and exit 2"
echo "ci/example.sh: OK"
