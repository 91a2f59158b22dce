#!/usr/bin/env bash
# `make fuzz`: libFuzzer (with AddressSanitizer) on each of shipcheck's readers for FUZZ_SECONDS
# (default 60) each, then bench/results/fuzz.md with executions and crashes per target.
#
#   FUZZ_SECONDS=300 FUZZ_TARGETS="elf ifconfig" bench/fuzz/run.sh
#
# A target stops after FUZZ_SECONDS or FUZZ_RUNS executions (default 1,000,000), whichever comes
# first: `FUZZ_SECONDS=600 make fuzz` is the "a million executions, or ten minutes if slower" run.
# FUZZ_DRIVER=PATH runs a driver built earlier instead of building one (a long campaign on a
# shared machine keeps its binary while the tree changes); FUZZ_REVISION names the commit it was
# built from, for the results table.
# Rows of targets not run this time are kept in the results table.
#
# Entry points: Tests/HostileInputTargets (elf, macho, bundle, conflicts, ifconfig, pbxproj, xcconfig, config, demangler, android).
# The driver is the separate package in Fuzz/, built into .build-fuzz/ (it only links with
# -sanitize=fuzzer; lld because gold fails on the instrumented objects).
# Corpora grow across runs in bench/work/fuzz/corpus/<target> (git-ignored), seeded from the
# corpora kept in the repository (Fuzz/corpus/<target>.tar.xz, minimised after every run; xz
# because mutations of the same binaries compress 300:1), the sample binaries, samples and the
# small seeds below. FUZZ_KEEP_ONLY=1 only minimises the work corpora into the kept archives. A crash, timeout or out-of-memory input is
# kept in Tests/Fixtures/fuzz-regressions/<target>/, which `make test` replays
# (HostileFuzzRegressionTests): commit it with the fix.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${FUZZ_SECONDS:-60}"
max_runs="${FUZZ_RUNS:-1000000}"
targets="${FUZZ_TARGETS:-elf macho bundle conflicts ifconfig pbxproj xcconfig config demangler android}"
scratch="$root/.build-fuzz"
work="$root/bench/work/fuzz"
regressions="$root/Tests/Fixtures/fuzz-regressions"
results="$root/bench/results/fuzz.md"
kept="$root/Fuzz/corpus"

if [[ "$(uname -s)" == Darwin ]]; then
    # GNU tar's options, /proc/loadavg, nproc and the ELF sample seeds (Samples/Binaries); nor has
    # Xcode's toolchain a libFuzzer runtime.
    echo "make fuzz: Linux only (GNU tar, /proc, nproc, ELF seeds; Xcode has no libFuzzer): run it in a Linux container" >&2
    exit 2
