/* What the files of src/cupti/ share behind cupti_session.h (CUPTI builds only).
 * Who calls whom (no circle): cupti_session.c opens and closes the parts, cupti_activity.c
 * and cupti_counters.c; both parts use cupti_device.c (device check, profiler init, chip
 * name) and cupti_check.c; none of them calls back into cupti_session.c. */
#ifndef FB_CUPTI_CUPTI_INTERNAL_H
#define FB_CUPTI_CUPTI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "cupti/cupti_session.h"
#include "cupti/traffic.h"

struct CUpti_Profiler_Host_Object; /* cupti_profiler_host.h, which C cannot include as is */

#define FB_CUPTI_REASON_MAX 512
#define FB_CHIP_NAME_MAX 64

struct fb_cupti_session {
    int device;
    void *cu_context; /* CUcontext: the device's primary context */
    bool has[2];      /* indexed by enum fb_cupti_part */
    char reason[2][FB_CUPTI_REASON_MAX];

    /* activity (cupti_activity.c) */
    bool window_open;
    uint32_t stream_id;

    /* counters (cupti_counters.c) */
    char chip[FB_CHIP_NAME_MAX];
    uint8_t *availability; /* counter availability image of the device */
    struct CUpti_Profiler_Host_Object *host; /* evaluates counter data into metric values */
    uint8_t *config;       /* config image of the traffic metrics */
    struct fb_traffic_names names; /* the metrics it asks for (the DRAM ones per chip) */
    size_t config_size;
};

/* Registers the activity buffer callbacks (once per process) and checks that kernel activity
 * can be enabled. Returns FB_OK or a negative fb_status with the reason in err. */
int fb_cupti_activity_setup(struct fb_cupti_session *c, struct fb_error *err);
/* Closes an open window and disables kernel activity; errors are dropped. */
void fb_cupti_activity_teardown(struct fb_cupti_session *c);

/* Checks device support, reads the chip name and counter availability, and builds the config
 * image and host object for the traffic metrics. Returns FB_OK or a negative fb_status. */
int fb_cupti_counters_setup(struct fb_cupti_session *c, struct fb_error *err);
/* Frees what fb_cupti_counters_setup made. */
void fb_cupti_counters_teardown(struct fb_cupti_session *c);

/* The steps of fb_cupti_session_open that touch the device, apart so that tests can inject failures
 * (a refused trial, no device) on machines without a GPU. Each returns FB_OK or a negative
 * fb_status with the reason in err.
 *   check_device: does a device answer at that index (never a CUPTI call)
 *   open_context: make it current, create its primary context, store it in c->cu_context
 *   activity:     the activity part's setup and trial (fb_cupti_activity_setup)
 *   counters:     the counters part's setup and trial (fb_cupti_counters_setup) */
struct fb_cupti_setup_steps {
    int (*check_device)(int device, struct fb_error *err);
    int (*open_context)(struct fb_cupti_session *c, struct fb_error *err);
    int (*activity)(struct fb_cupti_session *c, struct fb_error *err);
    int (*counters)(struct fb_cupti_session *c, struct fb_error *err);
};
extern const struct fb_cupti_setup_steps fb_cupti_real_steps;

/* fb_cupti_session_open (same contract, cupti_session.h) with these steps. */
int fb_cupti_session_open_steps(struct fb_cupti_session **out, int device, bool activity,
                                bool counters, const struct fb_cupti_setup_steps *steps,
                                struct fb_error *err);

/* fb_cupti_session_available's answer (cupti_session.h), here so that the parts (activity,
 * counters) can ask it without calling back into the session's file. */
static inline bool fb_cupti_part_works(const struct fb_cupti_session *c, enum fb_cupti_part part,
                                       const char **reason)
{
    if (part != FB_CUPTI_ACTIVITY && part != FB_CUPTI_COUNTERS) {
        if (reason)
            *reason = "unknown CUPTI part";
        return false;
    }
    if (!c) {
        if (reason)
            *reason = "CUPTI is not open";
        return false;
    }
    if (reason)
        *reason = c->reason[part];
    return c->has[part];
}

#endif
