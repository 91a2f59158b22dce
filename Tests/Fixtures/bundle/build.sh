#!/usr/bin/env bash
# Rebuilds the signing fixtures the bundle tests assemble apps from (the bundles themselves are
# put together by the tests, in temporary folders):
#   App-ios-dev-signed       ../macho/App-ios signed with src/dev-entitlements.plist
#                            (get-task-allow, aps-environment development)
#   Clean-store-signed       ../macho/libClean.dylib signed with src/store-entitlements.plist
#   dev.mobileprovision      src/dev-profile.plist in a CMS SignedData envelope (2 devices,
#                            get-task-allow, aps-environment development)
#   store.mobileprovision    src/store-profile.plist the same way, BER-streamed (no devices: App Store)
# The signature is made by sign_macho.py (ld64.lld -adhoc_codesign writes no entitlements); the
# profiles with `openssl cms -sign -nodetach -outform der -binary` and a throwaway self-signed
# certificate, so they are not byte-for-byte reproducible (the signing time and key differ) —
# only their content matters. The outputs are committed: `make test` needs neither tool.
#
#   Tests/Fixtures/bundle/build.sh      # needs python3 and openssl
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 "$here/sign_macho.py" "$here/../macho/App-ios" "$here/App-ios-dev-signed" com.example.app "$here/src/dev-entitlements.plist"
python3 "$here/sign_macho.py" "$here/../macho/libClean.dylib" "$here/Clean-store-signed" com.example.clean "$here/src/store-entitlements.plist"

openssl req -x509 -newkey rsa:2048 -nodes -subj "/CN=Apple Development: Fixture (ABCDE12345)" -days 3650 \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
sign=(openssl cms -sign -nodetach -binary -outform der -noattr -nocerts -signer "$work/cert.pem" -inkey "$work/key.pem")
# dev: definite-length DER. store: -stream writes indefinite lengths and a chunked OCTET STRING
# (BER), as Apple's profiles are written.
"${sign[@]}" -in "$here/src/dev-profile.plist" -out "$here/dev.mobileprovision"
"${sign[@]}" -stream -in "$here/src/store-profile.plist" -out "$here/store.mobileprovision"
