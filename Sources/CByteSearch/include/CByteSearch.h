#ifndef SHIPCHECK_CBYTESEARCH_H
#define SHIPCHECK_CBYTESEARCH_H
#include <stddef.h>

/// memmem (glibc's two-way search, hidden from Swift's Glibc module without _GNU_SOURCE).
const void *shipcheck_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
