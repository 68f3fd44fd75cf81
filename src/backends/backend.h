/* The backend interface: one ops table that every backend fills (the way dav1d's DSP tables
 * have a plain-C reference). The runner sees nothing else of a backend.
 *
 * `cpu` (C11 + OpenMP) runs everywhere and is the reference; `cuda` runs the kernels of
 * kernels/ where a GPU answers. All calls return FB_OK or a negative fb_status with err set.
 * Device pointers are opaque to the runner: it moves data only through upload/download. */
#ifndef FB_BACKENDS_BACKEND_H
#define FB_BACKENDS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/disturbance_reading.h"
#include "common/error.h"
#include "common/format.h"
#include "fb_build_config.h"
#include "plan/variants.h"

struct fb_backend_params {
    int device;      /* CUDA device index */
    int cpu_threads; /* 0 = all cores */
};

/* What the backend knows about where it runs; 0 or "" when unknown. */
struct fb_device_info {
    char name[128];          /* "NVIDIA H200", "AMD EPYC 7B13 64-Core Processor" */
    char chip[32];           /* "GH100" (CUPTI), "" on a CPU */
    char driver_version[32];
    char runtime_version[32];
    uint64_t memory_total_bytes;
    uint64_t memory_available_bytes; /* what a sweep may allocate now */
    uint64_t cache_bytes;            /* the cache that decides the middle regime: GPU L2, CPU LLC */
    char cache_name[16];             /* "L2", "L3" */
    double peak_bandwidth_gbps;      /* theoretical, from the memory clock and bus width */
    int compute_units;               /* SMs or CPU threads */
    int memory_bus_bits;
    int memory_clock_khz;
    double timer_resolution_s;       /* shortest interval the timer resolves */
    char contention_probe[192]; /* what read_disturbance watches (results metadata); "" none */
    char contention_note[192];  /* a part of it that is missing here and why (printed once as a
                                   note, e.g. no NVML); "" when nothing is missing */
    char streaming_stores[192]; /* what `stores = streaming` does here (results metadata of a
                                   run with streaming points); "" where check_format refuses
                                   it */
    bool streaming_falls_back;  /* streaming points run normal stores here (no non-temporal
                                   store in this build): printed as a note, and said in
                                   streaming_stores */
    char arch[16];              /* the GPU's architecture, "sm_90"; "" on a CPU */
    char gpu_code[96];          /* what the binary holds for GPUs: "SASS sm_75,80,...,
                                   PTX compute_120"; "" on a CPU */
    char launch_plan[384];      /* the launch numbers used (gpu_compat.h,
                                   fb_gpu_describe_launch); "" on a CPU */
    char backend_note[640];     /* why this is not the backend the config asked for or `auto`
                                   would prefer (a CUDA build that could not use the GPU);
                                   "" when it is. Set by the app (backend_open.h), not by the
                                   backend's describe */
};

struct fb_backend_ops {
    const char *name; /* "cpu", "cuda" */

    /* Creates the backend's state. FB_ERR_UNAVAILABLE (with the reason) when it cannot run
     * here, e.g. no GPU: `backend = auto` then falls back to cpu. */
    int (*init)(void **state, const struct fb_backend_params *params, struct fb_error *err);
    void (*fini)(void *state);
    int (*describe)(void *state, struct fb_device_info *info, struct fb_error *err);

    int (*alloc)(void *state, size_t bytes, void **ptr, struct fb_error *err);
    void (*free)(void *state, void *ptr);
    int (*upload)(void *state, void *dst, const void *src, size_t bytes, struct fb_error *err);
    int (*download)(void *state, void *dst, const void *src, size_t bytes,
                    struct fb_error *err);
    /* Sets every byte of ptr to `byte` (poisoning outputs before a verification run). */
    int (*fill_bytes)(void *state, void *ptr, int byte, size_t bytes, struct fb_error *err);

    /* Whether the backend runs points of this format (common/format.h): FB_OK, or
     * FB_ERR_USAGE with a message that names the format and says why not. The sweep asks
     * for every format of the config before it starts, so that a run never stops half way
     * for a format it cannot measure. */
    int (*check_format)(void *state, const struct fb_format *format, struct fb_error *err);

