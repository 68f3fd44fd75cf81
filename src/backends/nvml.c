#include "backends/nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* NVML's C ABI, as nvml.h declares it (the toolkit here has no nvml.h; the driver ships the
 * library): return codes are an int enum, devices opaque pointers. */
typedef int nvml_return;
typedef struct nvml_device *nvml_device;
enum { NVML_OK = 0, NVML_INSUFFICIENT_SIZE = 7, NVML_CLOCK_SM = 1 };

struct fb_nvml {
    void *library;
    nvml_device device;
    unsigned sm_clock_max_mhz;
    unsigned sm_clock_held_mhz; /* application clock, else the default one; 0: neither */
    nvml_return (*shutdown)(void);
    nvml_return (*clock)(nvml_device, int type, unsigned *mhz);
    nvml_return (*reasons)(nvml_device, unsigned long long *bits);
    nvml_return (*processes)(nvml_device, unsigned *count, void *infos);
    const char *(*error_string)(nvml_return);
};

/* dlsym the first of `names` (NULL-terminated) that the library has; NULL when none. */
static void *symbol(void *library, const char *const *names)
{
    for (; *names; names++) {
        void *p = dlsym(library, *names);
        if (p)
            return p;
    }
    return NULL;
}

#define SYMBOL(lib, dst, ...) (*(void **)&(dst) = symbol(lib, (const char *const[]){__VA_ARGS__, NULL}))

int fb_nvml_open(struct fb_nvml **out, const char *library, const char *pci_bus_id,
                 struct fb_error *err)
{
    *out = NULL;
    const char *name = library ? library : FB_NVML_LIBRARY;
    /* The device is found by its bus id alone: without one, NVML stays off (nothing loaded) */
    if (!pci_bus_id)
        return fb_fail(err, FB_ERR_UNAVAILABLE, "NVML: no PCI bus id to find the device by");
    struct fb_nvml *n = calloc(1, sizeof *n);
    if (!n)
        return fb_fail(err, FB_ERR_UNAVAILABLE, "NVML: out of memory");
    n->library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!n->library) {
        const char *why = dlerror();
        free(n);
        return fb_fail(err, FB_ERR_UNAVAILABLE, "NVML: cannot load %s: %s", name,
                       why ? why : "not found");
    }
    nvml_return (*init)(void) = NULL;
    nvml_return (*by_pci)(const char *, nvml_device *) = NULL;
    nvml_return (*clock_max)(nvml_device, int, unsigned *) = NULL;
    /* Newer drivers rename "throttle reasons" to "clock event reasons"; both are exported. */
    const char *missing = !SYMBOL(n->library, init, "nvmlInit_v2", "nvmlInit") ? "nvmlInit_v2"
        : !SYMBOL(n->library, n->shutdown, "nvmlShutdown") ? "nvmlShutdown"
        : !SYMBOL(n->library, by_pci, "nvmlDeviceGetHandleByPciBusId_v2",
                  "nvmlDeviceGetHandleByPciBusId") ? "nvmlDeviceGetHandleByPciBusId_v2"
        : !SYMBOL(n->library, n->clock, "nvmlDeviceGetClockInfo") ? "nvmlDeviceGetClockInfo"
        : !SYMBOL(n->library, clock_max, "nvmlDeviceGetMaxClockInfo") ? "nvmlDeviceGetMaxClockInfo"
        : NULL;
    SYMBOL(n->library, n->reasons, "nvmlDeviceGetCurrentClocksEventReasons",
           "nvmlDeviceGetCurrentClocksThrottleReasons");
    SYMBOL(n->library, n->processes, "nvmlDeviceGetComputeRunningProcesses_v3",
           "nvmlDeviceGetComputeRunningProcesses_v2");
    SYMBOL(n->library, n->error_string, "nvmlErrorString");
    if (missing) {
        dlclose(n->library);
        free(n);
        return fb_fail(err, FB_ERR_UNAVAILABLE, "NVML: %s has no %s", name, missing);
    }
    char step[96] = "nvmlInit_v2";
    nvml_return rc = init();
    if (rc == NVML_OK) {
        snprintf(step, sizeof step, "nvmlDeviceGetHandleByPciBusId_v2(%.40s)", pci_bus_id);
        rc = by_pci(pci_bus_id, &n->device);
        if (rc == NVML_OK) {
            snprintf(step, sizeof step, "nvmlDeviceGetMaxClockInfo(SM)");
            rc = clock_max(n->device, NVML_CLOCK_SM, &n->sm_clock_max_mhz);
        }
        if (rc != NVML_OK)
            n->shutdown();
    }
    if (rc != NVML_OK) {
        int e = fb_fail(err, FB_ERR_UNAVAILABLE, "NVML: %s failed: %s (%d)", step,
                        n->error_string ? n->error_string(rc) : "error", rc);
        dlclose(n->library);
        free(n);
        return e;
    }
    /* The clock the GPU holds (measure/disturbance.h judges against it): optional, as
     * GeForce boards answer NOT_SUPPORTED; read once, like the maximum. */
    nvml_return (*app_clock)(nvml_device, int, unsigned *) = NULL;
    nvml_return (*default_app_clock)(nvml_device, int, unsigned *) = NULL;
    SYMBOL(n->library, app_clock, "nvmlDeviceGetApplicationsClock");
    SYMBOL(n->library, default_app_clock, "nvmlDeviceGetDefaultApplicationsClock");
    unsigned mhz = 0;
    if (app_clock && app_clock(n->device, NVML_CLOCK_SM, &mhz) == NVML_OK && mhz > 0)
        n->sm_clock_held_mhz = mhz;
    else if (default_app_clock && default_app_clock(n->device, NVML_CLOCK_SM, &mhz) == NVML_OK)
        n->sm_clock_held_mhz = mhz;
    *out = n;
    return FB_OK;
}

void fb_nvml_read(struct fb_nvml *n, struct fb_disturbance_reading *r)
{
    unsigned mhz = 0;
    r->gpu_valid = n->clock(n->device, NVML_CLOCK_SM, &mhz) == NVML_OK;
    r->sm_clock_mhz = mhz;
    r->sm_clock_max_mhz = n->sm_clock_max_mhz;
    r->sm_clock_held_mhz = n->sm_clock_held_mhz;
    unsigned long long bits = 0;
    r->clock_event_reasons = n->reasons && n->reasons(n->device, &bits) == NVML_OK ? bits : 0;
    /* Asked with room for none: NVML answers OK (no process) or INSUFFICIENT_SIZE with the
     * number it has, which is all we need. */
    unsigned count = 0;
    nvml_return rc = n->processes ? n->processes(n->device, &count, NULL) : -1;
    r->compute_processes = rc == NVML_OK ? 0 : rc == NVML_INSUFFICIENT_SIZE ? (int)count : -1;
}

void fb_nvml_close(struct fb_nvml *n)
{
    if (!n)
        return;
    n->shutdown();
    dlclose(n->library);
    free(n);
}
