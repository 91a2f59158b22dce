#!/usr/bin/env bash
# Saved-query benchmark: shipcheck `query run` vs ripgrep and git grep on one large,
# deterministic tree of Swift-like source (generated under bench/work/, git-ignored).
# Writes bench/results/queries.md. Usage: bench/queries/run.sh [FILES] [LINES_PER_FILE]
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
files="${1:-20000}"
lines="${2:-220}"
work="$repo/bench/work/queries"
tree="$work/tree-$files-$lines"
results="$repo/bench/results/queries.md"

for tool in rg git hyperfine python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 2; }
done

echo "== building release shipcheck"
shipcheck=$("$repo/bench/shipcheck-release.sh" 2> >(tail -1 >&2))

if [ ! -d "$tree/.git" ]; then
    echo "== generating $files files x $lines lines in $tree"
    rm -rf "$tree" && mkdir -p "$tree"
    python3 "$here/generate.py" "$tree" "$files" "$lines"
    git -C "$tree" init -q
    git -C "$tree" add -A
    git -C "$tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -qm tree
fi
bytes=$(du -sb --exclude=.git --exclude=.shipcheck "$tree" | cut -f1)
count=$(git -C "$tree" ls-files | wc -l)

# name | kind | pattern (ICU for shipcheck; ripgrep's and PCRE's syntax agree on these)
queries=(
    "literal-fixme|literal|FIXME"
    "literal-common|literal|reload"
    "regex-test-async|regex|func test[A-Z]\\w*Async\\("
    "regex-print-debug|regex|print\\(\"debug: [a-z]+"
    "regex-inner-literal|regex|[a-z]+Reload\\(_ [a-z]+: Data\\)"
    "regex-no-literal|regex|\\b[0-9]{5}\\b"
)
rm -f "$tree/.shipcheck/queries.yml"
rm -rf "$tree/.shipcheck/state"
for entry in "${queries[@]}"; do
    IFS='|' read -r name kind pattern <<<"$entry"
    flag=()
    [ "$kind" = regex ] && flag=(--regex)
    "$shipcheck" query add --root "$tree" "$name" "${flag[@]}" -- "$pattern" >/dev/null
done

mkdir -p "$(dirname "$results")"
{
    echo "# Saved queries: shipcheck vs ripgrep and git grep"
    echo
    echo "Input: \`bench/queries/generate.py $files $lines\` — $count Swift-like files, $((bytes / 1000000)) MB, one git commit (all three tools search the same tracked files)."
    echo "Machine: $(nproc) cores (shared with other jobs), $(uname -sr). shipcheck release build; $(rg --version | sed -n 1p); $(git --version)."
    echo "Commands print every match with line and column to /dev/null (shipcheck: \`query run NAME\` text report, which also reads and writes the last-run state)."
    echo
    echo "| query | pattern | matches (shipcheck / rg / git grep) | shipcheck | rg | git grep | shipcheck ÷ rg | peak RSS shipcheck / rg / git grep |"
    echo "|---|---|---|---|---|---|---|---|"
} >"$results.tmp"

mean() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.3f" % x["mean"] for x in r))' "$1"; }
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}'; }

for entry in "${queries[@]}"; do
    IFS='|' read -r name kind pattern <<<"$entry"
    if [ "$kind" = literal ]; then rgmode=(-F); gitmode=(-F); else rgmode=(); gitmode=(-P); fi
    ours=$("$shipcheck" query run --root "$tree" "$name" --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["findings"]))' || true)
    # rg and git grep exit 1 when nothing matches: a count of 0, not a failed benchmark.
    theirs=$( (cd "$tree" && rg --no-config -o "${rgmode[@]}" -e "$pattern" || true) | wc -l)
    gits=$( (cd "$tree" && git grep -o "${gitmode[@]}" -e "$pattern" || true) | wc -l)
    echo "== $name: shipcheck $ours, rg $theirs, git grep $gits matches"
    hyperfine --warmup 1 --runs 5 --export-json "$work/$name.json" \
        -n shipcheck "cd '$tree' && '$shipcheck' query run '$name' >/dev/null || true" \
        -n rg "cd '$tree' && rg --no-config -n --column ${rgmode[*]} -e '$pattern' >/dev/null || true" \
        -n "git grep" "cd '$tree' && git grep -n --column ${gitmode[*]} -e '$pattern' >/dev/null || true" >/dev/null
    read -r t_ours t_rg t_git <<<"$(mean "$work/$name.json")"
    m_ours=$(cd "$tree" && rss "$shipcheck" query run "$name" || true)
    m_rg=$(cd "$tree" && rss rg --no-config -n --column "${rgmode[@]}" -e "$pattern" || true)
    m_git=$(cd "$tree" && rss git grep -n --column "${gitmode[@]}" -e "$pattern" || true)
    ratio=$(python3 -c "print('%.2f' % ($t_ours / $t_rg))")
    echo "| $name | \`$pattern\` ($kind) | $ours / $theirs / $gits | ${t_ours} s | ${t_rg} s | ${t_git} s | ${ratio}x | ${m_ours} / ${m_rg} / ${m_git} MB |" >>"$results.tmp"
done
mv "$results.tmp" "$results"
echo "== wrote $results"
cat "$results"
