#!/usr/bin/env bash
# ci/example.sh [BUILD_DIR]: checks stealcheck the way a user does. Packages the built tree
# (default build/release) as a .deb, unpacks it into a fresh root (FROM=install: installs it
# into a fresh prefix), builds and tests examples/ against that root only with
# examples/ci/conformance.sh (what the CI recipes in examples/ci run), and asserts on the JUnit
# XML it writes and on the example's CLI:
#   - the correct deque (ws_deque, and legacy_deque natively and model-checked) passes every
#     conformance test;
#   - the buggy deque (ws_deque_relaxed_array) fails, naming the value it took, with a replay;
#   - a failing model test's own replay line reruns that one execution in the test binary;
#   - the example's own model tests (stealcheck/model.hpp: a client of ws_deque, an event
#     count) pass under RC11 and SC, and the tests that their known-bad twins are caught pass;
#   - `certify` certifies ws_deque at a small bound and finds ws_deque_relaxed_array's smallest
#     failing scenario;
#   - the example's own CLI lists its variants beside the built-in ones, and `verify` runs
#     every column on them (the buggy one caught as an expected failure); `mutate ws_deque`
#     finds every declared site needed or documented;
#   - examples/case-studies (deques that runtimes ship, transcribed): every finding is found,
#     every control and every deque without a finding passes the conformance suite, and the
#     case studies' CLI catches each shipped deque with a finding (docs/case-studies/).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
fail() { echo "ci/example.sh: FAIL: $*"; exit 1; }

# The Debian package (cpack -G DEB, cmake/package.cmake), unpacked with dpkg-deb -x into a
# temporary root: what `apt install ./stealcheck_*.deb` would put under /usr. FROM=install uses
# `cmake --install --prefix` instead (docs/your-deque.md).
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
# The public surface: six headers; everything they include is under stealcheck/detail/.
public=$(cd "$prefix/include/stealcheck" && ls -p | grep -v / | sort | tr '\n' ' ')
[ "$public" = "atomic.hpp cli.hpp deque.hpp model.hpp register.hpp testing.hpp " ] ||
  fail "the public headers are not exactly the six documented ones: $public"
test -f "$prefix/include/stealcheck/detail/deques/deque.hpp" || fail "no internal headers in detail/"
# Nothing but stealcheck/ under include/: a user's include path gets no generic folder.
[ "$(ls "$prefix/include")" = "stealcheck" ] || fail "include/ holds more than stealcheck/: $(ls "$prefix/include")"
# examples/ (and its case studies) include only public headers: it compiles against them alone,
# and its own deques/ folder (examples/deques/deque.hpp, named as an internal header of
# stealcheck's) does not clash with stealcheck's internals.
if grep -rnE '#include ["<]stealcheck/detail/' examples/; then
  fail "examples/ includes an internal header"
fi

echo "== examples/ci/conformance.sh: build examples/ against $prefix only, ctest to JUnit XML"
(cd examples && bash ci/conformance.sh "$prefix" "$work/build" "$work/junit.xml") >"$work/conformance.log" 2>&1
rc=$?
[ -f "$work/junit.xml" ] || { tail -n 40 "$work/conformance.log"; fail "no JUnit XML (exit $rc)"; }
[ "$rc" -ne 0 ] || fail "ctest passed although the buggy deque is among the tests"
if grep -qE -- "-I$PWD( |/include)" "$work/build/compile_commands.json"; then
  fail "the example compiled against the source tree"
fi
if grep -qE -- "(-I|-isystem )[^ ]*/include/stealcheck" "$work/build/compile_commands.json"; then
  fail "the package put a folder inside include/stealcheck/ on the example's include path"
fi
# The report as a CI system reads it: every correct deque's test passed; the buggy deque's
# (buggy.*) failed, the failure naming the value, its kind and a replay command.
python3 - "$work/junit.xml" "$work/replay.sh" <<'PY' || fail "the JUnit XML does not say what it should"
import re, sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
failed, passed, bad, named, replays, kinds = [], [], [], [], [], []
for c in cases:
    name, status = c.get("name"), c.get("status")
    out = "".join(e.text or "" for e in c.iter("system-out"))
    if status == "fail":
        failed.append(name)
        if re.search(r"failure kind: [a-z_]+", out):
            kinds.append(name)
        if not name.startswith("buggy."):
            bad.append(name)
        elif re.search(r"was never pushed|taken twice|value [0-9]+", out) and "replay" in out:
            named.append(name)
            alone = re.search(r"replay this failure alone: (STEALCHECK_REPLAY=.*)", out)
            if alone and "model_" in name and not replays:
                replays.append(alone.group(1))
    elif status == "run":
        passed.append(name)
