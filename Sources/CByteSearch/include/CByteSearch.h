#ifndef SHIPCHECK_CBYTESEARCH_H
#define SHIPCHECK_CBYTESEARCH_H
#include <stddef.h>

/// memmem's result (the first occurrence of the needle, or NULL), found as ripgrep's memchr
/// crate does: the needle's two rarest bytes are compared sixteen positions at a time (SSE2,
/// NEON; a byte loop elsewhere) and only where both are in place is the whole needle compared.
/// glibc's two-way memmem reads short needles at about 1 GB/s; this reads several.
const void *shipcheck_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
