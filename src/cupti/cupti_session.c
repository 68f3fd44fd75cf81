/* Opening and closing a CUPTI session on a device (contracts in cupti_session.h). */
#include "cupti/cupti_session.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdlib.h>
#include <string.h>

#include "common/cuda_check.h"
#include "cupti/cupti_check.h"
#include "cupti/cupti_device.h"
#include "cupti/cupti_internal.h"

/* The current CUcontext without linking libcuda (CUDA13-NOTES.md): the runtime hands out the
 * driver's cuCtxGetCurrent, whose ABI has not changed since CUDA 4.0. */
static int current_context(void **out, struct fb_error *err)
{
    typedef CUresult (*ctx_get_current_fn)(CUcontext *);
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    /* ByVersion from CUDA 12.5 on (13.0 keeps only it); the versionless call before. */
#if CUDART_VERSION >= 12050
    int rc = FB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000,
                                                           cudaEnableDefault, &found), err);
#else
    int rc = FB_CUDA_CHECK(cudaGetDriverEntryPoint("cuCtxGetCurrent", &fn, cudaEnableDefault,
                                                   &found), err);
#endif
    if (rc < 0)
        return rc;
    if (found != cudaDriverEntryPointSuccess || !fn)
        return fb_fail(err, FB_ERR_RUNTIME, "cudaGetDriverEntryPointByVersion(cuCtxGetCurrent) "
                       "(%s:%d): symbol not found (result %d)", __FILE__, __LINE__, (int)found);
    CUcontext ctx = NULL;
    CUresult cr = ((ctx_get_current_fn)fn)(&ctx);
    if (cr != CUDA_SUCCESS || !ctx)
        return fb_fail(err, FB_ERR_RUNTIME, "cuCtxGetCurrent (%s:%d): CUresult %d, context %p",
                       __FILE__, __LINE__, (int)cr, (void *)ctx);
    *out = ctx;
    return FB_OK;
}

static void set_reason(struct fb_cupti_session *c, enum fb_cupti_part part, const char *msg)
{
    size_t len = strlen(msg);
    if (len >= FB_CUPTI_REASON_MAX)
        len = FB_CUPTI_REASON_MAX - 1;
    memcpy(c->reason[part], msg, len);
    c->reason[part][len] = '\0';
}

/* The device half of opening: make the device current, create its primary context and get it. */
static int open_context(struct fb_cupti_session *c, struct fb_error *err)
{
    int rc;
    if ((rc = FB_CUDA_CHECK(cudaSetDevice(c->device), err)) < 0)
        return rc;
    /* cudaFree(NULL) is the customary way to make the runtime create the primary context now,
     * so that there is a context to profile before the first kernel. */
    if ((rc = FB_CUDA_CHECK(cudaFree(NULL), err)) < 0)
        return rc;
    return current_context(&c->cu_context, err);
}

const struct fb_cupti_setup_steps fb_cupti_real_steps = {
    fb_cupti_check_device, open_context, fb_cupti_activity_setup, fb_cupti_counters_setup};

int fb_cupti_session_open(struct fb_cupti_session **out, int device, bool activity, bool counters,
                  struct fb_error *err)
{
    return fb_cupti_session_open_steps(out, device, activity, counters, &fb_cupti_real_steps, err);
}

int fb_cupti_session_open_steps(struct fb_cupti_session **out, int device, bool activity,
                                bool counters, const struct fb_cupti_setup_steps *steps,
                                struct fb_error *err)
{
    *out = NULL;
    /* No target-side CUPTI call before a device answers (cuptiDeviceGetChipName segfaults
     * without one). */
    int rc = steps->check_device(device, err);
    if (rc < 0)
        return rc;
    struct fb_cupti_session *c = calloc(1, sizeof(*c));
    if (!c)
        return fb_fail(err, FB_ERR_RUNTIME, "fb_cupti_session_open: out of memory");
    c->device = device;
    if ((rc = steps->open_context(c, err)) < 0) {
        free(c);
        return rc;
    }
    set_reason(c, FB_CUPTI_ACTIVITY, "activity was not requested");
    set_reason(c, FB_CUPTI_COUNTERS, "counters were not requested");

    /* The trials: whatever a part's setup answers (a refusal mapped to FB_ERR_UNAVAILABLE, or
     * any other CUPTI error, e.g. a profiler library that did not load), the part is off
     * with CUPTI's message as its reason, and the other part carries on. */
    struct fb_error part_err;
    if (activity) {
        part_err.msg[0] = '\0';
        c->has[FB_CUPTI_ACTIVITY] = steps->activity(c, &part_err) == FB_OK;
        set_reason(c, FB_CUPTI_ACTIVITY, c->has[FB_CUPTI_ACTIVITY] ? "" : part_err.msg);
    }
    if (counters) {
        part_err.msg[0] = '\0';
        c->has[FB_CUPTI_COUNTERS] = steps->counters(c, &part_err) == FB_OK;
        set_reason(c, FB_CUPTI_COUNTERS, c->has[FB_CUPTI_COUNTERS] ? "" : part_err.msg);
    }
    bool any_requested = activity || counters;
    if (any_requested && !c->has[FB_CUPTI_ACTIVITY] && !c->has[FB_CUPTI_COUNTERS]) {
        if (activity && counters)
            fb_fail(err, FB_ERR_UNAVAILABLE, "CUPTI unavailable: activity: %s; counters: %s",
                    c->reason[FB_CUPTI_ACTIVITY], c->reason[FB_CUPTI_COUNTERS]);
        else
            fb_fail(err, FB_ERR_UNAVAILABLE, "CUPTI %s unavailable: %s",
                    activity ? "activity" : "counters",
                    c->reason[activity ? FB_CUPTI_ACTIVITY : FB_CUPTI_COUNTERS]);
        fb_cupti_session_close(c);
        return FB_ERR_UNAVAILABLE;
    }
    *out = c;
    return FB_OK;
}

void fb_cupti_session_close(struct fb_cupti_session *c)
{
    if (!c)
        return;
    if (c->has[FB_CUPTI_ACTIVITY])
        fb_cupti_activity_teardown(c);
    fb_cupti_counters_teardown(c);
    free(c);
}

bool fb_cupti_session_available(const struct fb_cupti_session *c, enum fb_cupti_part part,
                                const char **reason)
{
    return fb_cupti_part_works(c, part, reason);
}
