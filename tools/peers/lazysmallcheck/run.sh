#!/usr/bin/env bash
# Times Lazy SmallCheck 0.6 to its first counterexample on the properties of
# `first_ctrex` (SmallPrograms.hs) and the shared benchmarks
# (Benchmarks.hs), best of three runs of thread CPU time, one line each:
#
#   bash tools/peers/lazysmallcheck/run.sh [name ...]
#
# Needs GHC and Lazy SmallCheck 0.6 (Debian: `apt-get install ghc
# libghc-lazysmallcheck-dev`); nothing in the build or CI does. Compare
# with `cargo run --release -p neatcheck-tools --bin first_ctrex`.
# LSC_TIMEOUT (seconds, default 300) caps each run; a property that finds
# nothing within it prints `none`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${TMPDIR:-/tmp}/neatcheck-lsc"
mkdir -p "$build"
command -v ghc >/dev/null || { echo "run.sh: needs ghc and libghc-lazysmallcheck-dev" >&2; exit 2; }
ghc -O2 -v0 -i"$here" -outputdir "$build/small" -o "$build/small-programs" "$here/SmallPrograms.hs"
ghc -O2 -v0 -i"$here" -outputdir "$build/bench" -o "$build/benchmarks" "$here/Benchmarks.hs"

small=(six-distinct five-chars seven-nonzero listset-shallow listset-fast huffman-opt
    sumpuz-carry countdown-sq turner)
shared=(lambda redblack regexp)
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=("${shared[@]}" "${small[@]}")

printf '%-16s %10s %12s  %s\n' property "lsc s" "tests" counterexample
for name in "${wanted[@]}"; do
    binary="$build/small-programs"
    for s in "${shared[@]}"; do [ "$s" = "$name" ] && binary="$build/benchmarks"; done
    best=""
    for _ in 1 2 3; do
        out=$(timeout "${LSC_TIMEOUT:-300}" "$binary" "$name" 2>&1) || true
        # Killed by the timeout: no counterexample, and no second try.
        printf '%s\n' "$out" | grep -q '^Counter example found:' || break
        secs=$(printf '%s\n' "$out" | sed -n "s/^$name: \([0-9.]*\) s of CPU time/\1/p")
        if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$secs
        fi
    done
    # Tests at the depths passed, plus the depth that failed (not counted
    # by Lazy SmallCheck).
    tests=$(printf '%s\n' "$out" | awk '/^OK, required/ { n += $3 } END { print n + 0 }')
    found=$(printf '%s\n' "$out" | sed -n '/^Counter example found:/{n;p}' | paste -sd' ')
    printf '%-16s %10s %12s  %s\n' "$name" "${best:-none}" "$tests" "${found:-none}"
done
