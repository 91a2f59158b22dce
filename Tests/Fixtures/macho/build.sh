#!/usr/bin/env bash
# Rebuilds the Mach-O fixtures in this folder from src/, on Linux, without an Apple SDK or linker:
# the toolchain's swiftc and clang compile for Apple targets (-parse-stdlib: there is no Apple
# standard library here), Debian's lld-16 links (the toolchain's own ld64.lld refuses Apple
# platforms), llvm-16's lipo / strip / ar make the universal, stripped and archive variants, and
# rewrite_fixups.py and chain_fixups32.py write chained fixups in the three formats lld-16 cannot.
# The outputs are committed (`make test` needs none of these tools); README.md in this folder
# says what each file plants and the tests assert exactly that. Re-run after changing src/.
#
#   Tests/Fixtures/macho/build.sh       # needs swiftc + clang (toolchain), lld-16, llvm-16, python3
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
swiftc="${SWIFTC:-$(command -v swiftc)}"
toolchain="$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)"
clang="$toolchain/bin/clang"
nm="$toolchain/bin/llvm-nm"
llvm="${LLVM_BIN:-/usr/lib/llvm-16/bin}"
src="$here/src"
# A fixed work folder: objects record a hash of their compile (paths included), so the outputs
# only come out the same on every run when the paths are the same.
work="${TMPDIR:-/tmp}/shipcheck-macho-fixtures"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# The #Preview / @Previewable macros of Samples/Binaries: a compiler library plugin built against
# the toolchain's swift-syntax (the target of the code it expands does not matter).
host="$toolchain/lib/swift/host"
"$swiftc" -emit-library -module-name PreviewMacros "$root/Samples/Binaries/Sources/PreviewMacros/PreviewMacros.swift" \
    -I "$host" -L "$host" -lSwiftSyntax -lSwiftSyntaxMacros -Xlinker -rpath -Xlinker "$host" -o "$work/libPreviewMacros.so"

# The swift-testing record's accessor, named as the @Test macro names it (read from the ELF sample,
# which is built with the real swift-testing).
accessor='_$s14AppTestSupport04$s14aB73Support18sampleFixtureLoads0B0fMp_33testContentRecord59cdf7520589bcf5fMu_33_57F86BEFDA85979E6EA59B63C41B01ECLLs6UInt32V4kind_AE9reserved1SbSv_S2VSgSutXC8accessorSu7contextSu9reserved2tvpfiSbSv_SVAHSutcfU_To'

