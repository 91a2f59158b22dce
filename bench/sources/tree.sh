#!/usr/bin/env bash
# Makes (or keeps, when the revisions are unchanged) the sources benchmark's tree: several
# package mirrors of this machine extracted with `git archive` at fixed revisions into
# bench/work/sources/tree, one git repository. Shared by bench/sources and bench/source-rules.
# Usage: bench/sources/tree.sh   (prints the tree's path; writes the revisions table, Markdown
# rows, to bench/work/sources/revisions.md)
set -euo pipefail
cd "$(dirname "$0")/../.."
mirrors="${SWIFT_MIRRORS:-/opt/swift-packages}"
work="$PWD/bench/work/sources"
tree="$work/tree"

# name  mirror  revision (a tag where there is a stable one, else the mirror's commit recorded below)
sources=(
  "swift-syntax  swiftlang/swift-syntax.git    603.0.1"
  "swift-nio     apple/swift-nio.git           HEAD"
  "vapor         vapor/vapor.git               HEAD"
  "grdb          groue/GRDB.swift.git          HEAD"
  "dependencies  pointfreeco/swift-dependencies.git HEAD"
  "protobuf      apple/swift-protobuf.git      HEAD"
)
mkdir -p "$tree"
revisions=""
for entry in "${sources[@]}"; do
  read -r name mirror revision <<<"$entry"
  commit="$(git -C "$mirrors/$mirror" rev-parse "$revision^{commit}")"
  revisions+="| $name | \`$mirror\` | \`$revision\` (${commit:0:12}) |"$'\n'
  stamp="$tree/.$name.commit"
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$commit" ]]; then
    rm -rf "${tree:?}/$name"
    mkdir -p "$tree/$name"
    git -C "$mirrors/$mirror" archive "$commit" | tar -x -C "$tree/$name"
    echo "$commit" >"$stamp"
  fi
done

# shipcheck takes git's view of a tree inside a work tree, and bench/work is git-ignored in
# this repository: make the tree a repository of its own, as an app's checkout would be.
if [[ ! -d "$tree/.git" || "$(git -C "$tree" log -1 --format=%s 2>/dev/null)" != "$(cat "$tree"/.*.commit | sha1sum | cut -c1-12)" ]]; then
  rm -rf "$tree/.git"
  git -C "$tree" init -q
  git -C "$tree" add -A
  git -C "$tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false \
    commit -q -m "$(cat "$tree"/.*.commit | sha1sum | cut -c1-12)"
fi

printf '%s' "$revisions" >"$work/revisions.md"
echo "$tree"
