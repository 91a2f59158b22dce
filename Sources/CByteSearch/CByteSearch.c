#include <stdint.h>
#include <string.h>
#include "CByteSearch.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif

/// How common each byte is in source code, 0 the rarest: the order of byte counts over the
/// Swift package mirrors' sources, manifests and docs (/opt/swift-packages; see
/// docs/performance.md, "`shipcheck_memmem`: two rare bytes at a time"). Only speed depends on
/// it: any order finds the same matches.
static const unsigned char byte_rank[256] = {
      0,   1,   2,   3,   4,   5,   6,   7,   8, 164, 246,   9,  10,  11,  12,  13,
     14,  15,  16,  63,  17,  18,  19,  20,  21,  22,  23,  64,  24,  25,  26,  27,
    255, 172, 240, 183, 163, 161, 171, 168, 217, 218, 184, 165, 232, 220, 231, 228,
    245, 233, 236, 237, 229, 225, 238, 223, 221, 235, 230, 177, 179, 205, 185, 174,
    170, 203, 193, 206, 198, 208, 197, 189, 181, 207, 166, 178, 199, 194, 204, 201,
    202, 173, 200, 216, 209, 188, 186, 176, 187, 169, 162, 190, 182, 191, 151, 219,
    195, 251, 226, 244, 243, 254, 241, 222, 227, 248, 175, 196, 242, 224, 250, 252,
    234, 192, 249, 247, 253, 239, 211, 210, 214, 215, 180, 212, 167, 213, 155,  28,
    157, 156, 153, 149, 141, 109, 129,  87, 140, 113, 134, 148, 147,  90,  78, 107,
    120,  96, 111, 112, 158, 144, 108, 119, 133, 143, 128,  84, 138, 135,  91, 125,
    130, 114,  80,  82, 137, 103,  99, 122, 127, 121,  94,  88,  98,  85, 115, 118,
    126,  83, 124,  97, 123,  86,  81,  79, 139, 117,  89, 104, 136, 110,  92, 105,
     29,  30, 100, 106,  71,  76,  31,  32,  33,  34,  72,  62, 102,  73,  77,  75,
     74,  70,  35,  36,  37,  38,  39,  40,  68,  65,  41,  42,  43,  44,  45,  46,
     69,  66, 160, 159, 145, 150, 146, 131, 132,  95, 116, 152, 154, 142,  47, 101,
     93,  48,  49,  67,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60,  61,
};

unsigned char shipcheck_byte_rank(unsigned char byte) { return byte_rank[byte]; }

/// The needle's two rarest bytes, at distinct offsets.
static void rare_pair(const unsigned char *needle, size_t length, size_t *first, size_t *second) {
    size_t rarest = 0, next = 1;
    if (byte_rank[needle[1]] < byte_rank[needle[0]]) { rarest = 1; next = 0; }
    for (size_t index = 2; index < length; index++) {
        if (byte_rank[needle[index]] < byte_rank[needle[rarest]]) { next = rarest; rarest = index; }
        else if (byte_rank[needle[index]] < byte_rank[needle[next]]) { next = index; }
    }
    *first = rarest;
    *second = next;
}

#if defined(__x86_64__) || defined(__i386__)
/// `shipcheck_memmem`'s loop thirty-two starts at a time, for the starts up to `last`: the
/// first start where the needle is, or `SIZE_MAX` with `*stopped` where the loop stopped.
__attribute__((target("avx2")))
static size_t memmem_avx2(const unsigned char *text, size_t last, const unsigned char *pattern, size_t length, size_t first, size_t second, size_t *stopped) {
    const __m256i want_first = _mm256_set1_epi8((char)pattern[first]), want_second = _mm256_set1_epi8((char)pattern[second]);
    size_t start = 0;
    for (; start + 31 <= last; start += 32) {
        __m256i at_first = _mm256_loadu_si256((const __m256i *)(text + start + first));
        __m256i at_second = _mm256_loadu_si256((const __m256i *)(text + start + second));
        unsigned mask = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(at_first, want_first), _mm256_cmpeq_epi8(at_second, want_second)));
        for (; mask != 0; mask &= mask - 1) {
            size_t candidate = start + (size_t)__builtin_ctz(mask);
            if (memcmp(text + candidate, pattern, length) == 0) return candidate;
        }
    }
    *stopped = start;
    return SIZE_MAX;
}
#endif

