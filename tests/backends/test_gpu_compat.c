/* The CUDA backend's device checks and launch numbers (src/backends/cuda/gpu_compat.h) with
 * the answers of real GPUs injected: no GPU is needed, and none is used.
 *
 * The answers are the published figures, as cudaGetDeviceProperties / cudaDeviceGetAttribute
 * report them:
 * - SM counts: T4 40, A100 108, RTX 4090 128, H100 SXM and H200 132, B200 148 (2 dies x 74;
 *   chipsandcheese.com/p/nvidias-b200-keeping-the-cuda-juggernaut), RTX 5090 170
 *   (pocketmags.com, Linux Format May 2025 review: "SMs: 170 ... Cache: 96MB").
 * - Threads / registers / blocks per SM by compute capability (CUDA C++ Programming Guide,
 *   "Technical Specifications per Compute Capability"): 7.5: 1024 / 65536 / 16; 8.0, 9.0,
 *   10.0: 2048 / 65536 / 32; 8.9, 12.0: 1536 / 65536 / 24.
 * - L2: T4 4 MB, A100 40 MB, RTX 4090 72 MB, H100 50 MB, H200 60 MB (as the lent H200 reports
 *   it, shared/CUDA13-NOTES.md), B200 126 MB (chipsandcheese, above), RTX 5090 96 MB.
 * - Memory clock and bus: the values whose 2 x clock x bus / 8 gives the published peak:
 *   T4 5001 MHz x 256 bit = 320 GB/s; A100 1215 MHz x 5120 = 1555 GB/s; RTX 4090
 *   10501 MHz x 384 = 1008 GB/s; H100 SXM 2619 MHz x 5120 = 3352 GB/s; H200 3201 MHz x 6144
 *   = 4917 GB/s (4.8 TB/s on paper); B200 3996 MHz x 8192 = 8184 GB/s (8 TB/s); RTX 5090
 *   14000 MHz x 512 = 1792 GB/s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "backends/cuda/gpu_compat.h"

#define MIB (1024 * 1024)

static const struct fb_gpu_answers T4 = {"Tesla T4", 7, 5, 40, {1024, 65536, 16}, 4 * MIB,
                                         5001000, 256, 13000, 13000};
static const struct fb_gpu_answers A100 = {"NVIDIA A100-SXM4-40GB", 8, 0, 108,
                                           {2048, 65536, 32}, 40 * MIB, 1215000, 5120, 13000,
                                           13000};
static const struct fb_gpu_answers RTX4090 = {"NVIDIA GeForce RTX 4090", 8, 9, 128,
                                              {1536, 65536, 24}, 72 * MIB, 10501000, 384,
                                              13000, 13000};
static const struct fb_gpu_answers H100 = {"NVIDIA H100 80GB HBM3", 9, 0, 132,
                                           {2048, 65536, 32}, 50 * MIB, 2619000, 5120, 13000,
                                           13000};
static const struct fb_gpu_answers H200 = {"NVIDIA H200", 9, 0, 132, {2048, 65536, 32},
                                           60 * MIB, 3201000, 6144, 13000, 13000};
static const struct fb_gpu_answers B200 = {"NVIDIA B200", 10, 0, 148, {2048, 65536, 32},
                                           126 * MIB, 3996000, 8192, 13000, 13000};
static const struct fb_gpu_answers RTX5090 = {"NVIDIA GeForce RTX 5090", 12, 0, 170,
                                              {1536, 65536, 24}, 96 * MIB, 14000000, 512,
                                              13000, 13000};

/* The default build of nvcc 13.0 (scripts/gpu_archs.py: every major from Turing on). */
static const struct fb_gpu_build DEFAULT_BUILD = {"75,80,90,100,110,120", "120", "/src/build"};
/* The build before issue 17: Hopper SASS and PTX only. */
static const struct fb_gpu_build HOPPER_ONLY = {"90", "90", "/src/build"};

