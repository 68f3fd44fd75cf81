/* DRAM and L2 bytes of one call through the CUPTI range profiler (contracts in cupti_session.h
 * and cupti_counters_host.h).
 *
 * Host side (no GPU needed): a host object for the chip turns metric names into a config image
 * (which counters to program, in how many passes) and later evaluates raw counter data into
 * metric values. Target side, per measurement: enable the range profiler on the context, make
 * a counter-data image, set the config with auto range (one range per kernel) and kernel
 * replay (CUPTI replays each kernel until every pass is collected, so one call suffices), start,
 * run the call, stop, decode, evaluate every range, disable. Enabling per measurement keeps the
 * profiler out of the timed passes entirely. */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include "cupti/cupti_profiler_host_c.h" /* cupti_profiler_host.h minus <string>: meson.build */
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cuda_check.h"
#include "cupti/cupti_check.h"
#include "cupti/cupti_device.h"
#include "cupti/cupti_counters_host.h"
#include "cupti/cupti_internal.h"
#include "cupti/traffic.h"

/* A call of a variant launches 1 or 2 kernels; room for many more costs little and turns a
 * surprise (a library launching extra kernels) into a range count, not a dropped range. */
#define FB_MAX_RANGES 64
/* Kernel replay normally needs one Start/Stop round; more means CUPTI wants the call run
 * again. A bound keeps a confused profiler from looping forever. */
#define FB_MAX_PASS_ROUNDS 16

static void host_free(CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = host;
    (void)cuptiProfilerHostDeinitialize(&p);
}

/* A host object for `chip`. */
static int host_init(const char *chip, const uint8_t *availability,
                     CUpti_Profiler_Host_Object **host, struct fb_error *err)
{
    CUpti_Profiler_Host_Initialize_Params init = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = chip;
    init.pCounterAvailabilityImage = availability;
    struct fb_error why; /* the CUPTI message, wrapped into err with what it means */
    int rc = FB_CUPTI_CALL(cuptiProfilerHostInitialize(&init), &why);
    if (rc < 0)
        return fb_fail(err, rc == FB_ERR_RUNTIME ? FB_ERR_UNAVAILABLE : rc,
                       "chip \"%s\" is not supported by the range profiler: %s", chip,
                       why.msg);
    *host = init.pHostObject;
    return FB_OK;
}

/* The first index into names->metrics that the chip's config asks for: 0, or the L2 metric
 * alone on a chip without DRAM metrics (it is the last). */
static int first_metric(const struct fb_traffic_names *names)
{
    return names->metrics[FB_METRIC_DRAM_READ] ? 0 : FB_METRIC_L2;
}

/* A host object for `chip` with the traffic metrics added: the DRAM metrics of the first set
 * of fb_traffic_dram_metric_names the chip resolves, or none (the L2 metric alone), in
 * *names. CUPTI rejects a name the chip does not have as an invalid parameter, so each set is
 * tried on a fresh host object. */
static int host_add_metrics(const char *chip, const uint8_t *availability,
                            CUpti_Profiler_Host_Object **host_out,
                            struct fb_traffic_names *names, struct fb_error *err)
{
    *host_out = NULL;
    memset(names, 0, sizeof *names);
    names->metrics[FB_METRIC_L2] = fb_traffic_metric_names[FB_METRIC_L2];
    size_t why_len = 0;
    for (int set = 0; set <= FB_DRAM_METRIC_SETS; set++) {
        const bool dram = set < FB_DRAM_METRIC_SETS;
        names->metrics[FB_METRIC_DRAM_READ] = dram ? fb_traffic_dram_metric_names[set][0] : NULL;
        names->metrics[FB_METRIC_DRAM_WRITE] = dram ? fb_traffic_dram_metric_names[set][1] : NULL;
        CUpti_Profiler_Host_Object *host = NULL;
        int rc = host_init(chip, availability, &host, err);
        if (rc < 0)
            return rc;
        const int first = first_metric(names);
        CUpti_Profiler_Host_ConfigAddMetrics_Params add = {CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        add.pHostObject = host;
        add.ppMetricNames = names->metrics + first;
        add.numMetrics = (size_t)(FB_METRIC_COUNT - first);
        /* CUPTI's result by name: FB_CUPTI_CALL's message leads with the call and the line,
         * which would crowd the metadata's reason. */
        const CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add);
        const char *why = NULL;
        if (cuptiGetResultString(r, &why) != CUPTI_SUCCESS || !why)
            why = "unknown CUPTI result";
        if (r == CUPTI_SUCCESS) {
            if (!dram) { /* the chip first, then CUPTI's answer to each set of names */
                char tried[sizeof names->dram_why];
                memcpy(tried, names->dram_why, sizeof tried);
                snprintf(names->dram_why, sizeof names->dram_why,
                         "no DRAM byte metric resolved on chip %s: %.300s", chip, tried);
            }
            *host_out = host;
            return FB_OK;
        }
        host_free(host);
        if (!dram) /* An unknown metric is a property of the chip, not a bug to crash on. */
            return fb_fail(err, FB_ERR_UNAVAILABLE, "metric %s on chip \"%s\": %s (%d)",
                           names->metrics[FB_METRIC_L2], chip, why, (int)r);
        int k = snprintf(names->dram_why + why_len, sizeof names->dram_why - why_len,
                         "%s%s, %s: %s", set ? "; " : "", names->metrics[0], names->metrics[1],
                         why);
        if (k > 0)
            why_len = why_len + (size_t)k < sizeof names->dram_why ? why_len + (size_t)k
                                                                   : sizeof names->dram_why - 1;
    }
    return FB_ERR_RUNTIME; /* not reached: the last set returns */
}

