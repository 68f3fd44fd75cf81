#include "measure/disturbance.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Appends "; text" (or text when why is empty) to why. */
static void add_reason(char *why, size_t size, size_t *len, const char *text)
{
    if (!why || *len + 1 >= size)
        return;
    int k = snprintf(why + *len, size - *len, "%s%s", *len ? "; " : "", text);
    if (k > 0)
        *len = *len + (size_t)k < size ? *len + (size_t)k : size - 1;
}

static bool host_disturbed(const struct fb_disturbance_reading *b,
                           const struct fb_disturbance_reading *a, double wall_s, char *text,
                           size_t size)
{
    int64_t switches = b->involuntary_switches >= 0 && a->involuntary_switches >= 0
                           ? a->involuntary_switches - b->involuntary_switches
                           : -1;
    if (!isnan(b->run_delay_s) && !isnan(a->run_delay_s)) {
        double waited = a->run_delay_s - b->run_delay_s;
        if (waited <= FB_DISTURB_MAX_DELAY_FRACTION * wall_s)
            return false;
        int k = snprintf(text, size, "threads waited %.3g ms in all for a CPU in a %.3g ms sample",
                         waited * 1e3, wall_s * 1e3);
        if (switches > 0 && k > 0 && (size_t)k < size)
            snprintf(text + k, size - (size_t)k, ", %" PRId64 " involuntary context switch%s",
                     switches, switches == 1 ? "" : "es");
        return true;
    }
    if (switches > 0) { /* no run delay on this kernel: any preemption counts */
        snprintf(text, size, "%" PRId64 " involuntary context switch%s", switches,
                 switches == 1 ? "" : "es");
        return true;
    }
    return false;
}

unsigned fb_disturbance_judge_by(const struct fb_disturbance_reading *before,
                                 const struct fb_disturbance_reading *after, double wall_s,
                                 const struct fb_disturbance_rules *rules, char *why,
                                 size_t size)
{
    const struct fb_disturbance_rules r = rules ? *rules : FB_DISTURBANCE_RULES_DEFAULT;
    char text[160];
    size_t len = 0;
    unsigned tripped = 0;
    if (why && size)
        why[0] = '\0';
    if (wall_s > 0 && host_disturbed(before, after, wall_s, text, sizeof text)) {
        add_reason(why, size, &len, text);
        tripped |= FB_DISTURBED_HOST;
    }
    if (!after->gpu_valid)
        return tripped;
    /* The clock the GPU holds when it can say, else its maximum (disturbance.h). */
    const bool held = after->sm_clock_held_mhz > 0;
    const unsigned ref = held ? after->sm_clock_held_mhz : after->sm_clock_max_mhz;
    if (ref > 0 && after->sm_clock_mhz < r.min_clock_fraction * ref) {
        if (held)
            snprintf(text, sizeof text, "SM clock %u MHz, under %.0f%% of the %u MHz it holds "
                     "(max %u)", after->sm_clock_mhz, 100 * r.min_clock_fraction, ref,
                     after->sm_clock_max_mhz);
        else
            snprintf(text, sizeof text, "SM clock %u of %u MHz", after->sm_clock_mhz, ref);
        add_reason(why, size, &len, text);
        tripped |= FB_DISTURBED_CLOCK;
    }
    uint64_t reasons = after->clock_event_reasons & FB_GPU_REASONS_DISTURBING;
    if (reasons) {
        static const struct { uint64_t bit; const char *name; } names[] = {
            {FB_GPU_REASON_HW_SLOWDOWN, "hardware slowdown"},
            {FB_GPU_REASON_SW_THERMAL, "software thermal slowdown"},
            {FB_GPU_REASON_HW_THERMAL, "hardware thermal slowdown"},
            {FB_GPU_REASON_HW_POWER_BRAKE, "power brake"},
        };
        size_t k = (size_t)snprintf(text, sizeof text, "GPU clocks held down by");
        const char *sep = " ";
        for (size_t i = 0; i < sizeof names / sizeof names[0] && k < sizeof text; i++)
            if (reasons & names[i].bit) {
                k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", sep, names[i].name);
                sep = ", ";
            }
        add_reason(why, size, &len, text);
        tripped |= FB_DISTURBED_REASONS;
    }
    if (after->compute_processes > 1 + r.other_processes) {
        /* Counted, not matched by pid: in a container NVML reports the host's pids. This
         * process has a context on the device, so it is one of them. */
        snprintf(text, sizeof text, "%d other process%s on the GPU",
                 after->compute_processes - 1, after->compute_processes == 2 ? "" : "es");
        add_reason(why, size, &len, text);
        tripped |= FB_DISTURBED_PROCESSES;
    }
    return tripped;
}

bool fb_disturbance_judge(const struct fb_disturbance_reading *before,
                          const struct fb_disturbance_reading *after, double wall_s, char *why,
                          size_t size)
{
    return fb_disturbance_judge_by(before, after, wall_s, NULL, why, size) != 0;
}

bool fb_disturbance_first_note(unsigned tripped, const char *why,
                               const struct fb_disturbance_rules *rules, char *out, size_t size)
{
    if (!(tripped & (FB_DISTURBED_CLOCK | FB_DISTURBED_PROCESSES)) || !size)
        return false;
    int k = snprintf(out, size, "note: the first sample of this run is already judged disturbed "
                     "(%s), so samples like it will be dropped and retaken and points may end "
                     "noisy. If that is this GPU's normal state:", why);
    if ((tripped & FB_DISTURBED_CLOCK) && k > 0 && (size_t)k < size)
        k += snprintf(out + k, size - (size_t)k, " a GPU held below %.0f%% of its clock by its "
                      "power cap runs so by design: [measure] gpu_min_clock = 0 (--set "
                      "gpu_min_clock=0) judges no clock;", 100 * rules->min_clock_fraction);
    if ((tripped & FB_DISTURBED_PROCESSES) && k > 0 && (size_t)k < size)
        snprintf(out + k, size - (size_t)k, " a process that holds the GPU and runs nothing (a "
                 "notebook) counts as another process: [measure] gpu_other_processes = %d "
                 "(--set gpu_other_processes=%d) lets it be, if it stays idle;",
                 rules->other_processes + 1, rules->other_processes + 1);
    size_t len = strlen(out);
    if (len && out[len - 1] == ';')
        out[len - 1] = '.';
    return true;
}

bool fb_disturbance_may_retake(int dropped, double spent_s, int max_reps, double max_time_s)
{
    return dropped < max_reps && spent_s < max_time_s;
}
