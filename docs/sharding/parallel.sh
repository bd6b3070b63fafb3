#!/usr/bin/env bash
# One model run in shards on this machine, with GNU parallel, then merged.
#
#   docs/sharding/parallel.sh VARIANT CLIENT SHARDS [DIR [COUNTS]]
#
# runs `stealcheck model VARIANT --client CLIENT --shard I/SHARDS --json DIR/shard-I.json` for
# I = 0 .. SHARDS-1, as many at once as there are cores, then `stealcheck merge` on the files
# into DIR/merged.json (its exit code: 0 no bug, 1 a shard found one, 2 a shard is missing or
# foreign). COUNTS, the merged.json of an earlier run of the same client, divides the tree by
# the executions that run counted (--counts) instead of estimates: the shards come out even.
# STEALCHECK names the command (default: stealcheck on the PATH).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 VARIANT CLIENT SHARDS [DIR [COUNTS]]" >&2
  exit 2
fi
variant=$1 client=$2 shards=$3 dir=${4:-shards}
sc=${STEALCHECK:-stealcheck}
mkdir -p "$dir"
counts=()
if [ $# -ge 5 ]; then
  # a copy: COUNTS may be DIR/merged.json, which merge rewrites at the end
  [ "$5" -ef "$dir/counts.json" ] || cp "$5" "$dir/counts.json"
  counts=(--counts "$dir/counts.json")
fi
rm -f "$dir"/shard-*.json
# A shard that finds a bug exits 1 and one with bad input 2; merge reports both (a bug, or a
# missing shard), so parallel's own status is not the verdict.
seq 0 $((shards - 1)) | parallel --will-cite --halt never \
  "$sc" model "$variant" --client "$client" --shard "{}/$shards" --json "$dir/shard-{}.json" \
  "${counts[@]}" ">" "$dir/shard-{}.log" || true
exec "$sc" merge "$dir"/shard-*.json --json "$dir/merged.json"
# SPDX-License-Identifier: Apache-2.0
