#!/usr/bin/env bash
# Judges the pre-flight rules on Mach-O that Apple's toolchain built: the iOS wheels on PyPI
# (device and simulator builds of Python extension modules, linked by Apple's ld). Downloads them
# (network needed: this is not part of `make test`), assembles two apps the way Python's iOS
# packaging does — each extension module moved into Frameworks/NAME.framework with an Info.plist,
# beside the app executable of the fixtures (Store-ios) — and checks that
#   - every module on its own gets no pre-flight error or warning;
#   - the app of device builds gets preflight-required-reason-api for exactly the modules that
#     import a required reason API (pillow's _imaging: stat, fstat) and nothing else, and none
#     once each module's framework holds a manifest declaring its categories (Declared.app);
#   - the app holding the simulator builds gets preflight-unsupported-architecture once per module.
# The apps' own executable (Store-ios) comes with a manifest declaring what it uses.
# Prints each module's platform, SDK and linker, and the findings. Exit 1 when a judgment differs.
#
#   Tests/Fixtures/preflight/judge-wheels.sh .build/debug/shipcheck [PACKAGE…]   (default: pillow markupsafe cffi)
set -euo pipefail
shipcheck="$(cd "$(dirname "${1:?usage: judge-wheels.sh SHIPCHECK [PACKAGE...]}")" && pwd)/$(basename "$1")"; shift
packages=("${@:-pillow markupsafe cffi}")
read -r -a packages <<< "${packages[*]}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for variant in iphoneos iphonesimulator; do
    mkdir -p "$work/$variant"
    for package in "${packages[@]}"; do
        python3 -m pip download --no-deps --only-binary=:all: --platform "ios_13_0_arm64_$variant" --python-version 3.13 \
            --implementation cp "$package" -d "$work/$variant" -q
    done
done

python3 - "$work" "$here/Store-ios" <<'PY'
import os, plistlib, shutil, sys, zipfile
work, executable = sys.argv[1], sys.argv[2]
def info(values):
    return plistlib.dumps(values, fmt=plistlib.FMT_BINARY)
def manifest(declared):
    return plistlib.dumps({"NSPrivacyTracking": False, "NSPrivacyAccessedAPITypes": [
        {"NSPrivacyAccessedAPIType": "NSPrivacyAccessedAPICategory" + category, "NSPrivacyAccessedAPITypeReasons": [reason]}
        for category, reason in declared]})
# What Store-ios uses; and every category, for the frameworks of Declared.app.
APP = [("FileTimestamp", "C617.1"), ("SystemBootTime", "35F9.1"), ("UserDefaults", "CA92.1")]
EVERY = APP + [("DiskSpace", "E174.1"), ("ActiveKeyboards", "54BD.1")]
for variant, app in (("iphoneos", "Device.app"), ("iphonesimulator", "Simulator.app"), ("iphoneos", "Declared.app")):
    root = os.path.join(work, app)
    os.makedirs(os.path.join(root, "Frameworks"))
    shutil.copy(executable, os.path.join(root, "Judge"))
    with open(os.path.join(root, "PrivacyInfo.xcprivacy"), "wb") as handle:
        handle.write(manifest(APP))
    with open(os.path.join(root, "Info.plist"), "wb") as handle:
        handle.write(info({"CFBundleExecutable": "Judge", "CFBundleIdentifier": "org.example.judge", "CFBundleShortVersionString": "1.0",
                           "CFBundleVersion": "1", "MinimumOSVersion": "16.0"}))
    for wheel in sorted(os.listdir(os.path.join(work, variant))):
        with zipfile.ZipFile(os.path.join(work, variant, wheel)) as archive:
            for name in archive.namelist():
                if not name.endswith(".so"):
                    continue
                module = name.replace("/", ".").rsplit(".cpython", 1)[0]
                folder = os.path.join(root, "Frameworks", module + ".framework")
                os.makedirs(folder)
                with open(os.path.join(folder, module), "wb") as handle:
                    handle.write(archive.read(name))
                if app == "Declared.app":
                    with open(os.path.join(folder, "PrivacyInfo.xcprivacy"), "wb") as handle:
                        handle.write(manifest(EVERY))
                else:
                    with open(os.path.join(os.path.join(work, variant + "-modules.txt")), "a") as listing:
                        listing.write(os.path.join(folder, module) + "\n")
                with open(os.path.join(folder, "Info.plist"), "wb") as handle:
                    handle.write(info({"CFBundleExecutable": module, "CFBundleIdentifier": "org.example." + module.replace("_", "-"),
                                       "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "MinimumOSVersion": "13.0"}))
PY

status=0
preflight() { grep -E ': (error|warning): .*\[preflight-' || true; }
# shipcheck exits 1 on findings: the judgment is made on what it printed.
audit() { "$shipcheck" binary --no-color "$@" 2>/dev/null || true; }
echo "judge: the device builds, one by one"
audit $(cat "$work/iphoneos-modules.txt") | grep -E 'LC_BUILD_VERSION' | sed "s|$work/||" || true
single=$(audit $(cat "$work/iphoneos-modules.txt") | preflight)
[ -z "$single" ] || { echo "judge: pre-flight findings on device modules:"; echo "$single"; status=1; }
echo "judge: the app of device builds"
device=$(audit "$work/Device.app" | preflight)
echo "$device" | sed "s|$work/||"
reasons=$(printf '%s\n' "$device" | grep -c '\[preflight-required-reason-api\]' || true)
others=$(printf '%s\n' "$device" | grep -v '\[preflight-required-reason-api\]' | grep -c . || true)
echo "judge: $reasons required-reason findings, $others other findings"
[ "$others" -eq 0 ] || status=1
if [[ " ${packages[*]} " == *" pillow "* ]]; then
    printf '%s\n' "$device" | grep -q 'PIL._imaging.framework/PIL._imaging references .*stat()' || { echo "judge: pillow's stat/fstat not found"; status=1; }
fi
echo "judge: the app of device builds, each framework with its manifest"
declared=$(audit "$work/Declared.app" | preflight)
[ -z "$declared" ] && echo "  clean" || { echo "$declared" | sed "s|$work/||"; status=1; }
echo "judge: the app of simulator builds"
simulator=$(audit "$work/Simulator.app" | preflight)
echo "$simulator" | sed "s|$work/||"
modules=$(wc -l < "$work/iphonesimulator-modules.txt")
flagged=$(printf '%s\n' "$simulator" | grep -c '\[preflight-unsupported-architecture\]' || true)
others=$(printf '%s\n' "$simulator" | grep -v '\[preflight-unsupported-architecture\]' | grep -v '\[preflight-required-reason-api\]' | grep -c . || true)
echo "judge: $flagged of $modules simulator modules flagged, $others other findings"
[ "$flagged" -eq "$modules" ] && [ "$others" -eq 0 ] || status=1
exit $status
