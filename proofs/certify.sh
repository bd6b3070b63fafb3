#!/usr/bin/env bash
# proofs/certify.sh [STEALCHECK] [-- BOUND...]: writes proofs/<variant>.certificate.md for every
# correct built-in variant (`stealcheck certify VARIANT BOUND --markdown FILE`), BOUND by default
# --owner 3 --thieves 2 --steals 2; and proofs/<variant>.steal-from-thieves.certificate.md for
# every batch-stealing one, the same with --steal-from-thieves at STEAL_BOUND (default --owner 3
# --thieves 2 --steals 2). PROOFS=plain or PROOFS=steal writes only the one kind. CI reruns each
# file's own command and fails when it differs (tools/tests/certificate_current.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/tools/stealcheck}
shift $(($# > 0 ? 1 : 0))
[ "${1:-}" = "--" ] && shift
bound=("$@")
[ ${#bound[@]} -gt 0 ] || bound=(--owner 3 --thieves 2 --steals 2)
read -r -a steal_bound <<<"${STEAL_BOUND:---owner 3 --thieves 2 --steals 2}"
kinds=${PROOFS:-all}
correct=$("$bin" list | awk 'NR > 1 && !/KNOWN-BAD/ && $1 != "sched" {print $1}')
batch=$("$bin" list | awk 'NR > 1 && !/KNOWN-BAD/ && /\[batch steal\]/ {print $1}')
[ "$kinds" = steal ] || for v in $correct; do
  "$bin" certify "$v" "${bound[@]}" --jobs 2 --markdown "proofs/$v.certificate.md" | grep '^certificate'
done
[ "$kinds" = plain ] || for v in $batch; do
  "$bin" certify "$v" "${steal_bound[@]}" --steal-from-thieves --jobs 2 \
    --markdown "proofs/$v.steal-from-thieves.certificate.md" | grep '^certificate'
done
# SPDX-License-Identifier: Apache-2.0
