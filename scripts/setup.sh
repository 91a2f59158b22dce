#!/usr/bin/env bash
# Installs what shipcheck needs to build and test, only when it is missing: with apt-get on
# Debian/Ubuntu, with Homebrew on macOS. Idempotent: a second run changes nothing.
#
#   scripts/setup.sh [bench] [dist] [lint]     with what make bench, dist or lint needs besides
#   scripts/setup.sh no-elf                    without libelf: what a build with the ELF trait
#                                              off needs (--disable-default-traits), as on a Mac
set -euo pipefail

os="$(uname -s)"
missing=()
pkg-config --version >/dev/null 2>&1 || missing+=(pkg-config)
if [ "$os" = Darwin ]; then
  # No libelf: the ELF reader is built on Linux only (Package.swift). git, python3 and zip
  # come with Xcode's command line tools; Homebrew's pkg-config formula is pkgconf.
  [ ${#missing[@]} -eq 0 ] || missing=(pkgconf)
  if ! pkg-config --exists libpcre2-8 2>/dev/null; then missing+=(pcre2); fi
else
  case " $* " in
    *" no-elf "*) ;;
    *) if ! pkg-config --exists libelf 2>/dev/null || [ ! -f /usr/include/gelf.h ]; then missing+=(libelf-dev); fi ;;
  esac
  # PCRE2 is the regular-expression engine of saved queries and binary patterns.
  if ! pkg-config --exists libpcre2-8 2>/dev/null; then missing+=(libpcre2-dev); fi
  # ZIPFoundation reads .ipa files through zlib on Linux (Compression on macOS).
  if ! pkg-config --exists zlib 2>/dev/null; then missing+=(zlib1g-dev); fi
  command -v git >/dev/null 2>&1 || missing+=(git)
  # make demo and the tests assemble the demo .ipa with Samples/Bundles/make_ipa.py.
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  # The size tests hold every entry, section and segment size to unzip -Z -l, llvm-readelf
  # and llvm-size (Debian's llvm; macOS has unzip, and Xcode's size is llvm-size).
  command -v unzip >/dev/null 2>&1 || missing+=(unzip)
  { command -v llvm-readelf && command -v llvm-size; } >/dev/null 2>&1 || missing+=(llvm)
fi
for optional in "$@"; do
  case "$os-$optional" in
    Darwin-bench) for tool in rg:ripgrep hyperfine:hyperfine; do
             command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}"); done ;;
    *-bench) for tool in rg:ripgrep hyperfine:hyperfine eu-readelf:elfutils nm:binutils llvm-nm:llvm; do
             command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}"); done
           # The binary benchmark links its Mach-O inputs with lld-16's ld64.lld.
           [ -x /usr/lib/llvm-16/bin/ld64.lld ] || missing+=(lld-16) ;;
    # The universal static PCRE2 of the macOS release (scripts/pcre2-universal.sh).
    Darwin-dist) command -v cmake >/dev/null 2>&1 || missing+=(cmake) ;;
    *-dist) command -v zip >/dev/null 2>&1 || missing+=(zip) ;;
    # make lint: actionlint runs shellcheck on every run: step when it is on PATH; the linters
    # themselves come from PyPI into a virtual environment (scripts/lint.sh).
    Darwin-lint) command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck) ;;
    *-lint) command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
            python3 -m venv --help >/dev/null 2>&1 || missing+=(python3-venv) ;;
  esac
done

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: no Swift toolchain on PATH. Install Swift 6.2 or later (https://www.swift.org/install/) and run again." >&2
  exit 1
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$os" = Darwin ]; then
  if ! command -v brew >/dev/null 2>&1; then
    echo "setup: missing ${missing[*]}; install them with Homebrew (https://brew.sh): brew install ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: brew install ${missing[*]}"
  brew install "${missing[@]}"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=sudo
  else
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: run as root, or: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: missing ${missing[*]} and no apt-get here; install them with your package manager." >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
