/* Device checks and launch numbers from what a CUDA device answers (contracts in
 * gpu_compat.h). Plain C: compiled in every build, so its tests run without CUDA. */
#include "backends/cuda/gpu_compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_build_config.h"

/* A CUDA toolkit of major M needs an NVIDIA driver of at least this release (CUDA Toolkit
 * release notes, "CUDA Toolkit and Corresponding Driver Versions": 13.x from 580, 12.x from
 * 525 with minor version compatibility). */
static int minimum_driver_release(int runtime_major)
{
    return runtime_major >= 13 ? 580 : runtime_major == 12 ? 525 : 0;
}

struct fb_gpu_build fb_gpu_this_build(void)
{
#ifdef FB_GPU_SASS_ARCHS
    return (struct fb_gpu_build){FB_GPU_SASS_ARCHS, FB_GPU_PTX_ARCH, FB_BUILD_DIR};
#else
    return (struct fb_gpu_build){"", "", "build"};
#endif
}

void fb_gpu_arch_name(char *out, size_t size, int cc_major, int cc_minor)
{
    snprintf(out, size, "sm_%d%d", cc_major, cc_minor);
}

/* Appends "sm_75, sm_80" (each number of a comma list, prefixed) to out. */
static void append_archs(char *out, size_t size, const char *list, const char *prefix)
{
    size_t used = strlen(out);
    const char *p = list;
    bool first = true;
    while (*p && used + 1 < size) {
        char *end;
        long arch = strtol(p, &end, 10);
        if (end == p)
            break;
        int w = snprintf(out + used, size - used, "%s%s%ld", first ? "" : ", ", prefix, arch);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
        first = false;
        p = *end == ',' ? end + 1 : end;
    }
}

/* Whether a comma list of architectures holds SASS that runs on cc (same major, minor at
 * most the device's: "binary compatibility" in the CUDA programming guide). */
static bool has_sass_for(const char *list, int cc)
{
    const char *p = list;
    while (*p) {
        char *end;
        long arch = strtol(p, &end, 10);
        if (end == p)
            return false;
        if (arch / 10 == cc / 10 && arch % 10 <= cc % 10)
            return true;
        p = *end == ',' ? end + 1 : end;
    }
    return false;
}

int fb_gpu_check_image(const struct fb_gpu_answers *gpu, int device,
                       const struct fb_gpu_build *build, struct fb_error *err)
{
    const int cc = gpu->cc_major * 10 + gpu->cc_minor;
    const int ptx = build->ptx_arch && build->ptx_arch[0] ? atoi(build->ptx_arch) : 0;
    if (has_sass_for(build->sass_archs, cc) || (ptx > 0 && ptx <= cc))
        return FB_OK;
    char arch[16], held[256] = "";
    fb_gpu_arch_name(arch, sizeof arch, gpu->cc_major, gpu->cc_minor);
    append_archs(held, sizeof held, build->sass_archs, "sm_");
    if (ptx > 0) {
        size_t used = strlen(held);
        snprintf(held + used, sizeof held - used, "%sPTX compute_%d", used ? " and " : "",
                 ptx);
    }
    return fb_fail(err, FB_ERR_USAGE,
                   "CUDA device %d (%s) is %s, and this fusebench holds code for %s only, so "
                   "no kernel can run there: rebuild for it with `meson configure %s "
                   "-Dgpu_archs=%d && ninja -C %s` (or -Dgpu_archs=all, the default: every "
                   "architecture from Turing on; docs/gpus.md)",
                   device, gpu->name, arch, held[0] ? held : "no GPU architecture",
                   build->build_dir, cc, build->build_dir);
}

int fb_gpu_check_driver(int driver_version, int runtime_version, struct fb_error *err)
{
    const int driver_major = driver_version / 1000, runtime_major = runtime_version / 1000;
    if (driver_version <= 0 || driver_major >= runtime_major)
        return FB_OK;
    const int release = minimum_driver_release(runtime_major);
    char install[96] = "a newer NVIDIA driver";
    if (release > 0)
        snprintf(install, sizeof install, "an NVIDIA driver of release %d or newer (CUDA %d.x)",
                 release, runtime_major);
    return fb_fail(err, FB_ERR_UNAVAILABLE,
                   "the NVIDIA driver supports CUDA %d.%d, older than the CUDA %d.%d runtime "
                   "this fusebench was built with: install %s, or build fusebench with a CUDA "
                   "%d.6+ toolkit (docs/gpus.md)",
                   driver_major, (driver_version % 1000) / 10, runtime_major,
                   (runtime_version % 1000) / 10, install,
                   driver_major >= 12 ? driver_major : 12);
}

double fb_gpu_peak_bandwidth(int memory_clock_khz, int memory_bus_bits)
{
    if (memory_clock_khz <= 0 || memory_bus_bits <= 0)
        return 0.0;
    return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0);
}

struct fb_gpu_launch_numbers fb_gpu_launch_numbers(const struct fb_gpu_answers *gpu,
                                                   int registers, int loads_in_flight)
{
    struct fb_gpu_launch_numbers n = {0};
    const int sms = gpu->sm_count > 0 ? gpu->sm_count : 1;
    n.blocks_per_sm = fb_blocks_per_sm(&gpu->sm, registers);
    n.wave_blocks = (long long)sms * n.blocks_per_sm;
    n.in_flight_bytes = (double)n.blocks_per_sm * FB_BLOCK_THREADS * loads_in_flight *
                        FB_VECTOR_BYTES;
    const double peak = fb_gpu_peak_bandwidth(gpu->memory_clock_khz, gpu->memory_bus_bits);
    n.needed_bytes = peak * FB_MEMORY_LATENCY_S / sms;
    n.enough = n.needed_bytes <= 0.0 || n.in_flight_bytes >= n.needed_bytes;
    return n;
}

void fb_gpu_describe_launch(const struct fb_gpu_answers *gpu, int copy_registers, char *out,
                            size_t size)
{
    const struct fb_sm_limits sm = fb_sm_limits_or_default(&gpu->sm);
    const struct fb_gpu_launch_numbers n =
        fb_gpu_launch_numbers(gpu, copy_registers, FB_LOADS_PER_THREAD);
    const double peak = fb_gpu_peak_bandwidth(gpu->memory_clock_khz, gpu->memory_bus_bits);
    char need[128] = "need unknown: no memory clock";
    if (n.needed_bytes > 0.0)
        snprintf(need, sizeof need, "need ~%.0f KiB: %.0f GB/s x %.0f us / %d SMs%s",
                 n.needed_bytes / 1024.0, peak / 1e9, FB_MEMORY_LATENCY_S * 1e6,
                 gpu->sm_count, n.enough ? "" : "; SHORT: bandwidth-bound points read low");
    snprintf(out, size,
             "%d SMs x %d threads, %d registers, %d blocks per SM at most; copy kernel: %d "
             "registers, %d blocks of %d per SM, one wave %lld blocks, %.0f KiB in flight per "
             "SM (%s)",
             gpu->sm_count, sm.threads_per_sm, sm.registers_per_sm, sm.max_blocks_per_sm,
             copy_registers, n.blocks_per_sm, FB_BLOCK_THREADS, n.wave_blocks,
             n.in_flight_bytes / 1024.0, need);
}
