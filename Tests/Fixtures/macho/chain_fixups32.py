#!/usr/bin/env python3
"""Turns a 32-bit Mach-O image linked by lld-16 with classic dyld info (LC_DYLD_INFO_ONLY:
rebase and bind opcodes) into one with chained fixups in the DYLD_CHAINED_PTR_32 format, as
Apple's linker writes arm64_32 watchOS images: lld-16 writes chained fixups for 64-bit images
only.

Every rebased slot becomes a chained rebase (its 26-bit target: the address it holds), every
bound slot (binds and lazy binds) a chained bind to an entry of a DYLD_CHAINED_IMPORT table.
Links reach at most 31 × 4 bytes, so a page whose slots lie further apart gets several chains,
listed after the page table (DYLD_CHAINED_PTR_START_MULTI), as <mach-o/fixup-chains.h> says.
The fixups are appended to __LINKEDIT; LC_DYLD_INFO_ONLY becomes LC_DYLD_CHAINED_FIXUPS and
LC_DYLD_EXPORTS_TRIE (the export trie stays where it is). Usage: chain_fixups32.py INPUT OUTPUT
"""
import struct
import sys

LC_SEGMENT = 0x1
LC_DYLD_INFO_ONLY = 0x80000022
LC_DYLD_CHAINED_FIXUPS = 0x80000034
LC_DYLD_EXPORTS_TRIE = 0x80000033
DYLD_CHAINED_PTR_32 = 3
PAGE_SIZE = 0x4000
MAX_NEXT = 31  # 5 bits of 4-byte strides
START_NONE, START_MULTI, START_LAST = 0xFFFF, 0x8000, 0x8000
WRAP = (1 << 64) - 1  # address deltas are 64-bit and wrap: a "negative" ULEB steps back


def u32(data, offset):
    return struct.unpack_from("<I", data, offset)[0]


def leb(data, position, signed=False):
    """A ULEB128 (or, signed, SLEB128) number at `position`, and the position after it."""
    result, shift = 0, 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0:
            if signed and byte & 0x40:
                result -= 1 << shift
            return result, position


def rebases(data, start, size):
    """(segment index, offset) of every pointer the rebase opcodes name."""
    found, segment, offset, position, end = [], 0, 0, start, start + size
    while position < end:
        byte = data[position]
        position += 1
        opcode, immediate = byte & 0xF0, byte & 0x0F
        if opcode == 0x00:  # DONE
            break
        elif opcode == 0x10:  # SET_TYPE_IMM
            assert immediate == 1, "only pointer rebases"
        elif opcode == 0x20:  # SET_SEGMENT_AND_OFFSET_ULEB
            segment = immediate
            offset, position = leb(data, position)
        elif opcode == 0x30:  # ADD_ADDR_ULEB
            delta, position = leb(data, position)
            offset = (offset + delta) & WRAP
        elif opcode == 0x40:  # ADD_ADDR_IMM_SCALED
            offset += immediate * 4
        elif opcode == 0x50:  # DO_REBASE_IMM_TIMES
            for _ in range(immediate):
                found.append((segment, offset))
                offset += 4
        elif opcode == 0x60:  # DO_REBASE_ULEB_TIMES
            count, position = leb(data, position)
            for _ in range(count):
                found.append((segment, offset))
                offset += 4
        elif opcode == 0x70:  # DO_REBASE_ADD_ADDR_ULEB
            found.append((segment, offset))
            delta, position = leb(data, position)
            offset += 4 + delta
        elif opcode == 0x80:  # DO_REBASE_ULEB_TIMES_SKIPPING_ULEB
            count, position = leb(data, position)
            skip, position = leb(data, position)
            for _ in range(count):
                found.append((segment, offset))
                offset += 4 + skip
        else:
            raise SystemExit(f"unknown rebase opcode {byte:#x}")
    return found


