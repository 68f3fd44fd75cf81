#include "measure/disturbance_watch.h"

#include "common/clock.h"
#include "measure/disturbance.h"

void fb_disturbance_watch_start(const struct fb_backend_ops *ops, void *backend,
                                struct fb_disturbance_watch *w)
{
    fb_disturbance_reading_clear(&w->before);
    if (ops->read_disturbance)
        ops->read_disturbance(backend, false, &w->before);
    w->rules = NULL;
    w->start_s = fb_now_s();
}

unsigned fb_disturbance_watch_end(const struct fb_backend_ops *ops, void *backend,
                                  const struct fb_disturbance_watch *w, double *wall_s,
                                  char *why, size_t size)
{
    *wall_s = fb_now_s() - w->start_s;
    if (!ops->read_disturbance)
        return 0;
    struct fb_disturbance_reading after;
    ops->read_disturbance(backend, true, &after);
    return fb_disturbance_judge_by(&w->before, &after, *wall_s, w->rules, why, size);
}