const void *shipcheck_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    const unsigned char *text = haystack, *pattern = needle;
    if (needle_length == 0 || needle_length > haystack_length) return needle_length == 0 ? haystack : NULL;
    if (needle_length == 1) return memchr(haystack, pattern[0], haystack_length);
    size_t first, second;
    rare_pair(pattern, needle_length, &first, &second);
    const size_t last = haystack_length - needle_length;  // the last possible start
    size_t start = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) {
        size_t found = memmem_avx2(text, last, pattern, needle_length, first, second, &start);
        if (found != SIZE_MAX) return text + found;
    }
#endif
#if defined(__SSE2__) || (defined(__aarch64__) && defined(__ARM_NEON))
    // Sixteen starts at a time: those whose two rare bytes are in place are checked whole.
    // A load at start + 15 + offset never passes the haystack's end, as start + 15 <= last.
#if defined(__SSE2__)
    const __m128i want_first = _mm_set1_epi8((char)pattern[first]), want_second = _mm_set1_epi8((char)pattern[second]);
#else
    const uint8x16_t want_first = vdupq_n_u8(pattern[first]), want_second = vdupq_n_u8(pattern[second]);
#endif
    for (; start + 15 <= last; start += 16) {
#if defined(__SSE2__)
        __m128i at_first = _mm_loadu_si128((const __m128i *)(text + start + first));
        __m128i at_second = _mm_loadu_si128((const __m128i *)(text + start + second));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(at_first, want_first), _mm_cmpeq_epi8(at_second, want_second)));
        while (mask != 0) {
            size_t candidate = start + (size_t)__builtin_ctz(mask);
            if (memcmp(text + candidate, pattern, needle_length) == 0) return text + candidate;
            mask &= mask - 1;
        }
#else
        uint8x16_t both = vandq_u8(vceqq_u8(vld1q_u8(text + start + first), want_first), vceqq_u8(vld1q_u8(text + start + second), want_second));
        if (vmaxvq_u8(both) == 0) continue;
        for (size_t lane = 0; lane < 16; lane++) {
            if (text[start + lane + first] == pattern[first] && text[start + lane + second] == pattern[second]
                && memcmp(text + start + lane, pattern, needle_length) == 0) return text + start + lane;
        }
#endif
    }
#endif
    for (; start <= last; start++) {
        if (text[start + first] == pattern[first] && text[start + second] == pattern[second]
            && memcmp(text + start, pattern, needle_length) == 0) return text + start;
    }
    return NULL;
}

/// One Teddy search: the text, the tables and the needles.
typedef struct {
    const unsigned char *bytes;
    size_t length;
    const shipcheck_teddy_tables *tables;
    const unsigned char *needle_text;
    const shipcheck_teddy_needle *needles;
} teddy_search;

/// The first open needle of `buckets` whose fingerprint is at `position` and whose bytes are
/// all in place there; `SIZE_MAX` when there is none.
static size_t teddy_confirm(const teddy_search *search, size_t position, unsigned buckets) {
    for (; buckets != 0; buckets &= buckets - 1) {
        unsigned bucket = (unsigned)__builtin_ctz(buckets);
        for (size_t index = search->tables->bucket_start[bucket]; index < search->tables->bucket_start[bucket + 1]; index++) {
            const shipcheck_teddy_needle *needle = &search->needles[index];
            if (!needle->open || position < needle->anchor) continue;
            size_t start = position - needle->anchor;
            if (needle->length > search->length - start) continue;
            const unsigned char *wanted = search->needle_text + needle->start, *here = search->bytes + start;
            if (!needle->fold_case) {
                // Most candidates differ at once: no call for those.
                if (here[0] == wanted[0] && memcmp(here, wanted, needle->length) == 0) return index;
                continue;
            }
            size_t offset = 0;
            while (offset < needle->length && (here[offset] >= 'A' && here[offset] <= 'Z' ? here[offset] + 0x20 : here[offset]) == wanted[offset]) offset++;
            if (offset == needle->length) return index;
        }
    }
    return SIZE_MAX;
}

