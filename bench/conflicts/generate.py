#!/usr/bin/env python3
"""Writes a deterministic tree of ~50,000 files / ~300 MB with planted conflicts and decoys.

Usage: generate.py OUT_DIR [FILES] [MEAN_BYTES]

Besides the tree it writes OUT_DIR/../conflicts-truth.tsv (kind, path, first line, last line
of every planted conflict block or remnant) and OUT_DIR/../conflicts-text-files.txt (the text
files, which is what pre-commit would hand a `types: [text]` hook). Same arguments, same bytes.
"""
import os
import random
import sys

out = sys.argv[1]
file_count = int(sys.argv[2]) if len(sys.argv) > 2 else 50_000
mean_bytes = int(sys.argv[3]) if len(sys.argv) > 3 else 5_000
rng = random.Random(20261122)

words = ("let var func return if else guard switch case struct class enum protocol extension "
         "import self init deinit where while for in try await async throws static private "
         "public internal value count index result items view model state binding body text "
         "image button label stack padding frame color font title subtitle retries timeout").split()


def code_line():
    indent = "    " * rng.randint(0, 3)
    shape = rng.randint(0, 9)
    a, b, c = rng.choice(words), rng.choice(words), rng.choice(words)
    if shape < 3:
        return f"{indent}let {a}{rng.randint(0, 99)} = {b}.{c}({rng.randint(0, 999)})"
    if shape < 5:
        return f"{indent}if {a} == {b} || {c} >= {rng.randint(0, 9)} {{"
    if shape < 6:
        return f"{indent}// {a} {b} {c}: {rng.choice(words)} <= {rng.choice(words)} && x => y"
    if shape < 7:
        return f"{indent}}}"
    if shape < 8:
        return f'{indent}print("{a} {b} = \\({c})")'
    return f"{indent}func {a}{b.capitalize()}(_ {c}: Int) -> Int {{ {c} << 2 | {c} >> 1 }}"


def prose_line():
    return " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))) + "."


# Chunks of ~2 KB reused across files keep generation fast; per-file lines keep files distinct.
code_chunks = ["\n".join(code_line() for _ in range(50)) + "\n" for _ in range(600)]
prose_chunks = ["\n".join(prose_line() for _ in range(25)) + "\n" for _ in range(300)]

BLOCK_SHAPES = [
    ("<<<<<<< HEAD\n{o}=======\n{t}>>>>>>> feature/retry\n"),
    ("<<<<<<< HEAD\n{o}||||||| 1a2b3c4\n{b}=======\n{t}>>>>>>> release/2.3\n"),
    ("<<<<<<< ours\n{o}||||||| base\n=======\n{t}>>>>>>> theirs\n"),
    ("<<<<<<< HEAD\n{o}||||||| parent of 38fbfb3 (Retry more)\n{b}=======\n{t}>>>>>>> 38fbfb3 (Retry more)\n"),
    ("<<<<<<< Updated upstream\n{o}=======\n{t}>>>>>>> Stashed changes\n"),
    ("<<<<<<< HEAD:Sources/Old.swift\n{o}=======\n{t}>>>>>>> feature:Sources/New.swift\n"),
    ("<<<<<<< HEAD\n{o}||||||| merged common ancestors\n<<<<<<<<< Temporary merge branch 1\n{b}=========\n{b}"
     ">>>>>>>>> Temporary merge branch 2\n=======\n{t}>>>>>>> feature\n"),
]
REMNANTS = [">>>>>>> feature/retry\n", "<<<<<<< HEAD\n", "||||||| merged common ancestors\n", ">>>>>>> 38fbfb3 (Retry more)\n"]


def block(shape):
    o = "".join(code_line() + "\n" for _ in range(rng.randint(1, 4)))
    b = "".join(code_line() + "\n" for _ in range(rng.randint(0, 3)))
    t = "".join(code_line() + "\n" for _ in range(rng.randint(1, 4)))
    return shape.format(o=o, b=b, t=t)


def big_block():
    size = 32
    o = prose_line() + "\n"
    t = prose_line() + "\n"
    return f"{'<' * size} HEAD\n{o}{'=' * size}\n{t}{'>' * size} feature\n"


