// One swift-testing record in __DATA_CONST,__swift5_tests (kind 'test', reserved, then the
// accessor, context and reserved words), as the @Test macro emits for
// `@Test func sampleFixtureLoads()` in AppTestSupport. The accessor is named (by build.sh, through
// ACCESSOR_NAME) exactly as the macro names it in the ELF sample, so findings can name the test.
// (No <stdint.h>: there is no Apple SDK here; unsigned long is 64-bit on every target built.)
static int testAccessor(void) __asm__(ACCESSOR_NAME);
static int testAccessor(void) { return 1; }

struct TestContentRecord {
    unsigned int kind;
    unsigned int reserved1;
    int (*accessor)(void);
    unsigned long context;
    unsigned long reserved2;
};

__attribute__((used, section("__DATA_CONST,__swift5_tests")))
static const struct TestContentRecord record = {0x74657374, 0, testAccessor, 0, 0};