/* The register caps each architecture's SASS gets (kernels/elementwise_kernels.cuh). */
static int arch_cap(const struct fb_gpu_answers *g)
{
    return g->cc_major < 8 ? 64 : g->cc_major >= 10 ? 56 : 32;
}

static void every_gpu_runs_the_default_build(void **state)
{
    (void)state;
    const struct fb_gpu_answers *gpus[] = {&T4, &A100, &RTX4090, &H100, &H200, &B200, &RTX5090};
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        struct fb_error err = {{0}};
        assert_int_equal(fb_gpu_check_image(gpus[i], 0, &DEFAULT_BUILD, &err), FB_OK);
    }
}

static void a_t4_is_refused_by_the_hopper_only_build_with_the_rebuild_command(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    assert_int_equal(fb_gpu_check_image(&T4, 1, &HOPPER_ONLY, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "CUDA device 1 (Tesla T4) is sm_75"));
    assert_non_null(strstr(err.msg, "holds code for sm_90 and PTX compute_90 only"));
    assert_non_null(strstr(err.msg, "`meson configure /src/build -Dgpu_archs=75 && "
                                    "ninja -C /src/build`"));
}

static void ampere_and_ada_are_refused_by_hopper_code_which_only_jits_forward(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    assert_int_equal(fb_gpu_check_image(&A100, 0, &HOPPER_ONLY, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "is sm_80"));
    assert_int_equal(fb_gpu_check_image(&RTX4090, 0, &HOPPER_ONLY, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "(NVIDIA GeForce RTX 4090) is sm_89"));
    assert_non_null(strstr(err.msg, "-Dgpu_archs=89"));
}

static void blackwell_runs_hopper_ptx_and_sm80_code_serves_sm89(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    /* compute_90 PTX is compiled by the driver for 10.0 and 12.0 */
    assert_int_equal(fb_gpu_check_image(&B200, 0, &HOPPER_ONLY, &err), FB_OK);
    assert_int_equal(fb_gpu_check_image(&RTX5090, 0, &HOPPER_ONLY, &err), FB_OK);
    /* sm_80 SASS runs on 8.6 and 8.9, never on 9.0 */
    const struct fb_gpu_build ampere = {"80", "", "b"};
    assert_int_equal(fb_gpu_check_image(&RTX4090, 0, &ampere, &err), FB_OK);
    assert_int_equal(fb_gpu_check_image(&H100, 0, &ampere, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "holds code for sm_80 only"));
    /* SASS of a newer architecture and PTX newer than the device are both no use */
    const struct fb_gpu_build newer = {"80,100", "100", "b"};
    assert_int_equal(fb_gpu_check_image(&H200, 0, &newer, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "sm_80, sm_100 and PTX compute_100"));
    /* a later GPU (sm_103, or an unknown 13.0) runs sm_100 SASS or compute_120 PTX */
    struct fb_gpu_answers later = B200;
    later.cc_minor = 3;
    assert_int_equal(fb_gpu_check_image(&later, 0, &DEFAULT_BUILD, &err), FB_OK);
    later.cc_major = 13, later.cc_minor = 0;
    assert_int_equal(fb_gpu_check_image(&later, 0, &DEFAULT_BUILD, &err), FB_OK);
}

static void a_driver_of_an_older_cuda_major_is_named_with_what_to_install(void **state)
{
    (void)state;
    struct fb_error err = {{0}};
    assert_int_equal(fb_gpu_check_driver(12040, 13000, &err), FB_ERR_UNAVAILABLE);
    assert_non_null(strstr(err.msg, "the NVIDIA driver supports CUDA 12.4, older than the "
                                    "CUDA 13.0 runtime"));
    assert_non_null(strstr(err.msg, "release 580 or newer"));
    assert_non_null(strstr(err.msg, "CUDA 12.6+ toolkit"));
    /* within one major, minor version compatibility runs it */
    assert_int_equal(fb_gpu_check_driver(13000, 13050, &err), FB_OK);
    assert_int_equal(fb_gpu_check_driver(12020, 12060, &err), FB_OK);
    assert_int_equal(fb_gpu_check_driver(13000, 12090, &err), FB_OK);
    /* no driver at all: the device count reports it, as before */
    assert_int_equal(fb_gpu_check_driver(0, 13000, &err), FB_OK);
}