print(f"   junit.xml: {len(passed)} passed, {len(failed)} failed; naming the value: {named[:2]}")
own = ["WsDequeClient.GrowUnderTwoThieves_rc11", "WsDequeClient.GrowUnderTwoThieves_sc",
       "EventCount.WaiterAndNotifier_rc11", "EventCount.WaiterAndNotifier_sc",
       "KnownBad.WsDequeRelaxedArrayTakesAValueNeverPushed",
       "KnownBad.EventCountWithoutTheFenceLosesAWakeUp"]
missing = [n for n in own if n not in passed]
if missing: print("   the example's own model tests did not pass:", missing)
if not kinds: print("   no failure names its kind")
ok = (not bad and named and kinds and not missing
      and any(n.startswith("model.") and "model_push2_pop_steal2_sc" in n for n in passed)
      and any(n.startswith("WsDeque.") for n in passed))
if bad: print("   correct deques' tests failed:", bad[:5])
open(sys.argv[2], "w").write(replays[0] + "\n" if replays else "")
sys.exit(0 if ok and replays else 1)
PY
# A failing model test's replay line reruns that one execution in the test binary itself.
replay=$(cat "$work/replay.sh")
echo "   replaying: ${replay:0:120}..."
(cd "$work/build" && eval "$replay") >"$work/replay.log" 2>&1
[ $? -ne 0 ] && grep -q "was never pushed" "$work/replay.log" && grep -q "re-running that one failure" "$work/replay.log" ||
  { tail -n 30 "$work/replay.log"; fail "the test's replay line does not replay its failure"; }

echo "== the example's CLI"
cli="$work/build/example-stealcheck"
"$cli" list >"$work/list.log" || fail "list"
grep -q "^ws_deque " "$work/list.log" && grep -q "^chase_lev " "$work/list.log" ||
  { cat "$work/list.log"; fail "list does not show the example's and the built-in variants"; }
grep -q "^ws_deque_relaxed_array .* KNOWN-BAD " "$work/list.log" ||
  { cat "$work/list.log"; fail "list does not mark the example's known-bad variant"; }
"$cli" verify ws_deque ws_deque_relaxed_array --quick >"$work/verify.log" 2>&1
rc=$?
cat "$work/verify.log" | head -n 8
[ "$rc" -eq 0 ] || { cat "$work/verify.log"; fail "verify exited $rc"; }
grep -qE "^ws_deque +\| pass .*\| pass .*\| pass .*\| ok" "$work/verify.log" ||
  fail "verify did not pass ws_deque in every column"
grep -q "ws_deque_relaxed_array.*expected failure: caught (value_invented)" "$work/verify.log" ||
  fail "verify did not catch ws_deque_relaxed_array"
grep -q "replay: example-stealcheck model ws_deque_relaxed_array" "$work/verify.log" ||
  fail "the replay command does not name the example's CLI"
# The example declares its orders as sites: each weakening is caught or documented.
"$cli" mutate ws_deque --jobs 2 >"$work/mutate.log" 2>&1 ||
  { cat "$work/mutate.log"; fail "mutate ws_deque exited $?"; }
grep -q "^mutate: OK" "$work/mutate.log" || { cat "$work/mutate.log"; fail "mutate ws_deque"; }
grep -E "^[0-9]+ killed" "$work/mutate.log"
# fuzz from the installed package, on the user's deques: the buggy one's bug found, minimized
# and repeated by the command the report ends with; the correct one clean.
"$cli" fuzz ws_deque_relaxed_array --seed 1 --executions 20000 >"$work/fuzz.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "^BUG in execution" "$work/fuzz.log" && grep -q -E "minimized to|^  client: " "$work/fuzz.log" ||
  { head -n 20 "$work/fuzz.log"; fail "fuzz did not find ws_deque_relaxed_array's bug (exit $rc)"; }
grep -m2 -E "^BUG|minimized to|^  client: " "$work/fuzz.log" | cut -c1-160
again=$(sed -n 's/^  repeat this bug: [^ ]* //p' "$work/fuzz.log")
(eval "\"\$cli\" $again") >"$work/fuzz-again.log" 2>&1
[ $? -eq 1 ] || { head -n 20 "$work/fuzz-again.log"; fail "fuzz's repeat command did not repeat the bug"; }
"$cli" fuzz ws_deque --seed 1 --executions 2000 >"$work/fuzz-ok.log" 2>&1 &&
  grep -q "NOT exhaustive" "$work/fuzz-ok.log" ||
  { head -n 20 "$work/fuzz-ok.log"; fail "fuzz reported a bug in ws_deque"; }
tail -n 1 "$work/fuzz-ok.log"
# certify from the installed package, on the user's deques: the correct one certifies a small
# bound; the buggy one (its ring grown from capacity 1) fails with its smallest scenario.
"$cli" certify ws_deque --owner 3 --thieves 2 --steals 2 --capacity 1 >"$work/certify.log" 2>&1 &&
  grep -q "^certificate: ws_deque under RC11" "$work/certify.log" ||
  { cat "$work/certify.log"; fail "certify ws_deque"; }
