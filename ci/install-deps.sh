#!/usr/bin/env bash
# Installs what stealcheck needs from Debian 12's packages, and only what is missing
# (idempotent: a second run installs nothing and does not touch the network). --peers adds Mono
# (mono-mcs, mono-runtime: about 90 MB) for the bench peer dotnet-mono.
set -euo pipefail
packages=(
  g++ cmake ninja-build pkg-config git python3 gdb
  libgtest-dev librapidcheck-dev libbenchmark-dev libtbb-dev libcli11-dev libfmt-dev
  nlohmann-json3-dev libboost-context-dev graphviz gnuplot-nox clang-format clang-tidy-16
  clang-16 libclang-rt-16-dev libomp-16-dev help2man nettle-dev golang-go ccache
  openjdk-17-jdk-headless cargo librust-rayon-dev librust-sha1-dev
  parallel yamllint doxygen python3-sphinx python3-breathe python3-myst-parser
)
[ "${1:-}" = "--peers" ] && packages+=(mono-mcs mono-runtime)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "ci/install-deps.sh: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# SPDX-License-Identifier: Apache-2.0
