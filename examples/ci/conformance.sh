#!/usr/bin/env bash
# examples/ci/conformance.sh PREFIX [BUILD_DIR] [JUNIT_XML]: what a project's CI job runs to
# check its deques with an installed stealcheck. Configures and builds the project in the
# current directory against PREFIX (where stealcheck is installed: /usr for the Debian
# package), runs its conformance tests with CTest and writes their results as JUnit XML for the
# CI system to show. Exit status: CTest's (0 when every test passed).
# The GitHub Actions workflow and the GitLab CI job beside this script call it; stealcheck's own
# CI runs it on examples/ (ci/example.sh).
set -uo pipefail
prefix=${1:?usage: conformance.sh PREFIX [BUILD_DIR] [JUNIT_XML]}
build=${2:-build}
junit=${3:-$build/junit.xml}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON || exit 2
cmake --build "$build" -j "${JOBS:-2}" || exit 2
ctest --test-dir "$build" -j "${JOBS:-2}" --timeout 600 --output-junit "$(realpath -m "$junit")"
# SPDX-License-Identifier: Apache-2.0
