/* The CUDA backend: device memory, the kernels of kernels/ through their C launchers, one
 * non-blocking stream, CUDA events for time; the steps of a one-launch variant as a CUDA
 * graph captured from that stream (run_group). Usable only when a device answers: init says
 * FB_ERR_UNAVAILABLE (with the runtime's reason) otherwise, and `backend = auto` falls back
 * to the CPU. Every CUDA call goes through FB_CUDA_TRY or FB_CUDA_CHECK (common/cuda_check.h),
 * which name the call, file and line. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/cuda/gpu_compat.h"
#include "common/cuda_check.h"
#include "backends/host_disturbance.h"
#include "backends/nvml.h"
#include "cache_flush.h"
#include "kernels.h"

/* One instantiated graph of a one-launch call (run_group), with what it was captured from:
 * the steps, n and the buffers are baked into its kernel nodes, so a call with any of them
 * different needs another graph. */
struct cuda_graph {
    cudaGraphExec_t exec; /* NULL: the slot is free */
    struct fb_step steps[FB_MAX_STEPS];
    int count;
    int64_t n;
    struct fb_format format;
    void *buffers[FB_BUF_COUNT];
    uint64_t kernels; /* kernel nodes of the graph: the kernels one launch runs */
};

/* Graphs kept at once: a sweep runs the one-launch variants of a size interleaved, each
 * against its own graph, and a capture inside a timed sample would be timed; 4 is more than
 * the built-in variants need (one), and a slot is reused round-robin. */
#define CUDA_GRAPH_SLOTS 4

struct cuda_state {
    int device;
    struct cuda_graph graphs[CUDA_GRAPH_SLOTS];
    int next_graph; /* the slot a new capture takes */
    struct fb_cuda_launch_context launch;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    uint64_t launches;
    void *flush_buffer; /* fb_cache_flush_bytes(L2), allocated on the first flush */
    size_t flush_bytes;
    int l2_bytes;
    struct fb_gpu_answers gpu; /* what the device said at init (gpu_compat.h) */
    int copy_registers;        /* the fp32 copy kernel's registers there */
    struct fb_host_disturbance host; /* contention: the host threads that launch */
    struct fb_nvml *nvml;            /* and the GPU's clocks; NULL without NVML */
    char nvml_note[192];             /* why there is no NVML */
};

/* What device `device` answers, into *gpu (gpu_compat.h), before anything runs on it. */
static int ask_device(int device, struct fb_gpu_answers *gpu, struct fb_error *err)
{
    memset(gpu, 0, sizeof *gpu);
    struct cudaDeviceProp prop;
    FB_CUDA_TRY(cudaGetDeviceProperties(&prop, device));
    snprintf(gpu->name, sizeof gpu->name, "%.127s", prop.name);
    const struct {
        int *value;
        enum cudaDeviceAttr attr;
    } asks[] = {
        {&gpu->cc_major, cudaDevAttrComputeCapabilityMajor},
        {&gpu->cc_minor, cudaDevAttrComputeCapabilityMinor},
        {&gpu->sm_count, cudaDevAttrMultiProcessorCount},
        {&gpu->sm.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor},
        {&gpu->sm.registers_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor},
        {&gpu->sm.max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor},
        {&gpu->l2_bytes, cudaDevAttrL2CacheSize},
        /* memoryClockRate left cudaDeviceProp in CUDA 13: attributes instead (CUDA13-NOTES) */
        {&gpu->memory_clock_khz, cudaDevAttrMemoryClockRate},
        {&gpu->memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth},
    };
    for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++)
        FB_CUDA_TRY(cudaDeviceGetAttribute(asks[i].value, asks[i].attr, device));
    FB_CUDA_TRY(cudaDriverGetVersion(&gpu->driver_version));
    FB_CUDA_TRY(cudaRuntimeGetVersion(&gpu->runtime_version));
    return FB_OK;
}

/* The kernels' attributes on the device (fb_cuda_prepare_kernels), which the runtime refuses
 * for a binary without code for it even where fb_gpu_check_image saw none missing: said as
 * a usage error with the same rebuild advice. */
