#!/usr/bin/env bash
# `make realcheck`: shipcheck on real third-party artifacts, each judged against the verdict
# written down for it in Tests/RealArtifacts/artifacts.tsv (the vendor's or the store's words,
# not what shipcheck said once: Tests/RealArtifacts/README.md).
#
#   scripts/realcheck.sh SHIPCHECK [NAME...]    every artifact, or the ones named
#
# Downloads what the cache (.build/realcheck/) lacks — wheels and sdists from PyPI with pip,
# Debian packages with apt-get (run `apt-get update` first when apt does not know the version) —
# checks each download's sha256, unpacks it once, runs `shipcheck binary --format json` on each
# artifact and compares the rules it reports (rule id and severity; the build-facts notes are
# descriptions, not verdicts) and its input errors with the written verdict; then runs `shipcheck
# diff --format json` on each pair of releases of Tests/RealArtifacts/pairs.tsv and compares its
# report's verdict and the facts its comparison states with the written ones. One line per
# difference, naming the artifact; exit 1 on any difference, download or checksum failure.
# Needs pip, python3, unzip and, for the Debian rows, apt-get and dpkg-deb.
set -euo pipefail
cd "$(dirname "$0")/.."

shipcheck="${1:?usage: scripts/realcheck.sh SHIPCHECK [NAME...]}"
shift
table=Tests/RealArtifacts/artifacts.tsv
pairs=Tests/RealArtifacts/pairs.tsv
cache=.build/realcheck
mkdir -p "$cache/downloads" "$cache/unpacked"
python=python3
command -v "$python" >/dev/null || python=python
pip=("$python" -m pip)

apt_updated=no
failed=0
passed=0
judged=0

complain() { echo "realcheck: $*" >&2; }

# Prints the sha256 of a file, or of standard input without an argument (GNU coreutils or the
# Mac's shasum).
digest() {
  if command -v sha256sum >/dev/null; then sha256sum "$@" | cut -d' ' -f1; else shasum -a 256 "$@" | cut -d' ' -f1; fi
}

# The sha256 of a committed folder (a framework, an xcframework): of the sorted list of its files'
# digests and its symbolic links' targets, each with its path inside the folder.
tree_digest() {
  local path
  (
    cd "$1"
    find . \( -type f -o -type l \) | LC_ALL=C sort | while IFS= read -r path; do
      if [[ -L "$path" ]]; then echo "link $(readlink "$path") $path"; else echo "$(digest "$path") $path"; fi
    done
  ) | digest
}

# Downloads one PyPI file by its exact name: a wheel through pip's platform options read from
# its tags (name-version-python-abi-platform.whl), an sdist by name and version.
download_pypi() {
  local file="$1" dir="$2" base name version python abi platform pyversion tmp
  tmp="$(mktemp -d "$cache/pip.XXXXXX")"
  if [[ "$file" == *-none-any.whl ]]; then
    IFS=- read -r name version _ <<<"$file"
    "${pip[@]}" download --quiet --no-deps --only-binary=:all: "$name==$version" -d "$tmp" >&2 || true
  elif [[ "$file" == *.whl ]]; then
    base="${file%.whl}"
    IFS=- read -r name version python abi platform <<<"$base"
    platform="${platform%%.*}"
    pyversion="${python#cp}"
    pyversion="${pyversion:0:1}.${pyversion:1}"
    "${pip[@]}" download --quiet --no-deps --only-binary=:all: --platform "$platform" \
      --python-version "$pyversion" --implementation cp --abi "$abi" \
      "$name==$version" -d "$tmp" >&2 || true
  else
    base="${file%.tar.gz}"
    name="${base%-*}"
    version="${base##*-}"
    # pip prepares an sdist's metadata before it keeps the file (setuptools, fetched from PyPI).
    "${pip[@]}" download --quiet --no-deps --no-binary=:all: "$name==$version" -d "$tmp" >&2 || true
  fi
  if [[ -f "$tmp/$file" ]]; then mv "$tmp/$file" "$dir/$file"; fi
  rm -rf "$tmp"
}