    /* Enqueues one step (one launch / one parallel pass) on n elements stored as
     * format->dtype, writing its output with format->stores. Only formats check_format
     * accepted are passed. */
    int (*run_step)(void *state, const struct fb_step *step, const struct fb_format *format,
                    void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err);
    /* Optional: enqueues steps[0..count-1] (kernels of ours only: no FB_STEP_MEMCPY) as ONE
     * launch of the host, computing what run_step on each in turn would: step k + 1 sees
     * every element step k wrote. For a variant with one_launch (plan/variants.h).
     *   CUDA: a graph of the steps' kernels, captured from the stream once per (steps, n,
     *         buffers) and kept instantiated; each call is one cudaGraphLaunch.
     *   CPU:  one parallel region (one fork and join), each step a work-shared loop whose
     *         implicit barrier ends it before the next begins.
     * launch_count grows by the kernels run (count), as for as many run_step calls: the
     * kernels are still separate kernels, only their launch is shared.
     * FB_ERR_UNAVAILABLE, with the reason, for a format (of those check_format accepted)
     * that the group does not run: the runner records the point skipped with that reason.
     * NULL: the backend cannot at all; the runner then skips one_launch variants with a
     * reason (status skipped), never runs their steps one by one under the variant's name. */
    int (*run_group)(void *state, const struct fb_step *steps, int count,
                     const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                     int64_t n, struct fb_error *err);
    /* Optional: run_group, writing the host clock (common/clock.h, fb_now_ns) as the one
     * launch sees it into marks_ns[0..count]: marks_ns[k] when step k begins (k = 0: once
     * the launch has started), marks_ns[count] when the last step has ended. Step k thus ran
     * in [marks_ns[k], marks_ns[k + 1]), and what lies between the host's call and
     * marks_ns[0], or after marks_ns[count], is the launch itself. For the trace of
     * --profile, never inside a timed sample.
     *   CPU:  read by the region's master thread after the fork and after each step's barrier.
     * NULL: the steps of one launch cannot be told apart on the host (CUDA: CUPTI's kernel
     * records time them). */
    int (*run_group_marked)(void *state, const struct fb_step *steps, int count,
                            const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                            int64_t n, uint64_t *marks_ns, struct fb_error *err);
    int (*synchronize)(void *state, struct fb_error *err);

    /* The timer: two marks on the backend's queue (CUDA events on the GPU, CLOCK_MONOTONIC
     * readings on the CPU, where the "queue" runs everything at once).
     * timer_start enqueues the start mark and returns at once: no host synchronisation.
     * timer_stop enqueues the stop mark, waits until it is reached, and returns in *seconds
     * the time between the two marks as the queue saw them. What the marks bracket is exactly
     * what was enqueued between the two calls: work enqueued before timer_start (a flush) has
     * finished on the queue before the start mark is taken, so it is never charged, and the
     * host's launch latency for the first call is hidden behind it. With nothing enqueued
     * before it (warm: the queue is idle), a GPU's start mark is taken at once and the sample
     * also holds the host's latency to the first launch, once per sample: latency / batch per
     * call, which the fit's L takes in (measure/fit.h).
     * A timed sample is therefore:
     *   warm: timer_start; `batch` calls (run_step...); timer_stop
     *   cold: flush_cache; timer_start; one call (run_step...); timer_stop
     * with no synchronize anywhere in between (tests/sweep/test_runner.c checks the order). */
    int (*timer_start)(void *state, struct fb_error *err);
    int (*timer_stop)(void *state, double *seconds, struct fb_error *err);

    /* Launches (GPU kernels or CPU parallel passes) issued since the backend started:
     * counted where they are issued, never taken from the variant table. */
    uint64_t (*launch_count)(void *state);

    /* Cold mode: enqueues a cache flush and returns without waiting for it (on the CPU, which
     * has no queue, it runs at once). Work enqueued after it starts with none of the measured
     * arrays in the cache that matters (GPU L2, CPU last-level cache) and with no dirty line
     * left whose write-back the next kernel would pay for: the flush READS a buffer of
     * fb_cache_flush_bytes(cache) bytes (written once, when first allocated), so every line
     * it displaces is written back during the flush and the cache ends full of clean lines.
     * GPU flush kernels are named FB_CACHE_FLUSH_KERNEL_PREFIX... (cupti/kernel_trace.h) so
     * that kernel probes can tell them from the call's kernels. Never timed by itself. */
    int (*flush_cache)(void *state, struct fb_error *err);

    /* Optional (NULL: samples are never judged disturbed). Reads, into *out (which it clears
     * first), what the backend can see of other programs taking the machine: called right
     * before timer_start (at_end false) and right after timer_stop (at_end true) of every
     * timed sample, never between them. Cumulative host counters are read at both edges;
     * instantaneous GPU state (NVML) only at the end. Never fails: what cannot be read stays
     * unknown. measure/disturbance.h judges the pair. */
    void (*read_disturbance)(void *state, bool at_end, struct fb_disturbance_reading *out);

    /* The queue work is issued on (a cudaStream_t), for probes that filter by stream;
     * NULL on the CPU. */
    void *(*stream)(void *state);
};

extern const struct fb_backend_ops fb_cpu_backend;
#ifdef FB_HAVE_CUDA
extern const struct fb_backend_ops fb_cuda_backend;
#endif

/* Bytes of the buffer a flush reads for a cache of `cache_bytes` (0: unknown, 64 MiB assumed):
 * three times the cache. More than twice, so that every line of a cache whose replacement is
 * not strict LRU (adaptive, partitioned like the H200's two L2 halves) has been displaced,
 * and the last third read is what the cache holds afterwards, all clean. */
uint64_t fb_cache_flush_bytes(uint64_t cache_bytes);

/* The backend named `name` ("cpu", "cuda"), or NULL when unknown or not compiled in. */
const struct fb_backend_ops *fb_backend_find(const char *name);

#endif
