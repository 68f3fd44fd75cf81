/* What fusebench measures beyond time, where the backend allows: through CUPTI on the GPU,
 * the kernels that really ran (count and duration) and the DRAM/L2 bytes they moved. */
#ifndef FB_MEASURE_PROBE_H
#define FB_MEASURE_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/backend.h"
#include "cupti/cupti_session.h"
#include "cupti/kernel_trace.h"
#include "cupti/traffic.h"
#include "measure/runner.h"
#include "plan/plan.h"

struct fb_cupti_probe;

/* Sets up the probe for this backend and plan ([cupti], cache mode, device). *state stays NULL (and FB_OK is returned)
 * when there is nothing to probe: the CPU backend, CUPTI not built, or CUPTI unavailable
 * here, in which case one warning goes to stderr and `status` says why (for the CSV
 * metadata). probe is filled when *state is set. Fills dev->chip from CUPTI when it can. */
int fb_cupti_probe_open(struct fb_cupti_probe **state, struct fb_probe *probe,
                        const struct fb_backend_ops *ops, void *backend,
                        const struct fb_plan *plan, struct fb_device_info *dev, char *status,
                        size_t status_size, struct fb_error *err);
void fb_cupti_probe_close(struct fb_cupti_probe *state);

/* The counters pass's measurement: fb_cupti_measure_traffic's signature (cupti_session.h). */
typedef int (*fb_probe_traffic_fn)(struct fb_cupti_session *c,
                                   int (*prepare)(void *ctx, struct fb_error *err),
                                   int (*run_once)(void *ctx, struct fb_error *err), void *ctx,
                                   struct fb_traffic *out, struct fb_error *err);

/* A probe with counters only, measured by `measure` in place of fb_cupti_measure_traffic and
 * taken as working: for tests of what a sweep does with the answers (tests/cupti/
 * test_probe_refusal.c). Closed with fb_cupti_probe_close. FB_OK or FB_ERR_RUNTIME. */
int fb_cupti_probe_open_counters(struct fb_cupti_probe **state, struct fb_probe *probe,
                                 const struct fb_backend_ops *ops, void *backend,
                                 fb_probe_traffic_fn measure, struct fb_error *err);

/* The variants whose counters the range profiler refused, each with CUPTI's reason, as
 * "VARIANT: REASON; VARIANT: REASON" into out (size bytes), for the CSV metadata
 * `counters_refused`. A refusal (FB_ERR_RUNTIME or FB_ERR_USAGE from the counters pass)
 * leaves that variant's DRAM and L2 columns empty from then on, says so once on stderr, and
 * keeps the counters of every other variant. Returns whether there is any (false also for a
 * NULL state). */
bool fb_cupti_probe_refusals(const struct fb_cupti_probe *state, char *out, size_t size);

/* What the probe set up, as fb_cupti_probe_open found it (tests build it by hand). */
struct fb_probe_setup {
    bool activity_requested, counters_requested; /* [cupti] activity, counters */
    bool activity_ok, counters_ok;               /* the part's trial enable succeeded */
    const char *activity_reason, *counters_reason; /* why not ok: CUPTI's own text */
    enum fb_cache_mode cache;                    /* the sweep's cache mode */
    const char *metrics; /* the chip's DRAM metrics (fb_traffic_names_describe); NULL: unsaid */
};

/* The CSV metadata value of `counters` (into status) and the one warning to print (into
 * warning; "" when every requested part works). status is "COUNTERS; activity ACTIVITY", where
 *   COUNTERS is "on (cache cold: an L2 flush before each profiled call)" or
 *     "on (cache warm: each profiled call follows a warm call)" - the cache state the DRAM
 *     bytes come from, then "; " and setup->metrics inside the parentheses when set (the
 *     DRAM metric names used, or NA and why) - or "unavailable (REASON)" or
 *     "off ([cupti] counters = false)";
 *   ACTIVITY is "on", "unavailable (REASON)" or "off ([cupti] activity = false)".
 * REASON may itself hold parentheses and semicolons: split at the last "; activity ". */
void fb_cupti_probe_describe(const struct fb_probe_setup *setup, char *status, size_t status_size,
                             char *warning, size_t warning_size);

/* Runs `calls` calls of call->run (each after call->flush when it is set) in one CUPTI
 * activity window, synchronizes, and points *trace at the window's kernel records (owned by
 * state, valid until its next window or fb_cupti_probe_close). For --profile's kernel table;
 * needs the activity part (the probe's kernel_pass set). Returns FB_OK or the first error. */
int fb_cupti_probe_trace(struct fb_cupti_probe *state, const struct fb_probe_call *call, int calls,
                         const struct fb_kernel_trace **trace, struct fb_error *err);

#endif
