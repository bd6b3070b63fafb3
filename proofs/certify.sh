#!/usr/bin/env bash
# proofs/certify.sh [STEALCHECK] [-- BOUND...]: writes proofs/<variant>.certificate.md for every
# correct built-in variant (`stealcheck certify VARIANT BOUND --markdown FILE`), BOUND by default
# --owner 3 --thieves 2 --steals 2. CI reruns each file's own command and fails when it differs
# (tools/tests/certificate_current.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/tools/stealcheck}
shift $(($# > 0 ? 1 : 0))
[ "${1:-}" = "--" ] && shift
bound=("$@")
[ ${#bound[@]} -gt 0 ] || bound=(--owner 3 --thieves 2 --steals 2)
for v in $("$bin" list | awk 'NR > 1 && !/KNOWN-BAD/ && $1 != "sched" {print $1}'); do
  "$bin" certify "$v" "${bound[@]}" --jobs 2 --markdown "proofs/$v.certificate.md" | grep '^certificate'
done
# SPDX-License-Identifier: Apache-2.0
