/* NVML, loaded at run time: the GPU's side of contention (clocks, clock event reasons,
 * processes on the device). Optional by design, as in nvbench: dlopen("libnvidia-ml.so.1") at
 * backend start; where the library or a function is missing, or NVML refuses, the backend
 * goes on without it (one note) and no column changes. No NVML header is needed to build:
 * the few types and values used are NVML's stable C ABI, written out in nvml.c. */
#ifndef FB_BACKENDS_NVML_H
#define FB_BACKENDS_NVML_H

#include "backends/disturbance_reading.h"
#include "common/error.h"

struct fb_nvml;

/* The library fb_nvml_open loads when given NULL. */
#define FB_NVML_LIBRARY "libnvidia-ml.so.1"

/* Loads `library` (NULL: FB_NVML_LIBRARY), initialises NVML and finds the device whose PCI bus
 * id is `pci_bus_id` ("0000:3b:00.0", as cudaDeviceGetPCIBusId writes it; CUDA's and NVML's
 * device indices differ unless CUDA_DEVICE_ORDER=PCI_BUS_ID; NULL when it could not be read:
 * FB_ERR_UNAVAILABLE, nothing loaded). Reads the SM clock's maximum and the clock the GPU
 * holds (application clock, else default application clock; where NVML gives one) once.
 * Returns FB_OK with *out set, or FB_ERR_UNAVAILABLE with *out NULL and err saying what is
 * missing (the library, a function, nvmlInit's error, the device). Never anything else. */
int fb_nvml_open(struct fb_nvml **out, const char *library, const char *pci_bus_id,
                 struct fb_error *err);

/* Fills the GPU part of r with the state now: SM clock, its maximum and held clock, the clock event
 * reasons, the processes with a compute context. r->gpu_valid is false when the clock could
 * not be read; the other fields stay unknown (-1 processes) when theirs fail. ~10-100 us: call
 * it outside the timed marks only. */
void fb_nvml_read(struct fb_nvml *n, struct fb_disturbance_reading *r);

/* Shuts NVML down and unloads it. NULL is fine. */
void fb_nvml_close(struct fb_nvml *n);

#endif
