# Homebrew formula for shipcheck's prebuilt release, ready for a tap (shipcheck/homebrew-tap):
#   brew install shipcheck/tap/shipcheck
# The release workflow (.github/workflows/release.yml) writes the version and the tarballs'
# checksums with `scripts/package.sh formula` and pushes the result to the tap; the checksums
# here stay zero until a release is cut from this revision.
class Shipcheck < Formula
  desc "Build-configuration auditor for Swift release artifacts"
  homepage "https://github.com/shipcheck/shipcheck"
  version "0.1.0"
  license "Apache-2.0"

  # libz.so.1, which the Linux binary loads (zip reading); macOS has its own.
  uses_from_macos "zlib"

  on_macos do
    # One universal (arm64 + x86_64) binary; the Swift runtime is the OS's, PCRE2 is linked in.
    # Built for macOS 15 and later (Package.swift's platforms, dist.sh's triples): an older
    # macOS would refuse to load it, so Homebrew says so before installing.
    depends_on macos: :sequoia
    url "https://github.com/shipcheck/shipcheck/releases/download/#{version}/shipcheck-#{version}-universal-apple-macosx.tar.gz"
    sha256 "0000000000000000000000000000000000000000000000000000000000000000" # universal-apple-macosx
  end

  on_linux do
    # The Swift runtime is linked in; glibc comes from the system, libelf.so.1 (elfutils) and
    # libpcre2-8.so.0 (pcre2) from these formulae where the system has none.
    depends_on "elfutils"
    depends_on "pcre2"
    on_intel do
      url "https://github.com/shipcheck/shipcheck/releases/download/#{version}/shipcheck-#{version}-x86_64-unknown-linux-gnu.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000" # x86_64-unknown-linux-gnu
    end
    on_arm do
      url "https://github.com/shipcheck/shipcheck/releases/download/#{version}/shipcheck-#{version}-aarch64-unknown-linux-gnu.tar.gz"
      sha256 "0000000000000000000000000000000000000000000000000000000000000000" # aarch64-unknown-linux-gnu
    end
  end

  def install
    bin.install "bin/shipcheck"
    man1.install "share/man/man1/shipcheck.1"
    bash_completion.install "share/bash-completion/completions/shipcheck"
    zsh_completion.install "share/zsh/site-functions/_shipcheck"
    fish_completion.install "share/fish/vendor_completions.d/shipcheck.fish"
  end

  test do
    assert_match "#{version} (revision", shell_output("#{bin}/shipcheck --version")
    (testpath/"App.swift").write("import SwiftUI\n#Preview { Text(\"x\") }\n")
    assert_match "[preview-outside-debug]", shell_output("#{bin}/shipcheck sources --no-color #{testpath}", 1)
  end
end
