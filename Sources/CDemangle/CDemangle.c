#include "CDemangle.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

char *__cxa_demangle(const char *mangled_name, char *output_buffer, size_t *length, int *status);

char *shipcheck_cxa_demangle(const char *mangled_name, int *status) {
    return __cxa_demangle(mangled_name, NULL, NULL, status);
}

// The Swift runtime's demangler, exported by libswiftCore (always loaded in a Swift process).
// Any `flags` value other than 0 traps.
char *swift_demangle(const char *mangled_name, size_t mangled_name_length, char *output_buffer,
                     size_t *output_buffer_size, uint32_t flags);

// Where a fault inside swift_demangle on this thread jumps back to; NULL outside it.
static _Thread_local sigjmp_buf *fault_return;
static struct sigaction previous_segv_action;
static struct sigaction previous_bus_action;
static pthread_once_t fault_handler_once = PTHREAD_ONCE_INIT;

static void on_fault(int signal_number, siginfo_t *info, void *context) {
    sigjmp_buf *target = fault_return;
    if (target != NULL) {
        fault_return = NULL;
        siglongjmp(*target, 1);
    }
    // Not a fault inside the demangler: hand it to whoever handled it before us (Swift's
    // backtracer, a sanitizer, or the default action, which the re-executed instruction meets).
    struct sigaction *previous = signal_number == SIGBUS ? &previous_bus_action : &previous_segv_action;
    if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
        previous->sa_sigaction(signal_number, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal_number);
    } else {
        sigaction(signal_number, previous, NULL);
    }
}

static void install_fault_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    // SA_NODEFER: the signal stays unblocked while the handler runs, so jumping out of it leaves
    // the thread's signal mask as it was without sigsetjmp saving the mask (a system call) on
    // every name.
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv_action);
    sigaction(SIGBUS, &action, &previous_bus_action);
}

char *shipcheck_swift_demangle(const char *mangled_name, size_t length) {
    pthread_once(&fault_handler_once, install_fault_handler);
    sigjmp_buf target;
    if (sigsetjmp(target, 0) != 0) return NULL;
    fault_return = &target;
    char *result = swift_demangle(mangled_name, length, NULL, NULL, 0);
    fault_return = NULL;
    return result;
}
