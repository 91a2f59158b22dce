#!/usr/bin/env python3
"""Re-encodes the chained fixups of a Mach-O image linked by lld-16 (DYLD_CHAINED_PTR_64) in a
format lld-16 cannot write, so the reader's other pointer formats have real images to read:

  64_OFFSET           DYLD_CHAINED_PTR_64_OFFSET: rebase targets become offsets from the image
                      base instead of addresses (what Apple's linker writes for arm64 today).
  ARM64E_USERLAND24   DYLD_CHAINED_PTR_ARM64E_USERLAND24 (arm64e apps): 8-byte stride, 24-bit
                      bind ordinals, every other rebase and bind authenticated (a signed
                      pointer's target is an offset too); the CPU subtype becomes arm64e.

Only the fixup words, the pointer format and (for arm64e) the CPU subtype change; the code stays
arm64 (nothing here runs it). Usage: rewrite_fixups.py FORMAT INPUT OUTPUT
"""
import struct
import sys

LC_SEGMENT_64 = 0x19
LC_DYLD_CHAINED_FIXUPS = 0x80000034
PTR_64, PTR_64_OFFSET, PTR_ARM64E_USERLAND24 = 2, 6, 12


def u32(data, offset):
    return struct.unpack_from("<I", data, offset)[0]


def main(form, source, target):
    data = bytearray(open(source, "rb").read())
    assert u32(data, 0) == 0xFEEDFACF, "not a thin 64-bit little-endian Mach-O file"
    ncmds = u32(data, 16)
    segments, fixups, offset = [], None, 32
    for _ in range(ncmds):
        cmd, size = u32(data, offset), u32(data, offset + 4)
        if cmd == LC_SEGMENT_64:
            name = data[offset + 8:offset + 24].rstrip(b"\0").decode()
            vmaddr, _, fileoff = struct.unpack_from("<QQQ", data, offset + 24)
            segments.append((name, vmaddr, fileoff))
        elif cmd == LC_DYLD_CHAINED_FIXUPS:
            fixups = u32(data, offset + 8)
        offset += size
    assert fixups is not None, "no LC_DYLD_CHAINED_FIXUPS"
    base = next(vmaddr for name, vmaddr, _ in segments if name == "__TEXT")
    starts = fixups + u32(data, fixups + 4)
    count = 0
    for index in range(u32(data, starts)):
        info = u32(data, starts + 4 + 4 * index)
        if info == 0:
            continue
        seg = starts + info
        page_size, pointer_format = struct.unpack_from("<HH", data, seg + 4)
        assert pointer_format == PTR_64, f"segment {index}: pointer format {pointer_format}, expected DYLD_CHAINED_PTR_64"
        page_count = struct.unpack_from("<H", data, seg + 20)[0]
        # Collect every fixup of the segment first (the chain links are rewritten with them).
        for page in range(page_count):
            start = struct.unpack_from("<H", data, seg + 22 + 2 * page)[0]
            if start == 0xFFFF:
                continue
            location = segments[index][2] + page * page_size + start
            chain = []
            while True:
                value = struct.unpack_from("<Q", data, location)[0]
                step = (value >> 51) & 0xFFF
                chain.append((location, value))
                if step == 0:
                    break
                location += 4 * step
            for position, (location, value) in enumerate(chain):
                following = chain[position + 1][0] if position + 1 < len(chain) else None
                struct.pack_into("<Q", data, location, encode(form, value, location, following, base, count))
                count += 1
        struct.pack_into("<H", data, seg + 6, PTR_64_OFFSET if form == "64_OFFSET" else PTR_ARM64E_USERLAND24)
    if form == "ARM64E_USERLAND24":
        struct.pack_into("<I", data, 8, 0x80000002)  # CPU_SUBTYPE_ARM64E | CPU_SUBTYPE_PTRAUTH_ABI
    open(target, "wb").write(data)
    print(f"{target}: {count} fixups as {form}")


def encode(form, value, location, following, base, count):
    is_bind = value >> 63
    if form == "64_OFFSET":
        if is_bind:
            return value
        target = value & 0xF_FFFF_FFFF
        return (value & ~0xF_FFFF_FFFF) | (target - base)
    step = 0 if following is None else following - location
    assert step % 8 == 0 and step // 8 < 2048, f"fixup at {location:#x}: next fixup {step} bytes on"
    nxt = (step // 8) << 51
    authenticated = count % 2 == 1
    if is_bind:
        ordinal, addend = value & 0xFF_FFFF, (value >> 24) & 0xFF
        if authenticated:  # auth bind: ordinal 24, zero 8, diversity 16, addrDiv 1, key 2
            return ordinal | (0x1234 << 32) | (1 << 48) | (2 << 49) | nxt | (1 << 62) | (1 << 63)
        return ordinal | (addend << 32) | nxt | (1 << 62)
    target, high8 = value & 0xF_FFFF_FFFF, (value >> 36) & 0xFF
    if authenticated:  # auth rebase: target 32 (offset from the base), diversity 16, addrDiv 1, key 2
        return (target - base) | (0x5678 << 32) | (0 << 48) | (0 << 49) | nxt | (1 << 63)
    return (target - base) | (high8 << 43) | nxt


if __name__ == "__main__":
    main(*sys.argv[1:])
