#include <string.h>

#include "backends/backend.h"
#include "fb_build_config.h"

const struct fb_backend_ops *fb_backend_find(const char *name)
{
    if (strcmp(name, "cpu") == 0)
        return &fb_cpu_backend;
#ifdef FB_HAVE_CUDA
    if (strcmp(name, "cuda") == 0)
        return &fb_cuda_backend;
#endif
    return NULL;
}
