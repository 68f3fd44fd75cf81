/* SIGINT and SIGTERM for the commands that write files (a sweep, --compare, --report): the
 * first one asks the command to stop at its next safe point, with its temporary files removed
 * and the old outputs whole, and the process exits 128 + the signal's number (130, 143: the
 * shell's convention); a second one exits at once. SIGXFSZ (a file size limit, `ulimit -f`)
 * is ignored, so a write past the limit fails with EFBIG and the command says so, instead of
 * the process dying with status 153 and no message. */
#ifndef FB_COMMON_INTERRUPT_H
#define FB_COMMON_INTERRUPT_H

#include <signal.h>

/* 0, or the number of the first SIGINT / SIGTERM since fb_interrupt_catch(). */
extern volatile sig_atomic_t fb_interrupted;

/* Records sig as the signal that stopped the command, unless one already did: for a handler
 * of its own (the gnuplot runner's, which kills its child first). Async-signal-safe. */
void fb_interrupt_note(int sig);

/* Installs the handlers (sigaction, SA_RESTART) and fb_file_limit_as_error(); they stay
 * until the process ends. Calling it again is harmless. */
void fb_interrupt_catch(void);

/* Ignores SIGXFSZ (inherited by children: gnuplot's writes fail too, and its charts are
 * refused as incomplete). main calls it first, so that the up-front probes of every command
 * see EFBIG as well. */
void fb_file_limit_as_error(void);

#endif
