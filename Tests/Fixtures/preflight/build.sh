#!/usr/bin/env bash
# Rebuilds the App Store pre-flight fixtures from src/, on Linux, without an Apple SDK: the
# toolchain's clang compiles for Apple targets, Debian's lld-16 links (ld64.lld; the toolchain's
# refuses Apple platforms) and signs ad hoc, llvm-16's lipo makes the universal framework and its
# dsymutil the dSYM. The outputs are committed (`make test` needs none of these tools); README.md
# says what each one plants.
#
#   Tests/Fixtures/preflight/build.sh     # needs clang (toolchain), lld-16, llvm-16
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
swiftc="${SWIFTC:-$(command -v swiftc)}"
clang="$(cd "$(dirname "$(readlink -f "$swiftc")")" && pwd)/clang"
llvm="${LLVM_BIN:-/usr/lib/llvm-16/bin}"
src="$here/src"
# A fixed work folder: the debug map names the objects by path, and the dSYM is made from them.
work="${TMPDIR:-/tmp}/shipcheck-preflight-fixtures"
rm -rf "$work"
mkdir -p "$work/stubs" "$work/out"
trap 'rm -rf "$work"' EXIT

# tbd INSTALL-NAME [objc-classes: NAME…] [symbols: NAME…]: a text stub of a system library.
tbd() {
    local install="$1" classes="$2" symbols="$3"
    printf -- "--- !tapi-tbd\ntbd-version: 4\ntargets: [ arm64-ios, arm64-ios-simulator, x86_64-ios-simulator ]\n"
    printf -- "install-name: '%s'\nexports:\n  - targets: [ arm64-ios, arm64-ios-simulator, x86_64-ios-simulator ]\n" "$install"
    [[ -n "$symbols" ]] && printf "    symbols: [ %s ]\n" "$symbols"
    [[ -n "$classes" ]] && printf "    objc-classes: [ %s ]\n" "$classes"
    printf -- "...\n"
}
tbd /usr/lib/libSystem.B.dylib "" "_stat, _fstat, _mach_absolute_time, ___stack_chk_fail, ___stack_chk_guard" > "$work/stubs/libSystem.tbd"
tbd /usr/lib/libobjc.A.dylib "" "_objc_msgSend, __objc_empty_cache" > "$work/stubs/libobjc.tbd"
tbd /System/Library/Frameworks/Foundation.framework/Foundation "NSProcessInfo, NSUserDefaults" "_NSFileModificationDate" > "$work/stubs/Foundation.tbd"
tbd /System/Library/Frameworks/CoreLocation.framework/CoreLocation "CLLocationManager" "" > "$work/stubs/CoreLocation.tbd"
system=("$work/stubs/libSystem.tbd" "$work/stubs/libobjc.tbd" "$work/stubs/Foundation.tbd")

# ld ARCH PLATFORM MINIMUM SDK [flags…]: ld64.lld for one slice, signed ad hoc as Xcode signs.
ld() {
    local arch="$1" platform="$2" minimum="$3" sdk="$4" fixups=-fixup_chains; shift 4
    # Chained fixups need iOS 13.4: older deployment targets get classic dyld binds.
    [[ "${minimum%%.*}" -lt 14 ]] && fixups=-no_fixup_chains
    "$llvm/ld64.lld" -arch "$arch" -platform_version "$platform" "$minimum" "$sdk" -adhoc_codesign "$fixups" "$@"
}

# Store-ios: a clean release app executable (iOS 16.0, SDK 26.0) with a debug map, and its dSYM.
"$clang" -target arm64-apple-ios16.0 -O1 -g -c "$src/Store.c" -o "$work/Store.o"
"$clang" -target arm64-apple-ios16.0 -O1 -g -fobjc-runtime=ios-16.0 -c "$src/StoreObjC.m" -o "$work/StoreObjC.o"
ld arm64 ios 16.0 26.0 -execute "$work/Store.o" "$work/StoreObjC.o" "${system[@]}" -o "$work/out/Store-ios"
"$llvm/dsymutil" "$work/out/Store-ios" -o "$work/out/Store-ios.dSYM"

