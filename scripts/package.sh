#!/usr/bin/env bash
# Packs a built shipcheck binary for release. `make dist` runs it on the optimised, stripped,
# statically linked build; the tests run it on the debug build, so both go through this code.
#
#   scripts/package.sh stage BINARY DIR [MANUAL_DIR]
#       DIR/bin/shipcheck, DIR/share/man/man1/*.1 (from MANUAL_DIR, when given) and the bash,
#       zsh and fish completions under DIR/share (what `make install` copies into PREFIX).
#   scripts/package.sh release-flags
#       The `swift build` flags of the release build (after `--product NAME`): `-c release`, plus
#       `--static-swift-stdlib` and `--no-export-dynamic` on Linux (on macOS make dist builds
#       each architecture with its own `--triple` and joins them with lipo). make release, make install and make dist all use them, so they share one build
#       instead of rebuilding swift-syntax whenever the flags differ.
#   scripts/package.sh manual BINARY DIR
#       DIR/shipcheck.1, from swift-argument-parser's generate-manual (built here, release),
#       dated by the last commit so the same commit gives the same page.
#   scripts/package.sh pack BINARY OUTDIR [--manual DIR] [--platform NAME] [--triple TRIPLE]...
#                           [--release-url URL]
#       OUTDIR/shipcheck-VERSION-PLATFORM.tar.gz and .tar.gz.sha256 (the staged tree),
#       OUTDIR/shipcheck.artifactbundle (info.json, schemaVersion 1.0, one variant) and its
#       .zip and .zip.sha256 (when zip is installed), and OUTDIR/shipcheck-plugins, the plugin
#       package on the prebuilt binary: with --release-url it names the zip at URL/VERSION/ by
#       checksum (the package to publish); without, it carries the bundle and names it by path.
#       PLATFORM defaults to the host's triple; TRIPLE (repeatable) to PLATFORM.
#   scripts/package.sh bundle OUTDIR [--release-url URL] TARBALL...
#       OUTDIR/shipcheck.artifactbundle with one variant per release tarball (the release
#       workflow's merge of the Linux x86_64, Linux aarch64 and universal macOS builds), its .zip
#       and .zip.sha256, and OUTDIR/shipcheck-plugins on it, as pack writes them.
#   scripts/package.sh formula VERSION DIR
#       Formula/shipcheck.rb (the Homebrew formula) for VERSION, with the checksums of the
#       release tarballs in DIR.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"

die() { echo "package.sh: $*" >&2; exit 2; }

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

host_triple() {
  swift -print-target-info | sed -n 's/.*"unversionedTriple": *"\([^"]*\)".*/\1/p' | head -1
}

# The version is what the binary says it is: `0.1.0 (revision …, ELF support: …)`.
binary_version() {
  "$1" --version | cut -d' ' -f1
}

