#!/usr/bin/env bash
# Makes (or keeps, when generate.py and FILES are unchanged) the conflicts benchmark's generated
# tree: bench/work/conflicts-tree, one git commit. Shared by bench/conflicts and bench/audit.
# Usage: bench/conflicts/tree.sh FILES   (prints the tree's path)
set -euo pipefail
cd "$(dirname "$0")/../.."
files=$1
work=$PWD/bench/work
tree=$work/conflicts-tree
mkdir -p "$work"
stamp="$(sha256sum bench/conflicts/generate.py | cut -c1-16)-$files"
if [ "$(cat "$work/conflicts-stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$tree"
  python3 bench/conflicts/generate.py "$tree" "$files" >&2
  git -C "$tree" init -q
  git -C "$tree" add -A
  git -C "$tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q -m tree
  echo "$stamp" > "$work/conflicts-stamp"
fi
echo "$tree"
