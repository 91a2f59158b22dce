#!/usr/bin/env bash
# Installs a released shipcheck: downloads shipcheck-VERSION-PLATFORM.tar.gz and its .sha256,
# checks the checksum and unpacks bin/ and share/ into PREFIX (default /usr/local). Used by the
# GitHub Action (action.yml); also the quick install for the pre-commit hook and other CI:
#
#   curl -fsSL https://raw.githubusercontent.com/shipcheck/shipcheck/main/scripts/install.sh | bash -s -- 0.1.0 "$HOME/.local"
#
# SHIPCHECK_RELEASE_URL overrides where releases are downloaded from (a mirror, or a file://
# directory laid out as VERSION/FILE). Exit 1 when no release exists for this platform.
set -euo pipefail

version="${1:?usage: install.sh VERSION [PREFIX]}"
prefix="${2:-/usr/local}"
base="${SHIPCHECK_RELEASE_URL:-https://github.com/shipcheck/shipcheck/releases/download}"

# The names scripts/package.sh gives: Swift's target triple on Linux, one universal macOS build.
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=x86_64-unknown-linux-gnu ;;
  Linux-aarch64 | Linux-arm64) platform=aarch64-unknown-linux-gnu ;;
  Darwin-*) platform=universal-apple-macosx ;;
  *) echo "install.sh: no shipcheck release for $(uname -s) $(uname -m); build it from source (make install)" >&2; exit 1 ;;
esac

name="shipcheck-$version-$platform"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fetch() {
  if command -v curl >/dev/null 2>&1; then curl -fsSL --retry 3 -o "$2" "$1"; else wget -q -O "$2" "$1"; fi
}
if ! fetch "$base/$version/$name.tar.gz" "$work/$name.tar.gz" || ! fetch "$base/$version/$name.tar.gz.sha256" "$work/$name.tar.gz.sha256"; then
  echo "install.sh: cannot download $base/$version/$name.tar.gz" >&2
  exit 1
fi
if command -v sha256sum >/dev/null 2>&1; then
  (cd "$work" && sha256sum -c --quiet "$name.tar.gz.sha256")
else
  (cd "$work" && shasum -a 256 -c --quiet "$name.tar.gz.sha256")
fi
tar -C "$work" -xzf "$work/$name.tar.gz"
mkdir -p "$prefix"
cp -R "$work/$name/bin" "$work/$name/share" "$prefix/"
echo "install.sh: $("$prefix/bin/shipcheck" --version) installed in $prefix/bin"
