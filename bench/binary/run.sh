#!/usr/bin/env bash
# shipcheck symbols (full demangling, in-process) side by side with the peer tools, written to
# bench/results/binary.md:
#   ELF: large real files from the toolchain (sourcekit-lsp: mostly Swift; swift-frontend: mostly
#   C++; libswiftCore.so), against llvm-nm | swift-demangle, nm -C, readelf -Ws;
#   Mach-O: the largest Mach-O fixture and a generated arm64 dylib with 200,000 Swift-mangled
#   functions (assembled by the toolchain's clang, linked by lld-16's ld64.lld; deterministic),
#   against the toolchain's llvm-nm -m | swift-demangle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
command -v hyperfine >/dev/null || { echo "hyperfine is required (apt-get install hyperfine)" >&2; exit 1; }
ld64="${LD64:-/usr/lib/llvm-16/bin/ld64.lld}"
[[ -x "$ld64" ]] || { echo "ld64.lld from lld-16 is required ($ld64)" >&2; exit 1; }
shipcheck=$(bench/shipcheck-release.sh 2>/dev/null)
toolchain="$(cd "$(dirname "$(readlink -f "$(command -v swiftc)")")/.." && pwd)"
work="$root/bench/work/binary"
mkdir -p "$work" "$root/bench/results"
out="$root/bench/results/binary.md"

# 1,000 structs × 200 methods, `Bench.TypeNNNN.methodNNN() -> ()`, each a `ret`.
macho_symbols=${MACHO_SYMBOLS:-200000}
generated="$work/libBench-$macho_symbols.dylib"
if [[ ! -f "$generated" ]]; then
    echo "generating a Mach-O dylib with $macho_symbols Swift symbols" >&2
    awk -v count="$macho_symbols" 'BEGIN {
        print ".section __TEXT,__text,regular,pure_instructions"
        for (i = 0; i < count; i++) {
            type = sprintf("Type%04d", int(i / 200)); method = sprintf("method%03d", i % 200)
            name = sprintf("_$s5Bench%d%sV%d%syyF", length(type), type, length(method), method)
            printf ".globl \"%s\"\n.p2align 2\n\"%s\":\n  ret\n", name, name
        }
    }' > "$work/bench.s"
    "$toolchain/bin/clang" -target arm64-apple-macos14 -c "$work/bench.s" -o "$work/bench.o"
    printf -- "--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-macos ]\ninstall-name: '/usr/lib/libSystem.B.dylib'\nexports:\n  - targets: [ arm64-macos ]\n    symbols: [ dyld_stub_binder ]\n...\n" > "$work/libSystem.tbd"
    "$ld64" -arch arm64 -platform_version macos 14.0 14.0 -dylib -install_name @rpath/libBench.dylib \
        "$work/bench.o" "$work/libSystem.tbd" -o "$generated"
fi

# Peak RSS (MB) and CPU seconds (user + sys, all processes of the pipeline) of a shell command.
# CPU time is reported because the benchmark machine may be shared: wall times then carry noise.
resources() {
    /usr/bin/time -f "%M %U %S" bash -c "$1" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.0f | %.2f", $1 / 1024, $2 + $3 }'
}

# compare INPUT (NAME COMMAND COUNT-COMMAND)...: hyperfine over the commands (output to /dev/null),
# then each command's symbol count, peak memory and CPU.
compare() {
    local input="$1"; shift
    local name size arguments=() rows=""
    name="$(basename "$input")"
    size=$(( $(stat -c %s "$input") / 1024 ))
    while [[ $# -gt 0 ]]; do
        arguments+=(-n "$1" "$2 > /dev/null")
        rows+="| $(echo "$1" | sed 's/|/\\|/g') | $(bash -c "$3") | $(resources "$2 > /dev/null") |"$'\n'
        shift 3
    done
    hyperfine --warmup 1 --min-runs 5 --export-markdown "$work/$name.md" "${arguments[@]}" >&2
    {
        echo "### $name ($size KB)"
        echo
        cat "$work/$name.md"
        echo
        echo "| Command | Symbols listed | Peak RSS (MB) | CPU user+sys (s) |"
        echo "|:---|---:|---:|---:|"
        printf '%s' "$rows"
        echo
    } >> "$out"
}

{
    echo "# shipcheck symbols benchmark"
    echo
    echo "Machine: $(nproc) cores, $(uname -sr). Date: $(date -u +%Y-%m-%d). Tools: $(llvm-nm --version | grep -m1 version | sed 's/^ *//'), toolchain llvm-nm ($("$toolchain/bin/llvm-nm" --version | grep -m1 'LLVM version' | sed 's/^ *//')), $(nm --version | head -1), hyperfine $(hyperfine --version | cut -d' ' -f2)."
    echo "All commands write to /dev/null; hyperfine --warmup 1, at least 5 runs. Peak RSS and CPU from /usr/bin/time (one run)."
    echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other builds)."
    # How the run was isolated from other jobs, when it was (e.g. "other jobs paused with SIGSTOP").
    if [[ -n "${BENCH_CONDITIONS:-}" ]]; then echo "Conditions: $BENCH_CONDITIONS."; fi
    echo
    echo "## ELF"
    echo
} > "$out"

for input in "$toolchain/bin/sourcekit-lsp" "$toolchain/bin/swift-frontend" "$toolchain/lib/swift/linux/libswiftCore.so"; do
    compare "$input" \
        "shipcheck symbols --demangle full" "'$shipcheck' symbols --demangle full '$input'" "'$shipcheck' symbols --demangle none -f csv '$input' | tail -n +2 | wc -l" \
        "llvm-nm | swift-demangle" "llvm-nm '$input' | swift-demangle" "llvm-nm '$input' | wc -l" \
        "nm -C" "nm -C '$input'" "nm '$input' | wc -l" \
        "readelf -Ws" "readelf -Ws '$input'" "readelf -Ws '$input' | grep -cE '^ +[0-9]+:'"
done
echo "readelf counts every entry, section, file and null symbols included. Targets: shipcheck ≥ 2x faster than llvm-nm | swift-demangle, no slower than nm -C, same count as llvm-nm." >> "$out"

{ echo; echo "## Mach-O"; echo; } >> "$out"
for input in "$root/Tests/Fixtures/macho/App-universal" "$generated"; do
    compare "$input" \
        "shipcheck symbols --demangle full" "'$shipcheck' symbols --demangle full '$input'" "'$shipcheck' symbols --demangle none -f csv '$input' | tail -n +2 | wc -l" \
        "llvm-nm -m | swift-demangle" "'$toolchain/bin/llvm-nm' -m --arch=all '$input' | '$toolchain/bin/swift-demangle'" \
        "'$toolchain/bin/llvm-nm' -m --arch=all '$input' | grep -cv -e '^\$' -e ':\$'"
done
echo "App-universal is the largest Mach-O fixture (two slices). Target: shipcheck ≥ 2x faster than llvm-nm -m | swift-demangle, same count." >> "$out"
echo "wrote $out"
