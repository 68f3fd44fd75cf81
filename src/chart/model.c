/* The model behind a results row (formulas in model.h). */
#include "chart/model.h"

#include <math.h>
#include <string.h>

#include "common/format.h"

size_t fb_model_element_size(const char *dtype)
{
    enum fb_dtype d;
    return fb_dtype_parse(fb_dtype_canonical(dtype), &d) ? fb_dtype_size(d) : 4;
}

double fb_model_elements(const struct fb_record *r)
{
    if (r->bytes_model <= 0 || r->n <= 0)
        return NAN;
    return (double)r->bytes_model / (double)r->n / (double)fb_model_element_size(r->dtype);
}

int fb_model_launches(const char *role, double elements)
{
    if (strcmp(role, "copy_ceiling") == 0 || strcmp(role, "fused") == 0)
        return 1;
    if (strcmp(role, "platform_reference") == 0)
        return 0;
    if (strcmp(role, "eager") == 0 && isfinite(elements) && elements >= 2)
        return (int)floor(elements / 2);
    return -1;
}

bool fb_model_write_allocate(const char *backend, const char *stores)
{
    return strcmp(backend, "cpu") == 0 && strcmp(fb_stores_canonical(stores), "normal") == 0;
}

double fb_model_traffic(double elements, double stores, bool write_allocate)
{
    return elements + (write_allocate ? stores : 0.0);
}

int fb_model_eager_arrays(double elements, int kernels)
{
    if (!isfinite(elements) || kernels < 1)
        return 0;
    double inputs = elements - 2.0 * kernels + 1.0;
    if (inputs != 1.0 && inputs != 2.0)
        return 0;
    int temporaries = kernels - 1 < 2 ? kernels - 1 : 2;
    return (int)inputs + temporaries + 1;
}

double fb_model_time(double launches, double launch_s, double bytes, double bytes_per_s)
{
    return launches * launch_s + bytes / bytes_per_s;
}
