/* Choosing and starting the backend a config asks for. */
#ifndef FB_APP_BACKEND_OPEN_H
#define FB_APP_BACKEND_OPEN_H

#include "backends/backend.h"
#include "config/config.h"

/* Starts the config's backend: cpu, cuda, or for auto the GPU when one answers, else the CPU
 * (saying why on stderr). FB_ERR_USAGE when cuda is asked for and cannot run here. */
int fb_app_open_backend(const struct fb_config *cfg, const struct fb_backend_ops **ops,
                        void **state, struct fb_error *err);

#endif