# Downloads one Debian package at its exact version (PKG=VERSION) into DIR.
download_deb() {
  local spec="$1" dir="$2"
  if ! apt-cache show "$spec" >/dev/null 2>&1 && [[ "$apt_updated" == no ]]; then
    apt_updated=yes
    apt-get update -qq >&2 || true
  fi
  (cd "$dir" && apt-get download -qq "$spec" >&2 2>/dev/null) || true
}

# The cached .deb of PKG=VERSION (apt names it PKG_VERSION_ARCH.deb, an epoch's colon as %3a).
deb_file() {
  local package="${1%%=*}" version="${1#*=}" found
  for found in "$cache/downloads/${package}_${version//:/%3a}_"*.deb; do
    [[ -f "$found" ]] && { echo "$found"; return; }
  done
}

# fetch SOURCE DIGEST → prints the path of the unpacked source (or the committed file), after
# downloading it if the cache lacks it and checking its sha256. Fails naming the source.
fetch() {
  local source="$1" expected="$2" kind="${1%%:*}" what="${1#*:}" file actual unpacked
  case "$kind" in
    file) file="$what" ;;
    pypi)
      file="$cache/downloads/$what"
      [[ -f "$file" ]] || download_pypi "$what" "$cache/downloads"
      ;;
    deb)
      file="$(deb_file "$what")"
      if [[ -z "$file" ]]; then
        download_deb "$what" "$cache/downloads"
        file="$(deb_file "$what")"
      fi
      ;;
    *) complain "unknown source kind '$kind'"; return 1 ;;
  esac
  if [[ -z "$file" || ! -e "$file" ]]; then complain "could not download $source"; return 1; fi
  if [[ -d "$file" ]]; then actual="$(tree_digest "$file")"; else actual="$(digest "$file")"; fi
  if [[ "$actual" != "$expected" ]]; then
    complain "$source: sha256 $actual, expected $expected"
    return 1
  fi
  [[ "$kind" == file ]] && { echo "$file"; return 0; }
  unpacked="$cache/unpacked/$(basename "$file")"
  if [[ ! -f "$unpacked.done" ]]; then
    rm -rf "$unpacked" && mkdir -p "$unpacked"
    case "$file" in
      *.whl) unzip -q "$file" -d "$unpacked" ;;
      *.tar.gz) tar -xzf "$file" -C "$unpacked" ;;
      *.deb) dpkg-deb -x "$file" "$unpacked" ;;
    esac
    touch "$unpacked.done"
  fi
  echo "$unpacked"
}

# The artifact shipcheck reads: TARGET inside the unpacked source; a `.base64` target (test
# data kept as text) is decoded beside it first.
artifact_path() {
  local root="$1" target="$2" decoded
  if [[ "$target" == . || -z "$target" ]]; then echo "$root"; return; fi
  if [[ "$target" == *.base64 ]]; then
    decoded="$root/${target%.base64}"
    [[ -f "$decoded" ]] || base64 -d "$root/$target" > "$decoded"
    echo "$decoded"
    return
  fi
  echo "$root/$target"
}

# The verdict shipcheck gave in JSON on standard input, in the table's form: the sorted set of
# rule:severity pairs, `input-error` for inputs it could not read, or `none`.
verdict_of() {
  "$python" -c '
import json, sys
report = json.load(sys.stdin)
found = {f["ruleID"] + ":" + f["severity"] for f in report["findings"] if f["ruleID"] != "binary-build-facts"}
if report.get("inputErrors"):
    found.add("input-error")
print(",".join(sorted(found)) or "none")'
}