fi
linker_flags=(-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
if [[ -n "${FUZZ_DRIVER:-}" ]]; then
    # A driver built earlier (a copy of $scratch/release/shipcheck-fuzz): campaigns keep running
    # on the revision it was built from while the tree and $scratch move on.
    fuzzer="$FUZZ_DRIVER"
    revision="${FUZZ_REVISION:-?}"
    echo "using the fuzz driver $fuzzer (built from revision $revision)"
else
    echo "building the fuzz driver (release, -sanitize=fuzzer,address) in $scratch"
    swift build -c release --package-path "$root/Fuzz" --scratch-path "$scratch" \
        -Xswiftc -sanitize=fuzzer,address ${linker_flags[@]+"${linker_flags[@]}"}
    fuzzer="$scratch/release/shipcheck-fuzz"
    revision="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- Sources Tests Fuzz/Sources || echo '+changes')"
fi

echo "building the sample binaries (seeds for the ELF reader)"
"$root/Samples/Binaries/build.sh" >/dev/null
samples="${SAMPLES_OUT:-$root/Samples/Binaries/.build-samples}"

seed() {  # seed TARGET NAME < contents
    mkdir -p "$work/corpus/$1"
    cat >"$work/corpus/$1/seed-$2"
}

seed_files() {  # seed_files TARGET FILE...
    mkdir -p "$work/corpus/$1"
    local file
    for file in "${@:2}"; do
        [[ -f "$file" ]] && cp "$file" "$work/corpus/$1/seed-$(echo "$file" | tr '/' '_')"
    done
    return 0
}

# ELF: executables, shared objects, objects and archives in every optimisation variant, and the
# Linux twin of the mock-usage fixture (reflection metadata: field descriptors, typerefs).
# shellcheck disable=SC2046
seed_files elf $(find "$samples" -maxdepth 2 -type f \( -name App -o -name '*.o' -o -name '*.a' -o -name '*.so' \) | sort) "$root/Tests/Fixtures/macho/libMockUsage-linux.so"

# Mach-O: the committed fixtures (thin, universal, stripped, objects, a BSD archive, every
# chained-fixup format; the pre-flight ones: simulator slices, bitcode, Objective-C selectors).
# shellcheck disable=SC2046
seed_files macho $(find "$root/Tests/Fixtures/macho" "$root/Tests/Fixtures/preflight" -maxdepth 1 -type f ! -name '*.md' ! -name '*.sh' ! -name '*.py' | sort)

# Bundle metadata: the committed profiles (DER and BER CMS), the signing fixtures' property
# lists, and the kept SuperBlob inputs, Info.plists and privacy manifests (XML and binary).
# shellcheck disable=SC2046
seed_files bundle $(find "$root/Tests/Fixtures/bundle" "$root/Tests/Fixtures/fuzz-regressions/bundle" -type f \( -name '*.mobileprovision' -o -name '*.plist' -o -name '*.bin' -o -name '*.xcprivacy' \) | sort)

# Symbol names: every Swift and C++ name in the sample binaries and the Mach-O fixtures (previews,
# macro expansions, generics, closures, protocol witnesses), one per seed.
mkdir -p "$work/corpus/demangler"
# shellcheck disable=SC2046
llvm-nm --just-symbol-name $(find "$samples" -maxdepth 2 -type f \( -name App -o -name '*.o' -o -name '*.so' \) | sort) \
    $(find "$root/Tests/Fixtures/macho" -maxdepth 1 -type f ! -name '*.md' ! -name '*.sh' ! -name '*.py' | sort) 2>/dev/null |
    grep -E '^_?(\$s|\$e|_T0|_Z)' | sort -u | while IFS= read -r name; do
        printf '%s' "$name" >"$work/corpus/demangler/seed-$(printf '%s' "$name" | sha1sum | cut -c1-16)"
    done

# Android: the fixture APKs (whole artifacts), and their manifests and BundleConfig.pb files on
# their own (binary, protobuf and text XML).
# shellcheck disable=SC2046
seed_files android $(find "$root/Tests/Fixtures/android" "$root/Tests/Fixtures/fuzz-regressions/android" -maxdepth 1 -type f \( -name '*.apk' -o -name '*.bin' -o -name '*.xml' -o -name '*.pb' \) | sort) \
    "$root/Tests/Fixtures/android/src/planted.xml"

# Conflict markers: the samples plus the block shapes git writes.
# shellcheck disable=SC2046
seed_files conflicts $(find "$root/Samples/Conflicts" -type f | sort)
printf '<<<<<<< HEAD\nours\n||||||| base\nbase\n=======\ntheirs\n>>>>>>> feature\n' | seed conflicts diff3
printf '<<<<<<< HEAD\r\na\r\n=======\r\nb\r\n>>>>>>> 38fbfb3 (feat)\r\n' | seed conflicts crlf-rebase
printf '<<<<<<<<< HEAD\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n=========\nz\n>>>>>>>>> other\n' | seed conflicts criss-cross

# Swift sources with #if around previews.
# shellcheck disable=SC2046
seed_files ifconfig $(find "$root/Samples/App" -name '*.swift' | sort)
seed ifconfig nested.swift <<'SWIFT'
import SwiftUI
#if canImport(SwiftUI) && DEBUG
#if os(iOS) || targetEnvironment(simulator)
@available(iOS 17, *)
#Preview("Dark") { ContentView() }
#elseif !RELEASE && compiler(>=5.9)
struct ContentView_Previews: PreviewProvider { static var previews: some View { Text("x") } }
#else
extension ContentView { #if DEBUG
  func debug() {} #endif }
#endif
#endif
SWIFT

# Xcode project files.
seed_files pbxproj "$root/Samples/App/ShipcheckSample.xcodeproj/project.pbxproj"
seed xcconfig release.xcconfig <<'XCCONFIG'
// Release settings
#include? "Shared.xcconfig"
SWIFT_ACTIVE_COMPILATION_CONDITIONS = $(inherited) RELEASE
SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Debug][sdk=iphonesimulator*] = DEBUG
DEVELOPMENT_ASSET_PATHS = "App/Preview Content" $(SRCROOT)/Fixtures
ENABLE_TESTABILITY = NO // trailing comment
XCCONFIG

# Configuration files.
seed config full.yml <<'YAML'
include: ['Sources/**', '!Sources/Generated']
exclude: ['*.md']
rules:
  preview-outside-debug: warning
  conflict-marker: off
flags:
  debug-only: [DEBUG, TESTING]
  release-set: [RELEASE]
development-paths: ['App/Preview Content']
binaries: ['.build/release/App']
queries: .shipcheck/queries.yml
conflicts:
  allow: ['Docs/merge-example.md']
binary:
  symbol-patterns: ['Mocks?(?![a-z])']
  string-patterns: ['/Users/[^/]+/']
release-configurations: [Release, AppStore]
max-file-size: 1048576
YAML

# Kept regressions and the kept corpora join the work corpora: the fuzzer starts from what once
# broke and from everything earlier runs reached.
for target in $targets; do
    mkdir -p "$work/corpus/$target" "$regressions/$target"
    if [[ -f "$kept/$target.tar.xz" ]]; then
        tar -xJf "$kept/$target.tar.xz" -C "$work/corpus/$target"
    fi
    find "$regressions/$target" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$work/corpus/$target/" \;
done

# keep_corpus TARGET: the work corpus, minimised by libFuzzer's merge (the fewest inputs that
# keep its coverage), replaces Fuzz/corpus/TARGET.tar.xz. Seeds and regression inputs are
# placed first and left out of the archive: run.sh makes the seeds again and the regressions
# are kept beside the tests, so the archive holds only what fuzzing found beyond them. The
# archive is byte-stable (sorted names, no times or owners): an unchanged corpus is no change.
keep_corpus() {
    local target="$1" minimised="$work/$1.minimised"
    rm -rf "$minimised" && mkdir -p "$minimised"
    find "$work/corpus/$target" -maxdepth 1 -type f -name 'seed-*' -exec cp {} "$minimised/" \;
    find "$regressions/$target" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$minimised/" \;
    local placed
    placed=$(ls "$minimised")
    if ! LSAN_OPTIONS="print_suppressions=0" "$fuzzer" "$target" -merge=1 \
        -detect_leaks=0 -timeout=10 "$minimised" "$work/corpus/$target" >"$work/$target.merge.log" 2>&1; then
        echo "  $target: corpus not kept (merge failed, see $work/$target.merge.log)"
        return 0
    fi
    (cd "$minimised" && printf '%s\n' "$placed" | xargs -r rm -f)
    mkdir -p "$kept"
    (cd "$minimised" && find . -type f | LC_ALL=C sort | tar --owner=0 --group=0 --numeric-owner --mtime=@0 \
        --no-recursion -cf - -T - | xz -9 >"$kept/$target.tar.xz.new")
    mv "$kept/$target.tar.xz.new" "$kept/$target.tar.xz"
    echo "  $target: kept corpus $(find "$minimised" -type f | wc -l) inputs, $(wc -c <"$kept/$target.tar.xz") bytes compressed"
}

if [[ -n "${FUZZ_KEEP_ONLY:-}" ]]; then
    for target in $targets; do keep_corpus "$target"; done
    exit 0
fi

rows=""
for target in $targets; do
    log="$work/$target.log"
    before=$(find "$regressions/$target" -maxdepth 1 -type f ! -name '.*' | wc -l)
    echo "fuzzing $target for ${seconds}s"
    # -detect_leaks=0 turns off libFuzzer's per-input leak checks (the Swift runtime's caches
    # look like leaks there); LeakSanitizer still checks the whole run at exit (it found the
    # descriptor leak on corrupt ELF files), with Foundation's and the Swift runtime's own leaks
    # suppressed (the driver's __lsan_default_suppressions, Fuzz/Sources/shipcheck-fuzz/main.swift).
    # Unbounded growth is caught by -rss_limit_mb, slowness by -timeout. A crash stops the run
    # early; the input is kept and the next target runs. -reload=0: one job per corpus here, so
    # nothing else adds to it (libFuzzer's rescan of it every second was 4-9 % of a binary
    # reader's run).
    set +e
    LSAN_OPTIONS="print_suppressions=0" "$fuzzer" "$target" "$work/corpus/$target" -max_total_time="$seconds" -runs="$max_runs" -timeout=10 -rss_limit_mb=2048 \
        -reload=0 -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$regressions/$target/" >"$log" 2>&1
    status=$?
    keep_corpus "$target"
    set -e
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 | awk '{print $2 " / " $4}')
    corpus=$( (tar -tJf "$kept/$target.tar.xz" 2>/dev/null || true) | wc -l)
    after=$(find "$regressions/$target" -maxdepth 1 -type f ! -name '.*' | wc -l)
    found=$((after - before))
    outcome="clean"
    [[ $status -ne 0 || $found -gt 0 ]] && outcome="**$found input(s) kept** (exit $status, see $target.log)"
    echo "  $target: ${runs:-?} executions, $found new crash/timeout/oom inputs"
    load=$(cut -d' ' -f1,3 /proc/loadavg | tr ' ' '/')
    rows+="| \`$target\` | $(date -u '+%Y-%m-%d') | $revision | $seconds | ${runs:-?} | ${speed:-?} | ${coverage:-?} | $corpus | $found | $load | $outcome |"$'\n'
