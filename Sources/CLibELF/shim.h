#ifndef SHIPCHECK_CLIBELF_SHIM_H
#define SHIPCHECK_CLIBELF_SHIM_H
#include <libelf.h>
#include <gelf.h>
#include <elf.h>
#endif
