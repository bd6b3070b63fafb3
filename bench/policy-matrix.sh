#!/usr/bin/env bash
# bench/policy-matrix.sh [STEALCHECK] [RUNS] [P] [OUT]: the pool's policies on every kernel at
# P workers (default 2), RUNS runs in a row (default 3), each saved as OUT/run-N.json (default
# OUT: a fresh temporary directory), then one Markdown table: a row per kernel, a column per
# runtime, each cell the range over the runs of the time in ms and of the failed steal attempts
# (attempts less steals). A runtime whose time range lies wholly below the default pool's
# (child-split) is marked "faster", wholly above "slower"; the others overlap it. Set RUNTIMES
# and KERNELS to change what runs. A benchmark: about a minute per run on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/tools/stealcheck}
runs=${2:-3}
p=${3:-2}
out=${4:-$(mktemp -d)}
kernels=${KERNELS:-fib,nqueens,uts-t1,uts-t3,matmul}
runtimes=${RUNTIMES:-serial,child-split,child-split/spin0,child-split/spin1000,child-split/snooze,child-split/yield,child-split/search_half,child-split/t4,child-chase_lev,child-steal_half,child-steal_half/one}
[ -x "$bin" ] || { echo "bench/policy-matrix.sh: error: no executable $bin" >&2; exit 2; }
case "$runs$p" in *[!0-9]*) echo "bench/policy-matrix.sh: error: RUNS and P are counts" >&2; exit 2 ;; esac
mkdir -p "$out"
for i in $(seq 1 "$runs"); do
  "$bin" bench --kernels "$kernels" --threads "$p" --reps 7 --runtimes "$runtimes" \
    --json "$out/run-$i.json" >"$out/run-$i.txt"
  echo "run $i of $runs: $out/run-$i.json ($(date -u +%H:%M:%S) UTC)" >&2
done
python3 - "$out" "$runs" "$p" <<'EOF'
import json, sys
out, runs, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = [json.load(open(f"{out}/run-{i}.json")) for i in range(1, runs + 1)]
kernels = [k["kernel"] for k in data[0]["kernels"]]
names = []
for r in data[0]["rows"]:
    if r["threads"] == p and r["runtime"] not in names and r["runtime"] != "serial":
        names.append(r["runtime"])
def cells(kernel, rt):
    rows = [r for d in data for r in d["rows"]
            if r["kernel"] == kernel and r["runtime"] == rt and r["threads"] == p]
    ms = [r["seconds"] * 1000 for r in rows]
    failed = [r["stats"]["steal_attempts"] - r["stats"]["steals"] for r in rows if "stats" in r]
    return ms, failed
def span(xs, fmt):
    lo, hi = min(xs), max(xs)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else fmt.format(lo) + "-" + fmt.format(hi)
print(f"| P = {p}, {runs} runs: ms; failed attempts | " + " | ".join(f"`{n}`" for n in names) + " |")
print("|---" * (len(names) + 1) + "|")
for k in kernels:
    base, _ = cells(k, "child-split")
    row = []
    for n in names:
        ms, failed = cells(k, n)
        mark = ""
        if n != "child-split" and base:
            if max(ms) < min(base): mark = " (faster)"
            elif min(ms) > max(base): mark = " (slower)"
        row.append(span(ms, "{:.2f}") + mark + "; " + (span(failed, "{:,}") if failed else "-"))
    print(f"| {k} | " + " | ".join(row) + " |")
cores = [r["cores"] for d in data for r in d["rows"] if r["threads"] == p and r.get("cores")]
print(f"\n(cores used at P = {p}: {min(cores):.2f}-{max(cores):.2f}; runs saved in {out})")
EOF
# SPDX-License-Identifier: Apache-2.0
