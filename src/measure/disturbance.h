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
 * FB_DISTURB_MIN_CLOCK_FRACTION of its maximum (nvbench's default --throttle-threshold, 75%),
 * a disturbing clock event reason (thermal, hardware slowdown, power brake:
 * FB_GPU_REASONS_DISTURBING), or another process with a compute context on the device. */
#ifndef FB_MEASURE_DISTURBANCE_H
#define FB_MEASURE_DISTURBANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/disturbance_reading.h"

#define FB_DISTURB_MAX_DELAY_FRACTION 0.02
#define FB_DISTURB_MIN_CLOCK_FRACTION 0.75

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
