#!/usr/bin/env python3
"""Packs the Android fixtures (build.sh builds their libraries and binary manifests first):
APKs with each library's zip entry placed at the offset the case needs, App Bundles with
aapt2's protobuf manifest and bundletool's BundleConfig.pb, AARs, and a jniLibs folder. Entries
are written in a fixed order with fixed timestamps, so the same inputs give the same bytes.

    assemble.py drop-section-headers LIBRARY
    assemble.py artifacts WORK OUT PROTOS SRC
"""
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
import zipfile

STAMP = (2026, 11, 27, 12, 0, 0)
ANDROID = "http://schemas.android.com/apk/res/android"
# The android: attributes the fixtures' manifests use, with their framework resource IDs.
ATTRIBUTE_IDS = {
    "label": 0x01010001, "name": 0x01010003, "debuggable": 0x0101000F, "hasCode": 0x0101000C,
    "exported": 0x01010010, "minSdkVersion": 0x0101020C, "targetSdkVersion": 0x01010270,
    "versionCode": 0x0101021B, "versionName": 0x0101021C, "testOnly": 0x01010272,
    "extractNativeLibs": 0x010104EA,
}
INTEGERS = {"minSdkVersion", "targetSdkVersion", "versionCode"}
BOOLEANS = {"debuggable", "hasCode", "exported", "testOnly", "extractNativeLibs"}
ABIS = ["arm64-v8a", "armeabi-v7a", "x86", "x86_64"]
DEX = b"dex\n035\x00" + bytes(104)


def drop_section_headers(path):
    """Zeroes e_shoff, e_shnum and e_shstrndx of a 64-bit ELF file: no section headers."""
    with open(path, "r+b") as library:
        library.seek(0x28)
        library.write(struct.pack("<Q", 0))
        library.seek(0x3C)
        library.write(struct.pack("<HH", 0, 0))


def entry(name):
    info = zipfile.ZipInfo(name, STAMP)
    info.external_attr = 0o644 << 16
    return info


def write_stored(archive, name, data, alignment, remainder=0):
    """A stored entry whose data starts `remainder` bytes past a multiple of `alignment`, padded
    through the local header's extra field as zipalign pads (tag 0xD935)."""
    info = entry(name)
    info.compress_type = zipfile.ZIP_STORED
    start = archive.fp.tell() + 30 + len(name.encode())
    padding = (remainder - start) % alignment
    if 0 < padding < 4:
        padding += alignment
    if padding:
        info.extra = struct.pack("<HH", 0xD935, padding - 4) + bytes(padding - 4)
    archive.writestr(info, data)


