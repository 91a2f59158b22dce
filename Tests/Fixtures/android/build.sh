#!/usr/bin/env bash
# Rebuilds the Android fixtures in this folder from src/, on Linux, without the NDK or Gradle:
# the toolchain's clang and swiftc compile for the four Android ABIs (-nostdlib: there is no NDK
# sysroot here; small stub libraries stand in for the Swift runtime and Android's libraries so
# the linker records them in DT_NEEDED), its ld.lld links with the page alignment each case
# needs, Debian's aapt (with android-framework-res, Android 10's framework resources) compiles
# the APKs' binary manifests, and assemble.py packs the APKs, App Bundles (aapt2's protobuf
# manifest and BundleConfig.pb, written with protobuf's Python runtime from
# Sources/AndroidArtifacts/Protos) and AARs with the zip layout each case needs. The outputs are
# committed (`make test` needs none of these tools); README.md says what each one plants and the
# tests assert exactly that. Re-run after changing src/ or assemble.py.
#
#   Tests/Fixtures/android/build.sh     # needs swiftc + clang + ld.lld (toolchain), aapt,
#                                       # android-framework-res, python3 with grpcio-tools
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
swiftc="${SWIFTC:-$(command -v swiftc)}"
toolchain="$(cd "$(dirname "$(readlink -f "$swiftc")")/.." && pwd)"
clang="$toolchain/bin/clang"
objcopy="$toolchain/bin/llvm-objcopy"
framework="${FRAMEWORK_RES:-/usr/share/android-framework-res/framework-res.apk}"
src="$here/src"
# A fixed work folder: the planted DT_NEEDED path names it, so the outputs only come out the same
# on every run when it is the same.
work="${TMPDIR:-/tmp}/shipcheck-android-fixtures"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

declare -A triple=(
  [arm64-v8a]=aarch64-linux-android24 [armeabi-v7a]=armv7a-linux-androideabi24
  [x86_64]=x86_64-linux-android24 [x86]=i686-linux-android24)
declare -A swift_triple=([arm64-v8a]=aarch64-unknown-linux-android24 [x86_64]=x86_64-unknown-linux-android24)

# link ABI PAGE OUT SONAME INPUT...: a shared library with the NDK's ABI note, aligned to PAGE.
link() {
  local abi="$1" page="$2" out="$3" soname="$4"
  shift 4
  "$clang" --target="${triple[$abi]}" -nostdlib -shared -fuse-ld=lld -Wl,--build-id=sha1 \
    -Wl,-z,max-page-size="$page" -Wl,-soname,"$soname" "$work/$abi/note.o" "$@" -o "$out"
}

for abi in arm64-v8a armeabi-v7a x86_64 x86; do
  dir="$work/$abi"
  mkdir -p "$dir/clean" "$dir/planted"
  cc=("$clang" --target="${triple[$abi]}" -O1 -c)
  "${cc[@]}" "$src/note.S" -o "$dir/note.o"
  "${cc[@]}" -fPIC "$src/stub.c" -o "$dir/stub.o"
  "${cc[@]}" -fPIC "$src/app.c" -o "$dir/app.o"
  "${cc[@]}" -fPIC -g "$src/app.c" -o "$dir/app-g.o"
  "${cc[@]}" -fPIC "$src/codec.c" -o "$dir/codec.o"
  for stub in libswiftCore.so liblog.so libcutils.so; do
    link "$abi" 16384 "$dir/$stub" "$stub" "$dir/stub.o"
  done
  # The clean build: 16 KB pages, every library it needs packaged beside it (or Android's).
  link "$abi" 16384 "$dir/clean/libapp.so" libapp.so "$dir/app.o" "$dir/libswiftCore.so" "$dir/liblog.so"
  cp "$dir/libswiftCore.so" "$dir/clean/libswiftCore.so"
  "$objcopy" --strip-all "$dir/clean/libapp.so"
done

# The planted build (README.md lists what each library plants).
planted="$work/planted"
mkdir -p "$planted"/{arm64-v8a,armeabi-v7a,x86_64,x86}
# arm64-v8a/libapp.so: 4 KB pages, debug information, and a SwiftUI preview compiled in.
swift=("$swiftc" -frontend -c -target "${swift_triple[arm64-v8a]}" -parse-stdlib -parse-as-library -Onone
       -module-cache-path "$work/module-cache")
"${swift[@]}" -module-name SwiftUI "$root/Tests/Fixtures/macho/src/SwiftUI/SwiftUI.swift" \
  -emit-module-path "$work/SwiftUI.swiftmodule" -o "$work/SwiftUI-arm64.o"
"${swift[@]}" -I "$work" -module-name App "$src/Previews.swift" -o "$work/Previews-arm64.o"
link arm64-v8a 4096 "$planted/arm64-v8a/libapp.so" libapp.so "$work/arm64-v8a/app-g.o" \
  "$work/Previews-arm64.o" "$work/SwiftUI-arm64.o" "$work/arm64-v8a/libswiftCore.so" "$work/arm64-v8a/liblog.so"
cp "$work/arm64-v8a/libswiftCore.so" "$planted/arm64-v8a/"
# arm64-v8a/libpacked.so: its section headers removed, as some packers leave a library.
link arm64-v8a 16384 "$planted/arm64-v8a/libpacked.so" libpacked.so "$work/arm64-v8a/codec.o"
python3 "$here/assemble.py" drop-section-headers "$planted/arm64-v8a/libpacked.so"
# arm64-v8a/libloader.so: needs a library by the build machine's path (one without a SONAME).
"$clang" --target="${triple[arm64-v8a]}" -nostdlib -shared -fuse-ld=lld -Wl,-z,max-page-size=16384 \
  "$work/arm64-v8a/stub.o" -o "$work/arm64-v8a/libcore.so"
