#!/usr/bin/env python3
"""Assembles Demo.ipa — a Debug build of an iOS app, archived and exported as if for the App
Store — from the committed Mach-O and signing fixtures (Tests/Fixtures/macho, Tests/Fixtures/bundle,
Tests/Fixtures/preflight), deterministically: fixed entry order, timestamps and compression, so the
same inputs give the same bytes; and beside it Demo.xcarchive, a small archive of a release build
whose dSYM was not archived. For the memory benchmark, `--padding-mib N` adds N MiB of
incompressible resources (Payload/Demo.app/Media/) and `--binary-padding-mib N` N MiB of
incompressible bytes at the end of the executable (after its last segment: the Mach-O reader
ignores them, the zip reader must inflate them with the rest).

With `--previous-release`, OUT.ipa is instead the release of Demo before this one, for `make
demo`'s `shipcheck diff`: build 8 of the same version (this one is build 7), an older executable,
a lower MinimumOSVersion, without Alamofire, Location and the preview data, and a widget manifest
declaring fewer categories.

    make_ipa.py OUT.ipa [--padding-mib N] [--binary-padding-mib N] [--previous-release]
"""
import os
import random
import shutil
import sys
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
STAMP = (2024, 9, 16, 12, 0, 0)


def info(executable, identifier, version="1.0", build="1", minimum=None):
    keys = [("CFBundleExecutable", executable), ("CFBundleIdentifier", identifier),
            ("CFBundleShortVersionString", version), ("CFBundleVersion", build)]
    if minimum:
        keys.append(("MinimumOSVersion", minimum))
    entries = "".join("<key>%s</key><string>%s</string>" % pair for pair in keys)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict>%s</dict></plist>\n' % entries)


def manifest(*declared):
    """A PrivacyInfo.xcprivacy declaring (category, reason) pairs."""
    entries = "".join("<dict><key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategory%s</string>"
                      "<key>NSPrivacyAccessedAPITypeReasons</key><array><string>%s</string></array></dict>" % pair for pair in declared)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>NSPrivacyTracking</key><false/>'
            '<key>NSPrivacyAccessedAPITypes</key><array>%s</array></dict></plist>\n' % entries)


# Entry in the app -> a committed fixture (a path under Tests/Fixtures) or its text.
APP = [
    ("Demo", "bundle/App-ios-dev-signed"),
    ("Demo.debug.dylib", "preflight/Kit-ios"),
    ("embedded.mobileprovision", "bundle/dev.mobileprovision"),
    # "1.0 beta" is no version to the store; MinimumOSVersion below the executable's 17.0; the
    # profile provisions com.example.app.
    ("Info.plist", info("Demo", "com.example.Demo", version="1.0 beta", build="7", minimum="16.0")),
    ("Frameworks/Kit.framework/Kit", "preflight/Kit-ios"),
    ("Frameworks/Kit.framework/Info.plist", info("Kit", "com.example.Kit", minimum="16.0")),
    ("Frameworks/Sim.framework/Sim", "preflight/Sim-fat"),
    ("Frameworks/Sim.framework/Info.plist", info("Sim", "com.example.Sim", minimum="16.0")),
    ("Frameworks/Newer.framework/Newer", "preflight/Newer-ios"),
    ("Frameworks/Newer.framework/Info.plist", info("Newer", "com.example.Newer", minimum="18.0")),
    ("Frameworks/Vendor.framework/Vendor", "preflight/Bitcode-ios"),
    ("Frameworks/Vendor.framework/Info.plist", info("Vendor", "com.example.Vendor", minimum="12.0")),
    ("PlugIns/Widget.appex/Widget", "preflight/Store-ios"),
    ("PlugIns/Widget.appex/Info.plist", info("Widget", "com.example.Demo.widget", minimum="16.0")),
    # The widget (Store-ios) declares its file timestamps and boot clock, but gives user defaults
    # a reason that does not exist: the manifest is invalid and the category undeclared.
    ("PlugIns/Widget.appex/PrivacyInfo.xcprivacy", manifest(("FileTimestamp", "C617.1"), ("SystemBootTime", "35F9.1"),
                                                            ("UserDefaults", "CA92.2"))),
    # A framework asking for location when in use: the app's Info.plist does not say why.
    ("Frameworks/Location.framework/Location", "preflight/Location-ios"),
    ("Frameworks/Location.framework/Info.plist", info("Location", "com.example.Location", minimum="16.0")),
    # SDKs on Apple's list: Alamofire without its privacy manifest, Starscream without a signature.
    ("Frameworks/Alamofire.framework/Alamofire", "preflight/Kit-ios"),
    ("Frameworks/Alamofire.framework/Info.plist", info("Alamofire", "org.alamofire.Alamofire", minimum="16.0")),
    ("Frameworks/Starscream.framework/Starscream", "preflight/Unsigned-ios"),
    ("Frameworks/Starscream.framework/Info.plist", info("Starscream", "com.vluxe.Starscream", minimum="16.0")),
    ("Frameworks/Starscream.framework/PrivacyInfo.xcprivacy", manifest()),
    ("Preview Content/users.json", '[{"name": "Alice Example"}]\n'),
    ("Settings.bundle/Root.plist", info("Settings", "com.example.Settings")),
]

