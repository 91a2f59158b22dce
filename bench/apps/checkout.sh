#!/usr/bin/env bash
# checkout.sh NAME URL REVISION DEST: checks the app NAME out at REVISION into DEST (a fresh
# work tree; kept when it is already at REVISION). From a local mirror when there is one —
# $SHIPCHECK_BENCH_MIRRORS/<owner>+<name>/repo, a bare repository (default /work/.mirror) —
# for machines that cannot reach the network; else fetched from URL, shallow, at REVISION only.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: checkout.sh NAME URL REVISION DEST" >&2; exit 2; }
name="$1" url="$2" revision="$3" dest="$4"
if [ "$(git -C "$dest" rev-parse HEAD 2>/dev/null)" = "$revision" ]; then exit 0; fi
slug="$(echo "$url" | sed -E 's|^.*github\.com[:/]||; s|\.git$||; s|/|+|')"
mirror="${SHIPCHECK_BENCH_MIRRORS:-/work/.mirror}/$slug/repo"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
if [ -d "$mirror" ]; then
  echo "checkout: $name at $revision from $mirror" >&2
  # --shared borrows the mirror's objects instead of copying them.
  git clone -q --shared --no-checkout "$mirror" "$dest"
  git -C "$dest" -c advice.detachedHead=false checkout -q "$revision"
else
  echo "checkout: $name at $revision from $url" >&2
  git init -q "$dest"
  git -C "$dest" fetch -q --depth 1 "$url" "$revision"
  git -C "$dest" -c advice.detachedHead=false checkout -q FETCH_HEAD
fi
