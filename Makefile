# shipcheck — build, test and demo on a fresh Debian/Ubuntu machine with a Swift toolchain.
SWIFT   ?= swift
PREFIX  ?= /usr/local
CONFIG  ?= debug
BIN_DIR  = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path 2>/dev/null)
SHIPCHECK = $(BIN_DIR)/shipcheck

.PHONY: all setup build release test demo bench fuzz install clean

all: build

## setup: install libelf-dev and pkg-config with apt-get when missing (idempotent).
setup:
	@./scripts/setup.sh

## build: debug build of the shipcheck binary.
build: setup
	$(SWIFT) build -c $(CONFIG)

## release: optimised build (.build/release/shipcheck).
release: setup
	$(SWIFT) build -c release

## test: the whole test suite (unit tests and tests of the real binary).
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## demo: build, then run shipcheck on Samples/ and check it reports what the samples contain.
demo: build
	@./Samples/demo.sh "$(SHIPCHECK)"

## bench: benchmarks side by side with peer tools; writes bench/RESULTS.md.
bench: setup release
	@./scripts/setup.sh bench
	@./bench/run.sh

## fuzz: libFuzzer on each reader for FUZZ_SECONDS (default 60) each; crashers are kept in
## Tests/Fixtures/fuzz-regressions/ (replayed by make test); figures in bench/results/fuzz.md.
FUZZ_SECONDS ?= 60
fuzz: setup
	FUZZ_SECONDS="$(FUZZ_SECONDS)" ./bench/fuzz/run.sh

## install: copy the release binary to $(PREFIX)/bin.
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/shipcheck" "$(DESTDIR)$(PREFIX)/bin/shipcheck"

clean:
	rm -rf .build
