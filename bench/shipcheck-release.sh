#!/usr/bin/env bash
# Builds shipcheck with the release flags `make release` uses (scripts/package.sh release-flags),
# so benchmarks share that one build instead of rebuilding swift-syntax with other flags, and
# prints the binary's path. Build output goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a flags <<< "$(scripts/package.sh release-flags)"
swift build --product shipcheck "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/shipcheck"
