#!/usr/bin/env python3
"""Writes the markdown section for bench/results/conflicts.md from hyperfine, GNU time and
the scores. Usage: report.py WORK FILES MB RG_VERSION GIT_VERSION HOOKS_VERSION NAME..."""
import json
import os
import platform
import re
import subprocess
import sys

work, files, megabytes, rg_version, git_version, hooks_version, *names = sys.argv[1:]
score = os.path.join(os.path.dirname(os.path.abspath(__file__)), "score.py")
truth = os.path.join(work, "conflicts-truth.tsv")
timings = {r["command"]: r for r in json.load(open(os.path.join(work, "conflicts-hyperfine.json")))["results"]}


def peak_megabytes(name):
    text = open(os.path.join(work, f"conflicts-time-{name}.txt")).read()
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    return int(match.group(1)) / 1024 if match else float("nan")


def found(name):
    if name.startswith("shipcheck"):
        report, kind = f"conflicts-out-{name}.json", "shipcheck-json"
    elif name == "check-merge-conflict":
        report, kind = "conflicts-out-check-merge-conflict.txt", "pre-commit"
    else:
        report, kind = f"conflicts-out-{name}.txt", "grep"
    out = subprocess.run([sys.executable, score, truth, kind, os.path.join(work, report)], capture_output=True, text=True, check=True)
    return [int(x) for x in out.stdout.split()]


what = {
    "shipcheck": "`shipcheck conflicts` (working tree, release build)",
    "shipcheck-staged": "`shipcheck conflicts --staged` (index blobs via `git cat-file --batch`)",
    "shipcheck-rev": "`shipcheck conflicts --rev HEAD` (committed tree, no checkout)",
    "rg": "`rg -n '^(<{7}|={7}|>{7}|\\|{7})( |$|\\r)'`",
    "git-grep": "`git grep -n -P` (same pattern)",
    "check-merge-conflict": "pre-commit-hooks `check-merge-conflict --assume-in-merge` (text files via xargs)",
}
cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
print("## Conflict markers (`shipcheck conflicts`)\n")
print(f"Generated tree: {files} files, {megabytes} MB (`bench/conflicts/generate.py`, fixed seed), a git repository. "
      f"Machine: {cpu}, {os.cpu_count()} cores shared with other jobs; warm page cache. {rg_version}; {git_version}; {hooks_version}.\n")
print("Planted: complete blocks in every shape git writes (merge, diff3, zdiff3, rebase, stash, rename labels, "
      "criss-cross with nested 9-character markers, CRLF files, 32-character markers in `*.rst` under "
      "`conflict-marker-size=32`) and remnants (a stray opener, base or closer). Decoys: Markdown `=======` "
      "underlines, RST underline runs, markers mid-line, in strings or indented, 8-character runs, binary files "
      "holding a block.\n")
print("| tool | mean time | σ | CPU (user + system) | peak RSS | planted blocks found | remnants found | reports on no planted conflict |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name in names:
    t = timings[name]
    blocks, block_total, remnants, remnant_total, false = found(name)
    print(f"| {what.get(name, name)} | {t['mean']:.3f} s | {t['stddev']:.3f} s | {t['user'] + t['system']:.2f} s | {peak_megabytes(name):.0f} MB | "
          f"{blocks}/{block_total} | {remnants}/{remnant_total} | {false} |")
print("\nThe machine's other jobs change its load during a run; CPU time is the steadier comparison. "
      "hyperfine runs each command's repetitions back to back.")
print("\n\"Reports on no planted conflict\" counts reported lines (grep-style tools report every marker line; "
      "shipcheck one finding per block or remnant) that fall outside every planted block and remnant: decoys. "
      "A block counts as found when any of its lines is reported. `git grep` also prints `Binary file … matches` "
      "for the binary decoys; those lines carry no line number and are not counted.")
