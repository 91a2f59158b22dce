#!/usr/bin/env bash
# Differential check of the partial parse (issue 50, Build item 3): on eight real apps at pinned
# revisions, `shipcheck sources` parsing only the declarations the rules ask for (`--parse cut`,
# the default) must report exactly what parsing every file whole (`--parse whole`) reports:
# the findings JSON, positions included, and the `--fix` rewrites as a diff. Any difference
# fails. With `--explain` the cut run says how it parsed each file; the counts go to
# bench/results/differential.md. Apps are checked out by checkout.sh into bench/work/apps/.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
work="$repo/bench/work/apps"
out="$repo/bench/work/differential"
results="$repo/bench/results/differential.md"
mkdir -p "$work" "$out"
for tool in git python3; do
  command -v "$tool" >/dev/null || { echo "differential: $tool is required" >&2; exit 2; }
done
shipcheck="${SHIPCHECK:-$(bench/shipcheck-release.sh 2>/dev/null)}"

# name | repository | revision
apps=(
  "IceCubesApp|https://github.com/Dimillian/IceCubesApp|0fc41d2ced2e3e735bd9c42d5ae6dea16e63d618"
  "element-x-ios|https://github.com/element-hq/element-x-ios|5d0343c480a8659a1d5669f8e4a13fb37d7528e7"
  "pocket-casts-ios|https://github.com/Automattic/pocket-casts-ios|c23892d1f47bc44d422fa06c389b49820aa04dd3"
  "duckduckgo-ios|https://github.com/duckduckgo/iOS|7b3f6010d27a3a69fe92a2ad698543f2e67c8900"
  "CodeEdit|https://github.com/CodeEditApp/CodeEdit|cec6287a49a0a460cd7cab17f254eebc3ada828e"
  "NetNewsWire|https://github.com/Ranchero-Software/NetNewsWire|834decfad37802ef24d8a74897427a9eee57afdd"
  "mastodon-ios|https://github.com/mastodon/mastodon-ios|a9e088a9c7b88720fed5eefdd2dc1606b5f21dc8"
  "home-assistant-ios|https://github.com/home-assistant/iOS|d722d7811aec72397d05837477c5f146943b6248"
)

failed=0
rows=""
for entry in "${apps[@]}"; do
  IFS='|' read -r name url revision <<< "$entry"
  tree="$work/$name"
  bench/apps/checkout.sh "$name" "$url" "$revision" "$tree"
  files=$(git -C "$tree" ls-files '*.swift' | wc -l)
  for mode in whole cut; do
    # Exit codes are not failures here: shipcheck exits 1 on findings, 2 on input errors.
    "$shipcheck" sources --no-cache --format json --parse "$mode" --explain "$tree" \
      > "$out/$name.$mode.json" 2> "$out/$name.$mode.explain" || true
    "$shipcheck" sources --fix --dry-run --parse "$mode" "$tree" > "$out/$name.$mode.fix" 2>/dev/null || true
  done
  verdict="same"
  if ! cmp -s "$out/$name.whole.json" "$out/$name.cut.json"; then
    verdict="**findings differ**"
    diff "$out/$name.whole.json" "$out/$name.cut.json" | head -40 >&2 || true
  fi
  if ! cmp -s "$out/$name.whole.fix" "$out/$name.cut.fix"; then
    verdict="${verdict/same/}**fixes differ**"
    diff "$out/$name.whole.fix" "$out/$name.cut.fix" | head -40 >&2 || true
  fi
  [ "$verdict" = same ] || failed=1
  echo "differential: $name: $verdict" >&2
  rows+=$(python3 - "$out/$name.cut.explain" "$out/$name.whole.json" "$name" "${revision:0:12}" "$files" "$verdict" <<'PY'
import collections, json, re, sys
explain, report, name, revision, files, verdict = sys.argv[1:]
cut = whole = 0
pieces = parsed = bodies = 0
reasons = collections.Counter()
for line in open(explain):
    match = re.search(r": note: parsed in part: (\d+) of (\d+) top-level pieces, (\d+) member bodies", line)
    if match:
        cut += 1
        parsed += int(match[1])
        pieces += int(match[2])
        bodies += int(match[3])
        continue
    match = re.search(r": note: parsed whole: (.*)$", line)
    if match:
        whole += 1
        reasons[re.sub(r"'.'", "'…'", match[1])] += 1
findings = len(json.load(open(report)).get("findings", []))
why = "; ".join(f"{count} {reason}" for reason, count in reasons.most_common())
print(f"| {name} | {revision} | {files} | {cut + whole} | {cut} ({parsed} of {pieces} pieces, {bodies} member bodies left out) "
      f"| {whole} | {why} | {findings} | {verdict} |")
PY
)$'\n'
done

{
  echo "# Differential check of the partial parse"
  echo
  echo "\`bench/apps/differential.sh\` ($(date -u +%Y-%m-%d)): \`shipcheck sources --no-cache --format json\`"
  echo "and \`sources --fix --dry-run\` on every Swift file of each app, once with \`--parse whole\` and"
  echo "once with \`--parse cut\` (the default); the outputs must be byte-identical. *Parsed*: files"
  echo "holding some rule's text (the others are not parsed in either mode); *cut*: parsed in part"
  echo "(pieces: top-level declarations and \`#if\` lines, over those files; member bodies: method bodies and"
  echo "computed properties of the parsed types that hold no rule's text); *whole*: parsed whole, and why."
  echo
  echo "| App | Revision | Swift files | Parsed | Cut | Whole | Why whole | Findings | Result |"
  echo "|---|---|---:|---:|---|---:|---|---:|---|"
  printf '%s' "$rows"
} > "$results"
cat "$results"
exit "$failed"
