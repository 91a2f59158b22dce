#!/usr/bin/env bash
# Peak memory of `shipcheck audit --binary App.ipa` as the ipa grows: the demo ipa
# (Samples/Bundles/make_ipa.py) padded with incompressible resources to ~50, 200 and 400 MB.
# Binaries are inflated into memory one at a time and every other entry is only sniffed, so
# peak RSS should stay flat. Writes bench/results/ipa.md.
# SHIPCHECK=path uses that binary instead of a release build (the figures say which).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [ -z "${SHIPCHECK:-}" ]; then
    swift build -c release --product shipcheck >/dev/null
    SHIPCHECK="$(swift build -c release --show-bin-path)/shipcheck"
fi
work="$root/bench/work/ipa"
mkdir -p "$work/project" "$root/bench/results"
out="$root/bench/results/ipa.md"

{
    echo "## \`audit --binary App.ipa\`: peak memory against the ipa's size"
    echo
    echo "Machine: $(nproc) cores, $(uname -sr). Date: $(date -u +%Y-%m-%d). Binary: \`${SHIPCHECK#$root/}\`."
    echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other builds)."
    echo "Input: \`Samples/Bundles/make_ipa.py --padding-mib N\` — the demo app (3 Mach-O files, 80 KB the largest,"
    echo "a profile, plists) plus N MiB of incompressible 1 MiB resources. \`audit bench/work/ipa/project --binary X.ipa\`"
    echo "(an empty project: only the binary check has work). Peak RSS and CPU from \`/usr/bin/time -f '%M %U %S'\`, best of 3."
    echo
    echo "| ipa | size | findings (exit) | peak RSS | CPU s |"
    echo "|---|---:|---|---:|---:|"
} > "$out"

for padding in 0 50 200 400; do
    ipa="$work/App-$padding.ipa"
    [ -f "$ipa" ] || python3 "$root/Samples/Bundles/make_ipa.py" "$ipa" --padding-mib "$padding"
    size_mb=$(awk -v b="$(stat -c %s "$ipa")" 'BEGIN { printf "%.1f", b / 1000000 }')
    best_rss="" best_cpu=""
    for _ in 1 2 3; do
        status=0
        /usr/bin/time -o "$work/time.txt" -f "%M %U %S" "$SHIPCHECK" audit "$work/project" --binary "$ipa" --format json \
            > "$work/out.json" 2>/dev/null || status=$?
        read -r rss user sys < <(tail -1 "$work/time.txt")  # after "Command exited with non-zero status 1"
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$best_rss" ] || [ "$rss" -lt "$best_rss" ]; then best_rss=$rss; best_cpu=$cpu; fi
    done
    findings=$(grep -o '"ruleID"' "$work/out.json" | wc -l)
    echo "| App-$padding.ipa | $size_mb MB | $findings ($status) | $(( best_rss / 1024 )) MB | $best_cpu |" >> "$out"
done
cat >> "$out" <<'TEXT'

Entries are listed from the central directory, each resource is only sniffed (its first 512
bytes) and a binary is inflated into memory whole only while it is audited: peak memory follows
the largest single binary in the ipa (80 KB here, so the tool's own baseline), never the ipa.

TEXT
echo "bench: wrote $out"