static void blocks_per_sm_come_from_the_device_and_the_kernel_registers(void **state)
{
    (void)state;
    /* a 32-register kernel */
    assert_int_equal(fb_blocks_per_sm(&T4.sm, 32), 8);       /* 1024 threads */
    assert_int_equal(fb_blocks_per_sm(&A100.sm, 32), 16);
    assert_int_equal(fb_blocks_per_sm(&RTX4090.sm, 32), 12); /* 1536 threads */
    assert_int_equal(fb_blocks_per_sm(&H200.sm, 32), 16);
    assert_int_equal(fb_blocks_per_sm(&RTX5090.sm, 32), 12);
    /* the caps of the other architectures: registers bound it, rounded per warp to 256 */
    assert_int_equal(fb_blocks_per_sm(&T4.sm, 64), 8);
    assert_int_equal(fb_blocks_per_sm(&B200.sm, 56), 9);  /* 65536 / (4 x 1792) */
    assert_int_equal(fb_blocks_per_sm(&RTX5090.sm, 56), 9);
    assert_int_equal(fb_blocks_per_sm(&H200.sm, 40), 12); /* 65536 / (4 x 1280) */
    assert_int_equal(fb_blocks_per_sm(&H200.sm, 33), 12); /* 33 allocates as 40 */
    assert_int_equal(fb_blocks_per_sm(&H200.sm, 48), 10);
    /* unknown limits (the CPU emulation): Hopper's */
    const struct fb_sm_limits unknown = {0, 0, 0};
    assert_int_equal(fb_blocks_per_sm(&unknown, 32), 16);
    assert_int_equal(fb_blocks_per_sm(&unknown, 0), 16);
    assert_int_equal(fb_blocks_per_sm(&unknown, 255), 2); /* 8192 per warp: 2 blocks */
}

static void the_grid_is_one_full_wave_on_every_gpu(void **state)
{
    (void)state;
    const struct {
        const struct fb_gpu_answers *gpu;
        long long wave; /* blocks: SMs x blocks per SM at the architecture's cap */
    } cases[] = {{&T4, 40 * 8},     {&A100, 108 * 16}, {&RTX4090, 128 * 12}, {&H100, 132 * 16},
                 {&H200, 132 * 16}, {&B200, 148 * 9},  {&RTX5090, 170 * 9}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct fb_gpu_answers *g = cases[i].gpu;
        const struct fb_gpu_launch_numbers n = fb_gpu_launch_numbers(g, arch_cap(g), 4);
        assert_int_equal(n.wave_blocks, cases[i].wave);
        /* the threads of one wave never exceed what the GPU holds */
        assert_true(n.wave_blocks * FB_BLOCK_THREADS <= (long long)g->sm_count *
                                                           g->sm.threads_per_sm);
        /* the plan's grid for a large array is that wave */
        const struct fb_launch_plan plan =
            fb_plan_launch_typed(100000000, 4, 4, n.blocks_per_sm, NULL, NULL, NULL,
                                 g->sm_count);
        assert_int_equal(plan.blocks, cases[i].wave);
    }
}

