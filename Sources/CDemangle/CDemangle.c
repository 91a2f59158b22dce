#include "CDemangle.h"

char *__cxa_demangle(const char *mangled_name, char *output_buffer, size_t *length, int *status);

char *shipcheck_cxa_demangle(const char *mangled_name, int *status) {
    return __cxa_demangle(mangled_name, NULL, NULL, status);
}
