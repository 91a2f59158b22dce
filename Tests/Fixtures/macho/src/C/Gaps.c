// Two pointers further apart than a DYLD_CHAINED_PTR_32 link reaches (31 strides of 4 bytes):
// the chained fixups of the arm64_32 watch app need several chains on one page.
struct Spread {
    const char *first;
    char gap[200];
    const char *second;
};
struct Spread spread = {"first", {1}, "second"};
