#!/usr/bin/env python3
"""Fails the saved-query benchmark on a slower or bigger row, or on a count that disagrees.

Usage: check.py ROWS LIMITS
ROWS: one line per row that run.sh measured: name, shipcheck's matches, the peers' matches
(comma-separated: ripgrep's, and git grep's where it ran), CPU ratio to ripgrep, peak RSS (MB).
LIMITS: bench/queries/limits.tsv. Prints one line per row and exits 1 when any row fails:
its matches differ from a peer's, it has no limit, or it is above its limit.
"""
import sys


def table(path):
    rows = {}
    for line in open(path):
        fields = line.split("#", 1)[0].split()
        if fields:
            rows[fields[0]] = fields[1:]
    return rows


def main():
    measured, limits = table(sys.argv[1]), table(sys.argv[2])
    failures = 0
    for name, (ours, peers, ratio, rss) in measured.items():
        problems = []
        if any(peer != ours for peer in peers.split(",")):
            problems.append(f"matches {ours}, peers {peers}")
        if name not in limits:
            problems.append("no limit in limits.tsv")
        else:
            max_ratio, max_rss = (float(value) for value in limits[name])
            if float(ratio) > max_ratio:
                problems.append(f"CPU {ratio}x rg, limit {max_ratio:.2f}x")
            if float(rss) > max_rss:
                problems.append(f"peak RSS {rss} MB, limit {max_rss:.0f} MB")
        failures += bool(problems)
        print(f"bench check: {name}: " + ("; ".join(problems) if problems else f"ok ({ratio}x, {rss} MB)"))
    for name in limits.keys() - measured.keys():
        failures += 1
        print(f"bench check: {name}: in limits.tsv but not measured")
    if failures:
        print(f"bench check: {failures} row(s) failed", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
