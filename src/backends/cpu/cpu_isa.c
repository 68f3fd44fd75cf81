/* Which builds of the CPU loops exist (cpu_loops.h) and which this CPU can run. */
#include "backends/cpu/cpu_loops.h"

#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The x86-64 builds exist where meson compiles them: on x86-64 (src/backends/meson.build). */
#if defined(__x86_64__)
#define FB_CPU_HAVE_X86_BUILDS 1
#else
#define FB_CPU_HAVE_X86_BUILDS 0
#endif

const struct fb_cpu_loops *fb_cpu_loops_built(enum fb_cpu_isa isa)
{
    switch (isa) {
    case FB_CPU_ISA_BASELINE: return &fb_cpu_loops_baseline;
#if FB_CPU_HAVE_X86_BUILDS
    case FB_CPU_ISA_AVX2: return &fb_cpu_loops_avx2;
    case FB_CPU_ISA_AVX512: return &fb_cpu_loops_avx512;
#endif
    default: return NULL;
    }
}

/* What each set's -m flags let the compiler use (src/backends/meson.build), so what the CPU
 * must have. AVX-512 CPUs all have FMA and F16C, but the flags name them, so they are checked
 * too. */
bool fb_cpu_isa_supported(enum fb_cpu_isa isa)
{
    switch (isa) {
    case FB_CPU_ISA_BASELINE: return true;
#if FB_CPU_HAVE_X86_BUILDS
    case FB_CPU_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               fb_cpu_has_f16c();
    case FB_CPU_ISA_AVX512:
        return fb_cpu_isa_supported(FB_CPU_ISA_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
#endif
    default: return false;
    }
}

const char *fb_cpu_isa_name(enum fb_cpu_isa isa)
{
    static const char *const names[FB_CPU_ISA_COUNT] = {
        [FB_CPU_ISA_BASELINE] = "baseline", [FB_CPU_ISA_AVX2] = "avx2",
        [FB_CPU_ISA_AVX512] = "avx512"};
    return (unsigned)isa < FB_CPU_ISA_COUNT ? names[isa] : NULL;
}

/* F16C from cpuid (leaf 1, ECX bit 29) rather than __builtin_cpu_supports("f16c"), which
 * clang 14 does not know; "avx" also says the OS saves the AVX registers, which F16C's
 * 256-bit forms need. */
bool fb_cpu_has_f16c(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) &&
           __builtin_cpu_supports("avx");
#else
    return false;
#endif
}
