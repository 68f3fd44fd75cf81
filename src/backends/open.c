#include "backends/open.h"

#include <stdio.h>

int fb_backend_open(const struct fb_plan *plan, const struct fb_backend_ops **ops,
                    void **state, char *note, size_t note_size, struct fb_error *err)
{
    const struct fb_backend_params params = {.device = plan->device,
                                             .cpu_threads = plan->cpu_threads};
    if (note && note_size)
        note[0] = '\0';
    *ops = &fb_cpu_backend;
    if (plan->backend == FB_BACKEND_CPU)
        return fb_cpu_backend.init(state, &params, err);
    const struct fb_backend_ops *cuda = fb_backend_find("cuda");
    if (!cuda) {
        if (plan->backend == FB_BACKEND_CUDA)
            return fb_fail(err, FB_ERR_USAGE, "%s: [backend] backend = cuda, but this build has "
                           "no CUDA backend (rebuild with nvcc on PATH and -Dcuda=enabled)",
                           plan->config_path);
        fprintf(stderr, "backend auto: this build has no CUDA backend; using cpu\n");
        return fb_cpu_backend.init(state, &params, err);
    }
    int rc = cuda->init(state, &params, err);
    if (rc == FB_OK) {
        *ops = cuda;
        return FB_OK;
    }
    if (rc == FB_ERR_UNAVAILABLE && plan->backend == FB_BACKEND_CUDA) {
        char reason[sizeof err->msg];
        snprintf(reason, sizeof reason, "%s", err->msg);
        return fb_fail(err, FB_ERR_USAGE, "%s: [backend] backend = cuda: %.900s",
                       plan->config_path,
                       reason);
    }
    if (rc != FB_ERR_UNAVAILABLE)
        return rc;
    /* Loud: a CUDA build running on the CPU is rarely what its user meant. The note goes to
     * the summary and the CSV metadata too. */
    if (note && note_size)
        snprintf(note, note_size, "cpu instead of cuda: this build has the CUDA backend, but "
                 "it cannot use a GPU here: %.500s", err->msg);
    fprintf(stderr, "WARNING: backend auto: the CUDA backend cannot use a GPU here: %s; "
                    "using cpu (this run measures the CPU)\n", err->msg);
    return fb_cpu_backend.init(state, &params, err);
}
