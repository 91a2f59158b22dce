#!/usr/bin/env bash
# Android App Bundles: `shipcheck binary app.aab` (every rule on) side by side with
#   - Google's check as check_elf_alignment.sh runs it: the bundle's libraries unzipped into a
#     temporary folder, then `objdump -p | grep LOAD` per library (binutils' objdump), and
#   - merely inflating the libraries: `unzip -p app.aab '*.so' > /dev/null`,
# on a generated bundle of ~400 MB (bench/android/generate.py: 4 ABIs × 40 real ELF libraries,
# a dex, incompressible resources); then shipcheck's peak memory on bundles of ~50, 200 and 400 MB
# holding the same libraries (fewer of them, fewer resources; the largest the same): it must
# follow the largest library, not the bundle. Writes bench/results/android.md.
# SHIPCHECK=path uses that binary instead of a release build (bench/shipcheck-release.sh);
# SIZE_MB (400), LIBRARIES (per ABI, 40), RUNS (hyperfine runs, 5), FLAT_CASES ("MB:libraries"
# pairs for the memory table beside the main bundle, "50:4 200:20") and PAYLOAD_RANDOM (the random
# share of the libraries' payload, generate.py's --payload-random: 0.5; 1 is incompressible)
# override the defaults.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
missing=()
command -v hyperfine >/dev/null || missing+=(hyperfine)
command -v unzip >/dev/null || missing+=(unzip)
command -v objdump >/dev/null || missing+=(binutils)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "bench/android: needs ${missing[*]} (apt-get install -y ${missing[*]})" >&2
        exit 1
    fi
    apt-get install -y "${missing[@]}" >&2 || { apt-get update >&2 && apt-get install -y "${missing[@]}" >&2; }
fi
if [ -z "${SHIPCHECK:-}" ]; then
    SHIPCHECK=$(bench/shipcheck-release.sh)
fi
size_mb=${SIZE_MB:-400}
libraries=${LIBRARIES:-40}
runs=${RUNS:-5}
flat_cases=${FLAT_CASES:-"50:4 200:20"}
payload=${PAYLOAD_RANDOM:-0.5}
tag=""  # bundles of another payload under other names
if [ -n "${PAYLOAD_RANDOM:-}" ]; then tag="-random$PAYLOAD_RANDOM"; fi
work="$root/bench/work/android"
mkdir -p "$work" "$root/bench/results"
out="$root/bench/results/android.md"
printf 'rules: {}\n' > "$work/on.yml"  # every rule at its default: all on

# fact BUNDLE KEY: what generate.py recorded about the bundle (BUNDLE.json).
fact() {
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1] + ".json"))[sys.argv[2]])' "$1" "$2"
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1000000 }'; }

main="$work/Bundle-$size_mb$tag.aab"
[ -f "$main" ] || python3 bench/android/generate.py "$main" --size-mb "$size_mb" --libraries "$libraries" \
    --payload-random "$payload"
library_mb=$(fact "$main" library_mb)
flat=()
for case in $flat_cases; do
    IFS=: read -r case_mb case_libraries <<< "$case"
    bundle="$work/Bundle-$case_mb-$case_libraries$tag.aab"
    [ -f "$bundle" ] || python3 bench/android/generate.py "$bundle" --size-mb "$case_mb" \
        --libraries "$case_libraries" --library-mb "$library_mb" --payload-random "$payload"
    flat+=("$bundle")
done
flat+=("$main")

# Google's check_elf_alignment.sh on an archive, step for step: unzip its libraries into a
# temporary folder, then for each library `objdump -p | grep LOAD | awk '{ print $NF }' | head -1`
# and the 2**14-or-more test; the folder removed at the end. (The script unzips "lib/*" of an APK;
# a bundle keeps them under base/lib. It also runs `file` on every extracted file first, which
# this leaves out: find -name '*.so'.)
check_elf_alignment() {
    local tmp match res count=0 unaligned=0
    tmp=$(mktemp -d -t "$(basename "${1%.aab}")_out_XXXXX")
    unzip "$1" '*/lib/*' -d "$tmp" >/dev/null 2>&1
    while IFS= read -r match; do
        count=$((count + 1))
        res="$(objdump -p "$match" | grep LOAD | awk '{ print $NF }' | head -1)"
        if [[ $res =~ 2\*\*(1[4-9]|[2-9][0-9]|[1-9][0-9]{2,}) ]]; then
            echo "$match: ALIGNED ($res)"
        else
            echo "$match: UNALIGNED ($res)"
            unaligned=$((unaligned + 1))
        fi
    done < <(find "$tmp" -type f -name '*.so')
    rm -rf "$tmp"
    echo "$count libraries, $unaligned unaligned"
}
export -f check_elf_alignment