tail -n 3 "$work/certify.log" | head -n 1 | cut -c1-200
"$cli" certify ws_deque_relaxed_array --owner 3 --thieves 2 --steals 2 --capacity 1 >"$work/certify-bad.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "^VIOLATION in " "$work/certify-bad.log" ||
  { head -n 20 "$work/certify-bad.log"; fail "certify did not catch ws_deque_relaxed_array (exit $rc)"; }
grep -m1 "^VIOLATION" "$work/certify-bad.log" | cut -c1-200
"$cli" model nope >/dev/null 2>"$work/err.log"
[ $? -eq 2 ] && [ "$(wc -l <"$work/err.log")" -eq 1 ] || fail "bad input is not one line and exit 2"

echo "== a history recorded by the example's own program, checked from the file"
rec="$work/build/history_recorder"
"$rec" "$work/history.jsonl" 20000 || fail "history_recorder"
"$prefix/bin/stealcheck" lincheck --history "$work/history.jsonl" >"$work/history.log" 2>&1 ||
  { head -c 2000 "$work/history.log"; fail "the recorded history of legacy_deque is not linearizable"; }
head -n 2 "$work/history.log" | cut -c1-160
"$rec" "$work/lie.jsonl" 20000 --lie || fail "history_recorder --lie"
"$prefix/bin/stealcheck" lincheck --history "$work/lie.jsonl" >"$work/lie.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "^not linearizable" "$work/lie.log" ||
  { head -c 2000 "$work/lie.log"; fail "a falsified history was not rejected (exit $rc)"; }
head -n 3 "$work/lie.log" | cut -c1-160
# The same from another language: examples/go-recorder (Debian's golang-go).
(cd examples/go-recorder && GOCACHE="$work/gocache" GOPATH="$work/gopath" GOFLAGS=-mod=mod \
  go build -o "$work/go-recorder" .) || fail "go build of examples/go-recorder"
"$work/go-recorder" "$work/go.jsonl" 20000 || fail "go-recorder"
"$prefix/bin/stealcheck" lincheck --history "$work/go.jsonl" >"$work/go.log" 2>&1 ||
  { head -c 2000 "$work/go.log"; fail "the Go program's recorded history is not linearizable"; }
"$work/go-recorder" "$work/go-lie.jsonl" 20000 --lie || fail "go-recorder --lie"
"$prefix/bin/stealcheck" lincheck --history "$work/go-lie.jsonl" >"$work/go-lie.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { head -c 2000 "$work/go-lie.log"; fail "the falsified Go history was not rejected"; }
head -n 2 "$work/go.log" | cut -c1-160

echo "== examples/case-studies: build against $prefix only, ctest to JUnit XML"
(cd examples/case-studies &&
  bash ../ci/conformance.sh "$prefix" "$work/cs" "$work/cs-junit.xml") >"$work/cs.log" 2>&1 ||
  { tail -n 40 "$work/cs.log"; fail "a case study's test failed"; }
grep -E "tests passed" "$work/cs.log"
# The findings as a user meets them: the case studies' CLI, every column. Boost.Fiber's
# shipped queue is left to the tests: its pop on a fresh queue makes the next push loop, and
# each stress scenario runs until the memory ceiling stops it (about 14 s).
shipped="riften libfork julia taskflow_unbounded taskflow_bounded stdexec_bwos_v1 stdexec_bwos"
controls="riften_fixed libfork_fixed julia_fixed boost_fiber_fixed stdexec_bwos_fixed"
"$work/cs/case-studies-stealcheck" verify --quick $shipped $controls >"$work/cs-verify.log" 2>&1
rc=$?
head -n 14 "$work/cs-verify.log"
[ "$rc" -eq 0 ] || { cat "$work/cs-verify.log"; fail "case studies: verify exited $rc"; }
for v in riften libfork julia stdexec_bwos_v1 stdexec_bwos; do
  grep -qE "^$v +\|.*expected failure: caught" "$work/cs-verify.log" || fail "verify did not catch $v"
done
for v in taskflow_unbounded taskflow_bounded $controls; do
  grep -qE "^$v +\| pass .*\| pass .*\| pass .*\| ok" "$work/cs-verify.log" ||
    fail "verify did not pass $v in every column"
done
# stdexec's BWoS before its rewrite loses a value under SC in a scenario beyond every client
# (docs/case-studies/stdexec-bwos.md): fuzz's exhaustive run of it must report the loss.
"$work/cs/case-studies-stealcheck" fuzz stdexec_bwos_v1_acquire_claim --model sc --exhaustive \
  --scenario 'prefix [ push push ] owner [ pop pop push push push ] thief1 [ steal ]' \
  >"$work/cs-fuzz.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q "value 3 was lost" "$work/cs-fuzz.log" ||
  { cat "$work/cs-fuzz.log"; fail "fuzz did not find stdexec_bwos_v1's lost value (exit $rc)"; }
echo "ci/example.sh: OK"
# SPDX-License-Identifier: Apache-2.0
