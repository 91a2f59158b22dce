#!/usr/bin/env python3
"""Gives a thin 64-bit Mach-O file a code signature that carries entitlements, the way
`codesign --entitlements` lays it out: LC_CODE_SIGNATURE -> SuperBlob (0xfade0cc0) holding a
SHA-256 CodeDirectory (0xfade0c02, ad-hoc), the XML entitlements blob (0xfade7171) and the DER
entitlements blob (0xfade7172). An existing signature (lld's ad-hoc one, always last in
__LINKEDIT) is replaced; an unsigned file gets the load command in its header padding.

    sign_macho.py IN OUT IDENTIFIER ENTITLEMENTS.plist
"""
import hashlib
import plistlib
import struct
import sys

LC_SEGMENT_64, LC_CODE_SIGNATURE = 0x19, 0x1D
PAGE = 4096


def der(tag, body):
    n = len(body)
    if n < 0x80:
        length = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + body


def der_value(value):
    if isinstance(value, bool):
        return der(0x01, b"\xff" if value else b"\x00")
    if isinstance(value, int):
        return der(0x02, value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big", signed=True))
    if isinstance(value, str):
        return der(0x0C, value.encode())
    if isinstance(value, list):
        return der(0x30, b"".join(der_value(item) for item in value))
    if isinstance(value, dict):  # [CONTEXT 16] constructed: a set of key/value sequences
        return der(0xB0, b"".join(der(0x30, der(0x0C, k.encode()) + der_value(v)) for k, v in sorted(value.items())))
    raise TypeError(value)


def blob(magic, body):
    return struct.pack(">II", magic, 8 + len(body)) + body


def code_directory(identifier, code, special):
    """An ad-hoc SHA-256 CodeDirectory (version 0x20400) over `code`, with special slots."""
    ident = identifier.encode() + b"\0"
    n_special = max(special) if special else 0
    hashes = [hashlib.sha256(code[i:i + PAGE]).digest() for i in range(0, len(code), PAGE)]
    header_size = 88
    ident_offset = header_size
    hash_offset = ident_offset + len(ident) + 32 * n_special
    slots = b"".join(special.get(slot, b"\0" * 32) for slot in range(n_special, 0, -1))
    header = struct.pack(">IIIIIIIIIBBBBIIIIQQQQ", 0xFADE0C02, 0, 0x20400, 0x2, hash_offset, ident_offset,
                         n_special, len(hashes), len(code), 32, 2, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0)
    body = header + ident + slots + b"".join(hashes)
    return body[:4] + struct.pack(">I", len(body)) + body[8:]


def main(source, target, identifier, entitlements_path):
    data = bytearray(open(source, "rb").read())
    magic, _, _, _, ncmds, sizeofcmds = struct.unpack_from("<IiiIII", data, 0)
    assert magic == 0xFEEDFACF, "thin 64-bit little-endian Mach-O only"
    offset, linkedit, signature = 32, None, None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmd == LC_SEGMENT_64 and data[offset + 8:offset + 24].rstrip(b"\0") == b"__LINKEDIT":
            linkedit = offset
        elif cmd == LC_CODE_SIGNATURE:
            signature = offset
        offset += cmdsize
    if signature is None:  # room in the header padding for one more load command
        signature = 32 + sizeofcmds
        struct.pack_into("<II", data, 16, ncmds + 1, sizeofcmds + 16)
        struct.pack_into("<IIII", data, signature, LC_CODE_SIGNATURE, 16, 0, 0)
        code_end = (len(data) + 15) & ~15
    else:
        code_end = struct.unpack_from("<I", data, signature + 8)[0]
    del data[code_end:]
    data += b"\0" * (code_end - len(data))

    with open(entitlements_path, "rb") as handle:
        xml = handle.read()
    entitlements = plistlib.loads(xml)
    xml_blob = blob(0xFADE7171, xml)
    der_blob = blob(0xFADE7172, der(0x70, der(0x02, b"\x01") + der_value(entitlements)))
    special = {5: hashlib.sha256(xml_blob).digest(), 7: hashlib.sha256(der_blob).digest()}
    # The signature's own size goes into the header, which the CodeDirectory hashes: fix it first.
    cd_size = len(code_directory(identifier, bytes(code_end), special))
    total = 12 + 3 * 8 + cd_size + len(xml_blob) + len(der_blob)
    struct.pack_into("<II", data, signature + 8, code_end, total)
    seg_fileoff, = struct.unpack_from("<Q", data, linkedit + 40)
    struct.pack_into("<Q", data, linkedit + 48, code_end + total - seg_fileoff)  # filesize
    vmsize = (code_end + total - seg_fileoff + 0x3FFF) & ~0x3FFF
    struct.pack_into("<Q", data, linkedit + 32, max(vmsize, struct.unpack_from("<Q", data, linkedit + 32)[0]))
    cd = code_directory(identifier, bytes(data[:code_end]), special)
    blobs = [(0, cd), (5, xml_blob), (7, der_blob)]
    index, body, position = b"", b"", 12 + 8 * len(blobs)
    for slot, content in blobs:
        index += struct.pack(">II", slot, position + len(body))
        body += content
    data += struct.pack(">III", 0xFADE0CC0, total, len(blobs)) + index + body
    open(target, "wb").write(data)


if __name__ == "__main__":
    main(*sys.argv[1:])
