#!/usr/bin/env bash
# Judges the pre-flight rules on Mach-O that Apple's toolchain built: the iOS wheels on PyPI
# (device and simulator builds of Python extension modules, linked by Apple's ld). Downloads them
# (network needed: this is not part of `make test`), assembles two apps the way Python's iOS
# packaging does — each extension module moved into Frameworks/NAME.framework with an Info.plist,
# beside the app executable of the fixtures (Store-ios) — and checks that
#   - every module on its own, and the app of device builds, get no pre-flight error or warning;
#   - the app holding the simulator builds gets preflight-unsupported-architecture once per module.
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
for variant, app in (("iphoneos", "Device.app"), ("iphonesimulator", "Simulator.app")):
    root = os.path.join(work, app)
    os.makedirs(os.path.join(root, "Frameworks"))
    shutil.copy(executable, os.path.join(root, "Judge"))
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
[ -z "$device" ] && echo "  clean" || { echo "$device" | sed "s|$work/||"; status=1; }
echo "judge: the app of simulator builds"
simulator=$(audit "$work/Simulator.app" | preflight)
echo "$simulator" | sed "s|$work/||"
modules=$(wc -l < "$work/iphonesimulator-modules.txt")
flagged=$(printf '%s\n' "$simulator" | grep -c '\[preflight-unsupported-architecture\]' || true)
others=$(printf '%s\n' "$simulator" | grep -v '\[preflight-unsupported-architecture\]' | grep -c . || true)
echo "judge: $flagged of $modules simulator modules flagged, $others other findings"
[ "$flagged" -eq "$modules" ] && [ "$others" -eq 0 ] || status=1
exit $status