def binds(data, start, size, lazy):
    """(segment index, offset, library ordinal, symbol, weak import, addend) of every bind."""
    found, position, end = [], start, start + size
    segment = offset = ordinal = addend = 0
    symbol, weak = "", False
    while position < end:
        byte = data[position]
        position += 1
        opcode, immediate = byte & 0xF0, byte & 0x0F
        if opcode == 0x00:  # DONE (lazy binds: the end of one entry)
            if not lazy:
                break
        elif opcode == 0x10:  # SET_DYLIB_ORDINAL_IMM
            ordinal = immediate
        elif opcode == 0x20:  # SET_DYLIB_ORDINAL_ULEB
            ordinal, position = leb(data, position)
        elif opcode == 0x30:  # SET_DYLIB_SPECIAL_IMM
            ordinal = (immediate | 0xF0) - 0x100 if immediate else 0
        elif opcode == 0x40:  # SET_SYMBOL_TRAILING_FLAGS_IMM
            stop = data.index(0, position)
            symbol, position = data[position:stop].decode(), stop + 1
            weak = bool(immediate & 0x1)
        elif opcode == 0x50:  # SET_TYPE_IMM
            assert immediate == 1, "only pointer binds"
        elif opcode == 0x60:  # SET_ADDEND_SLEB
            addend, position = leb(data, position, signed=True)
        elif opcode == 0x70:  # SET_SEGMENT_AND_OFFSET_ULEB
            segment = immediate
            offset, position = leb(data, position)
        elif opcode == 0x80:  # ADD_ADDR_ULEB
            delta, position = leb(data, position)
            offset = (offset + delta) & WRAP
        elif opcode == 0x90:  # DO_BIND
            found.append((segment, offset, ordinal, symbol, weak, addend))
            offset += 4
        elif opcode == 0xA0:  # DO_BIND_ADD_ADDR_ULEB
            found.append((segment, offset, ordinal, symbol, weak, addend))
            delta, position = leb(data, position)
            offset += 4 + delta
        elif opcode == 0xB0:  # DO_BIND_ADD_ADDR_IMM_SCALED
            found.append((segment, offset, ordinal, symbol, weak, addend))
            offset += 4 + immediate * 4
        elif opcode == 0xC0:  # DO_BIND_ULEB_TIMES_SKIPPING_ULEB
            count, position = leb(data, position)
            skip, position = leb(data, position)
            for _ in range(count):
                found.append((segment, offset, ordinal, symbol, weak, addend))
                offset += 4 + skip
        else:
            raise SystemExit(f"unknown bind opcode {byte:#x}")
    return found


def chains(offsets):
    """Splits a page's sorted slot offsets into chains whose links are at most MAX_NEXT strides."""
    result = [[offsets[0]]]
    for offset in offsets[1:]:
        if (offset - result[-1][-1]) // 4 > MAX_NEXT:
            result.append([offset])
        else:
            result[-1].append(offset)
    return result


