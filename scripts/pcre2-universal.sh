#!/usr/bin/env bash
# scripts/pcre2-universal.sh PREFIX [SOURCE_TARBALL]
#
# A static libpcre2-8 with its JIT in PREFIX (lib/libpcre2-8.a, include/pcre2.h and
# lib/pkgconfig/libpcre2-8.pc), universal (arm64 + x86_64) on macOS: what the macOS release
# links. Homebrew's pcre2 is one architecture's dylib under /opt/homebrew (or /usr/local): a
# universal link fails on the other slice, and a released binary would load it from there at
# run time. scripts/dist.sh puts PREFIX first on PKG_CONFIG_PATH, so SwiftPM's CPCRE2 target
# links this archive instead, and checks the result with otool and lipo.
#
# The source is Homebrew's pcre2 source tarball (brew fetch checks it against the formula's
# SHA-256, and the formula follows PCRE2's security releases), or SOURCE_TARBALL. Needs cmake.
# Elsewhere (Linux, for the tests) it builds for the host's architecture only.
set -euo pipefail

prefix="${1:?usage: pcre2-universal.sh PREFIX [SOURCE_TARBALL]}"
source="${2:-}"
if [ -z "$source" ]; then
  brew fetch --build-from-source pcre2 >&2
  source="$(brew --cache --build-from-source pcre2)"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xf "$source" -C "$work"
tree="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'pcre2-*' | head -1)"
[ -n "$tree" ] || { echo "pcre2-universal.sh: $source holds no pcre2-* folder" >&2; exit 2; }

flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib
       -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON -DCMAKE_POSITION_INDEPENDENT_CODE=ON
       -DPCRE2_BUILD_PCRE2_8=ON -DPCRE2_BUILD_PCRE2_16=OFF -DPCRE2_BUILD_PCRE2_32=OFF
       -DPCRE2_SUPPORT_JIT=ON -DPCRE2_SUPPORT_UNICODE=ON -DPCRE2_BUILD_PCRE2GREP=OFF -DPCRE2_BUILD_TESTS=OFF)
if [ "$(uname -s)" = Darwin ]; then
  # The deployment target of Package.swift (macOS 15).
  flags+=(-DCMAKE_OSX_ARCHITECTURES="arm64;x86_64" -DCMAKE_OSX_DEPLOYMENT_TARGET=15.0)
fi
cmake -S "$tree" -B "$work/build" "${flags[@]}" >&2
cmake --build "$work/build" --target install --parallel >&2
# Only the static archive: with a dylib beside it the linker would take the dylib.
rm -f "$prefix"/lib/libpcre2-*.dylib "$prefix"/lib/libpcre2-*.so*
echo "$prefix"
