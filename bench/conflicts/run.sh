#!/usr/bin/env bash
# Conflict-marker benchmark: shipcheck against ripgrep, git grep and pre-commit's
# check-merge-conflict on a generated tree (~50,000 files / ~300 MB) with planted conflicts
# and decoys. Reports time (hyperfine), peak memory (/usr/bin/time -v) and what each tool
# found against the planted truth. Writes bench/results/conflicts.md.
#
# Environment: FILES (default 50000), RUNS (default 10), WARMUP (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/bench/work
tree=$work/conflicts-tree
results=$root/bench/results/conflicts.md
files=${FILES:-50000}
runs=${RUNS:-10}
warmup=${WARMUP:-2}
pattern='^(<{7}|={7}|>{7}|\|{7})( |$|\r)'

for tool in git rg hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is required (./scripts/setup.sh bench)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time (GNU time) is required" >&2; exit 1; }
if [ ! -x bench/.venv/bin/check-merge-conflict ]; then
  python3 -m venv bench/.venv
  bench/.venv/bin/pip install -q pre-commit-hooks
fi

shipcheck=$(bench/shipcheck-release.sh)

mkdir -p "$work" "$(dirname "$results")"
bench/conflicts/tree.sh "$files" >/dev/null
tree_files=$(git -C "$tree" ls-files | wc -l)
tree_mb=$(du -sm --apparent-size --exclude=.git "$tree" | cut -f1)

declare -A commands=(
  [shipcheck]="'$shipcheck' conflicts --format json --output '$work/conflicts-out-shipcheck.json'"
  [shipcheck-staged]="'$shipcheck' conflicts --staged --format json --output '$work/conflicts-out-shipcheck-staged.json'"
  [shipcheck-rev]="'$shipcheck' conflicts --rev HEAD --format json --output '$work/conflicts-out-shipcheck-rev.json'"
  [rg]="rg -n '$pattern' > '$work/conflicts-out-rg.txt'"
  [git-grep]="git grep -n -P '$pattern' > '$work/conflicts-out-git-grep.txt'"
  [check-merge-conflict]="xargs -0 -a '$work/conflicts-text-files.txt' '$root/bench/.venv/bin/check-merge-conflict' --assume-in-merge > '$work/conflicts-out-check-merge-conflict.txt'"
)
order=(shipcheck shipcheck-staged shipcheck-rev rg git-grep check-merge-conflict)

cd "$tree"
hyperfine_args=()
for name in "${order[@]}"; do hyperfine_args+=(-n "$name" "${commands[$name]}"); done
hyperfine -i --warmup "$warmup" --runs "$runs" --export-json "$work/conflicts-hyperfine.json" "${hyperfine_args[@]}"

for name in "${order[@]}"; do
  /usr/bin/time -v bash -c "${commands[$name]}" 2> "$work/conflicts-time-$name.txt" || true
done

cd "$root"
python3 bench/conflicts/report.py "$work" "$tree_files" "$tree_mb" "$(rg --version | sed -n 1p)" "$(git --version)" \
  "$(bench/.venv/bin/pip show pre-commit-hooks | sed -n 's/^Version: /pre-commit-hooks /p')" "${order[@]}" > "$results"
# How the run was made: repetitions, and how it was isolated from other jobs when it was
# (BENCH_CONDITIONS, e.g. "other jobs paused with SIGSTOP").
printf '\nRuns: %s after %s warm-up run(s) each%s.\n' "$runs" "$warmup" "${BENCH_CONDITIONS:+; $BENCH_CONDITIONS}" >> "$results"
cat "$results"