/// The candidates of one block of positions (`lanes`: one bit per position with buckets, which
/// are in `per_lane`): the position of the first confirmed, its needle in `*found`; else
/// `SIZE_MAX`.
static size_t teddy_block(const teddy_search *search, size_t index, const unsigned char *per_lane, unsigned lanes, size_t *found) {
    for (; lanes != 0; lanes &= lanes - 1) {
        unsigned lane = (unsigned)__builtin_ctz(lanes);
        size_t needle = teddy_confirm(search, index + lane, per_lane[lane]);
        if (needle != SIZE_MAX) {
            *found = needle;
            return index + lane;
        }
    }
    return SIZE_MAX;
}

/// The buckets whose fingerprint is at `position`: bytes past the end of the text rule nothing
/// out (a needle is confirmed whole, in bounds).
static unsigned char teddy_at(const teddy_search *search, size_t position) {
    unsigned char buckets = 0xFF;
    for (size_t offset = 0; offset < 3 && position + offset < search->length; offset++) {
        unsigned char byte = search->bytes[position + offset];
        buckets &= search->tables->low[offset][byte & 0x0F] & search->tables->high[offset][byte >> 4];
    }
    return buckets;
}

// The SIMD loops: the fingerprint of sixteen (thirty-two) positions at once. Each of the three
// bytes at position + 0, 1, 2 is split into nibbles, each nibble looks its buckets up in a
// 16-entry table (pshufb, tbl), and a bucket stays where all six lookups have it. Each returns
// the position of the first needle confirmed (`*found` its index), or, with `*found` left
// `SIZE_MAX`, the position where the block loop stopped. x86-64's baseline is SSE2, which has
// no pshufb: those loops are compiled for SSSE3 / AVX2 and chosen at run time.
#if defined(__x86_64__) || defined(__i386__)
#define TEDDY_LOOKUP(shuffle, and, srli, low, high, chunk, nibble) \
    and(shuffle(low, and(chunk, nibble)), shuffle(high, and(srli(chunk, 4), nibble)))

__attribute__((target("avx2")))
static size_t teddy_avx2(const teddy_search *search, size_t index, unsigned char wanted, size_t *found) {
    const __m256i nibble = _mm256_set1_epi8(0x0F), want = _mm256_set1_epi8((char)wanted), zero = _mm256_setzero_si256();
    __m256i low[3], high[3];
    for (int offset = 0; offset < 3; offset++) {
        low[offset] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)search->tables->low[offset]));
        high[offset] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)search->tables->high[offset]));
    }
    for (; index + 34 <= search->length; index += 32) {
        __m256i hits = want;
        for (int offset = 0; offset < 3; offset++) {
            __m256i chunk = _mm256_loadu_si256((const __m256i *)(search->bytes + index + offset));
            hits = _mm256_and_si256(hits, TEDDY_LOOKUP(_mm256_shuffle_epi8, _mm256_and_si256, _mm256_srli_epi16, low[offset], high[offset], chunk, nibble));
        }
        unsigned lanes = ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hits, zero));
        if (lanes == 0) continue;
        unsigned char per_lane[32];
        _mm256_storeu_si256((__m256i *)per_lane, hits);
        size_t position = teddy_block(search, index, per_lane, lanes, found);
        if (position != SIZE_MAX) return position;
    }
    return index;
}

