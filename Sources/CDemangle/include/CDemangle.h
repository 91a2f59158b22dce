#ifndef SHIPCHECK_CDEMANGLE_H
#define SHIPCHECK_CDEMANGLE_H
#include <stddef.h>

/// The Itanium C++ ABI demangler (`__cxa_demangle`, in libstdc++ on Linux and libc++abi on
/// macOS), without a C++ interop build: returns a malloc'd string or NULL, status 0 on success.
char *shipcheck_cxa_demangle(const char *mangled_name, int *status);

#endif
