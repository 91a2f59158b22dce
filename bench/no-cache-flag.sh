#!/usr/bin/env bash
# Prints `--no-cache` when the shipcheck binary given has a result cache, else nothing: cold rows
# of `sources` and `audit` pass it, so a build from before the cache (issue 41) runs the same rows.
set -euo pipefail
if "$1" sources --help 2>/dev/null | grep -q -- '--no-cache'; then echo --no-cache; fi
