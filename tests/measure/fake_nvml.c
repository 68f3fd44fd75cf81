/* A stand-in for libnvidia-ml.so.1 with the functions fusebench's loader looks up, answering
 * from values the test sets (fake_nvml_set), so that the loader and the GPU side of the
 * contention decision can be tested on a machine without a GPU. NVML's ABI: int return codes
 * (0 success, 6 not found, 7 insufficient size), opaque device pointers. */
#include <string.h>

static unsigned sm_clock = 1980, sm_clock_max = 1980, processes = 1;
static unsigned app_clock, default_app_clock; /* 0: NOT_SUPPORTED (3), as on GeForce boards */
static unsigned long long reasons;
static int initialised;
static int device_token;

/* The test's knob (not part of NVML). */
void fake_nvml_set(unsigned clock, unsigned clock_max, unsigned long long bits, unsigned procs);
void fake_nvml_set(unsigned clock, unsigned clock_max, unsigned long long bits, unsigned procs)
{
    sm_clock = clock;
    sm_clock_max = clock_max;
    reasons = bits;
    processes = procs;
}

void fake_nvml_set_app_clocks(unsigned app, unsigned default_app);
void fake_nvml_set_app_clocks(unsigned app, unsigned default_app)
{
    app_clock = app;
    default_app_clock = default_app;
}

int nvmlDeviceGetApplicationsClock(void *device, int type, unsigned *mhz);
int nvmlDeviceGetApplicationsClock(void *device, int type, unsigned *mhz)
{
    if (device != &device_token || type != 1)
        return 999;
    *mhz = app_clock;
    return app_clock ? 0 : 3;
}

int nvmlDeviceGetDefaultApplicationsClock(void *device, int type, unsigned *mhz);
int nvmlDeviceGetDefaultApplicationsClock(void *device, int type, unsigned *mhz)
{
    if (device != &device_token || type != 1)
        return 999;
    *mhz = default_app_clock;
    return default_app_clock ? 0 : 3;
}

int fake_nvml_initialised(void);
int fake_nvml_initialised(void)
{
    return initialised;
}

int nvmlInit_v2(void);
int nvmlInit_v2(void)
{
    initialised++;
    return 0;
}

int nvmlShutdown(void);
int nvmlShutdown(void)
{
    initialised--;
    return 0;
}

const char *nvmlErrorString(int rc);
const char *nvmlErrorString(int rc)
{
    return rc == 6 ? "Not Found" : "Unknown Error";
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **device);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **device)
{
    if (strcmp(bus, "0000:3b:00.0") != 0)
        return 6;
    *device = &device_token;
    return 0;
}

int nvmlDeviceGetClockInfo(void *device, int type, unsigned *mhz);
int nvmlDeviceGetClockInfo(void *device, int type, unsigned *mhz)
{
    if (device != &device_token || type != 1)
        return 999;
    *mhz = sm_clock;
    return 0;
}

int nvmlDeviceGetMaxClockInfo(void *device, int type, unsigned *mhz);
int nvmlDeviceGetMaxClockInfo(void *device, int type, unsigned *mhz)
{
    if (device != &device_token || type != 1)
        return 999;
    *mhz = sm_clock_max;
    return 0;
}

int nvmlDeviceGetCurrentClocksEventReasons(void *device, unsigned long long *bits);
int nvmlDeviceGetCurrentClocksEventReasons(void *device, unsigned long long *bits)
{
    (void)device;
    *bits = reasons;
    return 0;
}

int nvmlDeviceGetComputeRunningProcesses_v3(void *device, unsigned *count, void *infos);
int nvmlDeviceGetComputeRunningProcesses_v3(void *device, unsigned *count, void *infos)
{
    (void)device;
    if (processes > *count || (processes > 0 && !infos)) {
        *count = processes;
        return 7;
    }
    *count = processes;
    return 0;
}
