#!/usr/bin/env python3
"""Times shell commands run in turns: one run of each, round after round.

On a shared machine the speed drifts over seconds; hyperfine runs every run of one command,
then every run of the next, so a slow spell can land on one side of a comparison only. Taking
turns gives each command the same spells. Each command runs under `/bin/sh -c` with its output
discarded; wall time is measured around it and CPU time (user + system, its children included)
from its resource usage.

Usage: interleave.py --runs N [--warmup W] --export-json FILE -n NAME COMMAND [-n NAME COMMAND ...]
Writes {"results": [{"command", "median", "mean", "cpu", "times"}]} (seconds: wall median and
mean, the median of user + system, every run's wall) and prints one line per command.
"""
import argparse
import json
import os
import statistics
import time


def run_once(command, devnull):
    started = time.perf_counter()
    pid = os.posix_spawn("/bin/sh", ["/bin/sh", "-c", command], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, _, usage = os.wait4(pid, 0)
    return time.perf_counter() - started, usage.ru_utime, usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--export-json", required=True)
    parser.add_argument("-n", nargs=2, action="append", metavar=("NAME", "COMMAND"), required=True)
    arguments = parser.parse_args()
    devnull = os.open(os.devnull, os.O_WRONLY)
    commands = arguments.n
    measured = {name: [] for name, _ in commands}
    for round_number in range(arguments.warmup + arguments.runs):
        for name, command in commands:
            result = run_once(command, devnull)
            if round_number >= arguments.warmup:
                measured[name].append(result)
    results = []
    for name, _ in commands:
        walls = [wall for wall, _, _ in measured[name]]
        results.append({
            "command": name,
            "median": statistics.median(walls),
            "mean": statistics.mean(walls),
            "cpu": statistics.median(user + system for _, user, system in measured[name]),
            "times": walls,
        })
        print(f"{name}: median {results[-1]['median']:.3f} s wall, {results[-1]['cpu']:.3f} s CPU over {len(walls)} runs")
    with open(arguments.export_json, "w") as export:
        json.dump({"results": results}, export, indent=1)


if __name__ == "__main__":
    main()
