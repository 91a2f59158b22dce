#!/usr/bin/env bash
# `make demo`: builds the sample binaries, assembles the demo .ipa (Samples/Bundles), runs
# `shipcheck audit` on Samples/ and the .ipa and checks that
# it reports exactly what the samples are known to contain (Samples/EXPECTED.md). Exit 0 when
# it does; 1 with a diff when it does not.
#
# A shipcheck that reads no ELF (every Mac build: ELF goes through libelf, which macOS lacks)
# gets the Apple half: the sources, and the Mach-O samples (Tests/Fixtures/macho) in the demo
# .ipa and .xcarchive, walked as bundles; the ELF samples (Samples/Binaries' Linux executables,
# the Android App Bundle's libraries) are left out of the audit and of EXPECTED.md's list.
set -uo pipefail
shipcheck="${1:?usage: demo.sh PATH-TO-SHIPCHECK}"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.." || exit 2

version="$("$shipcheck" --version)"
echo "demo: shipcheck $version"
case "$version" in *"ELF support: yes"*) elf=yes ;; *) elf=no ;; esac
if [ "$elf" = yes ]; then
  echo "demo: building the sample release binaries (-Onone, -O -wmo, stripped, non-WMO)"
  "$here/Binaries/build.sh" >/dev/null || { echo "demo: Samples/Binaries/build.sh failed" >&2; exit 1; }
else
  if [ "$(uname -s)" = Darwin ]; then
    echo "demo: ELF is Linux-only: shipcheck reads ELF through libelf, which macOS lacks, and the ELF samples are Linux executables."
  else
    echo "demo: ELF is Linux-only, and this shipcheck was built without it (no libelf: the ELF trait off)."
  fi
  echo "demo: this is the Apple half: the sources and the Mach-O samples (Tests/Fixtures/macho) in the demo .ipa and .xcarchive."
  echo "demo: left out: Samples/Binaries' ELF executables and the Android App Bundle (its libraries are ELF)."
fi

echo "demo: assembling Samples/Bundles/.build-bundles/Demo.ipa from the Mach-O and signing fixtures"
python3 "$here/Bundles/make_ipa.py" "$here/Bundles/.build-bundles/Demo.ipa" || { echo "demo: Samples/Bundles/make_ipa.py failed" >&2; exit 1; }

# The ELF samples' lines of EXPECTED.md, and the ELF binary Samples/.shipcheck.yml names.
elf_findings='^(Binaries/\.build-samples/|Tests/Fixtures/android/)'
if [ "$elf" = yes ]; then
  android=Tests/Fixtures/android/Planted.aab
  echo "demo: shipcheck audit Samples --binary Samples/Bundles/.build-bundles/Demo.ipa --binary $android"
  echo
  report=$("$shipcheck" audit Samples --no-color --binary Samples/Bundles/.build-bundles/Demo.ipa --binary "$android")
  status=$?
else
  config="$(mktemp)"
  trap 'rm -f "$config"' EXIT
  grep -v 'Binaries/\.build-samples/' Samples/.shipcheck.yml >"$config"
  echo "demo: shipcheck audit Samples --binary Samples/Bundles/.build-bundles/Demo.ipa (Samples/.shipcheck.yml without its ELF binary)"
  echo
  report=$("$shipcheck" audit Samples --no-color --config "$config" --binary Samples/Bundles/.build-bundles/Demo.ipa)
  status=$?
fi
printf '%s\n' "$report"
echo

# "location rule" per finding; binary offsets vary with the toolchain's layout, so drop them.
actual=$(printf '%s\n' "$report" | sed -nE 's/^(.*): (error|warning|note): .* \[([a-z0-9-]+)\]$/\1 \3/p' | sed -E 's/:0x[0-9a-f]+ / /' | sort)
expected=$(sed -n '/<!-- audit:begin -->/,/<!-- audit:end -->/p' "$here/EXPECTED.md" | grep -vE '^(<!--|```)' | sort)
[ "$elf" = yes ] || expected=$(printf '%s\n' "$expected" | grep -vE "$elf_findings")

if [ "$status" -ne 1 ]; then
  echo "demo: expected exit code 1 (findings), got $status" >&2
  exit 1
fi
if [ "$actual" != "$expected" ]; then
  echo "demo: shipcheck's findings differ from Samples/EXPECTED.md (< expected, > reported):" >&2
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2
  exit 1
fi
echo "demo: shipcheck reported exactly the $(printf '%s\n' "$expected" | wc -l) findings Samples/EXPECTED.md lists (exit code 1, as a release gate should)."

echo
if [ "$elf" = yes ]; then
  echo "demo: shipcheck symbols --grep Previews on the -Onone build (Swift names demangled):"
  "$shipcheck" symbols --defined-only --grep Previews Samples/Binaries/.build-samples/onone/App | head -5
else
  echo "demo: shipcheck symbols --grep Previews on the iOS app Tests/Fixtures/macho/App-ios (Swift names demangled):"
  "$shipcheck" symbols --defined-only --grep Previews Tests/Fixtures/macho/App-ios | head -5
fi

echo
echo "demo: shipcheck diff from the previous release of the demo app (Samples/Bundles/make_ipa.py --previous-release) to this one"
bundles=Samples/Bundles/.build-bundles
python3 "$here/Bundles/make_ipa.py" "$bundles/Demo-previous.ipa" --previous-release || { echo "demo: make_ipa.py --previous-release failed" >&2; exit 1; }
comparison=$("$shipcheck" diff --no-color --no-heading "$bundles/Demo-previous.ipa" "$bundles/Demo.ipa")
status=$?
printf '%s\n' "$comparison"
echo
if [ "$status" -ne 1 ]; then
  echo "demo: expected shipcheck diff to exit 1 (previous-release errors), got $status" >&2
  exit 1
fi
for section in "Identity and version" "Images" "SDKs" "Libraries loaded" "Permissions and declarations" "Size" "Segments and sections of changed images" "Files added or grown most (install size)"; do
  # A here-string, not a pipe: grep -q stops at the first match, and under pipefail the writer's
  # broken pipe would fail the check.
  grep -qx "$section" <<< "$comparison" || { echo "demo: shipcheck diff shows no \"$section\" section" >&2; exit 1; }
done
actual=$(printf '%s\n' "$comparison" | sed -nE 's/^.*: (error|warning|note): .* \[(previous-[a-z0-9-]+)\]$/\2/p' | sort)
expected=$(sed -n '/<!-- diff:begin -->/,/<!-- diff:end -->/p' "$here/EXPECTED.md" | grep -vE '^(<!--|```)' | sort)
if [ "$actual" != "$expected" ]; then
  echo "demo: shipcheck diff's previous-release findings differ from Samples/EXPECTED.md (< expected, > reported):" >&2
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2
  exit 1
fi
echo "demo: shipcheck diff showed every section and the $(printf '%s\n' "$expected" | wc -l) previous-release findings Samples/EXPECTED.md lists."
