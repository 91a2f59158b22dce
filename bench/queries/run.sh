#!/usr/bin/env bash
# Saved-query benchmark: shipcheck `query run` vs ripgrep and git grep on one large,
# deterministic tree of Swift-like source (generated under bench/work/, git-ignored): FILES
# committed files and UNTRACKED more written after the commit (new files a developer has not
# added yet, which all three tools search: `query run`'s default, ripgrep's, `git grep
# --untracked`); one query at a time, then 1, 5 and 20 queries in one `query run` against as
# many `rg -n` runs. Writes bench/results/queries.md, then fails (exit 1) when a row's matches
# differ from the peers' or its CPU ratio to ripgrep or peak memory is above its bound in
# bench/queries/limits.tsv (bench/queries/check.py).
# Usage: bench/queries/run.sh [FILES] [LINES_PER_FILE] [UNTRACKED]
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
files="${1:-20000}"
lines="${2:-220}"
untracked="${3:-1000}"
work="$repo/bench/work/queries"
tree="$work/tree-$files-$lines-u$untracked"
results="$repo/bench/results/queries.md"

for tool in rg git python3 /usr/bin/time; do
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
    echo "== adding $untracked untracked files"
    python3 "$here/generate.py" "$tree" "$untracked" "$lines" "$files"
fi
# The queries' store and last-run state are no source: ignored, as `shipcheck init` has a team
# ignore the state (ripgrep skips the hidden folder anyway; git grep --untracked would not).
grep -qx '.shipcheck/' "$tree/.git/info/exclude" 2>/dev/null || echo '.shipcheck/' >>"$tree/.git/info/exclude"
bytes=$(du -sb --exclude=.git --exclude=.shipcheck "$tree" | cut -f1)
count=$(git -C "$tree" ls-files | wc -l)
others=$(git -C "$tree" ls-files --others --exclude-standard -- '*.swift' | wc -l)

# name | kind | pattern (PCRE2 for shipcheck; ripgrep's and git grep -P's syntax agree on these).
# The first six are the one-query rows; the first 1, 5 and all 20 the one-run rows.
queries=(
    "literal-fixme|literal|FIXME"
    "literal-common|literal|reload"
    "regex-test-async|regex|func test[A-Z]\\w*Async\\("
    "regex-print-debug|regex|print\\(\"debug: [a-z]+"
    "regex-inner-literal|regex|[a-z]+Reload\\(_ [a-z]+: Data\\)"
    "regex-no-literal|regex|\\b[0-9]{5}\\b"
    "literal-thread-safe|literal|thread-safe"
    "literal-dictionary|literal|[Int: String]"
    "literal-async-call|literal|Async()"
    "literal-guard-cache|literal|guard let cache = "
    "literal-decode-comment|literal|// Decode the token"
    "regex-token-let|regex|let [a-z]+Token: URL"
    "regex-cache-fetch|regex|\\bcache\\.(fetch|parse)\\(index:"
    "regex-returns-list|regex|-> \\[String\\] \\{$"
    "regex-render-func|regex|func render[A-Z]\\w*\\(_ model"
    "regex-user-state|regex|\"user-state\""
    "regex-test-func-name|regex|func testFetch[A-Z]\\w+Async"
    "regex-url-result|regex|resultURL: URL = [a-z]+\\.result"
    "regex-guard-view|regex|guard let view = [a-z]+\\[[a-z]+\\]"
    "regex-encode-map|regex|encode\\.map\\(filter: 4[0-9]{4}"
)
rm -f "$tree/.shipcheck/queries.yml"
rm -rf "$tree/.shipcheck/state"
for entry in "${queries[@]}"; do
    IFS='|' read -r name kind pattern <<<"$entry"
    flag=()
    [ "$kind" = regex ] && flag=(--regex)
    "$shipcheck" query add --root "$tree" "$name" "${flag[@]}" -- "$pattern" >/dev/null
done

# Commands timed in turns (see bench/interleave.py): medians of wall and of user + system.
timed() { python3 "$repo/bench/interleave.py" --warmup 1 --runs 9 "$@" >/dev/null; }
times() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.3f %.3f" % (x["median"], x["cpu"]) for x in r))' "$1"; }
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}'; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
# The matches a query run reports (its closing line, on standard error when the report is
# piped), and ripgrep's for the same patterns.
our_matches() { (cd "$tree" && "$shipcheck" query run "$@" 2>&1 >/dev/null || true) | sed -n 's/^shipcheck: .* run, \([0-9]*\) match.*/\1/p'; }
rg_args() { if [ "$1" = literal ]; then echo "-F"; fi; }
rg_command() {  # the rg -n commands for queries 0..N-1, one after the other
    local n=$1 out="" entry name kind pattern
    for entry in "${queries[@]:0:$n}"; do
        IFS='|' read -r name kind pattern <<<"$entry"
        out+="rg --no-config -n --column $(rg_args "$kind") -e '$pattern' >/dev/null; "  # no pattern has a quote
    done
    echo "cd '$tree' && { $out true; }"
}
rg_matches() {
    local n=$1 total=0 entry name kind pattern found
    for entry in "${queries[@]:0:$n}"; do
        IFS='|' read -r name kind pattern <<<"$entry"
        found=$( (cd "$tree" && rg --no-config -o $(rg_args "$kind") -e "$pattern" || true) | wc -l)
        total=$((total + found))
    done
    echo "$total"
}