# The previous release: APP with these entries replaced (None: left out).
PREVIOUS = {
    "Demo": "preflight/Store-ios",
    "Info.plist": info("Demo", "com.example.Demo", version="1.0 beta", build="8", minimum="15.0"),
    "PlugIns/Widget.appex/PrivacyInfo.xcprivacy": manifest(("FileTimestamp", "C617.1")),
    "Frameworks/Location.framework/Location": None,
    "Frameworks/Location.framework/Info.plist": None,
    "Frameworks/Alamofire.framework/Alamofire": None,
    "Frameworks/Alamofire.framework/Info.plist": None,
    "Preview Content/users.json": None,
}

# Demo.xcarchive: a release build archived without its dSYM.
ARCHIVE = [
    ("Info.plist", info("Demo", "com.example.Demo")),
    ("Products/Applications/Demo.app/Demo", "preflight/Store-ios"),
    ("Products/Applications/Demo.app/Info.plist", info("Demo", "com.example.Demo", version="1.0", build="7", minimum="16.0")),
    ("Products/Applications/Demo.app/PrivacyInfo.xcprivacy", manifest(("FileTimestamp", "C617.1"), ("SystemBootTime", "35F9.1"),
                                                                      ("UserDefaults", "CA92.1"))),
]


def read(source):
    path = os.path.join(FIXTURES, source)
    if os.path.isfile(path):
        with open(path, "rb") as handle:
            return handle.read(), True
    return source.encode(), False


def entry(archive, name, data, compress=zipfile.ZIP_DEFLATED, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=STAMP)
    info.compress_type = compress
    info.external_attr = (0o100000 | mode) << 16
    archive.writestr(info, data)


def main(out, padding_mib=0, binary_padding_mib=0, previous=False):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    entries = APP
    if previous:
        entries = [(name, PREVIOUS.get(name, source)) for name, source in APP if PREVIOUS.get(name, source) is not None]
    with zipfile.ZipFile(out + ".tmp", "w") as archive:
        generator = random.Random(0x5EED)
        for name, source in entries:
            data, is_fixture = read(source)
            if name == "Demo":
                data += generator.randbytes(binary_padding_mib << 20)
            mode = 0o755 if is_fixture and data[:4] in (b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe") else 0o644
            entry(archive, "Payload/Demo.app/" + name, data, mode=mode)
        for index in range(padding_mib):
            entry(archive, "Payload/Demo.app/Media/clip-%04d.bin" % index, generator.randbytes(1 << 20), zipfile.ZIP_STORED)
    os.replace(out + ".tmp", out)
    if previous:
        return
    folder = os.path.join(os.path.dirname(os.path.abspath(out)), "Demo.xcarchive")
    shutil.rmtree(folder, ignore_errors=True)
    for name, source in ARCHIVE:
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(read(source)[0])


if __name__ == "__main__":
    arguments = sys.argv[1:]
    options = {"--padding-mib": 0, "--binary-padding-mib": 0}
    for option in options:
        if option in arguments:
            at = arguments.index(option)
            options[option] = int(arguments[at + 1])
            del arguments[at:at + 2]
    previous = "--previous-release" in arguments
    if previous:
        arguments.remove("--previous-release")
    main(arguments[0], options["--padding-mib"], options["--binary-padding-mib"], previous)
