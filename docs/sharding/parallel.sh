#!/usr/bin/env bash
# One model run in shards on this machine, with GNU parallel, then merged.
#
#   docs/sharding/parallel.sh VARIANT CLIENT SHARDS [DIR]
#
# runs `stealcheck model VARIANT --client CLIENT --shard I/SHARDS --json DIR/shard-I.json` for
# I = 0 .. SHARDS-1, as many at once as there are cores, then `stealcheck merge` on the files
# (its exit code: 0 no bug, 1 a shard found one, 2 a shard is missing or foreign).
# STEALCHECK names the command (default: stealcheck on the PATH).
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 VARIANT CLIENT SHARDS [DIR]" >&2
  exit 2
fi
variant=$1 client=$2 shards=$3 dir=${4:-shards}
sc=${STEALCHECK:-stealcheck}
mkdir -p "$dir"
rm -f "$dir"/shard-*.json
# A shard that finds a bug exits 1 and one with bad input 2; merge reports both (a bug, or a
# missing shard), so parallel's own status is not the verdict.
seq 0 $((shards - 1)) | parallel --will-cite --halt never \
  "$sc" model "$variant" --client "$client" --shard "{}/$shards" --json "$dir/shard-{}.json" \
  ">" "$dir/shard-{}.log" || true
exec "$sc" merge "$dir"/shard-*.json --json "$dir/merged.json"
# SPDX-License-Identifier: Apache-2.0