__attribute__((target("ssse3")))
static size_t teddy_ssse3(const teddy_search *search, size_t index, unsigned char wanted, size_t *found) {
    const __m128i nibble = _mm_set1_epi8(0x0F), want = _mm_set1_epi8((char)wanted), zero = _mm_setzero_si128();
    __m128i low[3], high[3];
    for (int offset = 0; offset < 3; offset++) {
        low[offset] = _mm_loadu_si128((const __m128i *)search->tables->low[offset]);
        high[offset] = _mm_loadu_si128((const __m128i *)search->tables->high[offset]);
    }
    for (; index + 18 <= search->length; index += 16) {
        __m128i hits = want;
        for (int offset = 0; offset < 3; offset++) {
            __m128i chunk = _mm_loadu_si128((const __m128i *)(search->bytes + index + offset));
            hits = _mm_and_si128(hits, TEDDY_LOOKUP(_mm_shuffle_epi8, _mm_and_si128, _mm_srli_epi16, low[offset], high[offset], chunk, nibble));
        }
        unsigned lanes = 0xFFFF & ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hits, zero));
        if (lanes == 0) continue;
        unsigned char per_lane[16];
        _mm_storeu_si128((__m128i *)per_lane, hits);
        size_t position = teddy_block(search, index, per_lane, lanes, found);
        if (position != SIZE_MAX) return position;
    }
    return index;
}
#elif defined(__aarch64__) && defined(__ARM_NEON)
static size_t teddy_neon(const teddy_search *search, size_t index, unsigned char wanted, size_t *found) {
    const uint8x16_t nibble = vdupq_n_u8(0x0F), want = vdupq_n_u8(wanted);
    uint8x16_t low[3], high[3];
    for (int offset = 0; offset < 3; offset++) {
        low[offset] = vld1q_u8(search->tables->low[offset]);
        high[offset] = vld1q_u8(search->tables->high[offset]);
    }
    for (; index + 18 <= search->length; index += 16) {
        uint8x16_t hits = want;
        for (int offset = 0; offset < 3; offset++) {
            uint8x16_t chunk = vld1q_u8(search->bytes + index + offset);
            hits = vandq_u8(hits, vandq_u8(vqtbl1q_u8(low[offset], vandq_u8(chunk, nibble)), vqtbl1q_u8(high[offset], vshrq_n_u8(chunk, 4))));
        }
        if (vmaxvq_u8(hits) == 0) continue;
        unsigned char per_lane[16];
        vst1q_u8(per_lane, hits);
        unsigned lanes = 0;
        for (unsigned lane = 0; lane < 16; lane++) lanes |= (unsigned)(per_lane[lane] != 0) << lane;
        size_t position = teddy_block(search, index, per_lane, lanes, found);
        if (position != SIZE_MAX) return position;
    }
    return index;
}
#endif

size_t shipcheck_teddy_find(const void *text, size_t length, size_t from, const shipcheck_teddy_tables *tables, const unsigned char *needle_text,
                            const shipcheck_teddy_needle *needles, unsigned char wanted, size_t *found) {
    const teddy_search search = {text, length, tables, needle_text, needles};
    size_t index = from;
    *found = SIZE_MAX;
    if (wanted == 0) return length;
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) index = teddy_avx2(&search, index, wanted, found);
    else if (__builtin_cpu_supports("ssse3")) index = teddy_ssse3(&search, index, wanted, found);
#elif defined(__aarch64__) && defined(__ARM_NEON)
    index = teddy_neon(&search, index, wanted, found);
#endif
    if (*found != SIZE_MAX) return index;
    // The last positions (and every position without SIMD), one at a time.
    for (; index < length; index++) {
        unsigned char buckets = teddy_at(&search, index) & wanted;
        if (buckets == 0) continue;
        size_t needle = teddy_confirm(&search, index, buckets);
        if (needle != SIZE_MAX) {
            *found = needle;
            return index;
        }
    }
    return length;
}

int shipcheck_utf8_valid(const void *text, size_t length) {
    const unsigned char *bytes = text;
    size_t index = 0;
    while (index < length) {
#if defined(__SSE2__)
        // Source is mostly ASCII: sixteen bytes at a time while no byte has its top bit set.
        while (index + 16 <= length && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(bytes + index))) == 0) index += 16;
#elif defined(__aarch64__) && defined(__ARM_NEON)
        while (index + 16 <= length && vmaxvq_u8(vld1q_u8(bytes + index)) < 0x80) index += 16;
#endif
        if (index >= length) break;
        unsigned char lead = bytes[index];
        if (lead < 0x80) { index++; continue; }
        // The Unicode Standard's table 3-7 of well-formed sequences: no overlong forms, no
        // surrogates, nothing above U+10FFFF.
        size_t extra;
        unsigned char low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) extra = 1;
        else if (lead >= 0xE0 && lead <= 0xEF) { extra = 2; if (lead == 0xE0) low = 0xA0; else if (lead == 0xED) high = 0x9F; }
        else if (lead >= 0xF0 && lead <= 0xF4) { extra = 3; if (lead == 0xF0) low = 0x90; else if (lead == 0xF4) high = 0x8F; }
        else return 0;
        if (length - index <= extra) return 0;
        if (bytes[index + 1] < low || bytes[index + 1] > high) return 0;
        for (size_t next = 2; next <= extra; next++) {
            if ((bytes[index + next] & 0xC0) != 0x80) return 0;
        }
        index += extra + 1;
    }
    return 1;
}

