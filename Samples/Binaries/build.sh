#!/usr/bin/env bash
# Builds the leak samples with swiftc directly, in the variants a release pipeline meets:
#
#   onone/              -Onone (debug-style build; everything survives)
#   release-wmo/        -O -whole-module-optimization, linked with --gc-sections (SwiftPM release)
#   release-wmo-stripped/  the same executable after `strip`
#   release-nonwmo/     -O without whole-module optimisation (Xcode's "incremental" release)
#
# Each variant holds `App` (the executable, linked from the modules' object files as SwiftPM
# does), the objects (`AppLib.objects/`, `AppTestSupport.objects/`), the same objects as static
# archives (`libAppLib.a`, `libAppTestSupport.a`) and the stand-in frameworks `libSwiftUI.so`
# and `libDeveloperToolsSupport.so`.
#
# The `#Preview` macro is a compiler *library* plugin built against the toolchain's own
# swift-syntax (lib/swift/host), so no swift-syntax build is needed: the whole script takes
# well under two minutes of CPU. Output goes to $SAMPLES_OUT (default: .build-samples/ here,
# git-ignored). Re-running only rebuilds when a source is newer than the stamp.
set -euo pipefail

if [ "$(uname -s)" = Darwin ]; then
    # ELF link flags (--gc-sections, $ORIGIN), .so stand-ins and the Linux toolchain's layout.
    echo "build.sh: the samples are Linux ELF executables; on macOS make demo audits the Mach-O samples instead" >&2
    exit 1
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${SAMPLES_OUT:-$here/.build-samples}"
swiftc="${SWIFTC:-$(command -v swiftc)}"
toolchain="$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)"
host="$toolchain/lib/swift/host"
src="$here/Sources"
stamp="$out/.stamp"

# Test suites may call this concurrently: one build at a time, the others then see it up to date.
exec 9>"${TMPDIR:-/tmp}/shipcheck-samples-$(id -u).lock"
flock 9

if [[ -f "$stamp" && -z "$(find "$src" "$here/build.sh" -newer "$stamp" -print -quit)" ]]; then
    echo "samples up to date in $out"
    exit 0
fi
rm -rf "$out"
mkdir -p "$out/plugins"

echo "building the #Preview macro plugin"
"$swiftc" -emit-library -module-name PreviewMacros "$src/PreviewMacros/PreviewMacros.swift" \
    -I "$host" -L "$host" -lSwiftSyntax -lSwiftSyntaxMacros \
    -Xlinker -rpath -Xlinker "$host" -o "$out/plugins/libPreviewMacros.so"

build_variant() {
    local name="$1"; shift
    local dir="$out/$name"
    local flags=("$@")
    local link_flags=()
    [[ "$name" != onone ]] && link_flags=(-Xlinker --gc-sections)
    mkdir -p "$dir"
    echo "building $name (${flags[*]})"
    local common=(-I "$dir" -L "$dir" -load-plugin-library "$out/plugins/libPreviewMacros.so")
    # Stand-in frameworks: shared libraries, like Apple's, so conformances to their protocols
    # go through GOT slots and DT_NEEDED names them.
    for module in SwiftUI DeveloperToolsSupport; do
        "$swiftc" "${flags[@]}" -parse-as-library -emit-library -emit-module -module-name "$module" \
            "${common[@]}" "$src/$module/$module.swift" -o "$dir/lib$module.so" -emit-module-path "$dir/$module.swiftmodule"
    done
    # App code is compiled to object files and linked directly, as SwiftPM does (an archive
    # would only contribute members something references); the archives are for inspection.
    for module in AppLib AppTestSupport; do
        mkdir -p "$dir/$module.objects"
        (cd "$dir/$module.objects" && "$swiftc" "${flags[@]}" -parse-as-library -c -emit-module -module-name "$module" \
            "${common[@]}" "$src/$module"/*.swift -emit-module-path "$dir/$module.swiftmodule")
        ar rcs "$dir/lib$module.a" "$dir/$module.objects"/*.o
    done
    "$swiftc" "${flags[@]}" -module-name App "${common[@]}" "$src/App/main.swift" \
        "$dir"/AppLib.objects/*.o "$dir"/AppTestSupport.objects/*.o -lSwiftUI -lDeveloperToolsSupport -lXCTest -lTesting \
        "${link_flags[@]}" -Xlinker -rpath -Xlinker '$ORIGIN' -o "$dir/App"
    rm -f "$dir"/*.swiftmodule "$dir"/*.swiftdoc "$dir"/*.swiftsourceinfo "$dir"/*.abi.json
}

build_variant onone -Onone -g
build_variant release-wmo -O -wmo
build_variant release-nonwmo -O -no-whole-module-optimization
mkdir -p "$out/release-wmo-stripped"
cp -R "$out/release-wmo"/. "$out/release-wmo-stripped/"
strip "$out/release-wmo-stripped/App"
touch "$stamp"
echo "samples built in $out"