done

# Rows of the targets not fuzzed this time, from the last results.
if [[ -f "$results" ]]; then
    while IFS= read -r row; do
        name=$(printf '%s' "$row" | cut -d'`' -f2)
        [[ " $targets " == *" $name "* ]] || rows+="$row"$'\n'
    done < <(grep -E '^\| `[a-z]+` \| [0-9]{4}-' "$results")
fi

{
    echo "# Fuzzing (make fuzz)"
    echo
    echo "libFuzzer + AddressSanitizer on each entry point of \`Tests/HostileInputTargets\`, release build,"
    echo "each target until ${max_runs} executions or its time limit, from the corpus kept in Fuzz/corpus/<target>.tar.xz"
    echo "(minimised by libFuzzer's merge after each run) plus seeds from the sample binaries, the Mach-O fixtures,"
    echo "Samples/ and bench/fuzz/run.sh. Coverage is libFuzzer's"
    echo "\`cov\` (edges) / \`ft\` (features) at the end. Machine: $(nproc) cores shared with other jobs; last run"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1 /proc/loadavg) at its end."
    echo
    echo "| target | run on | revision | time limit (s) | executions | exec/s | coverage (cov / ft) | kept corpus files | new crashes | load at end (1 / 15 min) | outcome |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"
    printf '%s' "$rows" | sort
    echo
    echo "Inputs kept in Tests/Fixtures/fuzz-regressions/<target>/ are replayed by \`make test\`"
    echo "(HostileFuzzRegressionTests)."
    echo
    cat "$root/bench/fuzz/FINDINGS.md"
} >"$results"
echo "wrote $results"