stage() {
  local binary="$1" dir="$2" manual="${3:-}"
  [ -x "$binary" ] || die "$binary: not an executable"
  mkdir -p "$dir/bin" "$dir/share/man/man1" "$dir/share/bash-completion/completions" \
    "$dir/share/zsh/site-functions" "$dir/share/fish/vendor_completions.d"
  cp "$binary" "$dir/bin/shipcheck"
  chmod 0755 "$dir/bin/shipcheck"
  if [ -n "$manual" ]; then
    compgen -G "$manual/*.1" >/dev/null || die "$manual: no manual pages (*.1)"
    cp "$manual"/*.1 "$dir/share/man/man1/"
  fi
  "$binary" --generate-completion-script bash >"$dir/share/bash-completion/completions/shipcheck"
  "$binary" --generate-completion-script zsh >"$dir/share/zsh/site-functions/_shipcheck"
  "$binary" --generate-completion-script fish >"$dir/share/fish/vendor_completions.d/shipcheck.fish"
}

release_flags() {
  case "$(uname -s)" in
    # The host's architecture: Homebrew's pcre2 has only that one. dist.sh builds both, one
    # `--triple` each, on a universal static PCRE2.
    Darwin) echo "-c release" ;;
    # The static stdlib's link arguments export every symbol of the executable (44,000 with
    # swift-syntax); nothing looks them up, and the loader's symbol work and the runtime's
    # dladdr over that table cost a millisecond of every run (5.9 -> 5.0 ms for --version).
    *) echo "-c release --static-swift-stdlib -Xlinker --no-export-dynamic" ;;
  esac
}

manual() {
  local binary="$1" dir="$2" tools flags
  read -ra flags <<<"$(release_flags)"
  "${SWIFT:-swift}" build --product generate-manual "${flags[@]}" >&2
  tools="$("${SWIFT:-swift}" build "${flags[@]}" --show-bin-path)"
  mkdir -p "$dir"
  "$tools/generate-manual" "$binary" --date "$(git -C "$here" log -1 --format=%cs 2>/dev/null || date +%Y-%m-%d)" --output-directory "$dir"
}

# The triples a release PLATFORM name runs on: the universal macOS build runs on both.
platform_triples() {
  case "$1" in
    universal-apple-macosx) echo "arm64-apple-macosx x86_64-apple-macosx" ;;
    *) echo "$1" ;;
  esac
}

# info.json of an artifact bundle: VERSION, then one "PATH TRIPLE..." line per variant on stdin.
artifact_info() {
  local version="$1" line path triple variants="" triples
  while read -r path line; do
    triples=""
    for triple in $line; do triples="${triples:+$triples, }\"$triple\""; done
    variants="${variants:+$variants,
}        {
          \"path\": \"$path\",
          \"supportedTriples\": [$triples]
        }"
  done
  cat <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "shipcheck": {
      "version": "$version",
      "type": "executable",
      "variants": [
$variants
      ]
    }
  }
}
JSON
}

# Package.swift of the plugin package: the two plugins on the binary target BINARY_TARGET.
plugin_manifest() {
  local binary_target="$1"
  cat <<SWIFT
// swift-tools-version: 6.2
// Generated by shipcheck's scripts/package.sh: shipcheck's plugins on its prebuilt binary, so a
// package using them builds no shipcheck or swift-syntax code (only the two small plugins).
import PackageDescription

let package = Package(
    name: "shipcheck-plugins",
    products: [
        .plugin(name: "ShipcheckAudit", targets: ["ShipcheckAudit"]),
        .plugin(name: "ShipcheckBuildTool", targets: ["ShipcheckBuildTool"]),
    ],
    targets: [
        $binary_target,
        .plugin(
            name: "ShipcheckAudit",
            capability: .command(
                intent: .custom(verb: "shipcheck", description: "Run the shipcheck release audit on this package"),
                permissions: [
                    .writeToPackageDirectory(reason: "shipcheck audit writes its report (--output) and baseline (--write-baseline) into the package"),
                ]
            ),
            dependencies: ["shipcheck"]
        ),
        .plugin(name: "ShipcheckBuildTool", capability: .buildTool(), dependencies: ["shipcheck"]),
    ]
)
SWIFT
}

pack() {
  local binary="$1" out="$2"; shift 2
  local manual="" platform="" release_url="" triples=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --manual) manual="$2"; shift 2 ;;
      --platform) platform="$2"; shift 2 ;;
      --triple) triples+=("$2"); shift 2 ;;
      --release-url) release_url="$2"; shift 2 ;;
      *) die "unknown option $1" ;;
    esac
  done
  [ -n "$platform" ] || platform="$(host_triple)"
  local version name
  version="$(binary_version "$binary")"
  name="shipcheck-$version-$platform"

  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
  rm -rf "${out:?}/$name"
  stage "$binary" "$out/$name" "$manual"
  cp "$here/README.md" "$out/$name/README.md"
  # macOS's tar stores extended attributes as ._* files unless told not to.
  COPYFILE_DISABLE=1 tar -C "$out" -czf "$out/$name.tar.gz" "$name"
  (cd "$out" && echo "$(sha256 "$name.tar.gz")  $name.tar.gz" >"$name.tar.gz.sha256")

  rm -rf "${out:?}/$name"
  if [ ${#triples[@]} -gt 0 ]; then
    bundle "$out" "$release_url" "$out/$name.tar.gz=${triples[*]}"
  else
    bundle "$out" "$release_url" "$out/$name.tar.gz"
  fi
  echo "$out/$name.tar.gz"
}

# bundle OUTDIR RELEASE_URL TARBALL[=TRIPLES]...: the artifact bundle with the binary of each
# release tarball as a variant (for the triples its platform runs on, or those given), its zip,
# and the plugin package on it.
bundle() {
  local out="$1" release_url="$2"; shift 2
  local bundle="$out/shipcheck.artifactbundle" version="" platform="" spec tarball triples name variants=""
  rm -rf "$bundle" "$out/shipcheck-plugins"
  mkdir -p "$bundle"
  for spec in "$@"; do
    tarball="${spec%%=*}"
    name="$(basename "$tarball" .tar.gz)"
    [ -f "$tarball" ] || die "$tarball: no such release tarball"
    # shipcheck-VERSION-PLATFORM, PLATFORM a triple (…-linux-gnu, …-linux-musl) or …-apple-macosx.
    read -r version platform < <(printf '%s\n' "$name" | sed -nE 's/^shipcheck-(.+)-([^-]+-[^-]+-linux-(gnu|musl)|[^-]+-apple-macosx)$/\1 \2/p')
    [ -n "${platform:-}" ] || die "$tarball: not named shipcheck-VERSION-PLATFORM.tar.gz"
    tar -C "$bundle" -xzf "$tarball" "$name/bin/shipcheck"
    if [ "$spec" != "$tarball" ]; then triples="${spec#*=}"; else triples="$(platform_triples "$platform")"; fi
    variants="$variants$name/bin/shipcheck $triples"$'\n'
  done
  printf '%s' "$variants" | artifact_info "$version" >"$bundle/info.json"

  local plugins="$out/shipcheck-plugins" binary_target
  mkdir -p "$plugins/Plugins"
  cp -R "$here/Plugins/ShipcheckAudit" "$here/Plugins/ShipcheckBuildTool" "$plugins/Plugins/"
  if command -v zip >/dev/null 2>&1; then
    rm -f "$out/shipcheck.artifactbundle.zip"
    (cd "$out" && zip -qrX shipcheck.artifactbundle.zip shipcheck.artifactbundle)
    (cd "$out" && echo "$(sha256 shipcheck.artifactbundle.zip)  shipcheck.artifactbundle.zip" >shipcheck.artifactbundle.zip.sha256)
  elif [ -n "$release_url" ]; then
    die "--release-url needs zip (apt-get install zip)"
  fi
  if [ -n "$release_url" ]; then
    binary_target=".binaryTarget(
            name: \"shipcheck\",
            url: \"$release_url/$version/shipcheck.artifactbundle.zip\",
            checksum: \"$(sha256 "$out/shipcheck.artifactbundle.zip")\"
        )"
  else
    cp -R "$bundle" "$plugins/"
    binary_target=".binaryTarget(name: \"shipcheck\", path: \"shipcheck.artifactbundle\")"
  fi
  plugin_manifest "$binary_target" >"$plugins/Package.swift"
}

# formula VERSION DIR: Formula/shipcheck.rb with VERSION and the checksums of the tarballs in
# DIR (each sha256 line names its platform in a comment).
formula() {
  local version="$1" dir="$2" platform
  local expressions=(-e "s|^  version \".*\"|  version \"$version\"|")
  for platform in universal-apple-macosx x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu; do
    local file="$dir/shipcheck-$version-$platform.tar.gz.sha256"
    [ -f "$file" ] || die "$file: missing (the release tarball's checksum)"
    expressions+=(-e "s|sha256 \"[0-9a-f]*\" # $platform\$|sha256 \"$(cut -d' ' -f1 "$file")\" # $platform|")
  done
  sed "${expressions[@]}" "$here/Formula/shipcheck.rb"
}

command="${1:-}"; shift || true
case "$command" in
  release-flags) release_flags ;;
  manual) [ $# -eq 2 ] || die "usage: package.sh manual BINARY DIR"; manual "$@" ;;
  stage) [ $# -ge 2 ] || die "usage: package.sh stage BINARY DIR [MANUAL_DIR]"; stage "$@" ;;
  pack) [ $# -ge 2 ] || die "usage: package.sh pack BINARY OUTDIR [options]"; pack "$@" ;;
  bundle) [ $# -ge 2 ] || die "usage: package.sh bundle OUTDIR [--release-url URL] TARBALL..."
          out="$1"; shift; url=""
          if [ "${1:-}" = --release-url ]; then url="$2"; shift 2; fi
          [ $# -ge 1 ] || die "usage: package.sh bundle OUTDIR [--release-url URL] TARBALL..."
          bundle "$out" "$url" "$@" ;;
  formula) [ $# -eq 2 ] || die "usage: package.sh formula VERSION DIR"; formula "$@" ;;
  *) die "usage: package.sh release-flags|stage|manual|pack|bundle|formula …" ;;
esac
