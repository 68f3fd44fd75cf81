/* SIGINT / SIGTERM / SIGXFSZ handling shared by the writing commands (contract in
 * interrupt.h). */
#include "common/interrupt.h"

#include <string.h>
#include <unistd.h>

volatile sig_atomic_t fb_interrupted;

static void on_interrupt(int sig)
{
    /* A second signal: stop now. Every output is replaced by an atomic rename, so what is
     * on disk is whole; the kernel releases any lock. */
    if (fb_interrupted)
        _exit(128 + sig);
    fb_interrupted = sig;
}

void fb_interrupt_note(int sig)
{
    if (!fb_interrupted)
        fb_interrupted = sig;
}

/* sigaction, not signal(): under -std=c11 glibc's signal() has SysV semantics (the handler is
 * reset after the first signal, SA_RESETHAND), so a second Ctrl-C would kill the process by
 * the signal instead of reaching on_interrupt. SA_RESTART: a write or wait interrupted by the
 * first signal carries on. */
void fb_interrupt_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    fb_file_limit_as_error();
}

void fb_file_limit_as_error(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGXFSZ, &sa, NULL);
}
