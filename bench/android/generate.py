#!/usr/bin/env python3
"""Writes a deterministic Android App Bundle of about N MB for `bench/android/run.sh`.

Usage: generate.py OUT.aab --size-mb N [--libraries K] [--library-mb A] [--payload-random F] [--seed S]

The bundle holds, as bundletool writes one:
  BundleConfig.pb                    bundletool 1.17.2, uncompressed native libraries, 16 KB pages
  base/manifest/AndroidManifest.xml  aapt2's protobuf XML, copied from Tests/Fixtures/android/Clean.aab
                                     (minSdk 24, targetSdk 36, versionCode 7)
  base/dex/classes.dex               a dex header and random bytes (2% of N, 0.5 to 8 MB)
  base/lib/<abi>/libmodNN.so         K libraries (default 40) for each of arm64-v8a, armeabi-v7a, x86
                                     and x86_64, deflated
  base/res/raw/clip_NNN.ogg          incompressible resources, stored (20% of N without --library-mb,
                                     else whatever N leaves after the libraries)

Each library is a real ELF shared library built by the Swift toolchain's clang and ld.lld
(-nostdlib: there is no NDK sysroot; stub libraries stand in for libc.so, libm.so, libdl.so and,
from Tests/Fixtures/android/src/stub.c, liblog.so, so the linker records them in DT_NEEDED), with
the NDK's ABI note (Tests/Fixtures/android/src/note.S), 16 KB pages, a SHA-1 build id, stripped.
Its code is one of ten generated C modules (libmodNN.so: module NN % 10, 200 to 1,820 exported
functions with C, Itanium C++ and Swift mangled names, a read-only string each, calls into libc,
libm, libdl, liblog, the core module libmod00.so and the previous library libmod(NN-1).so), and
its bulk a payload assembled in with .incbin: three quarters in .text, a quarter in .rodata, made
of 256-byte runs, a share F of them random (--payload-random, default 0.5) and the others repeated
from a small pool. At 0.5 it deflates to about 57%, as machine code deflates to about half, so
inflating it is real work; at 1 it is incompressible (deflate stores it, inflating is a copy).

Library NN's compressed size is A × (2.4, 0.5, 1.3, 0.6, 1.7, 0.4, 0.9, 1.2, 0.3, 0.7)[NN % 10] MB,
where A (the mean library, --library-mb) defaults to what N leaves with 4 × K libraries after the
dex and 20% of resources. From A ≈ 0.5 MB on, where the payload outweighs the code, libmod00.so is
the largest library, in every bundle of the same A.

Same arguments, same bytes (fixed seeds, fixed zip timestamps). Intermediate files go to
bench/work/android/build/ (libraries are kept there by seed, A and F, so bundles of the same A share
them); OUT.json beside the bundle records what went into it. MB is 10^6 bytes.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "android")
WORK = os.path.join(ROOT, "bench", "work", "android")
MB = 1_000_000
STAMP = (2026, 1, 1, 0, 0, 0)
TRIPLES = {
    "arm64-v8a": "aarch64-linux-android24",
    "armeabi-v7a": "armv7a-linux-androideabi24",
    "x86": "i686-linux-android24",
    "x86_64": "x86_64-linux-android24",
}
# Relative compressed size of libmodNN.so by NN % 10 (mean 1).
WEIGHTS = (2.4, 0.5, 1.3, 0.6, 1.7, 0.4, 0.9, 1.2, 0.3, 0.7)
MODULES = ("Core", "Render", "Codec", "Network", "Storage", "Audio", "Physics", "Crypto", "Layout", "Script")
VERBS = ("submit decode encode resolve flush update compute apply merge load parse emit schedule release "
         "acquire normalize transform validate prepare commit").split()
NOUNS = ("Frame Buffer Packet Texture Session Record Vertex Channel Cursor Segment Header Payload Index "
         "Shader Block Token Matrix Region Queue Entry").split()
CLASSES = "Pipeline Context Manager Encoder Decoder Cache Engine Scheduler Allocator Resolver Table Graph Writer Reader Pool".split()
PHRASES = ("failed after %d attempts", "took %d ms (budget %d)", "dropped %d of %d items", "retrying in %d ms",
           "state %d is not valid here", "queue depth %d exceeds %d", "finished with code %d",
           "waiting for %d pending operations", "version %d.%d is not supported", "skipped %d stale entries")
CFLAGS = ["-O1", "-fPIC"]
LDFLAGS = ["-nostdlib", "-shared", "-fuse-ld=lld", "-Wl,-z,max-page-size=16384", "-Wl,--build-id=sha1", "-Wl,--strip-all"]


def clang():
    swiftc = shutil.which("swiftc")
    if not swiftc:
        sys.exit("generate.py: swiftc is not on PATH (the toolchain's clang and ld.lld build the libraries)")
    return os.path.join(os.path.dirname(os.path.realpath(swiftc)), "clang")


def run(*command):
    subprocess.run(command, check=True)


def function_count(module):
    return 200 + 180 * module


def module_symbols(seed, module):
    """The exported names of module `module`: C, Itanium C++ and Swift mangled."""
    rng = random.Random(f"{seed}/symbols/{module}")
    name = MODULES[module]
    names = []
    for index in range(function_count(module)):
        verb, noun, cls = rng.choice(VERBS), rng.choice(NOUNS), rng.choice(CLASSES)
        shape = rng.random()
        if shape < 0.4:
            names.append(f"{name.lower()}_{verb}_{noun.lower()}_{index}")
        else:
            method = f"{verb}{noun}{index}"
            if shape < 0.7:
                names.append(f"_ZN6engine{len(name)}{name.lower()}{len(cls)}{cls}{len(method)}{method}Eii")
            else:
                names.append(f"$s{len(name)}{name}{len(cls)}{cls}V{len(method)}{method}yS2iF")
    return names


def module_source(seed, module):
    """C source of module `module`: every function exported under its symbol name, most with a
    read-only string, calling each other and the libraries a native library of an app calls."""
    rng = random.Random(f"{seed}/source/{module}")
    name = MODULES[module]
    symbols = module_symbols(seed, module)
    lines = [
        f"// Generated by bench/android/generate.py: module {name} ({len(symbols)} functions).",
        "typedef __SIZE_TYPE__ size_t;",
        "extern size_t strlen(const char *s);",
        "extern void *memcpy(void *d, const void *s, size_t n);",
        "extern int snprintf(char *out, size_t size, const char *format, ...);",
        "extern float sinf(float x);",
        "extern void *dlsym(void *handle, const char *symbol);",
        "extern int __android_log_write(int priority, const char *tag, const char *text);",
        f'static const char tag[] = "bench.{name.lower()}";',
    ]
    imports = []
    if module >= 1:
        imports += [("core", i, s) for i, s in enumerate(module_symbols(seed, 0)[:60])]
    if module >= 2:
        imports += [("prev", i, s) for i, s in enumerate(module_symbols(seed, module - 1)[:30])]
    for kind, index, symbol in imports:
        lines.append(f'extern int {kind}_{index}(int a, int b) __asm__("{symbol}");')
    for index, symbol in enumerate(symbols):
        lines.append(f'int f_{index}(int a, int b) __asm__("{symbol}");')
    for index in range(len(symbols)):
        verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
        text = f"{name.lower()}: {verb} {noun.lower()} {index} {rng.choice(PHRASES)}"
        body = [f"    int v = a * {rng.randrange(3, 1 << 20) | 1} ^ (b + {rng.randrange(1 << 16)});"]
        if index > 0:
            body.append(f"    if ((v & {rng.choice((3, 7, 15))}) == 1) v += f_{rng.randrange(index)}(b, v);")
        if imports and rng.random() < 0.15:
            kind, imported, _ = rng.choice(imports)
            body.append(f"    v ^= {kind}_{imported}(a, v);")
        shape = rng.random()
        if shape < 0.35:
            body.append(f'    if (v < {rng.randrange(1 << 12)}) __android_log_write(4, tag, "{text}");')
        elif shape < 0.6:
            body.append(f'    v += (int)strlen("{text}");')
        elif shape < 0.75:
            arguments = ", a, b" if text.count("%d") == 2 else ", a"
            body.append(f'    {{ char line[96]; v += snprintf(line, sizeof line, "{text}"{arguments}); v += line[v & 63]; }}')
        elif shape < 0.85:
            body.append(f'    {{ char copy[96]; memcpy(copy, "{text}", {len(text) + 1}); v += copy[v & 31]; }}')
        elif shape < 0.93:
            body.append(f"    v += (int)(sinf((float)v * {rng.random():.4f}f) * {rng.randrange(10, 1000)}.0f);")
        else:
            body.append(f'    if (v == {rng.randrange(1 << 20)}) v += dlsym((void *)0, "{noun}_{verb}_{index}") != 0;')
        lines.append(f"int f_{index}(int a, int b) {{")
        lines += body
        lines.append("    return v;\n}")
    lines.append(f"int Java_com_example_bench_{name}_nativeInit(void *env, void *object) {{")
    lines.append(f'    return __android_log_write(4, tag, "{name.lower()} ready") + f_0((int)(long)env, (int)(long)object);\n}}')
    return "\n".join(lines) + "\n"


# Stand-ins for the platform libraries the modules call (liblog.so is the fixtures' stub.c).
PLATFORM_STUBS = {
    "libc.so": "typedef __SIZE_TYPE__ size_t;\n"
               "size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n; }\n"
               "void *memcpy(void *d, const void *s, size_t n) { (void)s; (void)n; return d; }\n"
               "int snprintf(char *out, size_t size, const char *format, ...) { (void)out; (void)size; (void)format; return 0; }\n",
    "libm.so": "float sinf(float x) { return x; }\n",
    "libdl.so": "void *dlsym(void *handle, const char *symbol) { (void)symbol; return handle; }\n",
}


def payload(seed, abi, index, size, random_share):
    """`size` bytes: 256-byte runs, `random_share` of them random, the others from a pool of 32
    (repeated within deflate's window)."""
    rng = random.Random(f"{seed}/payload/{abi}/{index}")
    pool = [rng.randbytes(256) for _ in range(32)]
    units = -(-size // 256)
    fresh = rng.randbytes(units * 256)
    cut = round(64 * random_share)
    out = bytearray()
    for unit, pick in enumerate(rng.choices(range(64), k=units)):
        out += fresh[unit * 256:(unit + 1) * 256] if pick < cut else pool[pick % 32]
    return bytes(out[:size])


def payload_ratio(seed, random_share):
    sample = payload(seed, "ratio", 0, 4 * MB, random_share)
    return len(zlib.compress(sample, 6)) / len(sample)


def deflated_size(path):
    with open(path, "rb") as file:
        return len(zlib.compress(file.read(), 6))


def atomic_write(path, data):
    with open(path + ".tmp", "wb") as file:
        file.write(data)
    os.replace(path + ".tmp", path)


class Builder:
    def __init__(self, seed, library_mb, random_share):
        self.seed = seed
        self.clang = clang()
        self.common = os.path.join(WORK, "build", f"seed{seed}")
        self.libs = os.path.join(self.common, f"libs-{library_mb:.4f}-random{random_share:g}")
        self.library_mb = library_mb
        self.random_share = random_share

    def sources(self, modules):
        os.makedirs(self.common, exist_ok=True)
        for module in modules:
            source = os.path.join(self.common, f"mod{module}.c")
            if not os.path.exists(source):
                atomic_write(source, module_source(self.seed, module).encode())

    def prepare(self, abi, modules):
        """Per ABI: the note, the platform stubs and the modules' objects (cached)."""
        folder = os.path.join(self.common, abi)
        os.makedirs(folder, exist_ok=True)
        target = f"--target={TRIPLES[abi]}"
        note = os.path.join(folder, "note.o")
        if not os.path.exists(note):
            run(self.clang, target, "-c", os.path.join(FIXTURES, "src", "note.S"), "-o", note + ".tmp")
            os.replace(note + ".tmp", note)
        sources = dict(PLATFORM_STUBS)
        sources["liblog.so"] = None
        for soname, text in sources.items():
            out = os.path.join(folder, soname)
            if os.path.exists(out):
                continue
            source = os.path.join(FIXTURES, "src", "stub.c")
            if text is not None:
                source = os.path.join(folder, soname.replace(".so", "-stub.c"))
                atomic_write(source, text.encode())
            run(self.clang, target, *CFLAGS, "-fno-builtin", *LDFLAGS, f"-Wl,-soname,{soname}", source, "-o", out + ".tmp")
            os.replace(out + ".tmp", out)
        for module in modules:
            obj = os.path.join(folder, f"mod{module}.o")
            if os.path.exists(obj):
                continue
            source = os.path.join(self.common, f"mod{module}.c")
            run(self.clang, target, *CFLAGS, "-c", source, "-o", obj + ".tmp")
            os.replace(obj + ".tmp", obj)

    def library(self, abi, index, ratio):
        """libmodNN.so for `abi` (cached): its module, the note, the payload; its dependencies
        libmod00.so and libmod(NN-1).so must be built first."""
        folder = os.path.join(self.libs, abi)
        out = os.path.join(folder, f"libmod{index:02d}.so")
        if os.path.exists(out):
            return out
        os.makedirs(folder, exist_ok=True)
        common = os.path.join(self.common, abi)
        module = index % 10
        obj = os.path.join(common, f"mod{module}.o")
        target = WEIGHTS[module] * self.library_mb * MB
        size = max(64 * 1024, int((target - deflated_size(obj) * 0.8) / ratio))
        blob = os.path.join(folder, f"libmod{index:02d}.payload")
        atomic_write(blob, payload(self.seed, abi, index, size, self.random_share))
        rodata = size // 4
        asm = os.path.join(folder, f"libmod{index:02d}.S")
        atomic_write(asm, (
            f'    .section .rodata.tables,"a"\n    .globl bench_mod{index:02d}_tables\n'
            f"    .type bench_mod{index:02d}_tables, %object\n    .size bench_mod{index:02d}_tables, {rodata}\n"
            f'bench_mod{index:02d}_tables:\n    .incbin "{blob}", 0, {rodata}\n'
            f'    .section .text.payload,"ax",%progbits\n    .incbin "{blob}", {rodata}, {size - rodata}\n').encode())
        target_flag = f"--target={TRIPLES[abi]}"
        run(self.clang, target_flag, "-c", asm, "-o", asm + ".o")
        needed = []
        if module >= 1:
            needed.append(os.path.join(folder, "libmod00.so"))
        if module >= 2:
            needed.append(os.path.join(folder, f"libmod{index - 1:02d}.so"))
        needed += [os.path.join(common, name) for name in ("libc.so", "libm.so", "libdl.so", "liblog.so")]
        run(self.clang, target_flag, *LDFLAGS, f"-Wl,-soname,libmod{index:02d}.so",
            os.path.join(common, "note.o"), obj, asm + ".o", *needed, "-o", out + ".tmp")
        os.replace(out + ".tmp", out)
        for leftover in (blob, asm, asm + ".o"):
            os.remove(leftover)
        return out


def bundle_config():
    """BundleConfig.pb: bundletool 1.17.2; uncompress_native_libraries {enabled, PAGE_ALIGNMENT_16K}."""
    version = b"1.17.2"
    bundletool = b"\x12" + bytes([len(version)]) + version
    uncompress = b"\x08\x01\x10\x02"
    optimizations = b"\x12" + bytes([len(uncompress)]) + uncompress
    return (b"\x0a" + bytes([len(bundletool)]) + bundletool
            + b"\x12" + bytes([len(optimizations)]) + optimizations)


def add(archive, name, data=None, path=None, stored=False):
    info = zipfile.ZipInfo(name, STAMP)
    info.external_attr = 0o644 << 16
    info.create_system = 3
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    if path is None:
        archive.writestr(info, data, compresslevel=6)
        return
    with open(path, "rb") as source, archive.open(info, "w", force_zip64=False) as sink:
        shutil.copyfileobj(source, sink, 1 << 20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--size-mb", type=float, required=True, help="the bundle's size to aim at (MB)")
    parser.add_argument("--libraries", type=int, default=40, help="libraries per ABI (default 40)")
    parser.add_argument("--library-mb", type=float, help="mean compressed library (MB); default: what N leaves after the dex and 20%% of resources")
    parser.add_argument("--payload-random", type=float, default=0.5,
                        help="share of the payload that is random bytes (default 0.5; 1: incompressible)")
    parser.add_argument("--seed", type=int, default=20261127)
    options = parser.parse_args()
    if options.libraries < 1:
        parser.error("--libraries must be at least 1")
    if not 0 <= options.payload_random <= 1:
        parser.error("--payload-random must be between 0 and 1")
    out = os.path.abspath(options.out)
    size = options.size_mb * MB
    dex_size = int(min(8 * MB, max(MB / 2, size * 0.02)))
    weights = sum(WEIGHTS[i % 10] for i in range(options.libraries)) * len(TRIPLES)
    if options.library_mb is None:
        library_mb = (size * 0.8 - dex_size) / weights / MB
        resources = size * 0.2
    else:
        library_mb = options.library_mb
        resources = max(MB / 2, size - dex_size - library_mb * weights * MB)
    library_mb = round(library_mb, 4)

    builder = Builder(options.seed, library_mb, options.payload_random)
    modules = sorted({i % 10 for i in range(options.libraries)} | {0})
    ratio = payload_ratio(options.seed, options.payload_random)
    builder.sources(modules)
    jobs = os.cpu_count() or 2

    def build_abi(abi):
        builder.prepare(abi, modules)
        return [builder.library(abi, index, ratio) for index in range(options.libraries)]

    # One ABI's libraries in order (each links against the ones before it), the ABIs side by side.
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        libraries = dict(zip(TRIPLES, pool.map(build_abi, TRIPLES)))

    with zipfile.ZipFile(os.path.join(FIXTURES, "Clean.aab")) as clean:
        manifest = clean.read("base/manifest/AndroidManifest.xml")
    rng = random.Random(f"{options.seed}/bundle")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with zipfile.ZipFile(out + ".tmp", "w") as archive:
        add(archive, "BundleConfig.pb", bundle_config())
        add(archive, "base/manifest/AndroidManifest.xml", manifest)
        add(archive, "base/dex/classes.dex", b"dex\n035\0" + rng.randbytes(dex_size - 8))
        for abi, paths in libraries.items():
            for path in paths:
                add(archive, f"base/lib/{abi}/{os.path.basename(path)}", path=path)
        left, index = int(resources), 0
        while left > 0:
            length = min(left, rng.randrange(200_000, 3 * MB))
            add(archive, f"base/res/raw/clip_{index:03d}.ogg", b"OggS" + rng.randbytes(length - 4), stored=True)
            left -= length
            index += 1
    with zipfile.ZipFile(out + ".tmp") as archive:
        entries = archive.infolist()
    so = [entry for entry in entries if entry.filename.endswith(".so")]
    largest = max(so, key=lambda entry: entry.file_size)
    facts = {
        "size": os.path.getsize(out + ".tmp"),
        "libraries": len(so),
        "abis": len(TRIPLES),
        "library_mb": library_mb,
        "payload_random": options.payload_random,
        "libraries_compressed": sum(entry.compress_size for entry in so),
        "libraries_uncompressed": sum(entry.file_size for entry in so),
        "largest_library": largest.filename,
        "largest_library_size": largest.file_size,
        "resources": sum(entry.file_size for entry in entries if entry.filename.startswith("base/res/")),
        "entries": len(entries),
        "seed": options.seed,
    }
    with open(out + ".json", "w") as file:
        json.dump(facts, file, indent=2)
        file.write("\n")
    os.replace(out + ".tmp", out)
    print(f"{options.out}: {facts['libraries']} libraries ({len(TRIPLES)} ABIs x {options.libraries}, "
          f"{facts['libraries_compressed'] / MB:.1f} MB deflated, {facts['libraries_uncompressed'] / MB:.1f} MB inflated, "
          f"largest {largest.file_size / MB:.2f} MB), {facts['resources'] / MB:.1f} MB of resources, "
          f"{facts['size'] / MB:.1f} MB")


if __name__ == "__main__":
    main()
