/* What a backend can see, at the edges of one timed sample, of other programs taking the
 * machine from under it. The backend reads (fb_backend_ops.read_disturbance); the runner
 * judges a pair of readings (measure/disturbance.h). Nothing here decides anything. */
#ifndef FB_BACKENDS_DISTURBANCE_READING_H
#define FB_BACKENDS_DISTURBANCE_READING_H

#include <stdbool.h>
#include <stdint.h>

/* NVML's clock event ("throttle") reasons that mean the GPU was slowed by something other
 * than the work itself: hardware slowdown, thermal slowdown (software and hardware), power
 * brake. The same bits as nvml.h's nvmlClocksEventReason* (values fixed by NVML's ABI). Left
 * out on purpose: GpuIdle (0x1) and ApplicationsClocksSetting (0x2), which are states, not
 * interference; SwPowerCap (0x4), which a memory-bound kernel on an H200 can reach by itself
 * and which the clock threshold catches when it really bites; SyncBoost, DisplayClock. */
#define FB_GPU_REASON_HW_SLOWDOWN 0x8ull
#define FB_GPU_REASON_SW_THERMAL 0x20ull
#define FB_GPU_REASON_HW_THERMAL 0x40ull
#define FB_GPU_REASON_HW_POWER_BRAKE 0x80ull
#define FB_GPU_REASONS_DISTURBING                                                              \
    (FB_GPU_REASON_HW_SLOWDOWN | FB_GPU_REASON_SW_THERMAL | FB_GPU_REASON_HW_THERMAL |         \
     FB_GPU_REASON_HW_POWER_BRAKE)

struct fb_disturbance_reading {
    /* Host, cumulative over the life of the process (the difference between the two edges of a
     * sample is what happened during it), every thread of the process counted:
     * involuntary context switches, getrusage(RUSAGE_SELF).ru_nivcsw (-1: unknown), and the
     * time threads spent runnable but waiting for a CPU, the sum over /proc/self/task/
     * TID/schedstat's second field (ns there, seconds here; NaN: unknown). */
    int64_t involuntary_switches;
    double run_delay_s;

    /* GPU, instantaneous, read at the end of the sample only (nvbench also checks the clock
     * after each measurement); gpu_valid false when there is no NVML. */
    bool gpu_valid;
    unsigned sm_clock_mhz;        /* current SM clock */
    unsigned sm_clock_max_mhz;    /* its maximum (0: unknown) */
    unsigned sm_clock_held_mhz;   /* the clock it holds: application clock, else the default
                                     application clock (0: NVML gives neither) */
    uint64_t clock_event_reasons; /* nvmlDeviceGetCurrentClocksEventReasons bits */
    int compute_processes;        /* processes with a compute context on the device, this one
                                     included; -1 unknown */
};

/* A reading with nothing known: counters -1 / NaN, no GPU part. */
void fb_disturbance_reading_clear(struct fb_disturbance_reading *r);

#endif