/* A host object for `chip` with the traffic metrics added (host_add_metrics), and its config
 * image. */
static int host_config(const char *chip, const uint8_t *availability,
                       CUpti_Profiler_Host_Object **host_out, uint8_t **image,
                       size_t *image_size, size_t *passes, struct fb_traffic_names *names,
                       struct fb_error *err)
{
    *host_out = NULL;
    *image = NULL;
    *image_size = 0;
    *passes = 0;
    CUpti_Profiler_Host_Object *host;
    int rc = host_add_metrics(chip, availability, &host, names, err);
    if (rc < 0)
        return rc;
    CUpti_Profiler_Host_GetConfigImageSize_Params size = {CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host;
    if ((rc = FB_CUPTI_CALL(cuptiProfilerHostGetConfigImageSize(&size), err)) < 0)
        goto fail;
    uint8_t *buf = calloc(size.configImageSize ? size.configImageSize : 1, 1);
    if (!buf) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "config image: out of memory (%zu bytes)",
                     size.configImageSize);
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImage_Params get = {CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    get.pHostObject = host;
    get.configImageSize = size.configImageSize;
    get.pConfigImage = buf;
    if ((rc = FB_CUPTI_CALL(cuptiProfilerHostGetConfigImage(&get), err)) < 0) {
        free(buf);
        goto fail;
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = size.configImageSize;
    np.pConfigImage = buf;
    if ((rc = FB_CUPTI_CALL(cuptiProfilerHostGetNumOfPasses(&np), err)) < 0) {
        free(buf);
        goto fail;
    }
    *host_out = host;
    *image = buf;
    *image_size = size.configImageSize;
    *passes = np.numOfPasses;
    return FB_OK;
fail:
    host_free(host);
    return rc;
}

int fb_cupti_traffic_config(const char *chip, const uint8_t *counter_availability,
                            uint8_t **image, size_t *image_size, size_t *passes,
                            struct fb_traffic_names *names, struct fb_error *err)
{
    CUpti_Profiler_Host_Object *host = NULL;
    int rc = host_config(chip, counter_availability, &host, image, image_size, passes, names,
                         err);
    host_free(host);
    return rc;
}

/* Why the range profiler cannot run on the device, as a sentence; NULL when it can. */
static const char *unsupported_reason(const CUpti_Profiler_DeviceSupported_Params *p)
{
    if (p->architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "the GPU architecture is not supported (compute capability 7.0 or newer needed)";
    if (p->vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
        return "profiling is disabled on this vGPU";
    if (p->vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "this vGPU configuration is not supported";
    if (p->confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "confidential compute mode is on";
    if (p->sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "SLI is enabled";
    if (p->cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "crypto-mining processors are not supported";
    if (p->wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "WSL is not supported";
    if (p->isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "the device does not support range profiling";
    return NULL;
}

/* The trial: enable the range profiler on the context and disable it again. A sandbox that
 * hides the counters (gVisor: ncu's "LibraryNotLoaded") or a driver that keeps them for
 * administrators refuses here, and the part is reported unavailable once, at setup, with
 * CUPTI's own error text, instead of failing at the first point. */
static int trial_enable(struct fb_cupti_session *c, struct fb_error *err)
{
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = (CUcontext)c->cu_context;
    int rc = FB_CUPTI_CALL(cuptiRangeProfilerEnable(&en), err);
    if (rc < 0)
        return rc;
    CUpti_RangeProfiler_Disable_Params dis = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    dis.pRangeProfilerObject = en.pRangeProfilerObject;
    return FB_CUPTI_CALL(cuptiRangeProfilerDisable(&dis), err);
}

int fb_cupti_counters_setup(struct fb_cupti_session *c, struct fb_error *err)
{
    int rc = fb_cupti_profiler_init(err);
    if (rc < 0)
        return rc;
    CUpti_Profiler_DeviceSupported_Params sup = {CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    sup.cuDevice = (CUdevice)c->device; /* runtime and driver ordinals agree */
    sup.api = CUPTI_PROFILER_RANGE_PROFILING;
    if ((rc = FB_CUPTI_CALL(cuptiProfilerDeviceSupported(&sup), err)) < 0)
        return rc;
    const char *why = unsupported_reason(&sup);
    if (why)
        return fb_fail(err, FB_ERR_UNAVAILABLE, "range profiler on device %d: %s", c->device,
                       why);

    if ((rc = fb_cupti_chip_name(c->device, c->chip, sizeof(c->chip), err)) < 0)
        return rc;

    /* The availability image says which counters this device lets us program now (a
     * concurrent profiler or a restricted driver takes some away). Size first, then data. */
    CUpti_Profiler_GetCounterAvailability_Params av = {CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    av.ctx = (CUcontext)c->cu_context;
    if ((rc = FB_CUPTI_CALL(cuptiProfilerGetCounterAvailability(&av), err)) < 0)
        return rc;
    c->availability = calloc(av.counterAvailabilityImageSize ? av.counterAvailabilityImageSize
                                                             : 1, 1);
    if (!c->availability)
        return fb_fail(err, FB_ERR_RUNTIME, "counter availability image: out of memory");
    av.pCounterAvailabilityImage = c->availability;
    if ((rc = FB_CUPTI_CALL(cuptiProfilerGetCounterAvailability(&av), err)) < 0)
        return rc;

    size_t passes = 0;
    CUpti_Profiler_Host_Object *host = NULL;
    rc = host_config(c->chip, c->availability, &host, &c->config, &c->config_size, &passes,
                     &c->names, err);
    if (rc < 0)
        return rc;
    c->host = (struct CUpti_Profiler_Host_Object *)host;
    return trial_enable(c, err);
}

void fb_cupti_session_metrics(const struct fb_cupti_session *c, char *out, size_t size)
{
    if (size)
        out[0] = '\0';
    if (c && c->has[FB_CUPTI_COUNTERS])
        fb_traffic_names_describe(&c->names, out, size);
}

void fb_cupti_counters_teardown(struct fb_cupti_session *c)
{
    host_free((CUpti_Profiler_Host_Object *)c->host);
    c->host = NULL;
    free(c->config);
    c->config = NULL;
    free(c->availability);
    c->availability = NULL;
}

/* One profiled call: everything between enable and disable. `object` is enabled. */
static int profile_call(struct fb_cupti_session *c, CUpti_RangeProfiler_Object *object,
                        int (*prepare)(void *ctx, struct fb_error *err),
                        int (*run_once)(void *ctx, struct fb_error *err), void *ctx,
                        struct fb_traffic *out, struct fb_error *err)
{
    const int first = first_metric(&c->names);
    const char **metrics = c->names.metrics + first;
    const size_t n_metrics = (size_t)(FB_METRIC_COUNT - first);
    CUpti_RangeProfiler_GetCounterDataSize_Params sz = {CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    sz.pRangeProfilerObject = object;
    sz.pMetricNames = metrics;
    sz.numMetrics = n_metrics;
    sz.maxNumOfRanges = FB_MAX_RANGES;
    sz.maxNumRangeTreeNodes = FB_MAX_RANGES;
    int rc = FB_CUPTI_CALL(cuptiRangeProfilerGetCounterDataSize(&sz), err);
    if (rc < 0)
        return rc;
    uint8_t *data = calloc(sz.counterDataSize ? sz.counterDataSize : 1, 1);
    if (!data)
        return fb_fail(err, FB_ERR_RUNTIME, "counter data image: out of memory (%zu bytes)",
                       sz.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init = {CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = object;
    init.counterDataSize = sz.counterDataSize;
    init.pCounterData = data;
    if ((rc = FB_CUPTI_CALL(cuptiRangeProfilerCounterDataImageInitialize(&init), err)) < 0)
        goto out;

    CUpti_RangeProfiler_SetConfig_Params cfg = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    cfg.pRangeProfilerObject = object;
    cfg.configSize = c->config_size;
    cfg.pConfig = c->config;
    cfg.counterDataImageSize = sz.counterDataSize;
    cfg.pCounterDataImage = data;
    cfg.range = CUPTI_AutoRange;
    cfg.replayMode = CUPTI_KernelReplay;
    cfg.maxRangesPerPass = FB_MAX_RANGES;
    cfg.numNestingLevels = 1; /* auto range: one level (cupti_range_profiler.h) */
    cfg.minNestingLevel = 1;
    cfg.passIndex = 0;
    cfg.targetNestingLevel = 1;
    if ((rc = FB_CUPTI_CALL(cuptiRangeProfilerSetConfig(&cfg), err)) < 0)
        goto out;

    bool all_submitted = false;
    for (int round = 0; round < FB_MAX_PASS_ROUNDS && !all_submitted; round++) {
        /* Before the range starts: a flush here is neither profiled nor counted. */
        if (prepare && (rc = prepare(ctx, err)) < 0)
            goto out;
        CUpti_RangeProfiler_Start_Params start = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        start.pRangeProfilerObject = object;
        if ((rc = FB_CUPTI_CALL(cuptiRangeProfilerStart(&start), err)) < 0)
            goto out;
        int run_rc = run_once(ctx, err);
        int sync_rc = run_rc < 0 ? FB_OK : FB_CUDA_CHECK(cudaDeviceSynchronize(), err);
        CUpti_RangeProfiler_Stop_Params stop = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        stop.pRangeProfilerObject = object;
        rc = FB_CUPTI_CALL(cuptiRangeProfilerStop(&stop), run_rc < 0 || sync_rc < 0 ? NULL : err);
        if (run_rc < 0) {
            rc = run_rc;
            goto out;
        }
        if (sync_rc < 0) {
            rc = sync_rc;
            goto out;
        }
        if (rc < 0)
            goto out;
        all_submitted = stop.isAllPassSubmitted != 0;
    }
    if (!all_submitted) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "range profiler: passes still pending after %d runs "
                     "of the call", FB_MAX_PASS_ROUNDS);
        goto out;
    }

    CUpti_RangeProfiler_DecodeData_Params dec = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dec.pRangeProfilerObject = object;
    if ((rc = FB_CUPTI_CALL(cuptiRangeProfilerDecodeData(&dec), err)) < 0)
        goto out;
    if (dec.numOfRangeDropped > 0) {
        rc = fb_fail(err, FB_ERR_RUNTIME, "range profiler: %zu ranges dropped (more than %d "
                     "kernels in one call?)", dec.numOfRangeDropped, FB_MAX_RANGES);
        goto out;
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = data;
    info.counterDataImageSize = sz.counterDataSize;
    if ((rc = FB_CUPTI_CALL(cuptiRangeProfilerGetCounterDataInfo(&info), err)) < 0)
        goto out;

    struct fb_traffic sum;
    fb_traffic_init(&sum);
    for (size_t i = 0; i < info.numTotalRanges; i++) {
        double values[FB_METRIC_COUNT] = {0};
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        ev.pHostObject = (CUpti_Profiler_Host_Object *)c->host;
        ev.pCounterDataImage = data;
        ev.counterDataImageSize = sz.counterDataSize;
        ev.rangeIndex = i;
        ev.ppMetricNames = metrics;
        ev.numMetrics = n_metrics;
        ev.pMetricValues = values + first;
        if ((rc = FB_CUPTI_CALL(cuptiProfilerHostEvaluateToGpuValues(&ev), err)) < 0)
            goto out;
        if (fb_traffic_add_range(&sum, values, first == 0) < 0) {
            rc = fb_fail(err, FB_ERR_RUNTIME, "range %zu: invalid metric values %g, %g, %g", i,
                         values[0], values[1], values[2]);
            goto out;
        }
    }
    *out = sum;
    rc = FB_OK;
out:
    free(data);
    return rc;
}

int fb_cupti_measure_traffic(struct fb_cupti_session *c,
                             int (*prepare)(void *ctx, struct fb_error *err),
                             int (*run_once)(void *ctx, struct fb_error *err), void *ctx,
                             struct fb_traffic *out, struct fb_error *err)
{
    fb_traffic_init(out);
    const char *why = NULL;
    if (!fb_cupti_part_works(c, FB_CUPTI_COUNTERS, &why))
        return fb_fail(err, FB_ERR_UNAVAILABLE, "CUPTI counters unavailable: %s", why);
    if (c->window_open)
        return fb_fail(err, FB_ERR_USAGE, "fb_cupti_measure_traffic: an activity window is "
                       "open (kernel replay would add launches to it)");
    if (!run_once)
        return fb_fail(err, FB_ERR_USAGE, "fb_cupti_measure_traffic: no call to run");

    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = (CUcontext)c->cu_context;
    int rc = FB_CUPTI_CALL(cuptiRangeProfilerEnable(&en), err);
    if (rc < 0)
        return rc;
    rc = profile_call(c, en.pRangeProfilerObject, prepare, run_once, ctx, out, err);
    CUpti_RangeProfiler_Disable_Params dis = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    dis.pRangeProfilerObject = en.pRangeProfilerObject;
    int rc2 = FB_CUPTI_CALL(cuptiRangeProfilerDisable(&dis), rc < 0 ? NULL : err);
    if (rc == FB_OK && rc2 < 0)
        rc = rc2;
    if (rc < 0)
        fb_traffic_init(out);
    return rc;
}