mkdir -p "$(dirname "$results")"
rows="$work/rows.tsv"  # what check.py judges: name, matches, peers' matches, CPU ratio, peak RSS
: >"$rows"
{
    echo "# Saved queries: shipcheck vs ripgrep and git grep"
    echo
    echo "Input: \`bench/queries/generate.py $files $lines\` — $count Swift-like files in one git commit, and $others more written after it and left untracked (\`generate.py DIR $untracked $lines $files\`), $((bytes / 1000000)) MB: all three tools search the same $((count + others)) files (\`query run\`'s default, ripgrep's, \`git grep --untracked\`)."
    echo "Machine: $(nproc) cores (shared with other jobs), $(uname -sr). shipcheck release build; $(rg --version | sed -n 1p); $(git --version)."
    echo "Commands print every match with line, column and the matched line to /dev/null (shipcheck: \`query run NAME\` piped, one \`path:line:col:line\` per match as \`rg -n --column\` prints, streamed; it also reads and writes the last-run state)."
    echo "Times are medians of 9 runs taken in turns, one run of each command per round after 1 warm-up round (\`bench/interleave.py\`: on a shared machine a slow spell then falls on every command alike): wall, and CPU (user + system, steadier still)."
    echo
    echo "## One query"
    echo
    echo "| query | pattern | matches (shipcheck / rg / git grep) | wall shipcheck / rg / git grep | CPU shipcheck / rg | shipcheck ÷ rg (wall / CPU) | peak RSS shipcheck / rg / git grep |"
    echo "|---|---|---|---|---|---|---|"
} >"$results.tmp"

for entry in "${queries[@]:0:6}"; do
    IFS='|' read -r name kind pattern <<<"$entry"
    if [ "$kind" = literal ]; then gitmode=(-F); else gitmode=(-P); fi
    ours=$(our_matches "$name")
    theirs=$( (cd "$tree" && rg --no-config -o $(rg_args "$kind") -e "$pattern" || true) | wc -l)
    gits=$( (cd "$tree" && git grep --untracked -o "${gitmode[@]}" -e "$pattern" || true) | wc -l)
    echo "== $name: shipcheck $ours, rg $theirs, git grep $gits matches"
    timed --export-json "$work/$name.json" \
        -n shipcheck "cd '$tree' && '$shipcheck' query run '$name' >/dev/null || true" \
        -n rg "cd '$tree' && rg --no-config -n --column $(rg_args "$kind") -e '$pattern' >/dev/null || true" \
        -n "git grep" "cd '$tree' && git grep --untracked -n --column ${gitmode[*]} -e '$pattern' >/dev/null || true"
    read -r w_ours c_ours w_rg c_rg w_git c_git <<<"$(times "$work/$name.json")"
    m_ours=$(cd "$tree" && rss "$shipcheck" query run "$name" || true)
    m_rg=$(cd "$tree" && rss rg --no-config -n --column $(rg_args "$kind") -e "$pattern" || true)
    m_git=$(cd "$tree" && rss git grep --untracked -n --column "${gitmode[@]}" -e "$pattern" || true)
    echo "$name $ours $theirs,$gits $(ratio "$c_ours" "$c_rg") $m_ours" >>"$rows"
    echo "| $name | \`$pattern\` ($kind) | $ours / $theirs / $gits | $w_ours / $w_rg / $w_git s | $c_ours / $c_rg s | $(ratio "$w_ours" "$w_rg")x / $(ratio "$c_ours" "$c_rg")x | $m_ours / $m_rg / $m_git MB |" >>"$results.tmp"
done

{
    echo
    echo "## Several queries in one run"
    echo
    echo "shipcheck runs the first N queries of the list above (\`bench/queries/run.sh\`) in one \`query run\` (one read of each file, every query on the same buffer); ripgrep runs \`rg -n\` once per query, one after the other."
    echo
    echo "| queries | matches (shipcheck / sum of rg) | wall shipcheck / N rg runs | CPU shipcheck / N rg runs | shipcheck ÷ rg runs (wall / CPU) | peak RSS shipcheck |"
    echo "|---|---|---|---|---|---|"
} >>"$results.tmp"
for n in 1 5 20; do
    names=()
    for entry in "${queries[@]:0:$n}"; do names+=("${entry%%|*}"); done
    ours=$(our_matches "${names[@]}")
    theirs=$(rg_matches "$n")
    echo "== $n queries: shipcheck $ours, rg $theirs matches"
    timed --export-json "$work/several-$n.json" \
        -n shipcheck "cd '$tree' && '$shipcheck' query run ${names[*]} >/dev/null || true" \
        -n rg "$(rg_command "$n")"
    read -r w_ours c_ours w_rg c_rg <<<"$(times "$work/several-$n.json")"
    m_ours=$(cd "$tree" && rss "$shipcheck" query run "${names[@]}" || true)
    echo "queries-$n $ours $theirs $(ratio "$c_ours" "$c_rg") $m_ours" >>"$rows"
    echo "| $n | $ours / $theirs | $w_ours / $w_rg s | $c_ours / $c_rg s | $(ratio "$w_ours" "$w_rg")x / $(ratio "$c_ours" "$c_rg")x | $m_ours MB |" >>"$results.tmp"
done
status=0
check=$(python3 "$here/check.py" "$rows" "$here/limits.tsv") || status=$?
{
    echo
    echo "## Check against bench/queries/limits.tsv"
    echo
    echo "$check" | sed 's/^bench check: /- /'
} >>"$results.tmp"
mv "$results.tmp" "$results"
echo "== wrote $results"
cat "$results"
exit "$status"
