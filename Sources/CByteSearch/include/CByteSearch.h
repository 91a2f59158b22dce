#ifndef SHIPCHECK_CBYTESEARCH_H
#define SHIPCHECK_CBYTESEARCH_H
#include <stddef.h>

/// memmem's result (the first occurrence of the needle, or NULL), found as ripgrep's memchr
/// crate does: the needle's two rarest bytes are compared sixteen positions at a time (SSE2,
/// NEON; a byte loop elsewhere) and only where both are in place is the whole needle compared.
/// glibc's two-way memmem reads short needles at about 1 GB/s; this reads several.
const void *shipcheck_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// How common `byte` is in source code, 0 the rarest (the rank `shipcheck_memmem` picks by).
unsigned char shipcheck_byte_rank(unsigned char byte);

/// The first offset at or after `from` (below `length` - 1) whose two bytes, as the index
/// `text[i] | text[i + 1] << 8` into `buckets` (65,536 entries), have a bit of `wanted` set;
/// `length` when none has. One pass that finds where any of several needles may be (each
/// needle's rarest byte pair marks its bucket), so a buffer is read once for all of them.
size_t shipcheck_next_pair(const void *text, size_t length, size_t from, const unsigned char *buckets, unsigned char wanted);

/// Whether `text` is well-formed UTF-8 (ASCII sixteen bytes at a time). PCRE2 matches a
/// subject known to be valid without its own check and without the slower code that tolerates
/// invalid sequences.
int shipcheck_utf8_valid(const void *text, size_t length);

/// How many times `byte` occurs in `text`, sixteen bytes at a time; `*last` is the offset of
/// the last one, or `length` when there is none. Turns match offsets into line numbers
/// without a call per line.
size_t shipcheck_count_byte(const void *text, size_t length, unsigned char byte, size_t *last);

#endif
