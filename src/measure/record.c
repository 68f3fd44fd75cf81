#include "measure/record.h"

#include <math.h>
#include <string.h>

void fb_record_init(struct fb_record *r)
{
    memset(r, 0, sizeof *r);
    r->launches = r->bytes_model = r->reps = r->batch = r->host_launches = -1;
    r->speedup_rounds = -1;
    r->dram_read_bytes = r->dram_write_bytes = r->l2_bytes = -1;
    r->time_median_s = r->time_min_s = r->time_max_s = r->time_p10_s = r->time_p90_s = NAN;
    r->noise = r->bandwidth_gbps = r->copy_fraction = r->speedup = NAN;
    r->kernel_time_s = r->launch_overhead_s = r->dram_bytes_per_element = NAN;
    r->preempted = r->ours_ratio = r->ours_ratio_lo = r->ours_ratio_hi = NAN;
    r->speedup_lo = r->speedup_hi = NAN;
    r->status = FB_POINT_SKIPPED;
}

const char *fb_point_status_name(enum fb_point_status s)
{
    switch (s) {
    case FB_POINT_OK: return "ok";
    case FB_POINT_FAILED: return "failed";
    case FB_POINT_SKIPPED: return "skipped";
    case FB_POINT_NOISY: return "noisy";
    }
    return "?";
}
