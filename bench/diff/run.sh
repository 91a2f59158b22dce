#!/usr/bin/env bash
# `shipcheck diff OLD NEW` on two releases of a large App Bundle and of a large .ipa, side by
# side with `shipcheck binary OLD NEW` (the same reads and rules, no comparison) and with merely
# inflating what both releases' readers must inflate (`unzip -p` of the libraries, of the
# executables and frameworks); then diff's peak memory on pairs of growing size.
#   - App Bundles: bench/android/generate.py's ~400 MB bundle (40 libraries per ABI) against one of
#     36 libraries per ABI built from the same libraries (so generate.py builds none twice);
#   - .ipa: Samples/Bundles/make_ipa.py's demo app with a 200 MiB executable (--binary-padding-mib:
#     incompressible bytes after its last segment, which the reader must inflate) and 400 MiB of
#     incompressible resources (~635 MB), against its previous release (--previous-release) padded
#     the same; then pairs with resources only, to show memory does not follow the ipa's size.
# Writes bench/results/diff.md. SHIPCHECK=path uses that binary instead of a release build;
# SIZE_MB (400), IPA_PADDING_MIB (400), IPA_BINARY_MIB (200), RUNS (hyperfine runs, 5) override
# the defaults.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
for tool in hyperfine unzip; do
    command -v "$tool" >/dev/null || { echo "bench/diff: needs $tool (make bench installs it)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench/diff: needs GNU time (/usr/bin/time)" >&2; exit 1; }
if [ -z "${SHIPCHECK:-}" ]; then
    SHIPCHECK=$(bench/shipcheck-release.sh)
fi
size_mb=${SIZE_MB:-400}
padding=${IPA_PADDING_MIB:-400}
binary_mib=${IPA_BINARY_MIB:-200}
runs=${RUNS:-5}
work="$root/bench/work/diff"
mkdir -p "$work" "$root/bench/results"
out="$root/bench/results/diff.md"
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
met() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "met" : "**not met**") }'; }
fact() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1] + ".json"))[sys.argv[2]])' "$1" "$2"; }

# cost COMMAND: best peak RSS (KB) and best CPU seconds (user + sys) of 3 runs of a bash command.
cost() {
    local best_rss="" best_cpu="" rss user sys cpu
    for _ in 1 2 3; do
        /usr/bin/time -o "$work/time.txt" -f "%M %U %S" bash -c "$1" > /dev/null 2>&1 || true
        read -r rss user sys < <(tail -1 "$work/time.txt")
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$best_rss" ] || [ "$rss" -lt "$best_rss" ]; then best_rss=$rss; fi
        if [ -z "$best_cpu" ] || awk -v c="$cpu" -v b="$best_cpu" 'BEGIN { exit !(c < b) }'; then best_cpu=$cpu; fi
    done
    echo "$best_rss $best_cpu"
}

# The pairs: NAME OLD NEW INFLATE (the unzip command that inflates what the readers inflate).
new_aab="$work/Bundle-$size_mb.aab"
[ -f "$new_aab" ] || python3 bench/android/generate.py "$new_aab" --size-mb "$size_mb" --libraries 40
library_mb=$(fact "$new_aab" library_mb)
old_aab="$work/Bundle-$size_mb-previous.aab"
[ -f "$old_aab" ] || python3 bench/android/generate.py "$old_aab" --size-mb "$size_mb" --libraries 36 \
    --library-mb "$library_mb"
new_ipa="$work/App-$padding-binary-$binary_mib.ipa"
old_ipa="$work/App-$padding-binary-$binary_mib-previous.ipa"
[ -f "$new_ipa" ] || python3 Samples/Bundles/make_ipa.py "$new_ipa" --padding-mib "$padding" --binary-padding-mib "$binary_mib"
[ -f "$old_ipa" ] || python3 Samples/Bundles/make_ipa.py "$old_ipa" --padding-mib "$padding" \
    --binary-padding-mib "$binary_mib" --previous-release

