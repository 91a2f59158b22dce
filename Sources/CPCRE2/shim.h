// PCRE2's 8-bit library (UTF-8 subjects): the code unit width must be set before the header.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
