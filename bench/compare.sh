#!/usr/bin/env bash
# Two builds of shipcheck side by side on the benchmarks' inputs, in alternated rounds
# (bench/interleave.py: one run of each, round after round, so a slow spell of the shared machine
# lands on both): the CPU time (user + system) of each row's shipcheck command, before and after a
# change. What a change that touches every capability is held to ("every row within 10% of its
# value before"), in one session, on the same inputs.
#
#   bench/compare.sh BEFORE AFTER [OUT.md]   (two shipcheck executables, release builds)
#
# Environment: RUNS (default 7), FILES (the conflict and audit tree, default 50000).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/compare.sh BEFORE AFTER [OUT.md]" >&2; exit 2; }
before=$(realpath "$1")
after=$(realpath "$2")
cd "$(dirname "$0")/.."
root=$PWD
out=${3:-$root/bench/results/compare.md}
runs=${RUNS:-7}
files=${FILES:-50000}
work=$root/bench/work/compare
mkdir -p "$work"
[ "$(uname -s)" = Linux ] || { echo "compare.sh: the benchmarks run on Linux (the ELF rows need libelf)" >&2; exit 1; }
for tool in git python3; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is required" >&2; exit 1; }
done

sources_tree=$(bench/sources/tree.sh)
bench/conflicts/tree.sh "$files" >/dev/null
conflicts_tree=$root/bench/work/conflicts-tree
queries_tree=$root/bench/work/queries/tree-compare
if [ ! -d "$queries_tree/.git" ]; then
  rm -rf "$queries_tree" && mkdir -p "$queries_tree"
  python3 bench/queries/generate.py "$queries_tree" 20000 200
  git -C "$queries_tree" init -q && git -C "$queries_tree" add -A
  git -C "$queries_tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -qm tree
fi
grep -qx '.shipcheck/' "$queries_tree/.git/info/exclude" 2>/dev/null || echo '.shipcheck/' >>"$queries_tree/.git/info/exclude"
rm -rf "$queries_tree/.shipcheck"
for name in todo fixme; do
  "$before" query add --root "$queries_tree" "$name" -- "$(echo "$name" | tr a-z A-Z)" >/dev/null
done
"$before" query add --root "$queries_tree" print-call --regex -- 'print\(' >/dev/null
toolchain_lib=$(dirname "$(dirname "$(command -v swift)")")/lib/swift/linux
elf=$toolchain_lib/libswiftCore.so
sample_ipa=$root/Samples/Bundles/.build-bundles/Demo.ipa
[ -f "$sample_ipa" ] || bash Samples/Bundles/build.sh >/dev/null

# name | command with SHIPCHECK for the binary, after COLD for a run as a user's first one: the
# result cache in its default place, emptied first (run under /bin/sh, output discarded)
rows=(
  "sources, real-package tree|COLD SHIPCHECK sources --format json '$sources_tree'"
  "conflicts, working tree ($files files)|cd '$conflicts_tree' && SHIPCHECK conflicts --format json"
  "conflicts --staged|cd '$conflicts_tree' && SHIPCHECK conflicts --staged --format json ."
  "query run, one literal|cd '$queries_tree' && SHIPCHECK query run todo"
  "query run, three queries|cd '$queries_tree' && SHIPCHECK query run todo fixme print-call"
  "audit, Samples|COLD SHIPCHECK audit --format json '$root/Samples'"
  "audit, conflicts tree|COLD SHIPCHECK audit --format json '$conflicts_tree'"
  "symbols, libswiftCore.so|SHIPCHECK symbols --demangle full '$elf'"
  "binary, demo .ipa|SHIPCHECK binary --format json '$sample_ipa'"
)

{
  echo "## Before and after: CPU time of each row, alternated rounds"
  echo
  echo "Before: \`$("$before" --version)\`; after: \`$("$after" --version)\`. $runs rounds after a"
  echo "warm-up, each round one run of each build (\`bench/compare.sh\`); medians of user + system time."
  echo
  echo "| Row | Before [ms] | After [ms] | After / before |"
  echo "|---|---|---|---|"
} >"$out.tmp"
cold() { echo "rm -rf '$work/cold-cache-$1'; XDG_CACHE_HOME='$work/cold-cache-$1'"; }
for row in "${rows[@]}"; do
  name=${row%%|*}
  command=${row#*|}
  before_command=${command//SHIPCHECK/\'$before\'}
  after_command=${command//SHIPCHECK/\'$after\'}
  python3 bench/interleave.py --runs "$runs" --export-json "$work/row.json" \
    -n before "${before_command//COLD/$(cold before)}" -n after "${after_command//COLD/$(cold after)}" >/dev/null
  python3 - "$work/row.json" "$name" >>"$out.tmp" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
before, after = results["before"]["cpu"] * 1000, results["after"]["cpu"] * 1000
print(f"| {sys.argv[2]} | {before:.0f} | {after:.0f} | {after / before:.2f} |")
PY
  tail -1 "$out.tmp"
done
mv "$out.tmp" "$out"
echo "compare.sh: wrote $out"