#if defined(__x86_64__) || defined(__i386__)
/// `shipcheck_count_byte`'s loop thirty-two bytes at a time: how many times `byte` occurs in
/// the whole 32-byte blocks from `*index` on, with `*index` moved past them.
__attribute__((target("avx2")))
static size_t count_byte_avx2(const unsigned char *bytes, size_t length, unsigned char byte, size_t *index) {
    const __m256i wanted = _mm256_set1_epi8((char)byte), zero = _mm256_setzero_si256();
    size_t count = 0, at = *index;
    while (at + 32 <= length) {
        __m256i counts = zero;
        for (int round = 0; round < 255 && at + 32 <= length; round++, at += 32) {
            counts = _mm256_sub_epi8(counts, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(bytes + at)), wanted));
        }
        uint64_t sums[4];
        _mm256_storeu_si256((__m256i *)sums, _mm256_sad_epu8(counts, zero));
        count += (size_t)(sums[0] + sums[1] + sums[2] + sums[3]);
    }
    *index = at;
    return count;
}
#endif

size_t shipcheck_count_byte(const void *text, size_t length, unsigned char byte, size_t *last) {
    const unsigned char *bytes = text;
    size_t count = 0, index = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (length >= 64 && __builtin_cpu_supports("avx2")) count = count_byte_avx2(bytes, length, byte, &index);
#endif
#if defined(__SSE2__)
    // Each equal byte subtracts -1 from a lane of an 8-bit counter; the lanes are summed
    // (psadbw) before any can pass 255. No per-block mask, popcount or branch.
    const __m128i wanted = _mm_set1_epi8((char)byte), zero = _mm_setzero_si128();
    while (index + 16 <= length) {
        __m128i counts = zero;
        for (int round = 0; round < 255 && index + 16 <= length; round++, index += 16) {
            counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + index)), wanted));
        }
        __m128i sums = _mm_sad_epu8(counts, zero);
        count += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_extract_epi16(sums, 4);
    }
#elif defined(__aarch64__) && defined(__ARM_NEON)
    const uint8x16_t wanted = vdupq_n_u8(byte);
    while (index + 16 <= length) {
        uint8x16_t counts = vdupq_n_u8(0);
        for (int round = 0; round < 255 && index + 16 <= length; round++, index += 16) {
            counts = vsubq_u8(counts, vceqq_u8(vld1q_u8(bytes + index), wanted));
        }
        count += vaddlvq_u8(counts);
    }
#endif
    for (; index < length; index++) count += bytes[index] == byte;
    // The last one, searched back from the end: lines are short, so this stops soon.
    size_t found = length;
    if (count > 0) {
        for (size_t back = length; back > 0; back--) {
            if (bytes[back - 1] == byte) { found = back - 1; break; }
        }
    }
    *last = found;
    return count;
}

/// FNV-1a over one identifier-shaped run, the hash `IdentifierFilter` sets bits by.
static inline uint64_t identifier_hash(const unsigned char *bytes, size_t length) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t index = 0; index < length; index++) hash = (hash ^ bytes[index]) * 0x100000001b3ULL;
    return hash;
}

static inline int is_identifier_byte(unsigned char byte) {
    return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') || byte == '_' ||
           byte >= 0x80;
}

void shipcheck_identifier_filter_add(const void *text, size_t length, uint64_t *words, size_t word_count) {
    const unsigned char *bytes = text;
    const uint64_t mask = (uint64_t)word_count * 64 - 1;
    size_t index = 0;
    while (index < length) {
        if (!is_identifier_byte(bytes[index])) {
            index++;
            continue;
        }
        size_t start = index;
        while (index < length && is_identifier_byte(bytes[index])) index++;
        uint64_t hash = identifier_hash(bytes + start, index - start);
        uint64_t step = (hash >> 32) | 1;
        for (int probe = 0; probe < SHIPCHECK_IDENTIFIER_FILTER_PROBES; probe++) {
            uint64_t bit = (hash + (uint64_t)probe * step) & mask;
            words[bit >> 6] |= 1ULL << (bit & 63);
        }
    }
}