static int prepare_kernels(struct cuda_state *s, struct fb_error *err)
{
    int rc = fb_cuda_prepare_kernels(&s->launch, err);
    if (rc == FB_OK)
        rc = fb_cuda_copy_kernel_registers(&s->copy_registers, err);
    if (rc == FB_OK)
        return FB_OK;
    char why[sizeof err->msg], arch[16];
    snprintf(why, sizeof why, "%s", err->msg);
    fb_gpu_arch_name(arch, sizeof arch, s->gpu.cc_major, s->gpu.cc_minor);
    const struct fb_gpu_build build = fb_gpu_this_build();
    return fb_fail(err, FB_ERR_USAGE, "CUDA device %d (%s, %s): the kernels cannot run there: "
                   "%.600s; this fusebench holds code for sm_%s and PTX compute_%s; rebuild "
                   "with `meson configure %s -Dgpu_archs=%d%d && ninja -C %s` (docs/gpus.md)",
                   s->device, s->gpu.name, arch, why, build.sass_archs, build.ptx_arch,
                   build.build_dir, s->gpu.cc_major, s->gpu.cc_minor, build.build_dir);
}

/* Everything init needs beyond the state's memory; on failure the caller tears down what
 * was made (cuda_fini copes with a half-made state). Nothing runs on a device this binary
 * has no code for (fb_gpu_check_image: exit 2 with the rebuild command). */
static int open_device(struct cuda_state *s, struct fb_error *err)
{
    int rc = ask_device(s->device, &s->gpu, err);
    if (rc != FB_OK)
        return rc;
    const struct fb_gpu_build build = fb_gpu_this_build();
    if ((rc = fb_gpu_check_image(&s->gpu, s->device, &build, err)) != FB_OK)
        return rc;
    FB_CUDA_TRY(cudaSetDevice(s->device));
    FB_CUDA_TRY(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    FB_CUDA_TRY(cudaEventCreate(&s->start));
    FB_CUDA_TRY(cudaEventCreate(&s->stop));
    s->launch.sm_count = s->gpu.sm_count;
    s->launch.sm = s->gpu.sm;
    s->l2_bytes = s->gpu.l2_bytes;
    s->launch.stream = s->stream;
    if ((rc = prepare_kernels(s, err)) != FB_OK)
        return rc;
    /* Contention probes, both optional: without them samples are simply not judged. */
    fb_host_disturbance_open(&s->host);
    /* The bus id serves NVML alone: a device that will not give it (a vGPU, a simulator)
     * runs without NVML, with one note, like a machine without libnvidia-ml. */
    char bus[32];
    cudaError_t bus_rc = cudaDeviceGetPCIBusId(bus, (int)sizeof bus, s->device);
    if (bus_rc != cudaSuccess)
        (void)cudaGetLastError(); /* the failed query is no error of the next call */
    struct fb_error nvml_err = {{0}};
    if (fb_nvml_open(&s->nvml, NULL, bus_rc == cudaSuccess ? bus : NULL, &nvml_err) != FB_OK) {
        if (bus_rc != cudaSuccess)
            snprintf(nvml_err.msg, sizeof nvml_err.msg,
                     "NVML off: cudaDeviceGetPCIBusId failed: %.60s", cudaGetErrorString(bus_rc));
        snprintf(s->nvml_note, sizeof s->nvml_note,
                 "%.110s: GPU clocks, throttling and other processes on the GPU go unchecked",
                 nvml_err.msg);
    }
    return FB_OK;
}

static void cuda_fini(void *state);

static int cuda_init(void **state, const struct fb_backend_params *params, struct fb_error *err)
{
    *state = NULL;
    /* A driver for an older CUDA than the runtime: named before the device count, which
     * would only say "insufficient driver". No driver at all (version 0) is the count's to
     * report. */
    int driver = 0, runtime = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess)
        driver = 0;
    FB_CUDA_TRY(cudaRuntimeGetVersion(&runtime));
    int count, rc = fb_gpu_check_driver(driver, runtime, err);
    if (rc == FB_OK)
        rc = fb_cuda_device_count(&count, err);
    if (rc != FB_OK)
        return rc;
    if (params->device < 0 || params->device >= count)
        return fb_fail(err, FB_ERR_USAGE, "CUDA device %d does not exist (%d device%s: 0..%d)",
                       params->device, count, count == 1 ? "" : "s", count - 1);
    struct cuda_state *s = calloc(1, sizeof *s);
    if (!s)
        return fb_fail(err, FB_ERR_RUNTIME, "cuda backend: out of memory");
    s->device = params->device;
    rc = open_device(s, err);
    if (rc != FB_OK) {
        cuda_fini(s);
        return rc;
    }
    *state = s;
    return FB_OK;
}

