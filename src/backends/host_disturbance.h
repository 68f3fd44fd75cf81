/* The host's view of contention, for any backend: how often this process's threads were
 * taken off a CPU against their will, and how long they waited for one.
 *
 * Why these two and not CPU time against wall time: CLOCK_PROCESS_CPUTIME_ID brings only the
 * calling thread's run time up to date; another thread's is updated at its scheduler ticks and
 * switches (every 4 ms at HZ=250), so over a 20 us sample the process's CPU time is off by up
 * to a tick per thread and says nothing. The scheduler's run delay (CONFIG_SCHED_INFO, on in
 * Debian's and most distributions' kernels) is added when a waiting thread gets its CPU, so a
 * pass that finished (all threads joined) has all of its threads' waits counted: it is the time
 * the sample could have been stretched by other programs. */
#ifndef FB_BACKENDS_HOST_DISTURBANCE_H
#define FB_BACKENDS_HOST_DISTURBANCE_H

#include <stddef.h>

#include "backends/disturbance_reading.h"

struct fb_host_disturbance {
    void *task_dir;    /* DIR * of /proc/self/task, NULL when unreadable */
    bool run_delay_ok; /* the schedstat files answer */
};

/* Opens what the readings need. Never fails: what is missing is left out of the readings
 * (NaN run delay) and described by fb_host_disturbance_describe. */
void fb_host_disturbance_open(struct fb_host_disturbance *h);
void fb_host_disturbance_close(struct fb_host_disturbance *h);

/* Fills the host part of r (involuntary_switches, run_delay_s) with the counters now; leaves
 * the GPU part alone. About 2 us plus 2 us per thread of the process; never inside a sample. */
void fb_host_disturbance_read(struct fb_host_disturbance *h, struct fb_disturbance_reading *r);

/* One line saying what the readings watch, for the results' metadata. */
void fb_host_disturbance_describe(const struct fb_host_disturbance *h, char *out, size_t size);

#endif