# cost COMMAND: best peak RSS (KB) and best CPU seconds (user + sys) of 3 runs of a bash command.
cost() {
    local best_rss="" best_cpu="" rss user sys cpu
    for _ in 1 2 3; do
        /usr/bin/time -o "$work/time.txt" -f "%M %U %S" bash -c "$1" > /dev/null 2>&1 || true
        read -r rss user sys < <(tail -1 "$work/time.txt")  # after "Command exited with non-zero status 1"
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        if [ -z "$best_rss" ] || [ "$rss" -lt "$best_rss" ]; then best_rss=$rss; fi
        if [ -z "$best_cpu" ] || awk -v c="$cpu" -v b="$best_cpu" 'BEGIN { exit !(c < b) }'; then best_cpu=$cpu; fi
    done
    echo "$best_rss $best_cpu"
}

# findings BUNDLE: shipcheck's verdict on it, "N errors, N warnings, N notes (exit S)"; an input
# error (exit 2, or any in the report) stops the benchmark: the bundle was not read.
findings() {
    local status=0
    "$SHIPCHECK" binary --config "$work/on.yml" --format json "$1" > "$work/findings.json" 2>/dev/null || status=$?
    python3 - "$work/findings.json" "$status" <<'PY'
import json, sys
report, status = json.load(open(sys.argv[1])), int(sys.argv[2])
if status > 1 or report.get("inputErrors"):
    sys.exit(f"bench/android: input errors (exit {status}): {report.get('inputErrors')}")
count = {severity: sum(f["severity"] == severity for f in report["findings"]) for severity in ("error", "warning", "note")}
print(f"{count['error']} errors, {count['warning']} warnings, {count['note']} notes (exit {status})")
PY
}

shipcheck_command="'$SHIPCHECK' binary --config '$work/on.yml' --format json '$main'"
google_command="check_elf_alignment '$main'"
unzip_command="unzip -p '$main' '*.so'"
verdict=$(findings "$main")
google=$(bash -c "$google_command" | tail -1)
hyperfine --shell bash --warmup 1 --runs "$runs" --ignore-failure --export-json "$work/times.json" \
    -n "shipcheck binary" "$shipcheck_command" \
    -n "check_elf_alignment (unzip, objdump -p)" "$google_command" \
    -n "unzip -p '*.so'" "$unzip_command" >&2
read -r ship_rss ship_cpu < <(cost "$shipcheck_command")
read -r google_rss google_cpu < <(cost "$google_command")
read -r unzip_rss unzip_cpu < <(cost "$unzip_command > /dev/null")
# time INDEX FIELD: a hyperfine figure (mean, min, stddev) of command INDEX, in seconds.
time_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])][sys.argv[3]])' "$work/times.json" "$1" "$2"; }
row() {  # row INDEX LABEL RSS CPU RESULT
    printf '| %s | %.3f ± %.3f | %.3f | %s | %d MB | %s |\n' "$2" "$(time_of "$1" mean)" "$(time_of "$1" stddev)" \
        "$(time_of "$1" min)" "$4" $(( $3 / 1024 )) "$5"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
met() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "met" : "**not met**") }'; }