static void the_bytes_in_flight_cover_each_gpus_bandwidth_times_latency(void **state)
{
    (void)state;
    const struct fb_gpu_answers *gpus[] = {&T4, &A100, &RTX4090, &H100, &H200, &B200, &RTX5090};
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        const struct fb_gpu_launch_numbers n =
            fb_gpu_launch_numbers(gpus[i], arch_cap(gpus[i]), FB_LOADS_PER_THREAD);
        assert_true(n.needed_bytes > 0.0);
        assert_true(n.enough);
        assert_true(n.in_flight_bytes >= n.needed_bytes);
    }
    /* H200: 16 x 128 x 4 x 16 B = 128 KiB in flight; 4917 GB/s x 1 us / 132 = ~36 KiB */
    const struct fb_gpu_launch_numbers h = fb_gpu_launch_numbers(&H200, 32, 4);
    assert_true(h.in_flight_bytes == 131072.0);
    assert_in_range((long)h.needed_bytes, 37000, 37500);
    /* B200 at 56 registers: 9 x 128 x 64 B = 72 KiB against ~54 KiB */
    const struct fb_gpu_launch_numbers b = fb_gpu_launch_numbers(&B200, 56, 4);
    assert_true(b.in_flight_bytes == 73728.0);
    assert_in_range((long)b.needed_bytes, 55000, 55500);
    /* a GPU with far more bandwidth per SM is found short */
    struct fb_gpu_answers fast = B200;
    fast.memory_bus_bits *= 4;
    assert_false(fb_gpu_launch_numbers(&fast, 56, 4).enough);
}

static void the_launch_plan_line_names_the_numbers_used(void **state)
{
    (void)state;
    char line[384];
    fb_gpu_describe_launch(&H200, 30, line, sizeof line);
    assert_non_null(strstr(line, "132 SMs x 2048 threads, 65536 registers, 32 blocks per SM"));
    assert_non_null(strstr(line, "copy kernel: 30 registers, 16 blocks of 128 per SM, one "
                                 "wave 2112 blocks, 128 KiB in flight per SM"));
    assert_non_null(strstr(line, "need ~36 KiB: 4917 GB/s x 1 us / 132 SMs)"));
    assert_null(strstr(line, "SHORT"));
    fb_gpu_describe_launch(&T4, 40, line, sizeof line);
    assert_non_null(strstr(line, "40 SMs x 1024 threads"));
    assert_non_null(strstr(line, "8 blocks of 128 per SM, one wave 320 blocks"));
    struct fb_gpu_answers fast = B200;
    fast.memory_bus_bits *= 4;
    fb_gpu_describe_launch(&fast, 56, line, sizeof line);
    assert_non_null(strstr(line, "SHORT"));
    struct fb_gpu_answers no_clock = H200;
    no_clock.memory_clock_khz = 0;
    fb_gpu_describe_launch(&no_clock, 30, line, sizeof line);
    assert_non_null(strstr(line, "need unknown"));
}

static void peak_bandwidth_is_double_data_rate_over_the_bus(void **state)
{
    (void)state;
    assert_true(fb_gpu_peak_bandwidth(5001000, 256) == 2.0 * 5001000e3 * 32);
    assert_true(fb_gpu_peak_bandwidth(0, 256) == 0.0);
    assert_true(fb_gpu_peak_bandwidth(5001000, 0) == 0.0);
    char arch[16];
    fb_gpu_arch_name(arch, sizeof arch, 12, 0);
    assert_string_equal(arch, "sm_120");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_gpu_runs_the_default_build),
        cmocka_unit_test(a_t4_is_refused_by_the_hopper_only_build_with_the_rebuild_command),
        cmocka_unit_test(ampere_and_ada_are_refused_by_hopper_code_which_only_jits_forward),
        cmocka_unit_test(blackwell_runs_hopper_ptx_and_sm80_code_serves_sm89),
        cmocka_unit_test(a_driver_of_an_older_cuda_major_is_named_with_what_to_install),
        cmocka_unit_test(blocks_per_sm_come_from_the_device_and_the_kernel_registers),
        cmocka_unit_test(the_grid_is_one_full_wave_on_every_gpu),
        cmocka_unit_test(the_bytes_in_flight_cover_each_gpus_bandwidth_times_latency),
        cmocka_unit_test(the_launch_plan_line_names_the_numbers_used),
        cmocka_unit_test(peak_bandwidth_is_double_data_rate_over_the_bus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
