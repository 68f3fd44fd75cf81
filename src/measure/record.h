/* One measured point: a flat record, produced by the runner, formatted only by the writers.
 *
 * A field that was not measured is NaN (doubles) or -1 (counts) and is written as an empty
 * CSV cell, never as a made-up number. The CSV columns (src/results/csv.c) are these fields,
 * in this order, with these names. */
#ifndef FB_MEASURE_RECORD_H
#define FB_MEASURE_RECORD_H

#include <stdbool.h>
#include <stdint.h>

/* noisy: verified and timed, but too many of its samples were disturbed by other programs
 * (measure/disturbance.h) to give min_reps clean ones within the retake budget; its times
 * come from what there was and must not be read as the kernels' own. */
enum fb_point_status { FB_POINT_OK, FB_POINT_FAILED, FB_POINT_SKIPPED, FB_POINT_NOISY };

struct fb_record {
    char backend[32];  /* "cpu", "cuda" (torch peers: "torch-eager", "torch-compile") */
    char device[128];  /* device name */
    char variant[48];
    char dtype[16];
    int64_t n;         /* elements */
    int64_t launches;  /* kernels per call, counted (CPU passes, CUDA kernel launches or a
                          graph's kernel nodes, CUPTI kernel records) */
    int64_t bytes_model;   /* elements_moved * sizeof(dtype) * n */
    int64_t reps;          /* timed samples */
    int64_t batch;         /* calls per timed sample (> 1 when one call is below the timer's
                              resolution: the sample is the batch time divided by batch) */
    double time_median_s, time_min_s, time_max_s, time_p10_s, time_p90_s; /* per call */
    double noise;          /* relative half-width of the median's 95% confidence interval */
    double bandwidth_gbps; /* bytes_model / time_median_s / 1e9 */
    double copy_fraction;  /* bandwidth over the copy ceiling's (the row whose role is
                              copy_ceiling) at the same n: measure/pairing.h */
    double kernel_time_s;  /* median summed kernel durations per call (CUPTI) */
    double launch_overhead_s; /* time_median_s - kernel_time_s, both in this row's cache mode */
    int64_t dram_read_bytes, dram_write_bytes, l2_bytes; /* one call (CUPTI range profiler),
                                                            in this row's cache mode */
    double dram_bytes_per_element; /* (dram_read + dram_write) / n / sizeof(dtype) */
    char cache[8];         /* "warm" or "cold" */
    bool verified;         /* output matched the CPU reference before timing */
    enum fb_point_status status;
    char reason[256];      /* why failed, skipped or noisy; "" when ok */
    /* Appended after today's columns (older files lack them: measure/pairing.h). */
    char role[24];         /* the variant's role (fb_variant_role_name): copy_ceiling,
                              platform_reference, eager, fused; "" unknown */
    char pair[48];         /* the variant this row's speedup is taken against; "" none */
    double speedup;        /* time_median_s / the pair's time_median_s (measure/pairing.h) */
    double preempted;      /* fraction of the timed samples taken that were disturbed and
                              dropped, in [0, 1]; NaN when not judged (older CSVs, peers) */
    char stores[16];       /* "normal" or "streaming" (common/format.h); "" in older files,
                              which read as "normal" (fb_stores_canonical) */
    int64_t host_launches; /* launches the host issues per call (the variant's: 1 for a CUDA
                              graph or one CPU parallel region holding its `launches` kernels,
                              else = launches; plan/variants.h): what the fit's launch cost is
                              paid per (measure/fit.h); -1 unknown (older CSVs, peers) */
    /* A peer's row measured in the same process as ours (src/peer/, tools/torch_inprocess.py):
     * the variant of ours it mirrors, and ours / it (measure/pairing.h); "" and NaN else. */
    char mirror[48];
    double ours_ratio, ours_ratio_lo, ours_ratio_hi;
    /* The speedup's 95% confidence interval, a bootstrap of this row's and its pair's samples
     * over the interleaved rounds they were taken in (measure/interval.h); NaN where there is
     * no speedup, fewer than 8 paired rounds, or the file predates the columns. */
    double speedup_lo, speedup_hi;
    int64_t speedup_rounds; /* the paired rounds (both clean) among them; -1 none */
};

/* A record with every measured field set to "not measured". */
void fb_record_init(struct fb_record *r);

const char *fb_point_status_name(enum fb_point_status s);

#endif
