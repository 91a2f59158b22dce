#!/usr/bin/env python3
"""Writes a deterministic tree of Swift-like source for the query benchmark.

usage: generate.py DIR FILES LINES_PER_FILE [FIRST]
Same arguments, same bytes: a fixed-seed generator, no clock, no environment. FIRST (default 0)
numbers the files from FIRST on, with a seed of their own: the benchmark adds File20000 onwards,
left untracked, to a tree of 20,000 committed files.
"""
import os
import random
import sys

root, file_count, lines_per_file = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
rng = random.Random(20261122 + first)
words = ("value count index result model view state store request response cache token user item "
         "list map filter reduce decode encode render layout update reload fetch parse format").split()
types = ["String", "Int", "Double", "Bool", "Data", "URL", "[String]", "[Int: String]"]


def line(rng):
    roll = rng.random()
    a, b, c = rng.choice(words), rng.choice(words), rng.choice(words)
    if roll < 0.0005:
        return f"        // FIXME: {a} {b} is not thread-safe"
    if roll < 0.0010:
        return f"    func test{a.capitalize()}{b.capitalize()}Async() async throws {{"
    if roll < 0.0013:
        return f'        print("debug: {a} = \\({b})")'
    if roll < 0.20:
        return f"    let {a}{b.capitalize()}: {rng.choice(types)} = {c}.{a}()"
    if roll < 0.35:
        return f"    func {a}{b.capitalize()}(_ {c}: {rng.choice(types)}) -> {rng.choice(types)} {{"
    if roll < 0.50:
        return f"        guard let {a} = {b}[{c}] else {{ return nil }}"
    if roll < 0.65:
        return f"        // {a.capitalize()} the {b} before the {c} changes."
    if roll < 0.80:
        return f"        {a}.{b}({c}: {rng.randint(0, 99999)}, {a}: \"{b}-{c}\")"
    if roll < 0.90:
        return "    }"
    return ""


for index in range(first, first + file_count):
    directory = os.path.join(root, f"Module{index % 40:02d}", f"Group{(index // 40) % 25:02d}")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, f"File{index:05d}.swift"), "w") as handle:
        handle.write(f"import Foundation\n\nstruct Type{index} {{\n")
        handle.write("\n".join(line(rng) for _ in range(lines_per_file)))
        handle.write("\n}\n")
