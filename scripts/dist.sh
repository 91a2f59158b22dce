#!/usr/bin/env bash
# `make dist`: an optimised, stripped release build of shipcheck with the Swift standard
# library linked in, its manual page and completions, packed by scripts/package.sh into
# dist/: shipcheck-VERSION-PLATFORM.tar.gz (+ .sha256), shipcheck.artifactbundle (+ .zip,
# .zip.sha256) and shipcheck-plugins (the plugin package to publish, naming the zip under
# RELEASE_URL by checksum).
#
# Linux: `--static-swift-stdlib` links the Swift runtime, Foundation and Dispatch statically.
# The Static Linux SDK (musl, a fully static binary) is used when `swift sdk list` shows one
# and DIST_SWIFT_SDK names it (a triple such as x86_64-swift-linux-musl); it has no libelf, so
# such a build reads no ELF files. Without it
# the binary needs glibc and libelf.so.1 at run time (docs/distribution.md lists them).
# macOS: a universal (arm64 + x86_64) binary; the Swift runtime is part of the OS. Each
# architecture is built on its own (`--triple ARCH-apple-macosx15.0`) and the two joined with
# lipo: `--arch arm64 --arch x86_64` would hand the build to XCBuild, which rejects the
# manifest's per-target `.swiftLanguageMode(.v6)` and runs no build-tool plugin (the BuildInfo
# revision). PCRE2 is linked statically from a universal archive (scripts/pcre2-universal.sh,
# into PCRE2_UNIVERSAL_PREFIX, default .build/pcre2-universal): Homebrew's pcre2 has one
# architecture and would be loaded from /opt/homebrew at run time.
set -euo pipefail
cd "$(dirname "$0")/.."

export SWIFT="${SWIFT:-swift}"
OUT="${DIST_DIR:-dist}"
RELEASE_URL="${RELEASE_URL:-https://github.com/shipcheck/shipcheck/releases/download}"

read -ra build_flags <<<"--product shipcheck $(./scripts/package.sh release-flags)"
case "$(uname -s)" in
  Darwin)
    pcre2="${PCRE2_UNIVERSAL_PREFIX:-$PWD/.build/pcre2-universal}"
    [ -f "$pcre2/lib/libpcre2-8.a" ] || ./scripts/pcre2-universal.sh "$pcre2" >/dev/null
    export PKG_CONFIG_PATH="$pcre2/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    # The deployment target of Package.swift (macOS 15), as pcre2-universal.sh's.
    triples=(arm64-apple-macosx15.0 x86_64-apple-macosx15.0)
    platform_flags=(--platform universal-apple-macosx)
    strip_flags=(-Sx) ;;
  *)
    if [ -n "${DIST_SWIFT_SDK:-}" ]; then
      # The SDK has no libelf: build without the ELF trait (Package.swift) rather than fail to link.
      build_flags=(--product shipcheck -c release --swift-sdk "$DIST_SWIFT_SDK" --disable-default-traits)
      platform_flags=(--platform "$DIST_SWIFT_SDK")
    else
      platform_flags=()
    fi
    strip_flags=(--strip-all) ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

# build FLAGS...: the release build with those flags too; bin_dir is the binary's folder.
build() {
  echo "dist: swift build ${build_flags[*]} $*"
  "$SWIFT" build "${build_flags[@]}" "$@"
  bin_dir="$("$SWIFT" build "${build_flags[@]}" "$@" --show-bin-path)"
}

if [ "$(uname -s)" = Darwin ]; then
  slices=()
  for triple in "${triples[@]}"; do
    arch="${triple%%-*}"
    build --triple "$triple"
    cp "$bin_dir/shipcheck" "$work/shipcheck-$arch"
    strip "${strip_flags[@]}" "$work/shipcheck-$arch"
    lipo "$work/shipcheck-$arch" -verify_arch "$arch"
    slices+=("$work/shipcheck-$arch")
  done
  lipo -create -output "$work/shipcheck" "${slices[@]}"
  # Both slices, and nothing loaded from outside the OS (no Homebrew library).
  for triple in "${triples[@]}"; do lipo "$work/shipcheck" -verify_arch "${triple%%-*}"; done
  # `otool -L` heads each architecture of a universal file with a line of its own ("FILE
  # (architecture arm64):"); headers end in a colon, library lines in ")".
  libraries="$(otool -L "$work/shipcheck" | grep -v ':$')"
  if printf '%s\n' "$libraries" | grep -vE '^[[:space:]]+(/usr/lib/|/System/Library/)'; then
    echo "dist: the binary links a library outside the OS (above)" >&2
    exit 1
  fi
else
  build
  cp "$bin_dir/shipcheck" "$work/shipcheck"
  strip "${strip_flags[@]}" "$work/shipcheck"
fi
echo "dist: built in $(( $(date +%s) - start ))s"

./scripts/package.sh manual "$work/shipcheck" "$work/man"

tarball="$(./scripts/package.sh pack "$work/shipcheck" "$OUT" --manual "$work/man" --release-url "$RELEASE_URL" ${platform_flags[@]+"${platform_flags[@]}"})"
echo "dist: $tarball ($(wc -c <"$work/shipcheck" | tr -d ' ') bytes stripped)"
ls -l "$OUT"
