#!/usr/bin/env python3
"""Assembles Demo.ipa — a Debug build of an iOS app, archived and exported as if for the App
Store — from the committed Mach-O and signing fixtures (Tests/Fixtures/macho, Tests/Fixtures/bundle),
deterministically: fixed entry order, timestamps and compression, so the same inputs give the
same bytes. For the memory benchmark, `--padding-mib N` adds N MiB of incompressible resources
(Payload/Demo.app/Media/) and `--binary-padding-mib N` N MiB of incompressible bytes at the end of
the executable (after its last segment: the Mach-O reader ignores them, the zip reader must
inflate them with the rest).

    make_ipa.py OUT.ipa [--padding-mib N] [--binary-padding-mib N]
"""
import os
import random
import sys
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
STAMP = (2024, 9, 16, 12, 0, 0)

INFO = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>CFBundleExecutable</key><string>{0}</string>
<key>CFBundleIdentifier</key><string>com.example.{0}</string></dict></plist>
"""

# Entry in the app -> a committed fixture (a path under Tests/Fixtures) or its text.
APP = [
    ("Demo", "bundle/App-ios-dev-signed"),
    ("Demo.debug.dylib", "macho/libClean.dylib"),
    ("embedded.mobileprovision", "bundle/dev.mobileprovision"),
    ("Info.plist", INFO.format("Demo")),
    ("Frameworks/Clean.framework/Clean", "bundle/Clean-store-signed"),
    ("Frameworks/Clean.framework/Info.plist", INFO.format("Clean")),
    ("Preview Content/users.json", '[{"name": "Alice Example"}]\n'),
    ("Settings.bundle/Root.plist", INFO.format("Settings")),
]


def entry(archive, name, data, compress=zipfile.ZIP_DEFLATED, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=STAMP)
    info.compress_type = compress
    info.external_attr = (0o100000 | mode) << 16
    archive.writestr(info, data)


def main(out, padding_mib=0, binary_padding_mib=0):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with zipfile.ZipFile(out + ".tmp", "w") as archive:
        generator = random.Random(0x5EED)
        for name, source in APP:
            if os.path.isfile(os.path.join(FIXTURES, source)):
                with open(os.path.join(FIXTURES, source), "rb") as handle:
                    data = handle.read()
                if name == "Demo":
                    data += generator.randbytes(binary_padding_mib << 20)
                mode = 0o755 if data[:4] == b"\xcf\xfa\xed\xfe" else 0o644
            else:
                data, mode = source.encode(), 0o644
            entry(archive, "Payload/Demo.app/" + name, data, mode=mode)
        for index in range(padding_mib):
            entry(archive, "Payload/Demo.app/Media/clip-%04d.bin" % index, generator.randbytes(1 << 20), zipfile.ZIP_STORED)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    options = {"--padding-mib": 0, "--binary-padding-mib": 0}
    for option in options:
        if option in arguments:
            at = arguments.index(option)
            options[option] = int(arguments[at + 1])
            del arguments[at:at + 2]
    main(arguments[0], options["--padding-mib"], options["--binary-padding-mib"])