def main(source, target):
    data = bytearray(open(source, "rb").read())
    assert u32(data, 0) == 0xFEEDFACE, "not a thin 32-bit little-endian Mach-O file"
    ncmds, sizeofcmds = u32(data, 16), u32(data, 20)
    segments, commands, info, offset = [], [], None, 28
    for _ in range(ncmds):
        cmd, size = u32(data, offset), u32(data, offset + 4)
        if cmd == LC_SEGMENT:
            name = data[offset + 8:offset + 24].rstrip(b"\0").decode()
            vmaddr, vmsize, fileoff, filesize = struct.unpack_from("<IIII", data, offset + 24)
            segments.append(dict(name=name, vmaddr=vmaddr, vmsize=vmsize, fileoff=fileoff, filesize=filesize,
                                 command=offset))
        elif cmd == LC_DYLD_INFO_ONLY:
            info = struct.unpack_from("<10I", data, offset + 8)
        commands.append((cmd, offset, size))
        offset += size
    assert info is not None, "no LC_DYLD_INFO_ONLY"
    rebase_off, rebase_size, bind_off, bind_size, _, _, lazy_off, lazy_size, export_off, export_size = info

    fixups = {}  # (segment, offset) -> ("rebase", target) or ("bind", import index, addend)
    for segment, slot in rebases(data, rebase_off, rebase_size):
        fixups[(segment, slot)] = ("rebase", u32(data, segments[segment]["fileoff"] + slot))
    imports, symbols = [], bytearray(b"\0")
    import_index = {}
    for lazy, (start, size) in ((False, (bind_off, bind_size)), (True, (lazy_off, lazy_size))):
        for segment, slot, ordinal, symbol, weak, addend in binds(data, start, size, lazy):
            key = (ordinal, symbol, weak)
            if key not in import_index:
                import_index[key] = len(imports)
                imports.append(((ordinal & 0xFF) | (int(weak) << 8) | (len(symbols) << 9)))
                symbols += symbol.encode() + b"\0"
            assert 0 <= addend < 64, "DYLD_CHAINED_PTR_32 binds hold a 6-bit addend"
            fixups[(segment, slot)] = ("bind", import_index[key], addend)

    image_end = max(s["vmaddr"] + s["vmsize"] for s in segments)
    assert image_end < 1 << 26, "rebase targets must fit 26 bits"
    starts_in_segments = []
    for index, segment in enumerate(segments):
        slots = sorted(slot for seg, slot in fixups if seg == index)
        if not slots:
            starts_in_segments.append(None)
            continue
        page_count = (segment["vmsize"] + PAGE_SIZE - 1) // PAGE_SIZE
        page_starts, overflow = [START_NONE] * page_count, []
        for page in range(page_count):
            in_page = [slot for slot in slots if slot // PAGE_SIZE == page]
            if not in_page:
                continue
            page_chains = chains(in_page)
            for chain in page_chains:
                for position, slot in enumerate(chain):
                    following = chain[position + 1] if position + 1 < len(chain) else None
                    step = 0 if following is None else (following - slot) // 4
                    fixup = fixups[(index, slot)]
                    if fixup[0] == "bind":
                        word = fixup[1] | (fixup[2] << 20) | (step << 26) | (1 << 31)
                    else:
                        word = fixup[1] | (step << 26)
                    struct.pack_into("<I", data, segment["fileoff"] + slot, word)
            if len(page_chains) == 1:
                page_starts[page] = in_page[0] % PAGE_SIZE
            else:
                page_starts[page] = START_MULTI | (page_count + len(overflow))
                firsts = [chain[0] % PAGE_SIZE for chain in page_chains]
                overflow += firsts[:-1] + [firsts[-1] | START_LAST]
        table = page_starts + overflow
        body = struct.pack("<IHHQIH", 0, PAGE_SIZE, DYLD_CHAINED_PTR_32, segment["fileoff"], image_end, page_count)
        body += struct.pack(f"<{len(table)}H", *table)
        body += b"\0" * (-len(body) % 4)
        body = struct.pack("<I", len(body)) + body[4:]
        starts_in_segments.append(body)

    # dyld_chained_fixups_header, dyld_chained_starts_in_image, the segments' starts, imports, names.
    header_size = 28
    starts_offset = header_size
    image_table = 4 + 4 * len(segments)
    blob = bytearray()
    position = image_table
    offsets = []
    for body in starts_in_segments:
        if body is None:
            offsets.append(0)
        else:
            offsets.append(position)
            position += len(body)
    blob += struct.pack(f"<I{len(segments)}I", len(segments), *offsets)
    for body in starts_in_segments:
        if body is not None:
            blob += body
    imports_offset = starts_offset + len(blob)
    blob += struct.pack(f"<{len(imports)}I", *imports)
    symbols_offset = starts_offset + len(blob)
    blob += symbols
    blob = struct.pack("<7I", 0, starts_offset, imports_offset, symbols_offset, len(imports), 1, 0) + blob
    blob += b"\0" * (-len(blob) % 8)

    linkedit = next(s for s in segments if s["name"] == "__LINKEDIT")
    assert linkedit["fileoff"] + linkedit["filesize"] == len(data), "__LINKEDIT must end the file"
    fixups_offset = len(data)
    data += blob
    linkedit["filesize"] += len(blob)
    linkedit["vmsize"] = (linkedit["filesize"] + PAGE_SIZE - 1) // PAGE_SIZE * PAGE_SIZE
    struct.pack_into("<II", data, linkedit["command"] + 28, linkedit["vmsize"], linkedit["fileoff"])
    struct.pack_into("<I", data, linkedit["command"] + 36, linkedit["filesize"])

    rebuilt = bytearray()
    for cmd, offset, size in commands:
        if cmd == LC_DYLD_INFO_ONLY:
            rebuilt += struct.pack("<4I", LC_DYLD_CHAINED_FIXUPS, 16, fixups_offset, len(blob))
            rebuilt += struct.pack("<4I", LC_DYLD_EXPORTS_TRIE, 16, export_off, export_size)
        else:
            rebuilt += data[offset:offset + size]
    assert len(rebuilt) <= sizeofcmds
    data[28:28 + sizeofcmds] = rebuilt + b"\0" * (sizeofcmds - len(rebuilt))
    struct.pack_into("<II", data, 16, ncmds + 1, len(rebuilt))
    open(target, "wb").write(data)
    print(f"{target}: {len(fixups)} fixups, {len(imports)} imports")


if __name__ == "__main__":
    main(*sys.argv[1:])
