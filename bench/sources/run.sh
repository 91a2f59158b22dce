#!/usr/bin/env bash
# Benchmark: `shipcheck sources` against `rg -l Preview` and `swift-format lint --recursive
# --parallel` on one large tree of real Swift code (several package mirrors of this machine,
# extracted with `git archive` at fixed revisions). Writes bench/results/sources.md.
#
# Targets (issue 3): within 2x of ripgrep's time, at least 5x faster than swift-format.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
work="$repo/bench/work/sources"
results="$repo/bench/results/sources.md"
runs="${RUNS:-10}"
format_runs="${FORMAT_RUNS:-2}"

for tool in hyperfine rg swift-format /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done

shipcheck=$(bench/shipcheck-release.sh 2>/dev/null)

tree="$(bench/sources/tree.sh)"
revisions="$(cat "$work/revisions.md")"$'\n'

swift_files="$(git -C "$tree" ls-files '*.swift' | wc -l)"
all_files="$(git -C "$tree" ls-files | wc -l)"
swift_bytes="$(git -C "$tree" ls-files -z '*.swift' | (cd "$tree" && du -cb --files0-from=-) | tail -1 | cut -f1)"
# Files holding some rule's required text (an upper bound on what is parsed: two rules look
# closer at the bytes first).
parsed_files="$(rg -l --fixed-strings -e Preview -e @State -e '@unchecked Sendable' -e '@unchecked Swift.Sendable' \
  -e 'nonisolated(unsafe)' -e SwiftUI -e DynamicProperty -g '*.swift' "$tree" | wc -l)"
findings="$("$shipcheck" sources --no-cache --format json "$tree" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))' || true)"

json="$work/hyperfine.json"
format_json="$work/hyperfine-format.json"
# shipcheck exits 1 when it reports findings, swift-format when it reports lint: not failures here.
# As a user runs it: the result cache in its default place (XDG_CACHE_HOME here), emptied before
# each cold run and left by the previous run for a warm one; `--no-cache` as a row of its own.
cache_home="$work/xdg-cache"
hyperfine --warmup 2 --runs "$runs" --ignore-failure --export-json "$json" \
  --prepare "rm -rf '$cache_home'" -n "shipcheck sources" \
  "XDG_CACHE_HOME='$cache_home' $shipcheck sources --format json $tree >/dev/null" \
  --prepare true -n "shipcheck sources --no-cache" "$shipcheck sources --no-cache --format json $tree >/dev/null" \
  --prepare true -n "shipcheck sources, warm" \
  "XDG_CACHE_HOME='$cache_home' $shipcheck sources --format json $tree >/dev/null" \
  --prepare true -n "rg -l Preview" "rg -l Preview $tree >/dev/null"
hyperfine --warmup 0 --runs "$format_runs" --ignore-failure --export-json "$format_json" \
  -n "swift-format lint --recursive --parallel" "swift-format lint --recursive --parallel $tree >/dev/null 2>&1"

peak_rss() { /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt" || true; awk -F': ' '/Maximum resident/ {print int($2/1024) " MB"}' "$work/time.txt"; }
rm -rf "$cache_home"
rss_shipcheck="$(XDG_CACHE_HOME="$cache_home" peak_rss "$shipcheck" sources --format json "$tree")"
rss_warm="$(XDG_CACHE_HOME="$cache_home" peak_rss "$shipcheck" sources --format json "$tree")"
rss_no_cache="$(peak_rss "$shipcheck" sources --no-cache --format json "$tree")"
rss_rg="$(peak_rss rg -l Preview "$tree")"
rss_format="$(peak_rss swift-format lint --recursive --parallel "$tree")"

python3 - "$json" "$format_json" "$results" <<PY
import json, sys
runs = json.load(open(sys.argv[1]))["results"] + json.load(open(sys.argv[2]))["results"]
by = {r["command"]: r for r in runs}
sc, rg, sf = by["shipcheck sources"], by["rg -l Preview"], by["swift-format lint --recursive --parallel"]
nc, warm = by["shipcheck sources --no-cache"], by["shipcheck sources, warm"]
rss = {"shipcheck sources": "$rss_shipcheck", "shipcheck sources --no-cache": "$rss_no_cache",
       "shipcheck sources, warm": "$rss_warm", "rg -l Preview": "$rss_rg",
       "swift-format lint --recursive --parallel": "$rss_format"}
def row(r): return f"| \`{r['command']}\` | {r['mean']:.3f} ± {r['stddev'] or 0:.3f} | {r['min']:.3f} | {len(r['times'])} | {rss[r['command']]} |"
ratio_rg, ratio_sf = sc["mean"] / rg["mean"], sf["mean"] / sc["mean"]
min_ratio_rg = sc["min"] / rg["min"]
cpu = lambda r: r["user"] + r["system"]
cpu_ratio_rg = cpu(sc) / cpu(rg)
out = f"""## shipcheck sources

Tree: {int("$swift_files"):,} Swift files ({int("$swift_bytes") / 1e6:.1f} MB of Swift; {int("$all_files"):,} files in all),
extracted with \`git archive\` from the machine's package mirrors:

| Tree | Mirror | Revision |
|---|---|---|
$revisions
shipcheck parsed at most {int("$parsed_files")} of them (the rest hold no rule's required text and no Development Assets path) and
reported {("$findings" or "?")} findings. Machine: 2 cores shared with other jobs, so absolute times vary from run to run;
the ratios are what the targets are about.

| Command | Mean [s] | Min [s] | Runs | Peak RSS |
|---|---|---|---|---|
{row(sc)}
{row(nc)}
{row(warm)}
{row(rg)}
{row(sf)}

\`shipcheck sources\` runs as a user runs it: the result cache in its default place, emptied before each run (a
first run); \`--no-cache\` is its own row; the warm row re-runs on the unchanged tree with the cache the run before
left.

- shipcheck / ripgrep: **{ratio_rg:.2f}x** by mean time (target: at most 2x) — {"met" if ratio_rg <= 2 else "NOT met"};
  {min_ratio_rg:.2f}x by best time, {cpu_ratio_rg:.2f}x by CPU time (user + system: {cpu(sc)*1000:.0f} ms vs {cpu(rg)*1000:.0f} ms),
  which other jobs on the machine disturb less than wall time
- first run with the cache / \`--no-cache\`: {cpu(sc) / cpu(nc):.2f}x CPU (target: at most 1.10x) — {"met" if cpu(sc) <= 1.1 * cpu(nc) else "NOT met"}
- warm / ripgrep: {cpu(warm) / cpu(rg):.2f}x CPU, {warm["mean"] / rg["mean"]:.2f}x by mean time
- swift-format / shipcheck: **{ratio_sf:.1f}x** (target: at least 5x) — {"met" if ratio_sf >= 5 else "NOT met"}

Reproduce: \`bench/sources/run.sh\` (RUNS, FORMAT_RUNS and SWIFT_MIRRORS override the defaults).
"""
open(sys.argv[3], "w").write(out)
print(out)
PY
