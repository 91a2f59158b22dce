#!/usr/bin/env bash
# mutants.sh [DEFINITIONS.txt...]: shows that the tests catch a broken decoder. Each mutant
# (Tests/Fixtures/mutants/*.txt unless files are named) replaces one exact fragment of one source
# file with a broken version; the test product is built and the mutant's tests are run, which
# must FAIL. The file is restored afterwards, whatever happens (also on Ctrl-C).
#
# A definition is a block of lines, blocks separated by blank lines, '#' lines ignored:
#   mutant: NAME
#   file: PATH (from the repository root)
#   replace: FRAGMENT (must occur exactly once in the file: a stale mutant is an error)
#   with: REPLACEMENT
#   tests: FILTER (for swift test --filter)
#
# Prints one line per mutant, "killed" with the tests that failed, or "SURVIVED" (or "ERROR"
# when it is stale or does not build), and exits non-zero unless every mutant was killed. SWIFT names the swift driver
# (default: swift).
set -u
cd "$(dirname "$0")/.." || exit 2
swift_driver="${SWIFT:-swift}"
if [ "$#" -gt 0 ]; then definitions=("$@"); else definitions=(Tests/Fixtures/mutants/*.txt); fi

backup=""
target=""
log="$(mktemp "${TMPDIR:-/tmp}/mutants-log.XXXXXX")"
restore() {
    if [ -n "$backup" ]; then
        cp "$backup" "$target" && rm -f "$backup"
        backup=""
    fi
}
trap 'restore; rm -f "$log"' EXIT
trap 'restore; exit 130' INT TERM

# How often FRAGMENT occurs in FILE (occurrences, not lines).
occurrences() {
    FRAGMENT="$2" awk 'BEGIN { f = ENVIRON["FRAGMENT"]; n = 0 }
        { line = $0; while ((i = index(line, f)) > 0) { n++; line = substr(line, i + length(f)) } }
        END { print n }' "$1"
}

# FILE with FRAGMENT replaced by REPLACEMENT, literally, on standard output.
replaced() {
    FRAGMENT="$2" REPLACEMENT="$3" awk 'BEGIN { f = ENVIRON["FRAGMENT"]; r = ENVIRON["REPLACEMENT"] }
        { i = index($0, f); if (i > 0) $0 = substr($0, 1, i - 1) r substr($0, i + length(f)); print }' "$1"
}

# The tests that failed, as swift test names them (with the argument of a parameterized one).
failed_tests() {
    awk '/recorded an issue|error: -\[.*\] : / {
            name = $0
            if (match(name, /Test [A-Za-z0-9_]+\(/)) name = substr(name, RSTART + 5, RLENGTH - 6)
            else if (match(name, /-\[[^]]*\]/)) name = substr(name, RSTART + 2, RLENGTH - 3)
            if (match($0, /argument [A-Za-z0-9_]+ [^ ]+ "[^"]*"/)) {
                argument = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", argument); sub(/"$/, "", argument)
                name = name "(" argument ")"
            }
            if (!(name in seen)) { seen[name] = 1; list = list (list == "" ? "" : ", ") name }
        }
        END { print (list == "" ? "the tests failed (no issue named: a crash or a build of the tests?)" : list) }' "$1"
}

failures=0
run_mutant() {
    local name="$1" file="$2" fragment="$3" replacement="$4" tests="$5"
    if [ -z "$name" ] || [ -z "$file" ] || [ -z "$fragment" ] || [ -z "$tests" ]; then
        echo "ERROR    ${name:-?}: needs mutant, file, replace and tests"
        failures=$((failures + 1))
        return
    fi
    if [ ! -f "$file" ]; then
        echo "ERROR    $name: no file $file"
        failures=$((failures + 1))
        return
    fi
    local count
    count="$(occurrences "$file" "$fragment")"
    if [ "$count" != 1 ]; then
        echo "ERROR    $name: the fragment occurs $count times in $file (stale mutant)"
        failures=$((failures + 1))
        return
    fi
    target="$file"
    backup="$(mktemp "${TMPDIR:-/tmp}/mutants-backup.XXXXXX")"
    cp "$file" "$backup"
    replaced "$backup" "$fragment" "$replacement" >"$file"
    if ! "$swift_driver" build --product shipcheckPackageTests >"$log" 2>&1; then
        echo "ERROR    $name: does not build (see the replacement in its definition)"
        failures=$((failures + 1))
    elif "$swift_driver" test --skip-build --filter "$tests" >"$log" 2>&1; then
        if grep -Eq 'Test run with [1-9]|Executed [1-9]' "$log"; then
            echo "SURVIVED $name: $tests passed with $file broken"
        else
            echo "ERROR    $name: --filter '$tests' ran no test"
        fi
        failures=$((failures + 1))
    else
        echo "killed   $name: $(failed_tests "$log")"
    fi
    restore
}

for definitions_file in "${definitions[@]}"; do
    name="" file="" fragment="" replacement="" tests=""
    # A blank line (or the end of the file) closes a block.
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
        "#"*) continue ;;
        "mutant: "*) name="${line#mutant: }" ;;
        "file: "*) file="${line#file: }" ;;
        "replace: "*) fragment="${line#replace: }" ;;
        "with: "*) replacement="${line#with: }" ;;
        "tests: "*) tests="${line#tests: }" ;;
        "")
            if [ -n "$name$file$fragment$tests" ]; then run_mutant "$name" "$file" "$fragment" "$replacement" "$tests"; fi
            name="" file="" fragment="" replacement="" tests=""
            ;;
        *)
            echo "ERROR    $definitions_file: a line of no known field: $line"
            failures=$((failures + 1))
            ;;
        esac
    done <"$definitions_file"
    if [ -n "$name$file$fragment$tests" ]; then run_mutant "$name" "$file" "$fragment" "$replacement" "$tests"; fi
done

# The sources are as they were: build them again, so the next test run is of the real code.
"$swift_driver" build --product shipcheckPackageTests >"$log" 2>&1 || echo "ERROR    the restored sources do not build"
if [ "$failures" -gt 0 ]; then
    echo "$failures mutant(s) not killed"
    exit 1
fi
