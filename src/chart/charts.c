/* The table of charts (contract in charts.h). */
#include "chart/charts.h"

const struct fb_chart *const fb_charts[] = {
    &fb_chart_time,     &fb_chart_speedup,  &fb_chart_bandwidth, &fb_chart_copy_fraction,
    &fb_chart_bytes,    &fb_chart_launches, &fb_chart_summary,   &fb_chart_dtypes,
    &fb_chart_speedup_k, &fb_chart_ours_ratio, &fb_chart_glance, &fb_chart_audit,
};
const size_t fb_chart_count = sizeof fb_charts / sizeof fb_charts[0];