static void cuda_fini(void *state)
{
    struct cuda_state *s = state;
    if (!s)
        return;
    /* Teardown errors cannot be acted on; the first error was already reported. */
    for (int g = 0; g < CUDA_GRAPH_SLOTS; g++)
        if (s->graphs[g].exec)
            cudaGraphExecDestroy(s->graphs[g].exec);
    if (s->flush_buffer)
        cudaFree(s->flush_buffer);
    if (s->start)
        cudaEventDestroy(s->start);
    if (s->stop)
        cudaEventDestroy(s->stop);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    fb_nvml_close(s->nvml);
    fb_host_disturbance_close(&s->host);
    free(s);
}

static void format_version(char *out, size_t size, int version)
{
    snprintf(out, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

static int cuda_describe(void *state, struct fb_device_info *info, struct fb_error *err)
{
    struct cuda_state *s = state;
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", s->gpu.name);
    format_version(info->driver_version, sizeof info->driver_version, s->gpu.driver_version);
    format_version(info->runtime_version, sizeof info->runtime_version, s->gpu.runtime_version);
    fb_gpu_arch_name(info->arch, sizeof info->arch, s->gpu.cc_major, s->gpu.cc_minor);
    const struct fb_gpu_build build = fb_gpu_this_build();
    snprintf(info->gpu_code, sizeof info->gpu_code, "SASS sm_%s, PTX compute_%s",
             build.sass_archs, build.ptx_arch);
    fb_gpu_describe_launch(&s->gpu, s->copy_registers, info->launch_plan,
                           sizeof info->launch_plan);
    size_t free_bytes = 0, total_bytes = 0;
    FB_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    info->memory_total_bytes = total_bytes;
    info->memory_available_bytes = free_bytes;
    info->cache_bytes = (uint64_t)s->l2_bytes;
    snprintf(info->cache_name, sizeof info->cache_name, "L2");
    info->compute_units = s->launch.sm_count;
    info->memory_clock_khz = s->gpu.memory_clock_khz;
    info->memory_bus_bits = s->gpu.memory_bus_bits;
    info->peak_bandwidth_gbps =
        fb_gpu_peak_bandwidth(info->memory_clock_khz, info->memory_bus_bits) / 1e9;
    /* cudaEventElapsedTime's documented resolution. */
    info->timer_resolution_s = 0.5e-6;
    char host[160];
    fb_host_disturbance_describe(&s->host, host, sizeof host);
    snprintf(info->contention_probe, sizeof info->contention_probe, "%.120s; GPU: %s", host,
             s->nvml ? "NVML SM clock, clock event reasons, compute processes" : "not watched");
    snprintf(info->contention_note, sizeof info->contention_note, "%s", s->nvml_note);
    return FB_OK;
}

static int cuda_alloc(void *state, size_t bytes, void **ptr, struct fb_error *err)
{
    (void)state;
    char call[64]; /* the size, which says more than the expression when memory runs out */
    snprintf(call, sizeof call, "cudaMalloc(%zu bytes)", bytes);
    return fb_cuda_check(cudaMalloc(ptr, bytes ? bytes : 256), call, __FILE__, __LINE__, err);
}

static void cuda_free(void *state, void *ptr)
{
    (void)state;
    /* The ops table's free cannot fail by contract; an error here (a sticky launch failure)
     * was already reported by the synchronize that found it. */
    cudaFree(ptr);
}

static int cuda_upload(void *state, void *dst, const void *src, size_t bytes, struct fb_error *err)
{
    struct cuda_state *s = state;
    FB_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s->stream));
    FB_CUDA_TRY(cudaStreamSynchronize(s->stream));
    return FB_OK;
}

static int cuda_download(void *state, void *dst, const void *src, size_t bytes,
                         struct fb_error *err)
{
    struct cuda_state *s = state;
    FB_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s->stream));
    FB_CUDA_TRY(cudaStreamSynchronize(s->stream));
    return FB_OK;
}

static int cuda_fill_bytes(void *state, void *ptr, int byte, size_t bytes, struct fb_error *err)
{
    struct cuda_state *s = state;
    FB_CUDA_TRY(cudaMemsetAsync(ptr, byte, bytes, s->stream));
    return FB_OK;
}

