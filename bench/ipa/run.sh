#!/usr/bin/env bash
# Peak memory of `shipcheck audit --binary App.ipa` as the ipa grows: the demo ipa
# (Samples/Bundles/make_ipa.py) padded with incompressible resources to ~50, 200 and 400 MB
# (peak RSS should stay flat: resources are only sniffed), then with its executable padded to
# 100 and 200 MB (peak RSS should follow: a binary is inflated into memory whole).
# Writes bench/results/ipa.md.
# SHIPCHECK=path uses that binary instead of a release build (the figures say which).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [ -z "${SHIPCHECK:-}" ]; then
    SHIPCHECK=$(bench/shipcheck-release.sh)
fi
work="$root/bench/work/ipa"
mkdir -p "$work/project" "$root/bench/results"
out="$root/bench/results/ipa.md"

{
    echo "## \`audit --binary App.ipa\`: peak memory against the ipa's size"
    echo
    echo "Machine: $(nproc) cores, $(uname -sr). Date: $(date -u +%Y-%m-%d). Binary: \`${SHIPCHECK#$root/}\`."
    echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other builds)."
    echo "Input: \`Samples/Bundles/make_ipa.py\` — the demo app (7 Mach-O files, 80 KB the largest, a profile, plists)"
    echo "plus N MiB of incompressible 1 MiB resources (\`--padding-mib N\`) or its executable padded with N MiB of"
    echo "incompressible bytes (\`--binary-padding-mib N\`). \`audit bench/work/ipa/project --binary X.ipa\`"
    echo "(an empty project: only the binary check has work). Peak RSS and CPU from \`/usr/bin/time -f '%M %U %S'\`, best of 3."
    echo
    echo "| ipa | size | largest binary | findings (exit) | peak RSS | CPU s |"
    echo "|---|---:|---:|---|---:|---:|"
} > "$out"

# The demo executable, the largest binary before padding.
base=$(stat -c %s "$root/Tests/Fixtures/bundle/App-ios-dev-signed")
# name, resource padding (MiB), executable padding (MiB)
for case in "App-0 0 0" "App-50 50 0" "App-200 200 0" "App-400 400 0" "App-binary-100 0 100" "App-binary-200 0 200"; do
    read -r name padding binary_padding <<< "$case"
    ipa="$work/$name.ipa"
    [ -f "$ipa" ] || python3 "$root/Samples/Bundles/make_ipa.py" "$ipa" --padding-mib "$padding" --binary-padding-mib "$binary_padding"
    largest=$(awk -v b="$base" -v m="$binary_padding" 'BEGIN { printf "%.2f MB", (b + m * 1048576) / 1000000 }')
    size_mb=$(awk -v b="$(stat -c %s "$ipa")" 'BEGIN { printf "%.2f", b / 1000000 }')
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
    echo "| $name.ipa | $size_mb MB | $largest | $findings ($status) | $(( best_rss / 1024 )) MB | $best_cpu |" >> "$out"
done
cat >> "$out" <<'TEXT'

Entries are listed from the central directory, each resource is only sniffed (its first 512
bytes) and a binary is inflated into memory whole only while it is audited: peak memory follows
the largest single binary in the ipa (80 KB in the first four rows: the tool's own baseline),
never the ipa's size.

TEXT
echo "bench: wrote $out"
