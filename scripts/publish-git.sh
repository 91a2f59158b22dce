#!/usr/bin/env bash
# scripts/publish-git.sh [--overlay] REPOSITORY DIR [TAG] [MESSAGE]
#
# Commits DIR as the content of REPOSITORY's default branch, tags the commit TAG (when given)
# and pushes both: the release workflow publishes the shipcheck-plugins package (the whole
# repository) and the Homebrew formula (--overlay: DIR's files added to the tap's, nothing
# removed) with it. DEPLOY_KEY, when set, is the private SSH key to push with. A DIR that
# changes nothing is no new commit.
set -euo pipefail

overlay=false
if [ "${1:-}" = --overlay ]; then overlay=true; shift; fi
repository="${1:?usage: publish-git.sh [--overlay] REPOSITORY DIR [TAG] [MESSAGE]}"
dir="$(cd "${2:?usage: publish-git.sh [--overlay] REPOSITORY DIR [TAG] [MESSAGE]}" && pwd)"
tag="${3:-}"
message="${4:-shipcheck ${tag:-release}}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "${DEPLOY_KEY:-}" ]; then
  printf '%s\n' "$DEPLOY_KEY" >"$work/key"
  chmod 600 "$work/key"
  export GIT_SSH_COMMAND="ssh -i $work/key -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new"
fi
git clone --quiet --depth 1 "$repository" "$work/repository"
if ! $overlay; then
  find "$work/repository" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
fi
cp -R "$dir"/. "$work/repository/"
cd "$work/repository"
git add -A
if git diff --cached --quiet; then
  echo "publish-git.sh: $repository already holds $dir"
else
  git -c user.name="shipcheck release" -c user.email="release@shipcheck.invalid" commit --quiet -m "$message"
fi
if [ -n "$tag" ]; then git tag "$tag"; fi
git push --quiet origin HEAD ${tag:+"refs/tags/$tag"}
