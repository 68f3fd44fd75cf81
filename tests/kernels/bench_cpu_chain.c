/* bench_cpu_chain: is the CPU backend's generic fused pass as fast as a handwritten loop?
 * (meson: `meson test -C build --benchmark cpu_chain_vs_handwritten -v`, or run the program.)
 *
 * For each instruction set of the CPU loops that this build has and this CPU runs
 * (cpu_loops.h), at each size: the generic pass (fb_cpu_chain) on a 4-op chain, add, relu,
 * scale(0.5), bias(0.25) (configs/chain-length.ini's add_k3), against the same chain as one
 * handwritten loop (bench_handwritten.c, compiled with that set's flags, split over the
 * threads as the backend splits); and the generic pass on add, relu against the handwritten
 * fused add_relu (fb_cpu_add_relu), the pair that `fused_generic_add_relu / fused_add_relu`
 * compares in a sweep. The four are timed in interleaved samples (each sample a batch of
 * back-to-back calls, about 2 ms), so a disturbance of the machine hits them alike; printed:
 * the minimum and the median time per call and the ratios generic / handwritten. The verdict
 * on speed is those figures, read by a person: nothing here judges by the clock. What is
 * checked: the generic and the handwritten outputs are the same bits (exit 1 if not).
 *
 *   bench_cpu_chain [--isa NAME] [N ...]     (default: every set, 1K 10K 100K 1M 10M 100M)
 * Threads: OpenMP's default (OMP_NUM_THREADS). */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/cpu/cpu_kernels.h"
#include "common/clock.h"

typedef void handwritten_fn(const float *restrict a, const float *restrict b, float *restrict c,
                            int64_t n, float f, float o);
handwritten_fn bench_add_relu_scale_bias_baseline;
#if defined(__x86_64__)
handwritten_fn bench_add_relu_scale_bias_avx2, bench_add_relu_scale_bias_avx512;
#endif

static handwritten_fn *handwritten_for(enum fb_cpu_isa isa)
{
    switch (isa) {
    case FB_CPU_ISA_BASELINE: return bench_add_relu_scale_bias_baseline;
#if defined(__x86_64__)
    case FB_CPU_ISA_AVX2: return bench_add_relu_scale_bias_avx2;
    case FB_CPU_ISA_AVX512: return bench_add_relu_scale_bias_avx512;
#endif
    default: return NULL;
    }
}

#define SCALE 0.5f
#define BIAS 0.25f

/* The handwritten loop over n elements, each thread its share of whole 16-element groups
 * (the backend's split, cpu_kernels.c). */
static void run_handwritten(handwritten_fn *fn, const float *a, const float *b, float *c,
                            int64_t n)
{
#pragma omp parallel
    {
        const int64_t threads = omp_get_num_threads(), me = omp_get_thread_num();
        const int64_t groups = (n + 15) / 16, per = groups / threads, extra = groups % threads;
        const int64_t first = me * per + (me < extra ? me : extra);
        const int64_t lo = first * 16 < n ? first * 16 : n;
        const int64_t end = (first + per + (me < extra ? 1 : 0)) * 16;
        const int64_t hi = end < n ? end : n;
        fn(a + lo, b + lo, c + lo, hi - lo, SCALE, BIAS);
    }
}

enum variant { CHAIN4_GENERIC, CHAIN4_HANDWRITTEN, ADD_RELU_GENERIC, ADD_RELU_HANDWRITTEN, VARIANTS };

struct bench {
    handwritten_fn *handwritten;
    struct fb_chain chain4, add_relu;
    struct fb_format fp32;
    const float *a, *b;
    float *c;
};

static void run_variant(const struct bench *bn, enum variant v, int64_t n)
{
    switch (v) {
    case CHAIN4_GENERIC: fb_cpu_chain(&bn->chain4, bn->a, bn->b, bn->c, n, &bn->fp32); break;
    case CHAIN4_HANDWRITTEN: run_handwritten(bn->handwritten, bn->a, bn->b, bn->c, n); break;
    case ADD_RELU_GENERIC: fb_cpu_chain(&bn->add_relu, bn->a, bn->b, bn->c, n, &bn->fp32); break;
    case ADD_RELU_HANDWRITTEN: fb_cpu_add_relu(bn->a, bn->b, bn->c, n, &bn->fp32); break;
    default: break;
    }
}