# The facts of FACTS (pairs.tsv's column) that `shipcheck diff --format json` on standard input
# does not state, one per line; nothing when it states them all.
missing_facts() {
  "$python" -c '
import json, sys
document = json.load(sys.stdin)
comparison = document.get("comparison") or {}
identity = {row["name"]: (row.get("old"), row.get("new")) for row in comparison.get("identity", [])}
sdks = {row["name"]: (row.get("old"), row.get("new")) for row in comparison.get("sdkVersions", [])}
for fact in filter(None, sys.argv[1].split(";")):
    key, _, value = fact.partition(":")
    if key == "identical":
        holds = comparison.get("identical") is True
    elif key == "architectures":
        change = comparison.get("architectures", {})
        holds = value[1:] in change.get("added" if value[0] == "+" else "removed", [])
    elif key == "files":
        added, removed = value[1:].split("-")
        holds = (comparison.get("filesAdded"), comparison.get("filesRemoved")) == (int(added), int(removed))
    elif key == "sdk":
        name, _, change = value.partition(":")
        old, _, new = change.partition(">")
        holds = sdks.get(name) == (old or None, new or None)
    else:
        old, _, new = value.partition(">")
        holds = identity.get(key) == (old or None, new or None)
    if not holds:
        print(fact)' "$1"
}

# The written verdict normalised the same way (sorted, no spaces).
normalised() { tr ',' '\n' <<<"$1" | tr -d ' ' | sort -u | paste -sd, -; }

while IFS=$'\t' read -r name source sha target expected reason; do
  [[ -z "$name" || "$name" == \#* || "$name" == name ]] && continue
  if [[ $# -gt 0 ]] && ! printf '%s\n' "$@" | grep -qxF "$name"; then continue; fi
  judged=$((judged + 1))
  if ! root="$(fetch "$source" "$sha")"; then
    echo "FAIL $name: $source could not be downloaded or its checksum differs"
    failed=$((failed + 1))
    continue
  fi
  path="$(artifact_path "$root" "$target")"
  if [[ ! -e "$path" ]]; then
    echo "FAIL $name: $target is not in $source"
    failed=$((failed + 1))
    continue
  fi
  # Exit 1 (findings) and 2 (input errors) still write the report: the verdict is read from it.
  report="$("$shipcheck" binary --format json "$path" 2>/dev/null)" || true
  got="$(verdict_of <<<"$report" 2>/dev/null)" || got="no report"
  want="$(normalised "$expected")"
  if [[ "$got" == "$want" ]]; then
    passed=$((passed + 1))
  else
    echo "FAIL $name: shipcheck says $got, the written verdict is $want (${reason:0:100}…)"
    failed=$((failed + 1))
  fi
done < "$table"

# Pairs of releases: `shipcheck diff --format json` on the two, its report's verdict (as above)
# and the facts its comparison must state.
while IFS=$'\t' read -r name old_source old_sha old_target new_source new_sha new_target expected facts reason; do
  [[ -z "$name" || "$name" == \#* || "$name" == name ]] && continue
  if [[ $# -gt 0 ]] && ! printf '%s\n' "$@" | grep -qxF "$name"; then continue; fi
  judged=$((judged + 1))
  if ! old_root="$(fetch "$old_source" "$old_sha")" || ! new_root="$(fetch "$new_source" "$new_sha")"; then
    echo "FAIL $name: a release could not be downloaded or its checksum differs"
    failed=$((failed + 1))
    continue
  fi
  document="$("$shipcheck" diff --format json "$(artifact_path "$old_root" "$old_target")" \
    "$(artifact_path "$new_root" "$new_target")" 2>/dev/null)" || true
  got="$("$python" -c 'import json, sys; json.dump(json.load(sys.stdin)["report"], sys.stdout)' <<<"$document" 2>/dev/null \
    | verdict_of 2>/dev/null)" || got="no report"
  # The same release twice prints one line in text, and a comparison without a report in JSON.
  [[ "$got" == "no report" ]] && grep -q '"identical": true' <<<"$document" && got=none
  want="$(normalised "$expected")"
  missing="$(missing_facts "$facts" <<<"$document" 2>/dev/null | paste -sd, -)" || missing="no comparison"
  if [[ "$got" == "$want" && -z "$missing" ]]; then
    passed=$((passed + 1))
  else
    echo "FAIL $name: diff says $got (written: $want)${missing:+; facts not stated: $missing} (${reason:0:100}…)"
    failed=$((failed + 1))
  fi
done < "$pairs"

echo "$judged artifacts and pairs"
echo "$passed passed, $failed failed"
[[ "$failed" -eq 0 && "$judged" -gt 0 ]]
