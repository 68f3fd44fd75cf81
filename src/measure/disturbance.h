/* Was a timed sample disturbed by another program? The decision, from two readings a backend
 * took at the sample's edges (backends/disturbance_reading.h). Pure: the tests inject readings.
 *
 * Host (every backend): the threads of this process waited for a CPU, in the sample, for more
 * than FB_DISTURB_MAX_DELAY_FRACTION of its wall time (scheduler run delay, summed over the
 * threads). A pass ends when its last thread does, so a thread kept waiting stretches the whole
 * sample: the sum is the most the sample can have been stretched. On a machine whose kernel
 * keeps no run delay, any involuntary context switch in the sample counts instead (a thread
 * was preempted while it had work: another runnable program had its core).
 *   Threshold 2%: the default target_noise; a sample stretched by less is within the noise the
 *   stop rule accepts anyway, one stretched by more is not the kernels' time. A quiet machine
 *   stays far below it (the workers spin between the passes of a batch, and the runner wakes
 *   them with an untimed call before each sample); the case that motivated this (2 busy
 *   programs on 2 cores, 1K-element calls at 8-16 ms instead of 0.7 us) is far above it.
 *
 * GPU (when the backend reads NVML): at the end of the sample, the SM clock below
 * FB_DISTURB_MIN_CLOCK_FRACTION (nvbench's default --throttle-threshold, 75%; [measure]
 * gpu_min_clock) of the clock the GPU holds: its application clock (else its default one) where
 * NVML gives it, its maximum only where it gives neither. A T4 held by its 70 W cap can run a
 * kernel under 75% of its 1590 MHz boost, yet over its application clock: its normal state,
 * not another program's doing. Then a disturbing
 * clock event reason (thermal, hardware slowdown, power brake: FB_GPU_REASONS_DISTURBING), or
 * more than [measure] gpu_other_processes (0) other processes with a compute context on the
 * device. A process that holds a context and runs nothing (a notebook that has imported torch)
 * counts too: NVML's per-process utilization is sampled over ~1/6 s, absent on many boards, and
 * reports the host's pids in a container, so no 20 us sample can be cleared of it; it may start
 * work at any moment. Where such a process is known to stay idle, gpu_other_processes = 1 lets
 * it be. */
#ifndef FB_MEASURE_DISTURBANCE_H
#define FB_MEASURE_DISTURBANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/disturbance_reading.h"

#define FB_DISTURB_MAX_DELAY_FRACTION 0.02
#define FB_DISTURB_MIN_CLOCK_FRACTION 0.75

/* The rules a caller may relax (config.h: [measure] gpu_min_clock, gpu_other_processes). */
struct fb_disturbance_rules {
    double min_clock_fraction; /* 0: no clock rule */
    int other_processes;       /* other processes with a compute context allowed */
};
#define FB_DISTURBANCE_RULES_DEFAULT                                                           \
    ((struct fb_disturbance_rules){FB_DISTURB_MIN_CLOCK_FRACTION, 0})

/* Which rules a sample tripped (fb_disturbance_judge_by): */
#define FB_DISTURBED_HOST 0x1u      /* threads waited for a CPU, or were preempted */
#define FB_DISTURBED_CLOCK 0x2u     /* SM clock under the rule's fraction of the held clock */
#define FB_DISTURBED_REASONS 0x4u   /* a disturbing clock event reason */
#define FB_DISTURBED_PROCESSES 0x8u /* more other processes on the GPU than allowed */

/* fb_disturbance_judge under `rules` (NULL: FB_DISTURBANCE_RULES_DEFAULT): the rules tripped,
 * 0 for a clean sample. */
unsigned fb_disturbance_judge_by(const struct fb_disturbance_reading *before,
                                 const struct fb_disturbance_reading *after, double wall_s,
                                 const struct fb_disturbance_rules *rules, char *why,
                                 size_t size);

/* The one line to print when the first judged sample of a run already tripped GPU rules
 * (`tripped`, from fb_disturbance_judge_by; `why` its words): what it means and the setting that
 * relaxes each rule. False (out untouched) when no relaxable GPU rule was tripped. */
bool fb_disturbance_first_note(unsigned tripped, const char *why,
                               const struct fb_disturbance_rules *rules, char *out, size_t size);

/* True when the sample between `before` and `after` (wall_s seconds long, > 0) was disturbed;
 * then `why` (size bytes, may be NULL) says how, e.g. "threads waited 8.1 ms in all for a CPU
 * in a 10 ms sample, 3 involuntary context switches" (the sum over threads can exceed the
 * sample: two threads may wait at once) or "SM clock 900 of 1980 MHz". Unknown fields
 * (-1, NaN, gpu_valid false) decide nothing; with nothing known the sample is clean. */
bool fb_disturbance_judge(const struct fb_disturbance_reading *before,
                          const struct fb_disturbance_reading *after, double wall_s, char *why,
                          size_t size);

/* The retake budget of the stop rule (measure/runner.h, step 3), for every caller that drops
 * and retakes disturbed samples (the sweep, --profile): one more may be dropped and retaken
 * while fewer than max_reps have been dropped and less than max_time_s has been spent, the
 * time of the dropped ones included. So contention can at most double the samples and never
 * lengthen the time. */
bool fb_disturbance_may_retake(int dropped, double spent_s, int max_reps, double max_time_s);

#endif