# compile TARGET: every module and C object for one target, in $work/TARGET.
compile() {
    local target="$1" dir="$work/$1"
    mkdir -p "$dir"
    # 32-bit Apple targets other than arm64_32 ask for the Objective-C class layouts of the SDK's
    # runtime, which this toolchain does not ship: none is needed without the SDK's classes.
    local legacy=()
    case "$target" in armv7*|i386-*) legacy=(-disable-legacy-type-info) ;; esac
    local swift=("$swiftc" -frontend -c -target "$target" -parse-stdlib -parse-as-library -Onone "${legacy[@]}"
                 -I "$dir" -I "$src/XCTest" -module-cache-path "$work/module-cache"
                 -load-plugin-library "$work/libPreviewMacros.so")
    for module in SwiftUI DeveloperToolsSupport; do
        "${swift[@]}" -module-name "$module" "$src/$module/$module.swift" -emit-module-path "$dir/$module.swiftmodule" -o "$dir/$module.o"
    done
    # One object per module (no -primary-file: the whole module at once).
    "${swift[@]}" -module-name AppLib "$src"/AppLib/*.swift -emit-module-path "$dir/AppLib.swiftmodule" -o "$dir/AppLib.o"
    "${swift[@]}" -module-name AppTestSupport "$src/AppTestSupport/LoginTestCase.swift" -o "$dir/AppTestSupport.o"
    "${swift[@]}" -module-name Clean "$src/Clean/Clean.swift" -o "$dir/Clean.o"
    "${swift[@]}" -module-name MockUsage "$src/MockUsage/MockUsage.swift" -o "$dir/MockUsage.o"
    # main.swift is top-level code: not -parse-as-library.
    "$swiftc" -frontend -c -target "$target" -parse-stdlib -Onone "${legacy[@]}" -I "$dir" -module-name App "$src/App/main.swift" -o "$dir/main.o"
    "$clang" -target "$target" -O0 -c "$src/C/Fixtures.c" -o "$dir/Fixtures.o"
    "$clang" -target "$target" -O0 -c "$src/C/Gaps.c" -o "$dir/Gaps.o"
    "$clang" -target "$target" -O0 -c "$src/C/TestRecord.c" -DACCESSOR_NAME="\"$accessor\"" -o "$dir/TestRecord.o"
    "$clang" -target "$target" -O0 -c "$src/XCTest/XCTest.m" -o "$dir/XCTest.o"
}

# tbd TARGETS INSTALL-NAME SYMBOL...: a text stub of a dylib (lld links against it like the real one).
tbd() {
    local targets="$1" install="$2"; shift 2
    local symbols=() classes=() symbol
    for symbol in "$@"; do
        case "$symbol" in
            _OBJC_CLASS_\$_*) classes+=("${symbol#_OBJC_CLASS_\$_}") ;;
            _OBJC_METACLASS_\$_*) ;;
            *) symbols+=("'$symbol'") ;;
        esac
    done
    printf -- "--- !tapi-tbd\ntbd-version: 4\ntargets: [ %s ]\ninstall-name: '%s'\nexports:\n  - targets: [ %s ]\n" "$targets" "$install" "$targets"
    [[ ${#symbols[@]} -gt 0 ]] && printf "    symbols: [ %s ]\n" "$(IFS=,; echo "${symbols[*]}")"
    [[ ${#classes[@]} -gt 0 ]] && printf "    objc-classes: [ %s ]\n" "$(IFS=,; echo "${classes[*]}")"
    printf -- "...\n"
}

targets=(arm64-apple-macos14 x86_64-apple-macos14 arm64-apple-ios17 arm64e-apple-macos14
         arm64_32-apple-watchos9 arm64-apple-watchos26 armv7k-apple-watchos6 armv7-apple-ios10 armv7s-apple-ios10 i386-apple-macos10.13)
for target in "${targets[@]}"; do compile "$target"; done

# Stubs of the system libraries the objects import (the Swift runtime, libobjc, libSystem),
# holding exactly the symbols nothing here defines.
stubs="$work/stubs"
mkdir -p "$stubs"
tbd_targets="arm64-macos, arm64e-macos, x86_64-macos, arm64-ios, arm64_32-watchos, arm64-watchos"
"$nm" -u --just-symbol-name "$work"/*/*.o | grep -v ':$' | grep -v '^$' | sort -u > "$work/undefined"
"$nm" -g --defined-only --just-symbol-name "$work"/*/*.o | grep -v ':$' | grep -v '^$' | sort -u > "$work/defined"
comm -23 "$work/undefined" "$work/defined" > "$work/imports"
mapfile -t objc < <(grep -E '^_(objc_|OBJC_CLASS_\$_[^_]|OBJC_METACLASS_\$_[^_])|^__objc_' "$work/imports" || true)
mapfile -t runtime < <(grep -vE '^_(objc_|OBJC_CLASS_\$_[^_]|OBJC_METACLASS_\$_[^_])|^__objc_|^dyld_stub_binder$' "$work/imports" || true)
tbd "$tbd_targets" /usr/lib/swift/libswiftCore.dylib "${runtime[@]}" > "$stubs/libswiftCore.tbd"
tbd "$tbd_targets" /usr/lib/libobjc.A.dylib "${objc[@]}" > "$stubs/libobjc.tbd"
tbd "$tbd_targets" /usr/lib/libSystem.B.dylib dyld_stub_binder > "$stubs/libSystem.tbd"
tbd "$tbd_targets" @rpath/Testing.framework/Testing '_$s7Testing4TestVMn' > "$stubs/Testing.tbd"
tbd "$tbd_targets" @rpath/libXCTestSwiftSupport.dylib '_$s6XCTest13XCTAssertTrueyyF' > "$stubs/libXCTestSwiftSupport.tbd"
runtime_stubs=("$stubs/libswiftCore.tbd" "$stubs/libobjc.tbd" "$stubs/libSystem.tbd")

# platform TARGET: ld64.lld's -arch and -platform_version for a target triple.
arch_of() { echo "${1%%-*}"; }
platform_of() {
    case "$1" in
        *-ios17) echo "ios 17.0 17.5" ;;
        *-watchos9) echo "watchos 9.0 10.2" ;;
        *-watchos26) echo "watchos 26.0 26.0" ;;
        *) echo "macos 14.0 14.5" ;;
    esac
}

# link TARGET OUTPUT KIND [ld64.lld flags...] -- OBJECTS...: stand-in frameworks as dylibs, then the image.
link() {
    local target="$1" output="$2" kind="$3"; shift 3
    local dir="$work/$target" flags=() objects=()
    while [[ $# -gt 0 && "$1" != "--" ]]; do flags+=("$1"); shift; done
    shift
    objects=("$@")
    local ld=("$llvm/ld64.lld" -arch "$(arch_of "$target")" -platform_version $(platform_of "$target"))
    if [[ ! -f "$dir/SwiftUI.dylib" ]]; then
        "${ld[@]}" -dylib -install_name /System/Library/Frameworks/SwiftUI.framework/SwiftUI "$dir/SwiftUI.o" "${runtime_stubs[@]}" -o "$dir/SwiftUI.dylib"
        "${ld[@]}" -dylib -install_name /System/Library/Frameworks/DeveloperToolsSupport.framework/DeveloperToolsSupport \
            "$dir/DeveloperToolsSupport.o" "${runtime_stubs[@]}" -o "$dir/DeveloperToolsSupport.dylib"
        "${ld[@]}" -dylib -install_name @rpath/XCTest.framework/XCTest "$dir/XCTest.o" "${runtime_stubs[@]}" -o "$dir/XCTest.dylib"
    fi
    "${ld[@]}" "-$kind" "${flags[@]}" "${objects[@]/#/$dir/}" "$dir/SwiftUI.dylib" "$dir/DeveloperToolsSupport.dylib" \
        "${runtime_stubs[@]}" -o "$output"
}

app_objects=(main.o AppLib.o AppTestSupport.o Fixtures.o TestRecord.o)
test_libraries=("$work/arm64-apple-macos14/XCTest.dylib" "$stubs/Testing.tbd" -weak_library "$stubs/libXCTestSwiftSupport.tbd")
out="$work/out"
mkdir -p "$out"

# Executables: classic dyld binds (LC_DYLD_INFO_ONLY) on macOS, chained fixups on iOS.
link arm64-apple-macos14 "$out/App-macos" execute -no_fixup_chains "${test_libraries[@]}" -- "${app_objects[@]}"
link x86_64-apple-macos14 "$work/App-x86_64" execute -no_fixup_chains "$work/x86_64-apple-macos14/XCTest.dylib" "$stubs/Testing.tbd" \
    -weak_library "$stubs/libXCTestSwiftSupport.tbd" -- "${app_objects[@]}"
link arm64-apple-ios17 "$out/App-ios" execute -fixup_chains "$work/arm64-apple-ios17/XCTest.dylib" "$stubs/Testing.tbd" \
    -weak_library "$stubs/libXCTestSwiftSupport.tbd" -- "${app_objects[@]}"
"$llvm/llvm-lipo" -create "$work/App-x86_64" "$out/App-macos" -output "$out/App-universal"
"$llvm/llvm-strip" -x "$out/App-ios" -o "$out/App-ios-strip-x"
"$llvm/llvm-strip" "$out/App-ios" -o "$out/App-ios-stripped"
"$llvm/llvm-strip" -x "$out/App-macos" -o "$out/App-macos-strip-x"
"$llvm/llvm-strip" "$out/App-macos" -o "$out/App-macos-stripped"

# A dylib (chained fixups, exports trie), fully stripped too; a clean one for false findings.
link arm64-apple-macos14 "$out/libAppLib.dylib" dylib -fixup_chains -install_name @rpath/libAppLib.dylib -- AppLib.o Fixtures.o
"$llvm/llvm-strip" "$out/libAppLib.dylib" -o "$out/libAppLib-stripped.dylib"
link arm64-apple-macos14 "$out/libClean.dylib" dylib -fixup_chains -install_name @rpath/libClean.dylib -- Clean.o

# Mock-named types the product uses and does not (field descriptors, conformances), as a Mach-O
# dylib (chained fixups), fully stripped, and its ELF twin for this machine's Linux (the same
# source, so both readers of the reflection metadata are judged on the same facts).
link arm64-apple-macos14 "$out/libMockUsage.dylib" dylib -fixup_chains -install_name @rpath/libMockUsage.dylib -- MockUsage.o
"$llvm/llvm-strip" "$out/libMockUsage.dylib" -o "$out/libMockUsage-stripped.dylib"
"$swiftc" -frontend -c -parse-stdlib -parse-as-library -Onone -module-name MockUsage "$src/MockUsage/MockUsage.swift" -o "$work/MockUsage-linux.o"
"$swiftc" -emit-library "$work/MockUsage-linux.o" -o "$out/libMockUsage-linux.so"

# The chained-fixup formats lld-16 does not write: DYLD_CHAINED_PTR_64_OFFSET, and an arm64e
# image (lld cannot link arm64e at all) with DYLD_CHAINED_PTR_ARM64E_USERLAND24 auth pointers.
python3 "$here/rewrite_fixups.py" 64_OFFSET "$out/App-ios" "$out/App-ios-offset"
python3 "$here/rewrite_fixups.py" ARM64E_USERLAND24 "$out/App-ios" "$out/App-ios-arm64e"

# A bundle (x86_64, classic binds) holding the test-support code.
link x86_64-apple-macos14 "$out/AppTests.bundle" bundle -no_fixup_chains "$work/x86_64-apple-macos14/XCTest.dylib" -- AppTestSupport.o TestRecord.o

# Objects: arm64 and (compiled, not converted) arm64e.
cp "$work/arm64-apple-macos14/AppLib.o" "$out/AppLib.o"
cp "$work/arm64e-apple-macos14/AppLib.o" "$out/AppLib-arm64e.o"

# A BSD archive: long member names (#1/), the __.SYMDEF table, a Mach-O and an ELF member.
archive="$work/archive"
mkdir -p "$archive"
cp "$work/arm64-apple-macos14/AppTestSupport.o" "$archive/AppTestSupport-LoginTestCase.o"
cp "$work/arm64-apple-macos14/Fixtures.o" "$archive/Fixtures.o"
"$clang" -target x86_64-unknown-linux-gnu -O0 -c "$src/C/Fixtures.c" -o "$archive/Fixtures-linux.o"
(cd "$archive" && "$llvm/llvm-ar" --format=darwin rcs "$out/libAppTestSupport.a" AppTestSupport-LoginTestCase.o Fixtures.o Fixtures-linux.o)

# A watch app's executable, universal: arm64_32 (classic binds: lld cannot write 32-bit chained
# fixups) and arm64 (linked for watchOS 26, the first release on arm64 watches), the app's code
# without the test libraries, and Gaps.c's pointers too far apart for one chain.
watch_objects=(main.o AppLib.o Fixtures.o Gaps.o)
link arm64_32-apple-watchos9 "$work/Watch-arm64_32" execute -no_fixup_chains -- "${watch_objects[@]}"
link arm64-apple-watchos26 "$work/Watch-arm64" execute -fixup_chains -- "${watch_objects[@]}"
"$llvm/llvm-lipo" -create "$work/Watch-arm64_32" "$work/Watch-arm64" -output "$out/WatchApp-universal"
"$llvm/llvm-strip" "$work/Watch-arm64_32" -o "$out/WatchApp-arm64_32-stripped"
# arm64_32 as watchOS 10 builds it: the same image with DYLD_CHAINED_PTR_32 fixups.
python3 "$here/chain_fixups32.py" "$work/Watch-arm64_32" "$out/WatchApp-arm64_32-chained"

# 32-bit objects lld cannot link (armv7k, armv7, armv7s, i386), in one universal file as the pre-2022
# vendor SDKs shipped them: the previews and mock of AppLib in each slice.
"$llvm/llvm-lipo" -create "$work/armv7k-apple-watchos6/AppLib.o" "$work/armv7-apple-ios10/AppLib.o" \
    "$work/armv7s-apple-ios10/AppLib.o" "$work/i386-apple-macos10.13/AppLib.o" -output "$out/AppLib-32bit.o"

cp "$out"/* "$here/"
ls -l "$out"