/* Formats this backend runs: fp32, fp16, bf16 with normal stores. `stores = streaming` is refused: what
 * it stands for on a CPU, writing a line without reading it first, is what a GPU's stores
 * already do for whole sectors: the L2 tracks 32-byte sectors with byte masks, so our
 * coalesced 16-byte stores fill whole sectors that are not fetched from DRAM first, and the
 * model bytes (2N, 3N, 5N) are already what DRAM sees. The evidence, not checked here where
 * no GPU runs: the published H200 write-only bandwidth, 3.90 TB/s of written bytes
 * (gpu-stream, in CUDA13-NOTES), is more than the 2.4 TB/s that half the 4.8 TB/s peak would
 * allow if every written line were read first; a GPU run's CUPTI dram__bytes_read of the
 * copy kernel (N * 4 bytes, not 2N * 4) would show it directly. What CUDA calls streaming,
 * st.global.cs (__stcs), is only a cache hint, evict-first in L1 and L2 ("likely accessed
 * once", PTX ISA cache operators); it moves the same bytes. Measuring that hint would be a
 * different question, so it is refused rather than labelled "streaming". */
static int cuda_check_format(void *state, const struct fb_format *format, struct fb_error *err)
{
    (void)state;
    if ((unsigned)format->dtype >= FB_DTYPE_COUNT) /* fp32, fp16, bf16: kernels/kernels.h */
        return fb_fail(err, FB_ERR_USAGE, "cuda backend: unknown dtype %d", (int)format->dtype);
    if (format->stores == FB_STORES_STREAMING)
        return fb_fail(err, FB_ERR_USAGE,
                       "cuda backend: stores = streaming is not supported: a GPU store "
                       "never reads its line first (no write-allocate to avoid), and "
                       "st.global.cs is only an evict-first cache hint; use stores = normal "
                       "(streaming is a CPU experiment)");
    if (format->stores != FB_STORES_NORMAL)
        return fb_fail(err, FB_ERR_USAGE, "cuda backend: stores = %s is not implemented",
                       fb_store_kind_name(format->stores));
    return FB_OK;
}

/* Enqueues one step on the stream (launch_count untouched: the callers count). */
static int enqueue_step(struct cuda_state *s, const struct fb_step *step,
                        const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                        int64_t n, struct fb_error *err)
{
    const enum fb_dtype dtype = format->dtype; /* normal stores: check_format accepts no other */
    const void *x = buffers[step->in0];
    const void *y = step->in1 == FB_BUF_NONE ? NULL : buffers[step->in1];
    void *out = buffers[step->out];
    int rc;
    switch (step->kind) {
    case FB_STEP_OP:
        rc = fb_cuda_op(&s->launch, step->chain.ops[0].op, step->chain.ops[0].params, dtype, x,
                        y, out, n, err);
        break;
    case FB_STEP_CHAIN:
        rc = fb_cuda_chain(&s->launch, &step->chain, dtype, x, y, out, n, err);
        break;
    case FB_STEP_ADD_RELU: rc = fb_cuda_add_relu(&s->launch, dtype, x, y, out, n, err); break;
    case FB_STEP_MEMCPY: /* the copy engine's path, the reference for our copy kernel */
        FB_CUDA_TRY(cudaMemcpyAsync(out, x, (size_t)n * fb_dtype_size(dtype),
                                    cudaMemcpyDeviceToDevice, s->stream));
        rc = FB_OK;
        break;
    default:
        return fb_fail(err, FB_ERR_RUNTIME, "cuda backend: unknown step kind %d",
                       (int)step->kind);
    }
    return rc;
}

static int cuda_run_step(void *state, const struct fb_step *step, const struct fb_format *format,
                         void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err)
{
    struct cuda_state *s = state;
    int rc = enqueue_step(s, step, format, buffers, n, err);
    if (rc == FB_OK && n > 0 && fb_step_is_kernel(step))
        s->launches++; /* the launchers launch nothing for n == 0 */
    return rc;
}

/* The kernel nodes of graph into *kernels: counted in the graph that was captured, not taken
 * from the steps, so launch_count says what a launch of it really runs. */
static int count_kernel_nodes(cudaGraph_t graph, uint64_t *kernels, struct fb_error *err)
{
    cudaGraphNode_t nodes[4 * FB_MAX_STEPS];
    size_t count = 0;
    FB_CUDA_TRY(cudaGraphGetNodes(graph, NULL, &count));
    if (count > sizeof nodes / sizeof nodes[0])
        return fb_fail(err, FB_ERR_RUNTIME, "cuda backend: a captured group has %zu nodes, "
                       "more than its %d steps can make", count, FB_MAX_STEPS);
    FB_CUDA_TRY(cudaGraphGetNodes(graph, nodes, &count));
    *kernels = 0;
    for (size_t i = 0; i < count; i++) {
        enum cudaGraphNodeType type;
        FB_CUDA_TRY(cudaGraphNodeGetType(nodes[i], &type));
        *kernels += type == cudaGraphNodeTypeKernel;
    }
    return FB_OK;
}

