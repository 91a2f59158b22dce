#!/usr/bin/env bash
# shipcheck symbols (full demangling, in-process) vs llvm-nm | swift-demangle, nm -C and
# readelf -Ws on large real ELF files from the toolchain. Writes bench/results/binary.md.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
command -v hyperfine >/dev/null || { echo "hyperfine is required (apt-get install hyperfine)" >&2; exit 1; }
swift build -c release --product shipcheck >/dev/null
shipcheck="$(swift build -c release --show-bin-path)/shipcheck"
toolchain="$(cd "$(dirname "$(readlink -f "$(command -v swiftc)")")/.." && pwd)"
work="$root/bench/work/binary"
mkdir -p "$work" "$root/bench/results"
out="$root/bench/results/binary.md"

inputs=("$toolchain/bin/swift-frontend" "$toolchain/lib/swift/linux/libswiftCore.so")

# Peak RSS (MB) and CPU seconds (user + sys, all processes of the pipeline) of a shell command.
# CPU time is reported because the benchmark machine may be shared: wall times then carry noise.
resources() {
    /usr/bin/time -f "%M %U %S" bash -c "$1" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.0f | %.2f", $1 / 1024, $2 + $3 }'
}

{
    echo "# shipcheck symbols benchmark"
    echo
    echo "Machine: $(nproc) cores, $(uname -sr). Date: $(date -u +%Y-%m-%d). Tools: $(llvm-nm --version | grep -m1 version | sed 's/^ *//'), $(nm --version | head -1), hyperfine $(hyperfine --version | cut -d' ' -f2)."
    echo "All commands write to /dev/null; hyperfine --warmup 1, at least 5 runs. Peak RSS and CPU from /usr/bin/time (one run)."
    echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine may be shared with other builds)."
    echo
} > "$out"

for input in "${inputs[@]}"; do
    name="$(basename "$input")"
    size_mb=$(( $(stat -c %s "$input") / 1024 / 1024 ))
    cmd_shipcheck="'$shipcheck' symbols --demangle full '$input'"
    cmd_llvm="llvm-nm '$input' | swift-demangle"
    cmd_nm="nm -C '$input'"
    cmd_readelf="readelf -Ws '$input'"
    hyperfine --warmup 1 --min-runs 5 --export-markdown "$work/$name.md" \
        -n "shipcheck symbols --demangle full" "$cmd_shipcheck > /dev/null" \
        -n "llvm-nm | swift-demangle" "$cmd_llvm > /dev/null" \
        -n "nm -C" "$cmd_nm > /dev/null" \
        -n "readelf -Ws" "$cmd_readelf > /dev/null" >&2
    count_shipcheck=$("$shipcheck" symbols --demangle none -f csv "$input" | tail -n +2 | wc -l)
    count_llvm=$(llvm-nm "$input" | wc -l)
    count_nm=$(nm "$input" | wc -l)
    count_readelf=$(readelf -Ws "$input" | grep -cE '^ +[0-9]+:')
    {
        echo "## $name ($size_mb MB)"
        echo
        cat "$work/$name.md"
        echo
        echo "| Command | Symbols listed | Peak RSS (MB) | CPU user+sys (s) |"
        echo "|:---|---:|---:|---:|"
        echo "| shipcheck symbols --demangle full | $count_shipcheck | $(resources "$cmd_shipcheck > /dev/null") |"
        echo "| llvm-nm \\| swift-demangle | $count_llvm | $(resources "$cmd_llvm > /dev/null") |"
        echo "| nm -C | $count_nm | $(resources "$cmd_nm > /dev/null") |"
        echo "| readelf -Ws | $count_readelf (all entries, incl. section/file/null) | $(resources "$cmd_readelf > /dev/null") |"
        echo
    } >> "$out"
done
echo "Targets: shipcheck ≥ 2x faster than llvm-nm | swift-demangle, no slower than nm -C, same count as llvm-nm." >> "$out"
echo "wrote $out"
