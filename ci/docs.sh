#!/usr/bin/env bash
# ci/docs.sh [OUT]: builds the manual as an HTML site in OUT/html (default build/docs): the
# Markdown pages of docs/, the README and the pages they link to (MyST), and the API reference
# of the public headers (Doxygen's XML through Breathe). Fails on any warning of either (a
# broken link between pages, an unknown anchor, a header Doxygen cannot parse).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build/docs}")
mkdir -p "$out"
export STEALCHECK_DOXYGEN_OUT="$out/doxygen" STEALCHECK_DOXYGEN_XML="$out/doxygen/xml"
(cd docs && doxygen Doxyfile)
sphinx-build -q -E -W --keep-going -b html -c docs -d "$out/doctrees" . "$out/html"
# the manual's first page sits at docs/index.html (the source is the whole repository)
printf '<!DOCTYPE html><meta http-equiv="refresh" content="0; url=docs/index.html">\n' \
  >"$out/html/index.html"
echo "ci/docs.sh: $out/html/index.html"
# SPDX-License-Identifier: Apache-2.0
