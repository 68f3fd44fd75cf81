#include "backends/cpu/cpu_kernels.h"

#include <omp.h>
#include <stddef.h>

#include "backends/cpu/cpu_store.h"
#include "common/clock.h"

/* The loops in use: NULL until the first pass (or fb_cpu_use_isa) sets them. */
static const struct fb_cpu_loops *chosen;

static const struct fb_cpu_loops *best_loops(void)
{
    for (int isa = FB_CPU_ISA_COUNT - 1; isa > FB_CPU_ISA_BASELINE; isa--)
        if (fb_cpu_loops_built((enum fb_cpu_isa)isa) && fb_cpu_isa_supported((enum fb_cpu_isa)isa))
            return fb_cpu_loops_built((enum fb_cpu_isa)isa);
    return fb_cpu_loops_built(FB_CPU_ISA_BASELINE);
}

/* Called outside parallel regions only, before a pass forks. */
static const struct fb_cpu_loops *loops(void)
{
    if (!chosen)
        chosen = best_loops();
    return chosen;
}

enum fb_cpu_isa fb_cpu_isa_in_use(void)
{
    return loops()->isa;
}

bool fb_cpu_use_isa(enum fb_cpu_isa isa)
{
    const struct fb_cpu_loops *l = fb_cpu_loops_built(isa);
    if (!l || !fb_cpu_isa_supported(isa))
        return false;
    chosen = l;
    return true;
}

/* Elements per group of the split: 64 bytes of fp32, so every share but the last starts on a
 * cache line where the arrays do (and a tile of a share with it: streaming stores then write
 * whole lines). */
#define FB_CPU_SPLIT_GROUP 16

/* The calling thread's share [*lo, *hi) of [0, n) in its team: the groups dealt out as
 * `omp for schedule(static)` deals iterations (one contiguous block per thread, the first
 * groups % threads threads one group more), so every pass over n elements splits alike
 * (a pass of one region then reads back, on each thread, what that thread wrote). Outside a
 * parallel region: everything. */
static void thread_share(int64_t n, int64_t *lo, int64_t *hi)
{
    const int64_t threads = omp_get_num_threads(), me = omp_get_thread_num();
    const int64_t groups = (n + FB_CPU_SPLIT_GROUP - 1) / FB_CPU_SPLIT_GROUP;
    const int64_t per = groups / threads, extra = groups % threads;
    const int64_t first = me * per + (me < extra ? me : extra);
    const int64_t count = per + (me < extra ? 1 : 0);
    *lo = first * FB_CPU_SPLIT_GROUP < n ? first * FB_CPU_SPLIT_GROUP : n;
    *hi = (first + count) * FB_CPU_SPLIT_GROUP < n ? (first + count) * FB_CPU_SPLIT_GROUP : n;
}

static bool is_streaming(const struct fb_format *format)
{
    return format->stores == FB_STORES_STREAMING;
}

/* One pass of `work` over n elements: fork, each thread its share, fence, join. */
static void one_pass(const struct fb_cpu_work *work, int64_t n)
{
    const struct fb_cpu_loops *l = loops();
#pragma omp parallel
    {
        int64_t lo, hi;
        thread_share(n, &lo, &hi);
        l->range(work, lo, hi);
        fb_cpu_store_fence(work->streaming); /* this thread's stores, before the join */
    }
}

void fb_cpu_chain(const struct fb_chain *chain, const void *a, const void *b, void *c,
                  int64_t n, const struct fb_format *format)
{
    const struct fb_cpu_work work = {.chain = chain, .exact = fb_chain_is_exact(chain),
                                     .dtype = format->dtype,
                                     .streaming = is_streaming(format), .a = a, .b = b, .c = c};
    one_pass(&work, n);
}

void fb_cpu_op(enum fb_op_id op, struct fb_op_params params, const void *a, const void *b,
               void *c, int64_t n, const struct fb_format *format)
{
    if ((unsigned)op >= FB_OPID_COUNT)
        return;
    const struct fb_chain one = {.n_ops = 1, .ops = {{.op = op, .params = params}}};
    fb_cpu_chain(&one, a, fb_op_infos[op].arity == 2 ? b : NULL, c, n, format);
}

void fb_cpu_add_relu(const void *a, const void *b, void *c, int64_t n,
                     const struct fb_format *format)
{
    const struct fb_cpu_work work = {.add_relu = true, .exact = true, .dtype = format->dtype,
                                     .streaming = is_streaming(format), .a = a, .b = b, .c = c};
    one_pass(&work, n);
}

void fb_cpu_passes_in_one_region(const struct fb_cpu_pass *passes, int count, int64_t n,
                                 const struct fb_format *format, uint64_t *marks_ns)
{
    /* One fork and one join for all the passes. Between two passes a barrier (which also
     * flushes memory) makes every element of pass k visible to all threads before pass k + 1
     * reads it. With today's passes (equal n, the same split) each thread would in fact read
     * back only its own writes; the barrier stays because it is what the eager chain pays
     * between its kernels in one launch (the GPU graph's second kernel waits for the first to
     * finish), so the region saves the fork and join and nothing more, and because it keeps
     * any pass that does not split alike correct. */
    struct fb_cpu_work work[FB_CHAIN_MAX_OPS];
    struct fb_chain one[FB_CHAIN_MAX_OPS];
    if (count < 0 || count > FB_CHAIN_MAX_OPS)
        return;
    for (int k = 0; k < count; k++) {
        const bool known = (unsigned)passes[k].op.op < FB_OPID_COUNT;
        const bool binary = known && fb_op_infos[passes[k].op.op].arity == 2;
        /* an unknown op writes nothing: a chain of no ops */
        one[k] = (struct fb_chain){.n_ops = known ? 1 : 0, .ops = {passes[k].op}};
        work[k] = (struct fb_cpu_work){.chain = &one[k], .exact = fb_chain_is_exact(&one[k]),
                                       .dtype = format->dtype,
                                       .streaming = is_streaming(format), .a = passes[k].a,
                                       .b = binary ? passes[k].b : NULL, .c = passes[k].c};
    }
    const struct fb_cpu_loops *l = loops();
    /* The marks are read after a barrier, when every thread has finished the pass before;
     * `master` has no barrier of its own, so marking adds no wait to the other threads. */
#pragma omp parallel
    {
        int64_t lo, hi;
        thread_share(n, &lo, &hi);
        if (marks_ns) {
#pragma omp master
            marks_ns[0] = fb_now_ns();
        }
        for (int k = 0; k < count; k++) {
            l->range(&work[k], lo, hi);
            fb_cpu_store_fence(work[k].streaming); /* this thread's stores, before the barrier */
#pragma omp barrier
            if (marks_ns) {
#pragma omp master
                marks_ns[k + 1] = fb_now_ns();
            }
        }
    }
}
