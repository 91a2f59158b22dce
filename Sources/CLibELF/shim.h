#ifndef SHIPCHECK_CLIBELF_SHIM_H
#define SHIPCHECK_CLIBELF_SHIM_H
#include <libelf.h>
#include <gelf.h>
#include <elf.h>
#include <stddef.h>

/// The Itanium C++ ABI demangler (libstdc++ / libc++abi), declared here so Swift can call it
/// without a C++ interop build: returns a malloc'd string or NULL, status 0 on success.
char *__cxa_demangle(const char *mangled_name, char *output_buffer, size_t *length, int *status);
#endif
