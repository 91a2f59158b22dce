#ifndef SHIPCHECK_CBYTESEARCH_H
#define SHIPCHECK_CBYTESEARCH_H
#include <stddef.h>
#include <stdint.h>

/// memmem's result (the first occurrence of the needle, or NULL), found as ripgrep's memchr
/// crate does: the needle's two rarest bytes are compared thirty-two positions at a time
/// (AVX2, chosen at run time) or sixteen (SSE2, NEON; a byte loop elsewhere), and only where
/// both are in place is the whole needle compared: glibc's two-way memmem is slower on short
/// needles (see docs/performance.md, "`shipcheck_memmem`: two rare bytes at a time").
const void *shipcheck_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// How common `byte` is in source code, 0 the rarest (the rank `shipcheck_memmem` picks by).
unsigned char shipcheck_byte_rank(unsigned char byte);

/// Teddy's tables (Hyperscan's multi-literal search, as ripgrep uses it) for up to eight
/// buckets of needles: bucket `b` may start a needle's fingerprint at `p` when, for each
/// offset `j` of the three-byte fingerprint, bit `b` is set in `low[j][text[p + j] & 15]` and in
/// `high[j][text[p + j] >> 4]` (a needle shorter than three bytes sets its bit in every entry of
/// the offsets it does not have). Bucket `b`'s needles are `bucket_start[b] ..< bucket_start[b + 1]`.
typedef struct {
    unsigned char low[3][16];
    unsigned char high[3][16];
    size_t bucket_start[9];
} shipcheck_teddy_tables;

/// One needle of a Teddy search: its bytes are `needle_text[start ..< start + length]`
/// (ASCII-lowercased when `fold_case`, then found in either case), its fingerprint starts at
/// `anchor`; it is searched for while `open`.
typedef struct {
    size_t start;
    size_t length;
    size_t anchor;
    unsigned char fold_case;
    unsigned char open;
} shipcheck_teddy_needle;

/// The first position at or after `from` where an open needle's fingerprint starts and the
/// whole needle is in place, with that needle's index in `*found`; `length` when there is
/// none. `wanted` has the buckets with open needles. Thirty-two positions at a time with AVX2,
/// sixteen with SSSE3 or NEON (chosen at run time on x86), one at a time otherwise; candidates
/// are confirmed inside the loop. One pass finds any of several needles, so a buffer is read
/// once for all of them; the caller closes what it has found and goes on from the position
/// returned.
size_t shipcheck_teddy_find(const void *text, size_t length, size_t from, const shipcheck_teddy_tables *tables, const unsigned char *needle_text,
                            const shipcheck_teddy_needle *needles, unsigned char wanted, size_t *found);

/// Whether `text` is well-formed UTF-8 (ASCII sixteen bytes at a time). PCRE2 matches a
/// subject known to be valid without its own check and without the slower code that tolerates
/// invalid sequences.
int shipcheck_utf8_valid(const void *text, size_t length);

/// How many times `byte` occurs in `text`, thirty-two bytes at a time with AVX2 (chosen at run
/// time), sixteen with SSE2 or NEON; `*last` is the offset of
/// the last one, or `length` when there is none. Turns match offsets into line numbers
/// without a call per line.
size_t shipcheck_count_byte(const void *text, size_t length, unsigned char byte, size_t *last);

/// Bits a Bloom filter sets per identifier (`IdentifierFilter`).
#define SHIPCHECK_IDENTIFIER_FILTER_PROBES 3

/// Sets, in the Bloom filter `words` (`word_count` a power of two), the bits of every
/// identifier-shaped run of `text`: ASCII letters, digits, `_` and every non-ASCII byte.
void shipcheck_identifier_filter_add(const void *text, size_t length, uint64_t *words, size_t word_count);

/// Whether every bit `name` would set is set: false means no run of the filtered text is `name`.
int shipcheck_identifier_filter_contains(const void *name, size_t length, const uint64_t *words, size_t word_count);

/// XXH64 of `text` with `seed` (xxHash's 64-bit hash, by its specification): a file's content
/// hash for the result cache, at memory speed.
uint64_t shipcheck_xxh64(const void *text, size_t length, uint64_t seed);

#endif
