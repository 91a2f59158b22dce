#!/usr/bin/env bash
# Builds shipcheck with the release flags `make release` uses (scripts/package.sh release-flags),
# so benchmarks share that one build instead of rebuilding swift-syntax with other flags, and
# prints the binary's path. Build output goes to standard error. SHIPCHECK_SCRATCH_PATH builds
# elsewhere than .build (so a debug build can go on meanwhile).
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a flags <<< "$(scripts/package.sh release-flags)"
if [ -n "${SHIPCHECK_SCRATCH_PATH:-}" ]; then flags+=(--scratch-path "$SHIPCHECK_SCRATCH_PATH"); fi
swift build --product shipcheck "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/shipcheck"