link arm64-v8a 16384 "$planted/arm64-v8a/libloader.so" libloader.so "$work/arm64-v8a/app.o" \
  "$work/arm64-v8a/libcore.so" "$work/arm64-v8a/libswiftCore.so" "$work/arm64-v8a/liblog.so"
# x86_64/libapp.so: needs libswiftCore.so, which the build forgot to package for x86_64.
link x86_64 16384 "$planted/x86_64/libapp.so" libapp.so "$work/x86_64/app.o" \
  "$work/x86_64/libswiftCore.so" "$work/x86_64/liblog.so"
"$objcopy" --strip-all "$planted/x86_64/libapp.so"
# x86/libcodec.so: built without -fPIC (text relocations); x86_64 has it built right.
"$clang" --target="${triple[x86]}" -O1 -c -fno-pic "$src/codec.c" -o "$work/x86/codec-nopic.o"
link x86 4096 "$planted/x86/libcodec.so" libcodec.so -Wl,-z,notext "$work/x86/codec-nopic.o" "$work/x86/libcutils.so"
link x86_64 16384 "$planted/x86_64/libcodec.so" libcodec.so "$work/x86_64/codec.o" "$work/x86_64/libcutils.so"
# libcutils.so is private on devices: the planted build packages its own copy for both.
cp "$work/x86/libcutils.so" "$planted/x86/"
cp "$work/x86_64/libcutils.so" "$planted/x86_64/"
# armeabi-v7a/libvendor.so: a 32-bit library with no arm64-v8a build beside it.
link armeabi-v7a 4096 "$planted/armeabi-v7a/libvendor.so" libvendor.so "$work/armeabi-v7a/codec.o" \
  "$work/armeabi-v7a/libcutils.so"
cp "$work/armeabi-v7a/libcutils.so" "$planted/armeabi-v7a/"
cp "$work/arm64-v8a/libcutils.so" "$planted/arm64-v8a/"

# Binary manifests, compiled by aapt against Android's framework resources.
for name in planted clean legacy facts; do
  mkdir -p "$work/aapt-$name"
  cp "$src/$name.xml" "$work/aapt-$name/AndroidManifest.xml"
  aapt package -f -M "$work/aapt-$name/AndroidManifest.xml" -I "$framework" -F "$work/aapt-$name/base.apk"
done

# The APK set's configuration splits: one manifest per ABI, naming its split.
for abi in arm64-v8a armeabi-v7a x86_64 x86; do
  split="config.${abi//-/_}"
  mkdir -p "$work/aapt-split-$abi"
  sed "s/package=\"com.example.shipcheck\"/package=\"com.example.shipcheck\" split=\"$split\"/" "$src/planted.xml" \
    >"$work/aapt-split-$abi/AndroidManifest.xml"
  aapt package -f -M "$work/aapt-split-$abi/AndroidManifest.xml" -I "$framework" -F "$work/aapt-split-$abi/base.apk"
done

mkdir -p "$work/clean-libs"
for abi in arm64-v8a armeabi-v7a x86_64 x86; do
  mkdir -p "$work/clean-libs/$abi"
  cp "$work/$abi/clean/"*.so "$work/clean-libs/$abi/"
done
python3 "$here/assemble.py" artifacts "$work" "$here" "$root/Sources/AndroidArtifacts/Protos" "$src"

# The zip offsets, checked by Debian's zipalign (16 KB for every stored entry): the clean APK
# passes, the planted one fails on its one library placed 4 KB past a boundary.
zipalign -c 16384 "$here/Clean.apk"
bad="$(zipalign -c -v 16384 "$here/Planted.apk" | grep BAD || true)"
[ "$(echo "$bad" | tr -s ' ')" = " 4096 lib/arm64-v8a/libapp.so (BAD - 4096)" ] || { echo "unexpected: $bad" >&2; exit 1; }

# Loose libraries as older NDKs and other toolchains link them: no ABI note, 32-bit ARM built
# without -fPIC (text relocations). libloose-bionic.so names bionic's libdl.so beside libc.so,
# as the NDK links; libloose-libc-only.so names only libc.so, which musl's C library is called
# too, so it is no sign of Android.
loose="$work/loose"
mkdir -p "$loose" "$here/loose"
t="${triple[armeabi-v7a]}"
"$clang" --target="$t" -O1 -c -fPIC "$src/stub.c" -o "$loose/stub.o"
for soname in libc.so libdl.so; do
  "$clang" --target="$t" -nostdlib -shared -fuse-ld=lld -Wl,-soname,"$soname" "$loose/stub.o" -o "$loose/$soname"
done
"$clang" --target="$t" -O1 -c -fno-pic -mno-movt "$src/loose.c" -o "$loose/loose.o"
loose_link() {
  local out="$1"
  shift
  "$clang" --target="$t" -nostdlib -shared -fuse-ld=lld -Wl,--build-id=sha1 -Wl,-z,max-page-size=4096 \
    -Wl,-z,notext -Wl,-soname,libloose.so "$loose/loose.o" "$@" -o "$here/loose/$out"
}
loose_link libloose-bionic.so "$loose/libc.so" "$loose/libdl.so"
loose_link libloose-libc-only.so "$loose/libc.so"
