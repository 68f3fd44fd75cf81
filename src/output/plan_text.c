/* The plan as text (contract in plan_text.h). */
#include "output/plan_text.h"

#include <inttypes.h>

#include "common/text.h"

void fb_plan_text_write(FILE *out, const struct fb_plan *plan, const char *backend,
                        const char *device)
{
    const size_t enabled = plan->n_enabled, formats = plan->n_formats;
    fprintf(out, "plan: %zu variant%s x %zu sizes x %zu format%s = %zu points on %s (%s)\n",
            enabled, enabled == 1 ? "" : "s", plan->n_sizes, formats, formats == 1 ? "" : "s",
            plan->n_points, backend, device);
    fprintf(out, "variants:");
    for (size_t i = 0; i < plan->set.count; i++)
        if (plan->enabled[i])
            fprintf(out, " %s", plan->set.v[i].name);
    fprintf(out, "\nsizes:");
    for (size_t i = 0; i < plan->n_sizes; i++)
        fprintf(out, " %" PRIu64, plan->sizes[i]);
    fprintf(out, "\nformats:");
    for (size_t i = 0; i < formats; i++)
        fprintf(out, " %s/%s", fb_dtype_name(plan->formats[i].dtype),
                fb_store_kind_name(plan->formats[i].stores));
    char total[32], on_backend[32];
    fb_text_bytes(total, sizeof total, plan->memory_bytes);
    fb_text_bytes(on_backend, sizeof on_backend, plan->backend_bytes);
    fprintf(out, "\nmemory at the largest size: %s in all, %s of it on the backend\n", total,
            on_backend);
}
