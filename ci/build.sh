#!/usr/bin/env bash
# ci/build.sh PRESET [targets...]: configure and build one CMake preset (release, debug, tsan,
# asan-ubsan). Two parallel jobs: the machines this runs on have 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
cmake --preset "$preset" >/dev/null
if (($#)); then
  cmake --build --preset "$preset" -j "${JOBS:-2}" --target "$@"
else
  cmake --build --preset "$preset" -j "${JOBS:-2}"
fi
# SPDX-License-Identifier: Apache-2.0