/* Captures the steps' launches on the stream into a graph and instantiates it into *g (whose
 * old graph, if any, is destroyed first). Nothing runs during a capture: the launches are
 * recorded, and the stream is back to normal when it returns, failed or not. */
static int capture_group(struct cuda_state *s, struct cuda_graph *g, const struct fb_step *steps,
                         int count, const struct fb_format *format,
                         void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err)
{
    if (g->exec) {
        cudaGraphExec_t old = g->exec;
        g->exec = NULL;
        FB_CUDA_TRY(cudaGraphExecDestroy(old));
    }
    /* ThreadLocal: only this thread's unsafe calls (a cudaMalloc) would break the capture. */
    FB_CUDA_TRY(cudaStreamBeginCapture(s->stream, cudaStreamCaptureModeThreadLocal));
    int rc = FB_OK;
    for (int k = 0; k < count && rc == FB_OK; k++)
        rc = enqueue_step(s, &steps[k], format, buffers, n, err);
    /* Always ended, so the stream leaves capture mode; the first error is the one reported. */
    cudaGraph_t graph = NULL;
    int end_rc = FB_CUDA_CHECK(cudaStreamEndCapture(s->stream, &graph), rc == FB_OK ? err : NULL);
    if (rc == FB_OK)
        rc = end_rc;
    if (rc == FB_OK)
        rc = count_kernel_nodes(graph, &g->kernels, err);
    if (rc == FB_OK)
        rc = FB_CUDA_CHECK(cudaGraphInstantiate(&g->exec, graph, 0), err);
    if (graph) {
        /* The instantiated graph keeps what it needs of the template. */
        int destroy_rc = FB_CUDA_CHECK(cudaGraphDestroy(graph), rc == FB_OK ? err : NULL);
        if (rc == FB_OK)
            rc = destroy_rc;
    }
    if (rc != FB_OK) {
        if (g->exec)
            cudaGraphExecDestroy(g->exec); /* the error above is the one to report */
        g->exec = NULL;
        return rc;
    }
    memcpy(g->steps, steps, (size_t)count * sizeof *steps);
    g->count = count;
    g->n = n;
    g->format = *format;
    memcpy(g->buffers, buffers, sizeof g->buffers);
    return FB_OK;
}

/* The slot holding a graph of exactly these steps, format, n and buffers, or NULL. */
static struct cuda_graph *find_graph(struct cuda_state *s, const struct fb_step *steps,
                                     int count, const struct fb_format *format,
                                     void *const buffers[FB_BUF_COUNT], int64_t n)
{
    for (int i = 0; i < CUDA_GRAPH_SLOTS; i++) {
        struct cuda_graph *g = &s->graphs[i];
        if (g->exec && g->count == count && g->n == n && g->format.dtype == format->dtype &&
            g->format.stores == format->stores &&
            memcmp(g->buffers, buffers, sizeof g->buffers) == 0 &&
            memcmp(g->steps, steps, (size_t)count * sizeof *steps) == 0)
            return g;
    }
    return NULL;
}

/* Several steps as one launch (backend.h, run_group): a CUDA graph of their kernels, captured
 * and instantiated on the first call with these steps, n and buffers (the verification call,
 * before any timing) and launched whole on every call: one cudaGraphLaunch, whose kernels run
 * in stream order one after the other, with no launch by the host between them. */
static int cuda_run_group(void *state, const struct fb_step *steps, int count,
                          const struct fb_format *format, void *const buffers[FB_BUF_COUNT],
                          int64_t n, struct fb_error *err)
{
    struct cuda_state *s = state;
    if (count < 1 || count > FB_MAX_STEPS)
        return fb_fail(err, FB_ERR_RUNTIME, "cuda backend: a launch group of %d steps (1 to %d)",
                       count, FB_MAX_STEPS);
    for (int k = 0; k < count; k++)
        if (!fb_step_is_kernel(&steps[k]))
            return fb_fail(err, FB_ERR_RUNTIME, "cuda backend: step %d (%s) of a launch group "
                           "is not a kernel of ours", k, fb_step_name(&steps[k]));
    if (n == 0)
        return FB_OK; /* the launchers launch nothing for n == 0: nothing to graph either */
    struct cuda_graph *g = find_graph(s, steps, count, format, buffers, n);
    if (!g) {
        g = &s->graphs[s->next_graph];
        s->next_graph = (s->next_graph + 1) % CUDA_GRAPH_SLOTS;
        int rc = capture_group(s, g, steps, count, format, buffers, n, err);
        if (rc != FB_OK)
            return rc;
    }
    FB_CUDA_TRY(cudaGraphLaunch(g->exec, s->stream));
    s->launches += g->kernels;
    return FB_OK;
}

