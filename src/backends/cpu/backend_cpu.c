/* The CPU backend: host memory, the OpenMP kernels of cpu_kernels.c (the loops of the widest
 * instruction set the CPU has, cpu_loops.h), CLOCK_MONOTONIC.
 * It runs everywhere and is the reference the other backends are checked against.
 * A "launch" here is one OpenMP parallel pass (fork, compute, join); run_group runs several
 * passes in one parallel region, a barrier between them: one fork and join, and still one
 * pass (counted launch) per step. */

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/cpu/cpu_flush.h"
#include "backends/cpu/cpu_info.h"
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/cpu_store.h"
#include "backends/host_disturbance.h"
#include "common/clock.h"

struct cpu_state {
    uint64_t launches;
    void *flush_buffer; /* allocated on the first flush: fb_cache_flush_bytes(LLC) */
    size_t flush_bytes;
    uint64_t flush_sum;  /* what the flush read, kept so the reads cannot be optimised away */
    double timer_start_s;
    uint64_t cache_bytes;
    struct fb_host_disturbance contention; /* every thread of the process: OpenMP's team too */
};

static int cpu_init(void **state, const struct fb_backend_params *params, struct fb_error *err)
{
    struct cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return fb_fail(err, FB_ERR_RUNTIME, "cpu backend: out of memory");
    if (params->cpu_threads > 0)
        omp_set_num_threads(params->cpu_threads);
    s->cache_bytes = fb_cpu_last_level_cache(NULL, 0);
    fb_host_disturbance_open(&s->contention);
    *state = s;
    return FB_OK;
}

static void cpu_fini(void *state)
{
    struct cpu_state *s = state;
    if (!s)
        return;
    free(s->flush_buffer);
    fb_host_disturbance_close(&s->contention);
    free(s);
}

static int cpu_describe(void *state, struct fb_device_info *info, struct fb_error *err)
{
    (void)err;
    memset(info, 0, sizeof *info);
    fb_cpu_model_name(info->name, sizeof info->name);
    info->cache_bytes = fb_cpu_last_level_cache(info->cache_name, sizeof info->cache_name);
    fb_cpu_memory(&info->memory_total_bytes, &info->memory_available_bytes);
    info->compute_units = omp_get_max_threads();
    info->timer_resolution_s = fb_cpu_timer_resolution();
    /* the loops in use (cpu_loops.h): "OpenMP 201511, avx512" */
    snprintf(info->runtime_version, sizeof info->runtime_version, "OpenMP %d, %s", _OPENMP,
             fb_cpu_isa_name(fb_cpu_isa_in_use()));
    fb_host_disturbance_describe(&((struct cpu_state *)state)->contention,
                                 info->contention_probe, sizeof info->contention_probe);
    snprintf(info->streaming_stores, sizeof info->streaming_stores, "%s",
             fb_cpu_streaming_stores_description());
    info->streaming_falls_back = !fb_cpu_streaming_stores_available();
    return FB_OK;
}

/* 64-byte alignment: a cache line, and more than the 16 bytes the vector paths want. */
static int cpu_alloc(void *state, size_t bytes, void **ptr, struct fb_error *err)
{
    (void)state;
    void *p = NULL;
    int rc = posix_memalign(&p, 64, bytes ? bytes : 64);
    if (rc != 0)
        return fb_fail(err, FB_ERR_RUNTIME, "posix_memalign(%zu bytes): %s", bytes,
                       strerror(rc));
    *ptr = p;
    return FB_OK;
}

static void cpu_free(void *state, void *ptr)
{
    (void)state;
    free(ptr);
}

static int cpu_copy(void *state, void *dst, const void *src, size_t bytes, struct fb_error *err)
{
    (void)state;
    (void)err;
    memcpy(dst, src, bytes);
    return FB_OK;
}

static int cpu_fill_bytes(void *state, void *ptr, int byte, size_t bytes, struct fb_error *err)
{
    (void)state;
    (void)err;
    memset(ptr, byte, bytes);
    return FB_OK;
}

/* Formats this backend runs: every dtype (cpu_kernels.h), with normal or streaming stores.
 * Streaming is accepted even where this build has no non-temporal store (cpu_store.h): it
 * then writes normally, which describe() reports (streaming_stores, streaming_falls_back) for
 * the metadata and a note, rather than refusing a config that runs everywhere else. */
static int cpu_check_format(void *state, const struct fb_format *format, struct fb_error *err)
{
    (void)state;
    if ((unsigned)format->dtype >= FB_DTYPE_COUNT)
        return fb_fail(err, FB_ERR_USAGE, "cpu backend: unknown dtype %d", (int)format->dtype);
    if (format->stores != FB_STORES_NORMAL && format->stores != FB_STORES_STREAMING)
        return fb_fail(err, FB_ERR_USAGE, "cpu backend: stores = %s is not implemented",
                       fb_store_kind_name(format->stores));
    return FB_OK;
}

