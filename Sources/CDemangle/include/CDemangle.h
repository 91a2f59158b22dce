#ifndef SHIPCHECK_CDEMANGLE_H
#define SHIPCHECK_CDEMANGLE_H
#include <stddef.h>

/// The Itanium C++ ABI demangler (`__cxa_demangle`, in libstdc++ on Linux and libc++abi on
/// macOS), without a C++ interop build: returns a malloc'd string or NULL, status 0 on success.
char *shipcheck_cxa_demangle(const char *mangled_name, int *status);

/// The Swift runtime's demangler (`swift_demangle`), guarded against its own crashes: some
/// malformed manglings make it dereference a null node (a freestanding macro expansion whose
/// context is missing, next to a private discriminator: `…Ll7PreviewfMf_…`; `swift-demangle`
/// crashes on them too). A fault inside it returns NULL, as for a name it rejects, instead of
/// ending the process; the demangler's scratch memory for that one name is not freed.
/// Returns a malloc'd string or NULL.
char *shipcheck_swift_demangle(const char *mangled_name, size_t length);

#endif
