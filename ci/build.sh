#!/usr/bin/env bash
# ci/build.sh PRESET [targets...]: configure and build one CMake preset (release, debug, tsan,
# asan-ubsan). Two parallel jobs: the machines this runs on have 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
# A compiler cache where ccache is installed (ci/install-deps.sh installs it): CI builds the
# same sources again and again, and a clean clone in another directory still hits the cache
# (paths below the checkout are hashed relative to it). Not for the coverage preset, whose gcov
# notes name the paths they were built in.
launcher=()
if [ "$preset" != coverage ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-12G}"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset "$preset" "${launcher[@]}" >/dev/null
if (($#)); then
  cmake --build --preset "$preset" -j "${JOBS:-2}" --target "$@"
else
  cmake --build --preset "$preset" -j "${JOBS:-2}"
fi
# SPDX-License-Identifier: Apache-2.0
