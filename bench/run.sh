#!/usr/bin/env bash
# Runs every benchmark area (bench/<area>/run.sh, each writing bench/results/<area>.md) and
# collects the sections into bench/RESULTS.md. `make bench` calls this after a release build.
# BENCH_AREAS="conflicts queries" limits the run to some areas; BENCH_AREAS=none only collects.
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(uname -s)" = Darwin ]; then
  # GNU time's -v and -f, /proc, nproc, free and Linux's ELF tools (eu-readelf, binutils' nm).
  echo "make bench: Linux only (GNU time, /proc, nproc, free, ELF tools): run it in a Linux container" >&2
  exit 2
fi
areas=${BENCH_AREAS:-"sources source-rules apps conflicts queries binary ipa preflight android diff audit"}
for area in $areas; do
  if [ -x "$area/run.sh" ]; then
    echo "bench: $area"
    "./$area/run.sh"
  fi
done

{
  echo "# shipcheck benchmarks"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr); $(swift --version 2>/dev/null | head -1)."
  echo "Each section is written by \`bench/<area>/run.sh\` (\`make bench\` runs them all); inputs are generated"
  echo "deterministically under \`bench/work/\` (not committed). Times are hyperfine means, except the saved"
  echo "queries' (medians of runs taken in turns, \`bench/interleave.py\`); peak memory is maximum resident set"
  echo "size from \`/usr/bin/time -v\`."
  for area in sources source-rules apps differential conflicts queries binary ipa preflight android diff audit fuzz requalified engine; do
    if [ -f "results/$area.md" ]; then
      echo
      cat "results/$area.md"
    fi
  done
} > RESULTS.md
echo "bench: wrote bench/RESULTS.md"