size=$(fact "$main" size)
count=$(fact "$main" libraries)
inflated=$(fact "$main" libraries_uncompressed)
deflated=$(fact "$main" libraries_compressed)
largest=$(fact "$main" largest_library_size)
{
    echo "## Android App Bundle: \`binary app.aab\` against Google's alignment check"
    echo
    echo "Machine: $(nproc) cores, $(uname -sr). Date: $(date -u +%Y-%m-%d). Binary: \`${SHIPCHECK#"$root"/}\`."
    echo "Tools: hyperfine $(hyperfine --version | cut -d' ' -f2), $(unzip -v | head -1 | cut -d' ' -f1-2), $(objdump --version | head -1)."
    echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other builds)."
    if [ -n "${BENCH_CONDITIONS:-}" ]; then echo "Conditions: $BENCH_CONDITIONS."; fi
    echo "Input: \`bench/android/generate.py --size-mb $size_mb --libraries $libraries --payload-random $payload\` — $(mb "$size"):"
    echo "$count libraries (arm64-v8a, armeabi-v7a, x86, x86_64; real ELF built by the toolchain's clang and ld.lld, 16 KB"
    echo "pages, each with 200 to 1,820 exported functions and their strings plus a payload, $payload of it random bytes;"
    echo "$(mb "$deflated") deflated, $(mb "$inflated") inflated, the largest $(mb "$largest")), a dex and $(mb "$(fact "$main" resources)") of stored resources."
    echo "\`shipcheck binary --config on.yml --format json\` with every rule on: $verdict."
    echo "check_elf_alignment: \`unzip BUNDLE '*/lib/*' -d TMP\`, then \`objdump -p | grep LOAD | awk | head -1\` per library"
    echo "(the script's steps, its \`file\` call left out): $google. Times: hyperfine, --warmup 1, $runs runs;"
    echo "CPU (user + sys, the whole pipeline) and peak RSS (its largest process): best of 3, \`/usr/bin/time -f '%M %U %S'\`."
    echo
    echo "| Command | Mean [s] | Min [s] | CPU [s] | Peak RSS | Result |"
    echo "|:---|---:|---:|---:|---:|:---|"
    row 0 "\`shipcheck binary\`" "$ship_rss" "$ship_cpu" "$verdict"
    row 1 "check_elf_alignment (unzip, objdump -p)" "$google_rss" "$google_cpu" "$google"
    row 2 "\`unzip -p BUNDLE '*.so' > /dev/null\`" "$unzip_rss" "$unzip_cpu" "$(mb "$inflated") inflated"
    echo
    google_ratio=$(ratio "$(time_of 0 mean)" "$(time_of 1 mean)")
    unzip_ratio=$(ratio "$(time_of 0 mean)" "$(time_of 2 mean)")
    echo "- shipcheck / check_elf_alignment: **${google_ratio}x** by mean time (target: at most 0.2x) — $(met "$google_ratio" 0.2);"
    echo "  $(ratio "$(time_of 0 min)" "$(time_of 1 min)")x by best time, $(ratio "$ship_cpu" "$google_cpu")x by CPU time"
    echo "- shipcheck / unzip -p: **${unzip_ratio}x** by mean time (target: at most 1.5x) — $(met "$unzip_ratio" 1.5);"
    echo "  $(ratio "$(time_of 0 min)" "$(time_of 2 min)")x by best time, $(ratio "$ship_cpu" "$unzip_cpu")x by CPU time"
    # The floor against the 0.2x row: inflating the libraries alone, whatever reads them after.
    floor_ratio=$(ratio "$(time_of 2 mean)" "$(time_of 1 mean)")
    echo "- the floor: \`unzip -p\` alone is **${floor_ratio}x** of check_elf_alignment, so the 0.2x row asks for"
    echo "  $(awk -v f="$floor_ratio" 'BEGIN { printf "%.1f", f / 0.2 }')x less time than merely inflating the libraries on one core, where two cores can give at most 2x"
    echo
    echo "### Peak memory against the bundle's size"
    echo
    echo "The same libraries (\`--library-mb $library_mb\`: libmodNN.so the same bytes in every bundle), fewer of them and"
    echo "fewer resources in the smaller bundles. Peak RSS and CPU: best of 3."
    echo
    echo "| Bundle | Size | Libraries (inflated) | Resources | Largest library | Findings | Peak RSS | CPU [s] |"
    echo "|:---|---:|---:|---:|---:|:---|---:|---:|"
} > "$out"
for bundle in "${flat[@]}"; do
    verdict=$(findings "$bundle")
    read -r rss cpu < <(cost "'$SHIPCHECK' binary --config '$work/on.yml' --format json '$bundle'")
    echo "| $(basename "$bundle") | $(mb "$(fact "$bundle" size)") | $(fact "$bundle" libraries) ($(mb "$(fact "$bundle" libraries_uncompressed)")) | $(mb "$(fact "$bundle" resources)") | $(fact "$bundle" largest_library | sed 's|^base/lib/||'), $(mb "$(fact "$bundle" largest_library_size)") | $verdict | $(( rss / 1024 )) MB | $cpu |" >> "$out"
done
cat >> "$out" <<'TEXT'

Targets (the Android issue): shipcheck at most 0.2x the time of Google's check and at most 1.5x
the time of merely inflating the libraries, every rule on; peak memory flat in the bundle's size
(bounded by the largest library). Each library is inflated from the zip once and checked from that
copy; check_elf_alignment writes every library to disk and starts four processes per library.
Reproduce: `bench/android/run.sh` (SHIPCHECK, SIZE_MB, LIBRARIES, RUNS, FLAT_CASES).

TEXT
echo "bench: wrote $out"