int shipcheck_identifier_filter_contains(const void *name, size_t length, const uint64_t *words, size_t word_count) {
    const uint64_t mask = (uint64_t)word_count * 64 - 1;
    uint64_t hash = identifier_hash(name, length);
    uint64_t step = (hash >> 32) | 1;
    for (int probe = 0; probe < SHIPCHECK_IDENTIFIER_FILTER_PROBES; probe++) {
        uint64_t bit = (hash + (uint64_t)probe * step) & mask;
        if (!(words[bit >> 6] & (1ULL << (bit & 63)))) return 0;
    }
    return 1;
}

/* XXH64 (Yann Collet's xxHash, 64-bit variant), as specified in xxhash's doc/xxhash_spec.md. */
static const uint64_t xxh_prime1 = 0x9E3779B185EBCA87ULL, xxh_prime2 = 0xC2B2AE3D27D4EB4FULL,
                      xxh_prime3 = 0x165667B19E3779F9ULL, xxh_prime4 = 0x85EBCA77C2B2AE63ULL,
                      xxh_prime5 = 0x27D4EB2F165667C5ULL;

static inline uint64_t xxh_rotl(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

static inline uint64_t xxh_read64(const unsigned char *bytes) {
    uint64_t value;
    memcpy(&value, bytes, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap64(value);
#endif
    return value;
}

static inline uint32_t xxh_read32(const unsigned char *bytes) {
    uint32_t value;
    memcpy(&value, bytes, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    value = __builtin_bswap32(value);
#endif
    return value;
}

static inline uint64_t xxh_round(uint64_t accumulator, uint64_t lane) {
    return xxh_rotl(accumulator + lane * xxh_prime2, 31) * xxh_prime1;
}

static inline uint64_t xxh_merge(uint64_t accumulator, uint64_t lane) {
    return (accumulator ^ xxh_round(0, lane)) * xxh_prime1 + xxh_prime4;
}

uint64_t shipcheck_xxh64(const void *text, size_t length, uint64_t seed) {
    const unsigned char *bytes = text, *end = bytes + length;
    uint64_t hash;
    if (length >= 32) {
        uint64_t v1 = seed + xxh_prime1 + xxh_prime2, v2 = seed + xxh_prime2, v3 = seed, v4 = seed - xxh_prime1;
        const unsigned char *limit = end - 32;
        do {
            v1 = xxh_round(v1, xxh_read64(bytes));
            v2 = xxh_round(v2, xxh_read64(bytes + 8));
            v3 = xxh_round(v3, xxh_read64(bytes + 16));
            v4 = xxh_round(v4, xxh_read64(bytes + 24));
            bytes += 32;
        } while (bytes <= limit);
        hash = xxh_rotl(v1, 1) + xxh_rotl(v2, 7) + xxh_rotl(v3, 12) + xxh_rotl(v4, 18);
        hash = xxh_merge(hash, v1);
        hash = xxh_merge(hash, v2);
        hash = xxh_merge(hash, v3);
        hash = xxh_merge(hash, v4);
    } else {
        hash = seed + xxh_prime5;
    }
    hash += (uint64_t)length;
    for (; bytes + 8 <= end; bytes += 8) hash = xxh_rotl(hash ^ xxh_round(0, xxh_read64(bytes)), 27) * xxh_prime1 + xxh_prime4;
    if (bytes + 4 <= end) {
        hash = xxh_rotl(hash ^ (uint64_t)xxh_read32(bytes) * xxh_prime1, 23) * xxh_prime2 + xxh_prime3;
        bytes += 4;
    }
    for (; bytes < end; bytes++) hash = xxh_rotl(hash ^ (*bytes) * xxh_prime5, 11) * xxh_prime1;
    hash ^= hash >> 33;
    hash *= xxh_prime2;
    hash ^= hash >> 29;
    hash *= xxh_prime3;
    hash ^= hash >> 32;
    return hash;
}
