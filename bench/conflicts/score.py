#!/usr/bin/env python3
"""Scores one tool's report against the planted truth.

Usage: score.py TRUTH.tsv FORMAT REPORT
FORMAT: shipcheck-json | grep (path:line:text lines from rg / git grep) | pre-commit
(`path:line: Merge conflict string ...`). Prints: blocks_found blocks_total remnants_found
remnants_total false_reports
"""
import json
import sys

truth_path, kind, report_path = sys.argv[1:4]
blocks, remnants = [], []
for row in open(truth_path):
    what, path, first, last = row.rstrip("\n").split("\t")
    (blocks if what == "block" else remnants).append((path, int(first), int(last)))

reported = []  # (path, line, rule or None)
if kind == "shipcheck-json":
    for finding in json.load(open(report_path))["findings"]:
        if finding["ruleID"] in ("conflict-marker", "conflict-marker-remnant"):
            reported.append((finding["path"], finding.get("line", 0), finding["ruleID"]))
else:
    for raw in open(report_path, encoding="utf-8", errors="replace"):
        parts = raw.split(":", 2)
        if len(parts) >= 2 and parts[1].strip().isdigit():
            path = parts[0][2:] if parts[0].startswith("./") else parts[0]
            reported.append((path, int(parts[1]), None))

by_path = {}
for path, line, rule in reported:
    by_path.setdefault(path, []).append((line, rule))

def hit(path, first, last, rule):
    return any(first <= line <= last and (rule is None or found_rule in (None, rule))
               for line, found_rule in by_path.get(path, []))

blocks_found = sum(hit(p, f, l, "conflict-marker") for p, f, l in blocks)
remnants_found = sum(hit(p, f, l, "conflict-marker-remnant") for p, f, l in remnants)
planted = {}
for p, f, l in blocks + remnants:
    planted.setdefault(p, []).append((f, l))
false_reports = sum(1 for path, line, _ in reported if not any(f <= line <= l for f, l in planted.get(path, [])))
print(blocks_found, len(blocks), remnants_found, len(remnants), false_reports)
