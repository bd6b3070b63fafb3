#!/usr/bin/env bash
# ci/build.sh PRESET [targets...]: configure and build one CMake preset (release, debug, tsan,
# asan-ubsan). Two parallel jobs: the machines this runs on have 2 cores. BUILD_DIR=DIR builds
# the preset's configuration in DIR instead of build/PRESET, with CMAKE_ARGS added to it (for
# example the command under ThreadSanitizer: BUILD_DIR=build/tsan-command
# CMAKE_ARGS=-DSTEALCHECK_TESTS=all bash ci/build.sh tsan stealcheck).
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
dir=()
[ -z "${BUILD_DIR:-}" ] || dir=(-B "$BUILD_DIR")
read -ra extra <<<"${CMAKE_ARGS:-}"
cmake --preset "$preset" "${dir[@]}" "${launcher[@]}" "${extra[@]}" >/dev/null
build=(--preset "$preset")
[ -z "${BUILD_DIR:-}" ] || build=("$BUILD_DIR")
if (($#)); then
  cmake --build "${build[@]}" -j "${JOBS:-2}" --target "$@"
else
  cmake --build "${build[@]}" -j "${JOBS:-2}"
fi
# SPDX-License-Identifier: Apache-2.0
