#!/usr/bin/env bash
# Quick start 1: install what is missing, build (release), run the main job `stealcheck verify`.
# Extra arguments go to `stealcheck verify` (e.g. --include-known-bad, --json out.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
bash ci/build.sh release stealcheck
exec build/release/tools/stealcheck verify "$@"
# SPDX-License-Identifier: Apache-2.0
