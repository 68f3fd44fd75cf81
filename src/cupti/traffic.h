/* Memory traffic of one call of a variant, as counted by the GPU (CUPTI range profiler).
 *
 * Metrics (Nsight Compute names), all in bytes:
 *   dram__bytes_read.sum   bytes read from device memory (HBM) into L2
 *   dram__bytes_write.sum  bytes written from L2 back to device memory
 *   lts__t_bytes.sum       bytes through the L2 slices (all requests, hits and misses)
 * A call's traffic is the sum over its ranges (one range per kernel with auto range).
 * Plain C, always compiled. */
#ifndef FB_CUPTI_TRAFFIC_H
#define FB_CUPTI_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fb_traffic_metric {
    FB_METRIC_DRAM_READ,
    FB_METRIC_DRAM_WRITE,
    FB_METRIC_L2,
    FB_METRIC_COUNT,
};

/* The CUPTI metric names, indexed by enum fb_traffic_metric: what most chips answer to. */
extern const char *const fb_traffic_metric_names[FB_METRIC_COUNT];

/* The DRAM read and write metrics to try on a chip, in order (CUPTI 13.0's host API, no GPU
 * needed, tests/cupti/test_cupti_counters_host.c): the plain names resolve on Turing to
 * Blackwell's datacenter chips (TU10x, GA10x, AD10x, GH100, GB100, GB110); GB202-GB207 (RTX 50xx,
 * RTX PRO 6000) reject them as an invalid parameter and count the same bytes as dram__bytes_op_*;
 * the integrated chips (GA10B, GB10B, GB20B: shared system memory) have neither, and their DRAM
 * columns stay NA, with the reason in the counters metadata. */
#define FB_DRAM_METRIC_SETS 2
extern const char *const fb_traffic_dram_metric_names[FB_DRAM_METRIC_SETS][2];

/* The metrics a chip's config asks for: metrics[] by enum fb_traffic_metric, the DRAM ones
 * NULL on a chip with none (then dram_why says why: CUPTI's answer to each name tried). */
struct fb_traffic_names {
    const char *metrics[FB_METRIC_COUNT];
    char dram_why[400];
};

/* The counters metadata's words for names: "DRAM bytes from R + W" or "DRAM bytes NA
 * (WHY)". */
void fb_traffic_names_describe(const struct fb_traffic_names *names, char *out, size_t size);

struct fb_traffic {
    int64_t dram_read_bytes, dram_write_bytes, l2_bytes; /* -1: not measured */
    int64_t ranges; /* ranges summed (kernels profiled) */
};

/* All fields "not measured" (-1), ranges 0. */
void fb_traffic_init(struct fb_traffic *t);

/* Adds one range's metric values (bytes, as doubles from CUPTI's evaluation, indexed by
 * enum fb_traffic_metric), rounded to the nearest byte; a field at -1 starts from 0. Without
 * `dram` (a chip with no DRAM metric) the DRAM values are not looked at and their fields stay
 * -1. If any value looked at is negative or NaN (a counter that failed), nothing is added and
 * it returns -1; otherwise 0. */
int fb_traffic_add_range(struct fb_traffic *t, const double values[FB_METRIC_COUNT], bool dram);

/* The record's dram_bytes_per_element column:
 *   (dram_read_bytes + dram_write_bytes) / n / elem_size
 * i.e. how many elements' worth of DRAM traffic one output element costs: the measured
 * counterpart of a variant's elements_moved (5 eager, 3 fused, 2 copy). NaN when either DRAM
 * field is not measured, n <= 0 or elem_size == 0. */
double fb_traffic_dram_bytes_per_element(const struct fb_traffic *t, int64_t n,
                                         size_t elem_size);

#endif
