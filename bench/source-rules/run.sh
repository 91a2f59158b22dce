#!/usr/bin/env bash
# Benchmark: what the three run-time source rules (state-built-in-init,
# dynamic-property-captures-self, unchecked-sendable-closure) add to `shipcheck sources`: the
# same binary with them on (the default) and off (`rules: {…: off}`), on the sources benchmark's
# tree of server-side packages (bench/sources/tree.sh) and on SwiftUI apps when their snapshots
# are on the machine (APP_MIRRORS, bare git directories). Writes bench/results/source-rules.md.
#
# SHIPCHECK=path benchmarks that binary (for example a debug build) instead of a release build.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
work="$repo/bench/work/source-rules"
results="$repo/bench/results/source-rules.md"
runs="${RUNS:-5}"
apps="${APP_MIRRORS:-/work/.mirror/Dimillian+IceCubesApp/repo /work/.mirror/Automattic+pocket-casts-ios/repo}"
mkdir -p "$work"

for tool in hyperfine rg; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
if [ -n "${SHIPCHECK:-}" ]; then
  shipcheck="$SHIPCHECK"
  build="the binary at \`$SHIPCHECK\`"
else
  shipcheck=$(bench/shipcheck-release.sh 2>/dev/null)
  build="\`make release\`'s build"
fi

# The same configuration both times except for the three rules.
printf 'rules:\n  state-built-in-init: off\n  dynamic-property-captures-self: off\n  unchecked-sendable-closure: off\n' >"$work/off.yml"
printf 'rules: {}\n' >"$work/on.yml"

trees=("packages=$(bench/sources/tree.sh)")
for mirror in $apps; do
  [ -d "$mirror" ] || continue
  name="$(basename "$(dirname "$mirror")")"
  tree="$work/$name"
  commit="$(git -C "$mirror" rev-parse HEAD)"
  if [ "$(cat "$tree/.commit" 2>/dev/null)" != "$commit" ]; then
    rm -rf "$tree"
    mkdir -p "$tree"
    git -C "$mirror" archive "$commit" | tar -x -C "$tree"
    git -C "$tree" init -q
    git -C "$tree" add -A
    git -C "$tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q -m "$commit"
    echo "$commit" >"$tree/.commit"
  fi
  trees+=("$name@${commit:0:12}=$tree")
done

rows=""
for entry in "${trees[@]}"; do
  name="${entry%%=*}"
  tree="${entry#*=}"
  swift_files="$(git -C "$tree" ls-files '*.swift' | wc -l)"
  json="$work/$(echo "$name" | tr '@/' '__').json"
  # shipcheck exits 1 when it reports findings: not a failure here.
  # As a user's first run: the result cache in its default place, empty before every run.
  hyperfine --warmup 1 --runs "$runs" --ignore-failure --export-json "$json" --prepare "rm -rf '$work/xdg-cache'" \
    -n "off" "XDG_CACHE_HOME='$work/xdg-cache' $shipcheck sources --config $work/off.yml --format json $tree >/dev/null" \
    -n "on" "XDG_CACHE_HOME='$work/xdg-cache' $shipcheck sources --config $work/on.yml --format json $tree >/dev/null"
  findings="$({ "$shipcheck" sources --config "$work/on.yml" --format json "$tree" || true; } | python3 -c '
import json, sys
ids = {"state-built-in-init", "dynamic-property-captures-self", "unchecked-sendable-closure"}
print(sum(1 for f in json.load(sys.stdin)["findings"] if f["ruleID"] in ids))')"
  rows+="$(python3 - "$json" "$name" "$swift_files" "$findings" <<'PY'
import json, sys
runs = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
off, on = runs["off"], runs["on"]
cpu = lambda r: r["user"] + r["system"]
print(f"| {sys.argv[2]} | {int(sys.argv[3]):,} | {off['mean']:.3f} ± {off['stddev'] or 0:.3f} | {on['mean']:.3f} ± {on['stddev'] or 0:.3f} "
      f"| {(on['mean'] / off['mean'] - 1) * 100:+.1f}% | {(cpu(on) / cpu(off) - 1) * 100:+.1f}% | {sys.argv[4]} |")
PY
)"$'\n'
done

cat >"$results" <<MD
## The run-time source rules' cost

\`shipcheck sources\` with the three rules \`state-built-in-init\`, \`dynamic-property-captures-self\`
and \`unchecked-sendable-closure\` off and on (the default), same binary ($build), $runs runs each
after a warm-up. Their cost is the files their required text lets through to the parser
(\`@State\`, \`SwiftUI\`/\`DynamicProperty\` with \`init\`, \`@unchecked Sendable\`,
\`nonisolated(unsafe)\`), their walks over the trees, and the files read again at the end for
findings that wait on other files. Machine: $(nproc) cores shared with other jobs.

| Tree | Swift files | off [s] | on [s] | mean | CPU (user + system) | their findings |
|---|---|---|---|---|---|---|
$rows
\`packages\` is the sources benchmark's tree (bench/sources/tree.sh); the apps are the snapshots
in APP_MIRRORS. Reproduce: \`bench/source-rules/run.sh\` (RUNS, SHIPCHECK, APP_MIRRORS).

Where the added time goes (perf on the packages tree, release build, when this benchmark was
written): with the rules off only the 17 files holding \`Preview\` are parsed; with them on
about 200 more are (\`@unchecked Sendable\` is common in server-side packages), which is about
half of the added time, and reading the tree's files a second time at the end to settle
findings that wait on other files is about a quarter. An identifier index taken in the read
pass would spare that second read.
MD
cat "$results"
