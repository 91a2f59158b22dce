# shipcheck — build, test and demo on a fresh Debian/Ubuntu machine with a Swift toolchain.
SWIFT   ?= swift
PREFIX  ?= /usr/local
CONFIG  ?= debug
BIN_DIR  = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path 2>/dev/null)
SHIPCHECK = $(BIN_DIR)/shipcheck
# The release build's flags (the Swift runtime linked in on Linux; the host's architecture on
# macOS, where dist builds each architecture with its own --triple and joins them with lipo):
# shared by release, install and dist so they reuse one build.
RELEASE_FLAGS = $(shell ./scripts/package.sh release-flags)
RELEASE_DIR = $(shell $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path 2>/dev/null)

.PHONY: all setup build release dist test realcheck mutants demo bench fuzz lint install clean

all: build

## setup: install what the build needs when it is missing (idempotent): libelf-dev, libpcre2-dev
## and pkg-config with apt-get on Linux; pcre2 and pkgconf with Homebrew on macOS.
setup:
	@./scripts/setup.sh

## build: debug build of the shipcheck binary.
build: setup
	$(SWIFT) build -c $(CONFIG)

## release: optimised build of the binary (.build/release/shipcheck).
release: setup
	$(SWIFT) build --product shipcheck $(RELEASE_FLAGS)

## dist: optimised, stripped release build with the Swift runtime linked in, packed into dist/:
## shipcheck-VERSION-PLATFORM.tar.gz (+ .sha256), shipcheck.artifactbundle (+ .zip) and the
## shipcheck-plugins package (docs/distribution.md).
dist: setup
	@./scripts/setup.sh dist
	SWIFT="$(SWIFT)" ./scripts/dist.sh

## test: the whole test suite (unit tests and tests of the real binary). It builds the test
## product and the binary by name: `swift build --build-tests` would also build a second, host
## copy of shipcheck and swift-syntax for the plugins (SwiftPM's "-tool" products).
test: setup
	$(SWIFT) build --product shipcheckPackageTests
	$(SWIFT) build --product shipcheck
	$(SWIFT) test --skip-build

## realcheck: shipcheck on real third-party artifacts (PyPI wheels, Debian packages, committed
## vendor files: Tests/RealArtifacts/), each against the verdict written down for it; downloads
## what .build/realcheck/ lacks (about 120 MB) and checks every sha256.
realcheck: build
	@./scripts/realcheck.sh "$(SHIPCHECK)"

## mutants: shows that a broken decoder fails the tests: each mutant of Tests/Fixtures/mutants/
## is applied, the tests it names are run (they must fail) and the file restored; about 25 s a
## mutant (docs/testing.md). Not part of make test, which checks only that every mutant applies.
mutants: setup
	@./scripts/mutants.sh

## demo: build, then run shipcheck on Samples/ and check it reports what the samples contain.
demo: build
	@./Samples/demo.sh "$(SHIPCHECK)"

## lint: the CI definitions checked (scripts/lint.sh): actionlint and zizmor on every workflow
## and the composite action, shellcheck on the scripts the workflows run. Needs no Swift build.
lint:
	@./scripts/setup.sh lint
	@./scripts/lint.sh

# make bench and make fuzz measure with Linux's tools (GNU time and tar, /proc, nproc, ELF
# tools, libFuzzer): on a Mac they stop here, before building anything.
ifeq ($(shell uname -s),Darwin)
bench fuzz:
	@echo "make $@: Linux only (GNU time and tar, /proc, nproc, ELF tools, libFuzzer): run it in a Linux container" >&2; exit 2
else
## bench: benchmarks side by side with peer tools; writes bench/RESULTS.md.
bench: setup release
	@./scripts/setup.sh bench
	@./bench/run.sh

## fuzz: libFuzzer on each reader for FUZZ_SECONDS (default 60) or FUZZ_RUNS executions each; crashers are kept in
## Tests/Fixtures/fuzz-regressions/ (replayed by make test); figures in bench/results/fuzz.md.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 1000000
fuzz: setup
	FUZZ_SECONDS="$(FUZZ_SECONDS)" FUZZ_RUNS="$(FUZZ_RUNS)" ./bench/fuzz/run.sh
endif

## install: the release binary into $(PREFIX)/bin, its manual page into $(PREFIX)/share/man/man1
## and bash, zsh and fish completions under $(PREFIX)/share.
install: release
	rm -rf .build/install-stage
	SWIFT="$(SWIFT)" ./scripts/package.sh manual "$(RELEASE_DIR)/shipcheck" .build/install-stage/man
	./scripts/package.sh stage "$(RELEASE_DIR)/shipcheck" .build/install-stage/root .build/install-stage/man
	install -d "$(DESTDIR)$(PREFIX)"
	cp -R .build/install-stage/root/. "$(DESTDIR)$(PREFIX)/"

clean:
	rm -rf .build dist