static int compare_doubles(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Whether variants v and w write the same bits over n elements (c poisoned before each). */
static bool same_bits(const struct bench *bn, enum variant v, enum variant w, int64_t n,
                      float *saved)
{
    memset(bn->c, 0xff, (size_t)n * sizeof(float));
    run_variant(bn, v, n);
    memcpy(saved, bn->c, (size_t)n * sizeof(float));
    memset(bn->c, 0xff, (size_t)n * sizeof(float));
    run_variant(bn, w, n);
    return memcmp(saved, bn->c, (size_t)n * sizeof(float)) == 0;
}

#define SAMPLES 31

/* Times the four variants at n in interleaved samples; prints one line. */
static void time_size(const struct bench *bn, int64_t n)
{
    const int64_t batch = n >= 1000000 ? 1 : 2000000 / (n > 0 ? n : 1);
    static double t[VARIANTS][SAMPLES];
    for (int v = 0; v < VARIANTS; v++) /* warm-up: pages touched, caches as in a sweep */
        run_variant(bn, (enum variant)v, n);
    for (int s = 0; s < SAMPLES; s++)
        for (int v = 0; v < VARIANTS; v++) {
            const double start = fb_now_s();
            for (int64_t k = 0; k < batch; k++)
                run_variant(bn, (enum variant)v, n);
            t[v][s] = (fb_now_s() - start) / (double)batch;
        }
    double lo[VARIANTS], med[VARIANTS];
    for (int v = 0; v < VARIANTS; v++) {
        qsort(t[v], SAMPLES, sizeof t[v][0], compare_doubles);
        lo[v] = t[v][0];
        med[v] = t[v][SAMPLES / 2];
    }
    printf("%-8s %10" PRId64 "  %10.3f %10.3f  %10.3f %10.3f  %5.2f %5.2f   %5.2f %5.2f\n",
           fb_cpu_isa_name(fb_cpu_isa_in_use()), n, 1e6 * lo[CHAIN4_GENERIC],
           1e6 * med[CHAIN4_GENERIC], 1e6 * lo[CHAIN4_HANDWRITTEN], 1e6 * med[CHAIN4_HANDWRITTEN],
           lo[CHAIN4_GENERIC] / lo[CHAIN4_HANDWRITTEN], med[CHAIN4_GENERIC] / med[CHAIN4_HANDWRITTEN],
           lo[ADD_RELU_GENERIC] / lo[ADD_RELU_HANDWRITTEN],
           med[ADD_RELU_GENERIC] / med[ADD_RELU_HANDWRITTEN]);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int64_t sizes[32];
    int n_sizes = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--isa") == 0 && i + 1 < argc) {
            only = argv[++i];
            continue;
        }
        const long long v = strtoll(argv[i], &end, 10);
        if (*end || v < 1 || v > 1000000000 || n_sizes == 32) {
            fprintf(stderr, "usage: bench_cpu_chain [--isa NAME] [N ...] (1 <= N <= 1e9, at most "
                            "32 sizes)\n");
            return 2;
        }
        sizes[n_sizes++] = v;
    }
    if (n_sizes == 0) {
        const int64_t defaults[] = {1000, 10000, 100000, 1000000, 10000000, 100000000};
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
            sizes[n_sizes++] = defaults[i];
    }
    int64_t most = 0;
    for (int i = 0; i < n_sizes; i++)
        most = sizes[i] > most ? sizes[i] : most;

    float *a = malloc((size_t)most * sizeof(float)), *b = malloc((size_t)most * sizeof(float));
    float *c = malloc((size_t)most * sizeof(float)), *saved = malloc((size_t)most * sizeof(float));
    if (!a || !b || !c || !saved) {
        fprintf(stderr, "bench_cpu_chain: out of memory for %" PRId64 " elements\n", most);
        return 1;
    }
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (int64_t i = 0; i < most; i++) { /* uniform in [-1, 1): half the sums are negative */
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        a[i] = (float)((double)(rng >> 40) / (double)(1u << 23) - 1.0);
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        b[i] = (float)((double)(rng >> 40) / (double)(1u << 23) - 1.0);
    }
    struct bench bn = {.fp32 = {FB_DTYPE_FP32, FB_STORES_NORMAL}, .a = a, .b = b, .c = c};
    bn.chain4 = (struct fb_chain){.n_ops = 4,
                                  .ops = {{.op = FB_OPID_add},
                                          {.op = FB_OPID_relu},
                                          {.op = FB_OPID_scale, .params = {{SCALE, 0.0f}}},
                                          {.op = FB_OPID_bias, .params = {{BIAS, 0.0f}}}}};
    bn.add_relu = (struct fb_chain){.n_ops = 2, .ops = {{.op = FB_OPID_add}, {.op = FB_OPID_relu}}};

    printf("generic fused pass / handwritten loop, fp32, %d threads, %d interleaved samples "
           "(us per call: min, median)\n",
           omp_get_max_threads(), SAMPLES);
    printf("%-8s %10s  %21s  %21s  %11s   %11s\n", "set", "n", "4-op generic", "4-op handwritten",
           "4-op ratio", "add_relu ratio");
    int status = 0, sets = 0;
    for (int isa = 0; isa < FB_CPU_ISA_COUNT; isa++) {
        if (only && strcmp(only, fb_cpu_isa_name((enum fb_cpu_isa)isa)) != 0)
            continue;
        if (!handwritten_for((enum fb_cpu_isa)isa) || !fb_cpu_use_isa((enum fb_cpu_isa)isa))
            continue; /* not in this build, or not on this CPU */
        bn.handwritten = handwritten_for((enum fb_cpu_isa)isa);
        sets++;
        for (int i = 0; i < n_sizes; i++) {
            if (!same_bits(&bn, CHAIN4_GENERIC, CHAIN4_HANDWRITTEN, sizes[i], saved) ||
                !same_bits(&bn, ADD_RELU_GENERIC, ADD_RELU_HANDWRITTEN, sizes[i], saved)) {
                printf("%s n=%" PRId64 ": the generic and the handwritten results differ\n",
                       fb_cpu_isa_name((enum fb_cpu_isa)isa), sizes[i]);
                status = 1;
                continue;
            }
            time_size(&bn, sizes[i]);
        }
    }
    if (sets == 0) {
        fprintf(stderr, "bench_cpu_chain: no instruction set %s here\n", only ? only : "");
        status = 2;
    }
    printf("ratio = generic / handwritten (min-based, median-based); the same bits checked at "
           "every size\n");
    free(a);
    free(b);
    free(c);
    free(saved);
    return status;
}
