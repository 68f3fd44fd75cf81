/* Whether this build can run on a CUDA device, and how it launches there: plain C over what
 * the device answers (struct fb_gpu_answers), so that the checks and the launch numbers are
 * tested with the answers of real GPUs injected (tests/backends/test_gpu_compat.c) on a
 * machine without one. The CUDA backend (backend_cuda.c) fills the answers from the runtime
 * and calls these before anything is measured. No CUDA header here. */
#ifndef FB_BACKENDS_CUDA_GPU_COMPAT_H
#define FB_BACKENDS_CUDA_GPU_COMPAT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "launch_plan.h"

/* What a CUDA device says about itself (cudaGetDeviceProperties, cudaDeviceGetAttribute),
 * and the CUDA versions of the driver and of the runtime the build links. */
struct fb_gpu_answers {
    char name[128];                  /* "NVIDIA H200" */
    int cc_major, cc_minor;          /* compute capability: 9, 0 */
    int sm_count;                    /* cudaDevAttrMultiProcessorCount */
    struct fb_sm_limits sm;          /* threads, registers, blocks per SM */
    int l2_bytes;                    /* cudaDevAttrL2CacheSize */
    int memory_clock_khz;            /* cudaDevAttrMemoryClockRate */
    int memory_bus_bits;             /* cudaDevAttrGlobalMemoryBusWidth */
    int driver_version;              /* cudaDriverGetVersion: 12040 for CUDA 12.4; 0 no driver */
    int runtime_version;             /* cudaRuntimeGetVersion: 13000 */
};

/* What the binary holds, as meson configured it (fb_build_config.h): the SASS architectures
 * ("75,80,90,100,110,120"), the PTX one ("120") and the build directory to rebuild. */
struct fb_gpu_build {
    const char *sass_archs;
    const char *ptx_arch;
    const char *build_dir;
};

/* This build's own answers (FB_GPU_SASS_ARCHS, FB_GPU_PTX_ARCH, FB_BUILD_DIR). */
struct fb_gpu_build fb_gpu_this_build(void);

/* "sm_90" for 9.0, into out (at least 16 bytes). */
void fb_gpu_arch_name(char *out, size_t size, int cc_major, int cc_minor);

/* Whether the kernels have an image for device `device`: SASS of an architecture of the
 * same major and a minor at most the device's (sm_80 code runs on sm_86 and sm_89, not on
 * sm_90), or PTX of an architecture at most the device's (the driver compiles it; never
 * backwards). FB_OK, or FB_ERR_USAGE with a message naming the device, its sm_XY, what the
 * binary holds and the exact rebuild command, e.g.
 *   "CUDA device 0 (Tesla T4) is sm_75, and this fusebench holds code for sm_80, sm_90 and
 *    PTX compute_90 only, so no kernel can run there: rebuild for it with
 *    `meson configure /src/build -Dgpu_archs=75 && ninja -C /src/build` (or -Dgpu_archs=all,
 *    the default: every architecture from Turing on; docs/gpus.md)". */
int fb_gpu_check_image(const struct fb_gpu_answers *gpu, int device,
                       const struct fb_gpu_build *build, struct fb_error *err);

/* Whether the driver can run this build's runtime: a driver for an older CUDA major than the
 * runtime's cannot (within one major, CUDA's minor version compatibility lets it). FB_OK when
 * it can or when there is no driver at all (driver_version 0: the caller's device count says
 * that); otherwise FB_ERR_UNAVAILABLE naming both versions and what to install, e.g.
 *   "the NVIDIA driver supports CUDA 12.4, older than the CUDA 13.0 runtime this fusebench
 *    was built with: install an NVIDIA driver of release 580 or newer (CUDA 13.x), or build
 *    fusebench with a CUDA 12.6+ toolkit (docs/gpus.md)". */
int fb_gpu_check_driver(int driver_version, int runtime_version, struct fb_error *err);

/* Peak DRAM bandwidth in bytes/s from the memory clock (kHz) and bus width (bits), double
 * data rate: 2 x clock x bus / 8; 0 when either is unknown. */
double fb_gpu_peak_bandwidth(int memory_clock_khz, int memory_bus_bits);

/* The launch numbers a kernel of `registers` registers per thread gets on this device
 * (kernels/launch_plan.h): blocks per SM, the one-wave grid, and the bytes it keeps in
 * flight per SM with `loads_in_flight` 16-byte loads per thread, against what Little's law
 * asks of this GPU: peak bandwidth x FB_MEMORY_LATENCY_S / SMs. */
struct fb_gpu_launch_numbers {
    int blocks_per_sm;
    long long wave_blocks;       /* sm_count x blocks_per_sm */
    double in_flight_bytes;      /* per SM: blocks x FB_BLOCK_THREADS x loads x 16 */
    double needed_bytes;         /* per SM: peak B/s x latency / sm_count; 0 unknown */
    bool enough;                 /* in_flight_bytes >= needed_bytes (true when unknown) */
};
struct fb_gpu_launch_numbers fb_gpu_launch_numbers(const struct fb_gpu_answers *gpu,
                                                   int registers, int loads_in_flight);

/* The launch plan as one line, for --dry-run and the CSV metadata (`launch_plan`), e.g.
 *   "132 SMs x 2048 threads, 65536 registers, 32 blocks per SM at most; copy kernel:
 *    30 registers, 16 blocks of 128 per SM, one wave 2112 blocks, 128 KiB in flight per SM
 *    (need ~36 KiB: 4800 GB/s x 1 us / 132 SMs)" */
void fb_gpu_describe_launch(const struct fb_gpu_answers *gpu, int copy_registers, char *out,
                            size_t size);

#endif
