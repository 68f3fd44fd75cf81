/* What fusebench measures beyond time, where the backend allows: through CUPTI on the GPU,
 * the kernels that really ran (count and duration) and the DRAM/L2 bytes they moved.
 * Also the --profile kernel table. */
#ifndef FB_APP_PROBE_H
#define FB_APP_PROBE_H

#include <stddef.h>

#include "backends/backend.h"
#include "config/config.h"
#include "measure/runner.h"

struct fb_app_probe;

/* Sets up the probe for this backend and config. *state stays NULL (and FB_OK is returned)
 * when there is nothing to probe: the CPU backend, CUPTI not built, or CUPTI unavailable
 * here, in which case one warning goes to stderr and `status` says why (for the CSV
 * metadata). probe is filled when *state is set. Fills dev->chip from CUPTI when it can. */
int fb_app_probe_open(struct fb_app_probe **state, struct fb_probe *probe,
                      const struct fb_backend_ops *ops, void *backend,
                      const struct fb_config *cfg, struct fb_device_info *dev, char *status,
                      size_t status_size, struct fb_error *err);
void fb_app_probe_close(struct fb_app_probe *state);

/* --profile N: per enabled variant, run it at N elements and print a kernel table (name,
 * calls, total, average, min, max) the way torch.profiler does. Returns an exit code. */
int fb_app_profile(const struct fb_config *cfg, long long n);

#endif