def write_deflated(archive, name, data):
    info = entry(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def libraries(folder):
    """(abi, name, bytes) of every library in FOLDER/<abi>/, in a stable order."""
    found = []
    for abi in ABIS:
        directory = os.path.join(folder, abi)
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            with open(os.path.join(directory, name), "rb") as library:
                found.append((abi, name, library.read()))
    return found


def binary_manifest(work, name):
    with zipfile.ZipFile(os.path.join(work, "aapt-" + name, "base.apk")) as apk:
        return apk.read("AndroidManifest.xml")


def apk(path, manifest, libs, stored, misaligned=()):
    """An APK: the manifest, a dex, and the libraries stored (16 KB-aligned but for those named in
    `misaligned`, placed 4 KB past a 16 KB boundary) or deflated."""
    with zipfile.ZipFile(path, "w") as archive:
        write_deflated(archive, "AndroidManifest.xml", manifest)
        write_deflated(archive, "classes.dex", DEX)
        for abi, name, data in libs:
            inner = "lib/%s/%s" % (abi, name)
            if not stored:
                write_deflated(archive, inner, data)
            elif inner in misaligned:
                write_stored(archive, inner, data, 16384, 4096)
            else:
                write_stored(archive, inner, data, 16384)


def apk_set(path, work, libs):
    """bundletool's APK set: the base APK (the app's manifest, no native code) and one
    configuration split per ABI holding that ABI's libraries, stored as in the planted APK."""
    members = {"splits/base-master.apk": (binary_manifest(work, "planted"), [])}
    for abi in ABIS:
        manifest = binary_manifest(work, "split-" + abi)
        members["splits/base-%s.apk" % abi.replace("-", "_")] = (manifest, [lib for lib in libs if lib[0] == abi])
    with zipfile.ZipFile(path, "w") as archive:
        for name in sorted(members):
            manifest, split_libs = members[name]
            inner = os.path.join(work, os.path.basename(name))
            apk(inner, manifest, split_libs, True, {"lib/arm64-v8a/libapp.so"})
            with open(inner, "rb") as data:
                write_stored(archive, name, data.read(), 4)


def proto_manifest(messages, xml_path):
    """aapt2's protobuf XML for a text manifest: resource IDs and compiled values for android:
    attributes, as aapt2 writes them into a bundle."""
    def element(node):
        tag = node.tag.split("}")[-1]
        result = messages.XmlElement(name=tag)
        for key, value in sorted(node.attrib.items()):
            namespace, name = (key[1:].split("}") if key.startswith("{") else ("", key))
            attribute = result.attribute.add(namespace_uri=namespace, name=name, value=value)
            if namespace == ANDROID:
                attribute.resource_id = ATTRIBUTE_IDS[name]
                if name in INTEGERS:
                    attribute.compiled_item.prim.int_decimal_value = int(value)
                elif name in BOOLEANS:
                    attribute.compiled_item.prim.boolean_value = 1 if value == "true" else 0
        for child in node:
            result.child.add(element=element(child))
        return result

    root = ElementTree.parse(xml_path).getroot()
    return messages.XmlNode(element=element(root)).SerializeToString()


def bundle(path, messages, xml_path, libs, alignment):
    config = messages.BundleConfig()
    config.bundletool.version = "1.15.6" if alignment is None else "1.17.2"
    config.optimizations.uncompress_native_libraries.enabled = True
    if alignment is not None:
        config.optimizations.uncompress_native_libraries.alignment = alignment
    with zipfile.ZipFile(path, "w") as archive:
        write_deflated(archive, "BundleConfig.pb", config.SerializeToString())
        write_deflated(archive, "base/manifest/AndroidManifest.xml", proto_manifest(messages, xml_path))
        write_deflated(archive, "base/dex/classes.dex", DEX)
        for abi, name, data in libs:
            write_deflated(archive, "base/lib/%s/%s" % (abi, name), data)


def aar(path, xml_path, libs):
    with zipfile.ZipFile(path, "w") as archive:
        with open(xml_path, "rb") as manifest:
            write_deflated(archive, "AndroidManifest.xml", manifest.read())
        write_deflated(archive, "R.txt", b"")
        write_deflated(archive, "classes.jar", b"PK\x05\x06" + bytes(18))
        for abi, name, data in libs:
            write_deflated(archive, "jni/%s/%s" % (abi, name), data)


def artifacts(work, out, protos, src):
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "-I", protos, "--python_out", work,
         os.path.join(protos, "android_bundle.proto")], check=True)
    sys.path.insert(0, work)
    import android_bundle_pb2 as messages  # generated just above

    planted = libraries(os.path.join(work, "planted"))
    clean = libraries(os.path.join(work, "clean-libs"))
    misaligned = {"lib/arm64-v8a/libapp.so"}
    apk(os.path.join(out, "Planted.apk"), binary_manifest(work, "planted"), planted, True, misaligned)
    apk(os.path.join(out, "Clean.apk"), binary_manifest(work, "clean"), clean, True)
    apk(os.path.join(out, "Legacy.apk"), binary_manifest(work, "legacy"), clean, False)
    apk(os.path.join(out, "KotlinOnly.apk"), binary_manifest(work, "clean"), [], True)
    apk(os.path.join(out, "Facts.apk"), binary_manifest(work, "facts"), [], True)
    apk_set(os.path.join(out, "Planted.apks"), work, planted)
    pages = messages.UncompressNativeLibraries
    bundle(os.path.join(out, "Planted.aab"), messages, os.path.join(src, "planted.xml"), planted, None)
    bundle(os.path.join(out, "Clean.aab"), messages, os.path.join(src, "clean.xml"), clean,
           pages.PAGE_ALIGNMENT_16K)
    aar(os.path.join(out, "Planted.aar"), os.path.join(src, "library.xml"), planted)
    folder = os.path.join(out, "jniLibs")
    shutil.rmtree(folder, ignore_errors=True)
    for abi, name, data in planted:
        os.makedirs(os.path.join(folder, abi), exist_ok=True)
        with open(os.path.join(folder, abi, name), "wb") as library:
            library.write(data)


if __name__ == "__main__":
    if sys.argv[1] == "drop-section-headers":
        drop_section_headers(sys.argv[2])
    elif sys.argv[1] == "artifacts":
        artifacts(*sys.argv[2:6])
    else:
        sys.exit(__doc__)