{
    echo "## \`shipcheck diff\`: two releases against \`binary\` on both and against inflating both"
    echo
    echo "Machine: $(nproc) cores, $(uname -sr). Date: $(date -u +%Y-%m-%d). Binary: \`${SHIPCHECK#"$root"/}\`."
    echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other builds)."
    echo "Inputs: App Bundles of \`bench/android/generate.py --size-mb $size_mb\`, 40 and 36 libraries per ABI (the same"
    echo "libraries), $(mb "$(stat -c %s "$old_aab")") and $(mb "$(stat -c %s "$new_aab")"); the demo .ipa and its previous release"
    echo "(\`Samples/Bundles/make_ipa.py --padding-mib $padding --binary-padding-mib $binary_mib\`: a $binary_mib MiB executable, the previous with \`--previous-release\`),"
    echo "$(mb "$(stat -c %s "$old_ipa")") and $(mb "$(stat -c %s "$new_ipa")"). Default options (every rule on, text output to /dev/null)."
    echo "Times: hyperfine, --warmup 1, $runs runs; CPU (user + sys) and peak RSS: best of 3, \`/usr/bin/time\`."
    echo
    echo "| Pair | Command | Mean [s] | CPU [s] | Peak RSS |"
    echo "|:---|:---|---:|---:|---:|"
} > "$out"
notes=()
for pair in aab ipa; do
    if [ "$pair" = aab ]; then
        old=$old_aab new=$new_aab
        inflate="unzip -p '$old' '*.so' > /dev/null; unzip -p '$new' '*.so' > /dev/null"
        what="the libraries"
    else
        old=$old_ipa new=$new_ipa
        inflate="unzip -p '$old' -x 'Payload/Demo.app/Media/*' > /dev/null; unzip -p '$new' -x 'Payload/Demo.app/Media/*' > /dev/null"
        what="every entry but the resources (executables, frameworks, plists: what the reader inflates)"
    fi
    diff_command="'$SHIPCHECK' diff '$old' '$new' > /dev/null"
    binary_command="'$SHIPCHECK' binary '$old' '$new' > /dev/null"
    hyperfine --shell bash --warmup 1 --runs "$runs" --ignore-failure --export-json "$work/times-$pair.json" \
        -n "shipcheck diff" "$diff_command" -n "shipcheck binary OLD NEW" "$binary_command" \
        -n "unzip -p (both)" "$inflate" >&2
    time_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$work/times-$pair.json" "$1"; }
    read -r diff_rss diff_cpu < <(cost "$diff_command")
    read -r binary_rss binary_cpu < <(cost "$binary_command")
    read -r unzip_rss unzip_cpu < <(cost "$inflate")
    # shellcheck disable=SC2016 # the backquotes are Markdown's
    {
        printf '| %s | `shipcheck diff OLD NEW` | %.3f | %s | %d MB |\n' "$pair" "$(time_of 0)" "$diff_cpu" $(( diff_rss / 1024 ))
        printf '| %s | `shipcheck binary OLD NEW` | %.3f | %s | %d MB |\n' "$pair" "$(time_of 1)" "$binary_cpu" $(( binary_rss / 1024 ))
        printf '| %s | `unzip -p` of %s, both | %.3f | %s | %d MB |\n' "$pair" "$what" "$(time_of 2)" "$unzip_cpu" $(( unzip_rss / 1024 ))
    } >> "$out"
    cpu_ratio=$(ratio "$diff_cpu" "$binary_cpu")
    wall_ratio=$(ratio "$(time_of 0)" "$(time_of 2)")
    notes+=("- $pair: diff / binary on both: **${cpu_ratio}x** CPU (target: at most 1.1x) — $(met "$cpu_ratio" 1.1); diff / unzip -p both: **${wall_ratio}x** mean time (target: at most 1.5x) — $(met "$wall_ratio" 1.5)")
done
{
    echo
    printf '%s\n' "${notes[@]}"
    echo
    echo "### Peak memory against the releases' size"
    echo
    echo "| Pair | Sizes | Peak RSS | CPU [s] |"
    echo "|:---|---:|---:|---:|"
} >> "$out"
for case in 50 200 600; do
    old="$work/App-$case-previous.ipa" new="$work/App-$case.ipa"
    [ -f "$new" ] || python3 Samples/Bundles/make_ipa.py "$new" --padding-mib "$case"
    [ -f "$old" ] || python3 Samples/Bundles/make_ipa.py "$old" --padding-mib "$case" --previous-release
    read -r rss cpu < <(cost "'$SHIPCHECK' diff '$old' '$new' > /dev/null")
    echo "| ipa +$case MiB | $(mb "$(stat -c %s "$old")"), $(mb "$(stat -c %s "$new")") | $(( rss / 1024 )) MB | $cpu |" >> "$out"
done
cat >> "$out" <<'TEXT'

Both releases are read at once, each by the reader `binary` uses (entries listed from the central
directory, a binary inflated whole only while it is read), so diff costs what `binary` on both
costs plus the comparison of two sets of facts; peak memory follows the largest binaries being
read, not the releases' size. Reproduce: `bench/diff/run.sh` (SHIPCHECK, SIZE_MB, IPA_PADDING_MIB, RUNS).

TEXT
echo "bench: wrote $out"
