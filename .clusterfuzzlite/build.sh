#!/bin/bash -eu
# ClusterFuzzLite's build: the driver `make fuzz` runs (the Fuzz/ package over
# Tests/HostileInputTargets), built with the sanitizer this run asks for, installed once per
# target as $OUT/fuzz_TARGET (each a hard link: the driver takes its target from its name), with
# the corpus kept in Fuzz/corpus/TARGET.tar.xz and the kept regressions as its seed corpus.
#
# OSS-Fuzz's Swift image sets SANITIZER (address, undefined, ...); libFuzzer links through lld as
# in bench/fuzz/run.sh (gold fails on the instrumented objects).
cd "$SRC/shipcheck"
swift --version
swift build -c release --package-path Fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,"$SANITIZER" -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
driver=.build-fuzz/release/shipcheck-fuzz
cp "$driver" "$OUT/shipcheck-fuzz"
targets=$("$driver" --list)
for target in $targets; do
    ln -f "$OUT/shipcheck-fuzz" "$OUT/fuzz_$target"
    seeds=$(mktemp -d)
    if [ -f "Fuzz/corpus/$target.tar.xz" ]; then tar -xJf "Fuzz/corpus/$target.tar.xz" -C "$seeds"; fi
    if [ -d "Tests/Fixtures/fuzz-regressions/$target" ]; then
        find "Tests/Fixtures/fuzz-regressions/$target" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$seeds/" \;
    fi
    if [ -n "$(ls -A "$seeds")" ]; then (cd "$seeds" && zip -q -r "$OUT/fuzz_${target}_seed_corpus.zip" .); fi
    rm -rf "$seeds"
done
# The libFuzzer options of make fuzz (bench/fuzz/run.sh): leaks are checked at exit, not per input.
for target in $targets; do
    printf '[libfuzzer]\ndetect_leaks = 0\ntimeout = 10\nrss_limit_mb = 2048\n' >"$OUT/fuzz_$target.options"
done
