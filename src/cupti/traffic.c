/* Summing range-profiler values into a call's traffic (formulas in traffic.h). */
#include "cupti/traffic.h"

#include <math.h>
#include <stdio.h>

const char *const fb_traffic_metric_names[FB_METRIC_COUNT] = {
    [FB_METRIC_DRAM_READ] = "dram__bytes_read.sum",
    [FB_METRIC_DRAM_WRITE] = "dram__bytes_write.sum",
    [FB_METRIC_L2] = "lts__t_bytes.sum",
};

const char *const fb_traffic_dram_metric_names[FB_DRAM_METRIC_SETS][2] = {
    {"dram__bytes_read.sum", "dram__bytes_write.sum"},
    {"dram__bytes_op_read.sum", "dram__bytes_op_write.sum"},
};

void fb_traffic_names_describe(const struct fb_traffic_names *names, char *out, size_t size)
{
    if (names->metrics[FB_METRIC_DRAM_READ])
        snprintf(out, size, "DRAM bytes from %s + %s", names->metrics[FB_METRIC_DRAM_READ],
                 names->metrics[FB_METRIC_DRAM_WRITE]);
    else
        snprintf(out, size, "DRAM bytes NA (%s)", names->dram_why);
}

void fb_traffic_init(struct fb_traffic *t)
{
    t->dram_read_bytes = t->dram_write_bytes = t->l2_bytes = -1;
    t->ranges = 0;
}

int fb_traffic_add_range(struct fb_traffic *t, const double values[FB_METRIC_COUNT], bool dram)
{
    const int first = dram ? 0 : FB_METRIC_L2;
    for (int m = first; m < FB_METRIC_COUNT; m++)
        if (!(values[m] >= 0.0)) /* also catches NaN */
            return -1;
    int64_t *fields[FB_METRIC_COUNT] = {&t->dram_read_bytes, &t->dram_write_bytes,
                                        &t->l2_bytes};
    for (int m = first; m < FB_METRIC_COUNT; m++) {
        if (*fields[m] < 0)
            *fields[m] = 0;
        *fields[m] += llround(values[m]);
    }
    t->ranges++;
    return 0;
}

double fb_traffic_dram_bytes_per_element(const struct fb_traffic *t, int64_t n,
                                         size_t elem_size)
{
    if (t->dram_read_bytes < 0 || t->dram_write_bytes < 0 || n <= 0 || elem_size == 0)
        return NAN;
    return (double)(t->dram_read_bytes + t->dram_write_bytes) / (double)n / (double)elem_size;
}
