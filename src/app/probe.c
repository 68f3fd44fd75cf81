#include "app/probe.h"

#include <stdio.h>
#include <string.h>

#include "fb_build_config.h"

int fb_app_probe_open(struct fb_app_probe **state, struct fb_probe *probe,
                      const struct fb_backend_ops *ops, const struct fb_config *cfg,
                      const struct fb_device_info *dev, char *status, size_t status_size,
                      struct fb_error *err)
{
    (void)probe;
    (void)cfg;
    (void)dev;
    (void)err;
    *state = NULL;
    if (strcmp(ops->name, "cpu") == 0)
        snprintf(status, status_size, "not applicable (cpu backend)");
    else
        snprintf(status, status_size, "unavailable: built without CUPTI");
    return FB_OK;
}

void fb_app_probe_close(struct fb_app_probe *state)
{
    (void)state;
}

int fb_app_profile(const struct fb_config *cfg, long long n)
{
    (void)cfg;
    (void)n;
    fprintf(stderr, "--profile: not implemented yet\n");
    return 2;
}