static int cuda_synchronize(void *state, struct fb_error *err)
{
    struct cuda_state *s = state;
    FB_CUDA_TRY(cudaStreamSynchronize(s->stream));
    return FB_OK;
}

/* Events on the stream (contract in backend.h): the time is what the GPU spent from the start
 * mark to the stop mark, launch gaps between the calls included (the eager chain pays them,
 * which is the point). The start event is taken when the stream reaches it, after whatever was
 * enqueued before it: in cold mode the flush, so the host's time to launch the call hides
 * behind the flush and is not in the sample. In warm mode nothing is queued before it (the
 * stream was waited for), so the event is taken at once and the sample also holds the host's
 * time from the event to the first launch: one launch latency per sample, latency / batch
 * per call (fit.h: it lands in L). */
static int cuda_timer_start(void *state, struct fb_error *err)
{
    struct cuda_state *s = state;
    FB_CUDA_TRY(cudaEventRecord(s->start, s->stream));
    return FB_OK;
}

static int cuda_timer_stop(void *state, double *seconds, struct fb_error *err)
{
    struct cuda_state *s = state;
    FB_CUDA_TRY(cudaEventRecord(s->stop, s->stream));
    FB_CUDA_TRY(cudaEventSynchronize(s->stop));
    float ms = 0.0f;
    FB_CUDA_TRY(cudaEventElapsedTime(&ms, s->start, s->stop));
    *seconds = ms * 1e-3;
    return FB_OK;
}

static uint64_t cuda_launch_count(void *state)
{
    return ((struct cuda_state *)state)->launches;
}

/* Cold mode (contract in backend.h): one read-only kernel over three times the L2, enqueued
 * on the stream without waiting. nvbench writes an L2's worth with a memset instead, which
 * leaves the L2 full of dirty lines whose write-back the timed kernel then pays for. The
 * buffer is written once, here, when it is made (synchronously: never inside a sample). */
static int cuda_flush_cache(void *state, struct fb_error *err)
{
    struct cuda_state *s = state;
    if (!s->flush_buffer) {
        size_t bytes = (size_t)fb_cache_flush_bytes((uint64_t)(s->l2_bytes > 0 ? s->l2_bytes
                                                                               : 0));
        int rc = cuda_alloc(state, bytes, &s->flush_buffer, err);
        if (rc != FB_OK)
            return rc;
        s->flush_bytes = bytes;
        FB_CUDA_TRY(cudaMemsetAsync(s->flush_buffer, 0x5a, bytes, s->stream));
        FB_CUDA_TRY(cudaStreamSynchronize(s->stream));
    }
    return fb_cuda_cache_flush(&s->launch, s->flush_buffer, s->flush_bytes, err);
}

/* Contention (backend.h): the host's counters at both edges (a preempted launching thread
 * delays a launch-bound sample), NVML's instantaneous GPU state at the end. */
static void cuda_read_disturbance(void *state, bool at_end, struct fb_disturbance_reading *out)
{
    struct cuda_state *s = state;
    fb_disturbance_reading_clear(out);
    fb_host_disturbance_read(&s->host, out);
    if (at_end && s->nvml)
        fb_nvml_read(s->nvml, out);
}

static void *cuda_stream(void *state)
{
    return ((struct cuda_state *)state)->stream;
}

const struct fb_backend_ops fb_cuda_backend = {
    .name = "cuda",
    .init = cuda_init,
    .fini = cuda_fini,
    .describe = cuda_describe,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .upload = cuda_upload,
    .download = cuda_download,
    .fill_bytes = cuda_fill_bytes,
    .check_format = cuda_check_format,
    .run_step = cuda_run_step,
    .run_group = cuda_run_group,
    .synchronize = cuda_synchronize,
    .timer_start = cuda_timer_start,
    .timer_stop = cuda_timer_stop,
    .launch_count = cuda_launch_count,
    .flush_cache = cuda_flush_cache,
    .stream = cuda_stream,
    .read_disturbance = cuda_read_disturbance,
};
