#!/bin/bash
# Side by side, run for run: a lazy-search port (RegExp or Typecheck, built as
# tools/peers/README.md says) against `bench` on the same benchmark and
# strategy. Checks that both make the same runs at every bound, then prints
# the process CPU seconds (user + system) of each, pinned to one core, the
# best of N alternating runs, and the ratio.
#
#   tools/peers/lazysearch/compare.sh <peer binary> <bench binary> \
#       <regexp|typecheck> <D|O|F|OS|OF|OSF> <max bound> [repeats, default 3]
set -euo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
peer=$1 bench=$2 benchmark=$3 strategy=$4 bound=$5 repeats=${6:-3}
peer_cmd=("$peer" "$bound" all "$strategy")
bench_cmd=("$bench" "$benchmark" all 600 "$strategy" --max-bound "$bound")
core=$(( $(nproc) - 1 ))

# Runs per bound: the peer prints "bound runs ...", bench "bound<TAB>runs<TAB>...".
peer_runs=$("${peer_cmd[@]}" | awk '{print $1, $2}')
bench_runs=$("${bench_cmd[@]}" | awk -F'\t' 'NF == 3 {print $1, $2}')
if [ "$peer_runs" != "$bench_runs" ]; then
  echo "the runs differ:" >&2
  diff <(echo "$peer_runs") <(echo "$bench_runs") >&2 || true
  exit 1
fi

cpu_seconds() {
  local TIMEFORMAT='%3U %3S'
  { time taskset -c "$core" "$@" > /dev/null; } 2>&1 | awk '{printf "%.3f\n", $1 + $2}'
}
best_peer=999 best_bench=999
for _ in $(seq "$repeats"); do
  p=$(cpu_seconds "${peer_cmd[@]}")
  b=$(cpu_seconds "${bench_cmd[@]}")
  best_peer=$(awk -v a="$p" -v b="$best_peer" 'BEGIN {print (a < b) ? a : b}')
  best_bench=$(awk -v a="$b" -v b="$best_bench" 'BEGIN {print (a < b) ? a : b}')
done
total=$(echo "$bench_runs" | awk '{s += $2} END {print s}')
awk -v n="$benchmark $strategy" -v bd="$bound" -v r="$total" -v p="$best_peer" -v b="$best_bench" \
  'BEGIN {printf "%s, bounds 0-%s, %d runs: lazy-search %.3f s, neatcheck %.3f s, %.2fx\n", n, bd, r, p, b, p / b}'