static int cpu_run_step(void *state, const struct fb_step *step, const struct fb_format *format,
                        void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err)
{
    struct cpu_state *s = state;
    const void *x = buffers[step->in0];
    const void *y = step->in1 == FB_BUF_NONE ? NULL : buffers[step->in1];
    void *out = buffers[step->out];
    switch (step->kind) {
    case FB_STEP_OP:
        fb_cpu_op(step->chain.ops[0].op, step->chain.ops[0].params, x, y, out, n, format);
        break;
    case FB_STEP_CHAIN: fb_cpu_chain(&step->chain, x, y, out, n, format); break;
    case FB_STEP_ADD_RELU: fb_cpu_add_relu(x, y, out, n, format); break;
    case FB_STEP_MEMCPY:
        /* libc's copy, one thread: the platform's reference, not a pass of ours, so it writes
         * as libc decides in every store kind (glibc itself switches to non-temporal stores
         * above its x86_non_temporal_threshold tunable, 240 MiB on this VM's glibc 2.36);
         * n elements of the dtype. */
        memcpy(out, x, (size_t)n * fb_dtype_size(format->dtype));
        break;
    default:
        return fb_fail(err, FB_ERR_RUNTIME, "cpu backend: unknown step kind %d", (int)step->kind);
    }
    if (fb_step_is_kernel(step))
        s->launches++;
    return FB_OK;
}

/* Several steps in one parallel region (backend.h, run_group): one fork and join for all,
 * each step a work-shared pass with a barrier after it (cpu_kernels.h). Table ops only: the
 * built-in one-launch variant is eager add -> relu; a fused or memcpy step has no
 * work-shared form here. launch_count counts the passes (the kernels), as run_step would:
 * the region saves the forks and joins, not the passes. */
static int cpu_run_group_marked(void *state, const struct fb_step *steps, int count,
                                const struct fb_format *format,
                                void *const buffers[FB_BUF_COUNT], int64_t n,
                                uint64_t *marks_ns, struct fb_error *err)
{
    struct cpu_state *s = state;
    struct fb_cpu_pass passes[FB_MAX_STEPS];
    /* Every format runs as work-shared passes (cpu_kernels.h): fp32 loops, or tiles for
     * fp16, bf16 and streaming stores. */
    if (count < 1 || count > FB_MAX_STEPS)
        return fb_fail(err, FB_ERR_RUNTIME, "cpu backend: a launch group of %d steps (1 to %d)",
                       count, FB_MAX_STEPS);
    for (int k = 0; k < count; k++) {
        const struct fb_step *st = &steps[k];
        if (st->kind != FB_STEP_OP)
            return fb_fail(err, FB_ERR_RUNTIME, "cpu backend: step %d (%s) of a launch group "
                           "is not an op of the table; only those run as work-shared passes",
                           k, fb_step_name(st));
        passes[k] = (struct fb_cpu_pass){st->chain.ops[0], buffers[st->in0],
                                         st->in1 == FB_BUF_NONE ? NULL : buffers[st->in1],
                                         buffers[st->out]};
    }
    fb_cpu_passes_in_one_region(passes, count, n, format, marks_ns);
    s->launches += (uint64_t)count;
    return FB_OK;
}

static int cpu_run_group(void *state, const struct fb_step *steps, int count,
                         const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                         int64_t n, struct fb_error *err)
{
    return cpu_run_group_marked(state, steps, count, format, buffers, n, NULL, err);
}

static int cpu_synchronize(void *state, struct fb_error *err)
{
    (void)state;
    (void)err;
    return FB_OK; /* every pass joins its threads before returning */
}

/* The CPU runs every call to completion before returning: the marks are clock readings. */
static int cpu_timer_start(void *state, struct fb_error *err)
{
    (void)err;
    ((struct cpu_state *)state)->timer_start_s = fb_now_s();
    return FB_OK;
}

static int cpu_timer_stop(void *state, double *seconds, struct fb_error *err)
{
    (void)err;
    *seconds = fb_now_s() - ((struct cpu_state *)state)->timer_start_s;
    return FB_OK;
}

static uint64_t cpu_launch_count(void *state)
{
    return ((struct cpu_state *)state)->launches;
}

/* Cold mode (contract in backend.h): read three times the last-level cache, a buffer written
 * once when it was allocated. Runs at once: the CPU has no queue to enqueue it on. */
static int cpu_flush_cache(void *state, struct fb_error *err)
{
    struct cpu_state *s = state;
    if (!s->flush_buffer) {
        size_t bytes = (size_t)fb_cache_flush_bytes(s->cache_bytes);
        int rc = cpu_alloc(state, bytes, &s->flush_buffer, err);
        if (rc != FB_OK)
            return rc;
        s->flush_bytes = bytes;
        fb_cpu_flush_prepare(s->flush_buffer, bytes, 0x5a);
    }
    s->flush_sum += fb_cpu_flush_read(s->flush_buffer, s->flush_bytes);
    return FB_OK;
}

/* Contention (backend.h): the host counters of the whole process, which covers the OpenMP
 * team whatever threads it is made of (host_disturbance.h says why these counters). */
static void cpu_read_disturbance(void *state, bool at_end, struct fb_disturbance_reading *out)
{
    (void)at_end;
    fb_disturbance_reading_clear(out);
    fb_host_disturbance_read(&((struct cpu_state *)state)->contention, out);
}

const struct fb_backend_ops fb_cpu_backend = {
    .name = "cpu",
    .init = cpu_init,
    .fini = cpu_fini,
    .describe = cpu_describe,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .upload = cpu_copy,
    .download = cpu_copy,
    .fill_bytes = cpu_fill_bytes,
    .check_format = cpu_check_format,
    .run_step = cpu_run_step,
    .run_group = cpu_run_group,
    .run_group_marked = cpu_run_group_marked,
    .synchronize = cpu_synchronize,
    .timer_start = cpu_timer_start,
    .timer_stop = cpu_timer_stop,
    .launch_count = cpu_launch_count,
    .flush_cache = cpu_flush_cache,
    .read_disturbance = cpu_read_disturbance,
};
