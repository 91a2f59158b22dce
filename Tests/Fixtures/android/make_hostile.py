#!/usr/bin/env python3
"""Writes the hand-made hostile inputs of the `android` fuzz target into
Tests/Fixtures/fuzz-regressions/android/ (replayed by `make test`): manifests and BundleConfig.pb
files that are damaged, nested past any manifest or claim more than they hold, and APKs whose
entries escape the archive or are not libraries. Built from the committed fixtures.

    make_hostile.py
"""
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fuzz-regressions", "android")
STAMP = (2026, 11, 27, 12, 0, 0)


def entry(artifact, name):
    with zipfile.ZipFile(os.path.join(HERE, artifact)) as archive:
        return archive.read(name)


def chunk(kind, header, body):
    return struct.pack("<HHI", kind, header, header + len(body)) + body


def deep_binary_xml(depth):
    """A string pool with one name, then `depth` nested start elements and no end."""
    name = "a".encode("utf-16-le")
    pool_body = struct.pack("<IIIII", 1, 0, 0, 28 + 4, 0) + struct.pack("<I", 0) + struct.pack("<H", 1) + name + b"\0\0"
    pool = chunk(0x0001, 28, pool_body)
    start = struct.pack("<HHI", 0x0102, 16, 36) + struct.pack("<II", 1, 0xFFFFFFFF) + struct.pack(
        "<IIHHHHHH", 0xFFFFFFFF, 0, 20, 20, 0, 0, 0, 0)
    body = pool + start * depth
    return struct.pack("<HHI", 0x0003, 8, 8 + len(body)) + body


def deep_proto(depth):
    """aapt2 XmlNode → XmlElement → child XmlNode … nested `depth` times."""
    message = b"\x1a\x01a"  # XmlElement.name = "a"
    for _ in range(depth):
        node = b"\x0a" + varint(len(message)) + message  # XmlNode.element
        message = b"\x2a" + varint(len(node)) + node  # XmlElement.child
    return b"\x0a" + varint(len(message)) + message


def varint(value):
    out = b""
    while value > 0x7F:
        out += bytes([(value & 0x7F) | 0x80])
        value >>= 7
    return out + bytes([value])


def apk(name, entries):
    with zipfile.ZipFile(os.path.join(OUT, name), "w") as archive:
        for path, data in entries:
            info = zipfile.ZipInfo(path, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def main():
    os.makedirs(OUT, exist_ok=True)
    manifest = entry("Planted.apk", "AndroidManifest.xml")
    writes = {
        "manifest-planted.bin": manifest,
        "manifest-truncated.bin": manifest[: len(manifest) // 2],
        "manifest-pool-overclaims.bin": manifest[:16] + struct.pack("<I", 0x7FFFFFFF) + manifest[20:],
        "manifest-deep-nesting.bin": deep_binary_xml(1000),
        "manifest-proto-planted.pb": entry("Planted.aab", "base/manifest/AndroidManifest.xml"),
        "manifest-proto-deep-nesting.pb": deep_proto(3000),
        "bundleconfig-planted.pb": entry("Planted.aab", "BundleConfig.pb"),
    }
    for name, data in writes.items():
        with open(os.path.join(OUT, name), "wb") as output:
            output.write(data)
    library = entry("Planted.apk", "lib/arm64-v8a/libapp.so")
    apk("apk-escaping-entry.apk", [("AndroidManifest.xml", manifest), ("../lib/arm64-v8a/libapp.so", library)])
    apk("apk-not-a-library.apk", [("AndroidManifest.xml", manifest), ("lib/arm64-v8a/libapp.so", b"\x7fELF" + bytes(60))])


if __name__ == "__main__":
    main()