CODE_DECOYS = [
    'let banner = "<<<<<<< HEAD"\n', "    <<<<<<< indented, not at the line start\n", "// >>>>>>> after a comment\n",
    "<<<<<<<< eight characters\n", ">>>>>>>> eight characters\n", "let x = a ||||||| b\n", "=======x\n",
]
MARKDOWN_DECOYS = ["Release\n=======\n\n", "Install\n=======\n\n", "Chapter\n=======\n", "Title\n" + "=" * 20 + "\n\n"]
RST_DECOYS = ["=" * 40 + "\nSection\n" + "=" * 40 + "\n\n", "Heading\n" + "-" * 40 + "\n\n", "=======\n"]

truth = []
text_files = []
total = 0
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, ".gitattributes"), "w") as f:
    f.write("*.rst conflict-marker-size=32\n*.pbxproj binary\n")
text_files.append(".gitattributes")

for index in range(file_count):
    directory = f"Module{index // 500:03d}/Group{(index // 50) % 10}"
    roll = rng.random()
    if roll < 0.70:
        extension, chunks = "swift", code_chunks
    elif roll < 0.85:
        extension, chunks = "md", prose_chunks
    elif roll < 0.93:
        extension, chunks = "rst", prose_chunks
    elif roll < 0.996:
        extension, chunks = "txt", prose_chunks
    else:
        extension, chunks = "bin", code_chunks
    path = f"{directory}/File{index:05d}.{extension}"
    target = int(rng.expovariate(1 / mean_bytes)) + 200
    parts = [f"// {path}\n"]
    size = len(parts[0])
    lines = 2  # the line the next part starts on
    planted_block = rng.random() < 0.008 and extension in ("swift", "txt", "md", "rst")
    planted_remnant = not planted_block and extension == "swift" and rng.random() < 0.002
    plant_at = rng.randint(0, max(0, target // 2000))
    piece = 0
    while size < target or (planted_block or planted_remnant) and piece <= plant_at:
        if piece == plant_at and planted_block:
            text = big_block() if extension == "rst" else block(rng.choice(BLOCK_SHAPES))
            truth.append(("block", path, lines, lines + text.count("\n") - 1))
            parts.append(text)
            size += len(text)
            lines += text.count("\n")
        elif piece == plant_at and planted_remnant:
            text = rng.choice(REMNANTS)
            truth.append(("remnant", path, lines, lines))
            parts.append(text)
            size += len(text)
            lines += 1
        chunk = rng.choice(chunks)
        decoys = {"swift": CODE_DECOYS, "md": MARKDOWN_DECOYS, "rst": RST_DECOYS}.get(extension)
        if decoys and rng.random() < 0.3:
            chunk = rng.choice(decoys) + chunk
        parts.append(chunk)
        size += len(chunk)
        lines += chunk.count("\n")
        piece += 1
    content = "".join(parts)
    if extension == "txt" and rng.random() < 0.5:
        content = content.replace("\n", "\r\n")  # CRLF files
    data = content.encode()
    if extension == "bin":
        # Binary files that happen to contain a whole block: skipped like git skips them.
        data = b"\x89PNG\x00\x00" + data + block(BLOCK_SHAPES[0]).encode()
    else:
        text_files.append(path)
    os.makedirs(os.path.join(out, directory), exist_ok=True)
    with open(os.path.join(out, path), "wb") as f:
        f.write(data)
    total += len(data)

parent = os.path.dirname(os.path.abspath(out))
with open(os.path.join(parent, "conflicts-truth.tsv"), "w") as f:
    for kind, path, first, last in truth:
        f.write(f"{kind}\t{path}\t{first}\t{last}\n")
with open(os.path.join(parent, "conflicts-text-files.txt"), "w") as f:
    f.write("\0".join(text_files) + "\0")
print(f"generated {file_count} files, {total / 1e6:.0f} MB, {sum(1 for t in truth if t[0] == 'block')} blocks, "
      f"{sum(1 for t in truth if t[0] == 'remnant')} remnants")