# library NAME ARCH PLATFORM MINIMUM SDK [ld64.lld flags…]: an embedded framework's binary
# (with a debug map for dsymutil when DEBUG_MAP is set).
library() {
    local name="$1" arch="$2" platform="$3" minimum="$4" sdk="$5"; shift 5
    local target="$arch-apple-ios$minimum"
    [[ "$platform" == ios-simulator ]] && target="$target-simulator"
    "$clang" -target "$target" -O1 ${DEBUG_MAP:+-g} -DLIBRARY_NAME="${name}Value" -c "$src/Library.c" -o "$work/$name-$arch-$platform.o"
    ld "$arch" "$platform" "$minimum" "$sdk" -dylib -install_name "@rpath/$name.framework/$name" "$@" \
        "$work/$name-$arch-$platform.o" "${system[@]}" -o "$work/$name-$arch-$platform"
}
# Kit-ios: a clean framework for the app (iOS 16.0, SDK 26.0), with its dSYM.
DEBUG_MAP=1 library Kit arm64 ios 16.0 26.0
cp "$work/Kit-arm64-ios" "$work/out/Kit-ios"
"$llvm/dsymutil" "$work/out/Kit-ios" -o "$work/out/Kit-ios.dSYM"
# Sim-fat: the "fat" framework of old — device arm64 and simulator x86_64 in one file.
library Sim arm64 ios 16.0 26.0
library Sim x86_64 ios-simulator 16.0 26.0
"$llvm/llvm-lipo" -create "$work/Sim-arm64-ios" "$work/Sim-x86_64-ios-simulator" -output "$work/out/Sim-fat"
# SimOnly-arm64: a simulator build for Apple silicon, the same architecture as a device's.
library SimOnly arm64 ios-simulator 16.0 26.0
cp "$work/SimOnly-arm64-ios-simulator" "$work/out/SimOnly-arm64"
# Newer-ios: a framework built for iOS 18.0 (the app runs from 16.0).
library Newer arm64 ios 18.0 26.0
cp "$work/Newer-arm64-ios" "$work/out/Newer-ios"
# Bitcode-ios: a vendor framework built with ENABLE_BITCODE (iOS 12.0, SDK 16.0: old, but a
# framework): ld64 puts the bitcode bundle, a xar archive, in __LLVM,__bundle as -sectcreate does;
# only its header is here.
printf 'xar!\0\034\0\001' > "$work/bitcode.xar"
library Bitcode arm64 ios 12.0 16.0 -sectcreate __LLVM __bundle "$work/bitcode.xar"
cp "$work/Bitcode-arm64-ios" "$work/out/Bitcode-ios"
# libStaticBitcode-ios.a: the same vendor code as a static library built with ENABLE_BITCODE: each
# object keeps its bitcode in __LLVM,__bitcode, which the app's link drops.
"$clang" -target arm64-apple-ios12.0 -O1 -fembed-bitcode -DLIBRARY_NAME=StaticBitcodeValue -c "$src/Library.c" \
    -o "$work/StaticBitcode.o"
"$llvm/llvm-ar" --format=darwin rcs "$work/out/libStaticBitcode-ios.a" "$work/StaticBitcode.o"

# Location-ios: a framework asking for location when in use (CLLocationManager,
# requestWhenInUseAuthorization), signed.
"$clang" -target arm64-apple-ios16.0 -O1 -fobjc-runtime=ios-16.0 -c "$src/Location.m" -o "$work/Location.o"
ld arm64 ios 16.0 26.0 -dylib -install_name @rpath/Location.framework/Location "$work/Location.o" "${system[@]}" \
    "$work/stubs/CoreLocation.tbd" -o "$work/out/Location-ios"
# Stipop-ios: a vendor framework with SDWebImage's Objective-C classes linked into it, signed.
"$clang" -target arm64-apple-ios16.0 -O1 -fobjc-runtime=ios-16.0 -c "$src/Stipop.m" -o "$work/Stipop.o"
ld arm64 ios 16.0 26.0 -dylib -install_name @rpath/Stipop.framework/Stipop "$work/Stipop.o" "${system[@]}" \
    -o "$work/out/Stipop-ios"
# OneSignalCore-ios: a listed vendor's own framework, defining classes named for the vendor
# (OneSignalClient), signed, as OneSignal 5's xcframeworks ship it.
"$clang" -target arm64-apple-ios12.0 -O1 -fobjc-runtime=ios-12.0 -c "$src/OneSignalCore.m" -o "$work/OneSignalCore.o"
ld arm64 ios 12.0 18.0 -dylib -install_name @rpath/OneSignalCore.framework/OneSignalCore "$work/OneSignalCore.o" \
    "${system[@]}" -o "$work/out/OneSignalCore-ios"
# Unsigned-ios: a clean framework binary without a code signature.
library Unsigned arm64 ios 16.0 26.0 -no_adhoc_codesign
cp "$work/Unsigned-arm64-ios" "$work/out/Unsigned-ios"

rm -rf "$here"/*.dSYM
cp -R "$work/out"/* "$here/"
ls -l "$work/out"
