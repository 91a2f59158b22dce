#!/usr/bin/env python3
"""Assembles the pre-flight benchmark's Store.ipa: the fixtures' release app executable
(Tests/Fixtures/preflight/Store-ios) with FRAMEWORKS embedded frameworks — copies of one generated
iOS dylib (thousands of imported symbols, Objective-C selectors and class references, built by
bench/preflight/run.sh), each renamed, padded after its last segment with incompressible bytes
to FRAMEWORK_MIB MiB (the Mach-O reader ignores them; the zip reader inflates them), with a
binary Info.plist and a privacy manifest — plus MEDIA_MIB MiB of incompressible resources.
Deterministic: the same arguments give the same bytes.

    make_store_ipa.py OUT.ipa DYLIB --frameworks 40 --framework-mib 5 --media-mib 100
"""
import argparse
import os
import plistlib
import random
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STAMP = (2026, 11, 26, 12, 0, 0)


def entry(archive, name, data, compress=zipfile.ZIP_DEFLATED, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=STAMP)
    info.compress_type = compress
    info.external_attr = (0o100000 | mode) << 16
    archive.writestr(info, data)


def info(executable, identifier, minimum="16.0"):
    return plistlib.dumps({"CFBundleExecutable": executable, "CFBundleIdentifier": identifier, "CFBundleShortVersionString": "3.4.0",
                           "CFBundleVersion": "1200", "MinimumOSVersion": minimum}, fmt=plistlib.FMT_BINARY)


MANIFEST = plistlib.dumps({"NSPrivacyTracking": False, "NSPrivacyAccessedAPITypes": [
    {"NSPrivacyAccessedAPIType": "NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPITypeReasons": ["C617.1"]}]})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("dylib")
    parser.add_argument("--frameworks", type=int, default=40)
    parser.add_argument("--framework-mib", type=int, default=5)
    parser.add_argument("--media-mib", type=int, default=100)
    options = parser.parse_args()
    with open(os.path.join(ROOT, "Tests", "Fixtures", "preflight", "Store-ios"), "rb") as handle:
        executable = handle.read()
    with open(options.dylib, "rb") as handle:
        dylib = handle.read()
    generator = random.Random(0x5EED)
    app = "Payload/Store.app/"
    os.makedirs(os.path.dirname(os.path.abspath(options.out)), exist_ok=True)
    with zipfile.ZipFile(options.out + ".tmp", "w") as archive:
        entry(archive, app + "Store", executable, mode=0o755)
        entry(archive, app + "Info.plist", info("Store", "com.example.app"))
        entry(archive, app + "PrivacyInfo.xcprivacy", MANIFEST)
        for index in range(options.frameworks):
            name = "Kit%02d" % index
            folder = app + "Frameworks/%s.framework/" % name
            padding = max(0, (options.framework_mib << 20) - len(dylib))
            entry(archive, folder + name, dylib + generator.randbytes(padding), mode=0o755)
            entry(archive, folder + "Info.plist", info(name, "com.example.kit%02d" % index))
            entry(archive, folder + "PrivacyInfo.xcprivacy", MANIFEST)
        for index in range(options.media_mib):
            entry(archive, app + "Media/clip-%04d.bin" % index, generator.randbytes(1 << 20), zipfile.ZIP_STORED)
    os.replace(options.out + ".tmp", options.out)


if __name__ == "__main__":
    main()
