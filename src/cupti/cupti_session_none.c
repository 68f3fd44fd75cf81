/* cupti_session.h in a build without CUPTI (-Dcupti=disabled or no CUDA): every entry point
 * reports the part as unavailable, so the runner needs no #ifdef around its calls. */
#include "cupti/cupti_session.h"

static const char *const no_cupti = "this fusebench was built without CUPTI";

int fb_cupti_session_open(struct fb_cupti_session **out, int device, bool activity, bool counters,
                  struct fb_error *err)
{
    (void)device, (void)activity, (void)counters;
    *out = NULL;
    return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", no_cupti);
}

void fb_cupti_session_close(struct fb_cupti_session *c)
{
    (void)c;
}

bool fb_cupti_session_available(const struct fb_cupti_session *c, enum fb_cupti_part part,
                                const char **reason)
{
    (void)c, (void)part;
    if (reason)
        *reason = no_cupti;
    return false;
}

void fb_cupti_session_metrics(const struct fb_cupti_session *c, char *out, size_t size)
{
    (void)c;
    if (size)
        out[0] = '\0';
}

int fb_cupti_activity_start(struct fb_cupti_session *c, void *stream, struct fb_error *err)
{
    (void)c, (void)stream;
    return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", no_cupti);
}

int fb_cupti_activity_stop(struct fb_cupti_session *c, struct fb_kernel_trace *out,
                           struct fb_error *err)
{
    (void)c, (void)out;
    return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", no_cupti);
}

int fb_cupti_measure_traffic(struct fb_cupti_session *c,
                             int (*prepare)(void *ctx, struct fb_error *err),
                             int (*run_once)(void *ctx, struct fb_error *err), void *ctx,
                             struct fb_traffic *out, struct fb_error *err)
{
    (void)c, (void)prepare, (void)run_once, (void)ctx;
    fb_traffic_init(out);
    return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", no_cupti);
}

int fb_cupti_chip_name(int device, char *buf, size_t size, struct fb_error *err)
{
    (void)device;
    if (buf && size)
        buf[0] = '\0';
    return fb_fail(err, FB_ERR_UNAVAILABLE, "%s", no_cupti);
}
