/* The NVML loader (backends/nvml.h) without a GPU: a missing library or function is
 * "unavailable" with a reason, never a crash; against a stand-in library (fake_nvml.c) the
 * readings carry what NVML answered, and the contention decision follows them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <string.h>

#include "backends/nvml.h"
#include "measure/disturbance.h"

#ifndef FAKE_NVML_PATH
#error "FAKE_NVML_PATH: the stand-in library's path, set by tests/measure/meson.build"
#endif
#define BUS "0000:3b:00.0"

static void (*fake_set)(unsigned, unsigned, unsigned long long, unsigned);
static void (*fake_set_app_clocks)(unsigned, unsigned);
static int (*fake_initialised)(void);
static void *fake;

static int load_fake(void **state)
{
    (void)state;
    fake = dlopen(FAKE_NVML_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!fake)
        return -1;
    *(void **)&fake_set = dlsym(fake, "fake_nvml_set");
    *(void **)&fake_initialised = dlsym(fake, "fake_nvml_initialised");
    *(void **)&fake_set_app_clocks = dlsym(fake, "fake_nvml_set_app_clocks");
    return fake_set && fake_initialised && fake_set_app_clocks ? 0 : -1;
}

static int unload_fake(void **state)
{
    (void)state;
    dlclose(fake);
    return 0;
}

static void a_missing_library_is_unavailable_naming_it(void **state)
{
    (void)state;
    struct fb_nvml *n = (struct fb_nvml *)1;
    struct fb_error err = {{0}};
    assert_int_equal(fb_nvml_open(&n, "libnvidia-ml-not-here.so.1", BUS, &err),
                     FB_ERR_UNAVAILABLE);
    assert_null(n);
    assert_non_null(strstr(err.msg, "cannot load libnvidia-ml-not-here.so.1"));
}

static void a_library_without_nvml_is_unavailable_naming_the_function(void **state)
{
    (void)state;
    struct fb_nvml *n;
    struct fb_error err = {{0}};
    assert_int_equal(fb_nvml_open(&n, "libm.so.6", BUS, &err), FB_ERR_UNAVAILABLE);
    assert_null(n);
    assert_non_null(strstr(err.msg, "has no nvmlInit_v2"));
}

static void an_unknown_device_is_unavailable_and_nvml_shut_down(void **state)
{
    (void)state;
    struct fb_nvml *n;
    struct fb_error err = {{0}};
    assert_int_equal(fb_nvml_open(&n, FAKE_NVML_PATH, "0000:99:00.0", &err),
                     FB_ERR_UNAVAILABLE);
    assert_null(n);
    assert_non_null(strstr(err.msg, "0000:99:00.0"));
    assert_non_null(strstr(err.msg, "Not Found"));
    assert_int_equal(fake_initialised(), 0);
}

/* The CUDA backend passes NULL when cudaDeviceGetPCIBusId fails (a vGPU, a simulator): NVML
 * stays off with a reason, and the backend goes on (it used to fail whole). */
static void no_bus_id_is_unavailable_without_loading_nvml(void **state)
{
    (void)state;
    struct fb_nvml *n = (struct fb_nvml *)1;
    struct fb_error err = {{0}};
    assert_int_equal(fb_nvml_open(&n, FAKE_NVML_PATH, NULL, &err), FB_ERR_UNAVAILABLE);
    assert_null(n);
    assert_non_null(strstr(err.msg, "no PCI bus id"));
    assert_int_equal(fake_initialised(), 0);
}

static void readings_carry_what_nvml_answers(void **state)
{
    (void)state;
    struct fb_nvml *n;
    struct fb_error err = {{0}};
    fake_set(1980, 1980, 0x1, 1);
    assert_int_equal(fb_nvml_open(&n, FAKE_NVML_PATH, BUS, &err), FB_OK);
    assert_int_equal(fake_initialised(), 1);
    struct fb_disturbance_reading before, r;
    fb_disturbance_reading_clear(&before);
    fb_disturbance_reading_clear(&r);
    fb_nvml_read(n, &r);
    assert_true(r.gpu_valid);
    assert_int_equal(r.sm_clock_mhz, 1980);
    assert_int_equal(r.sm_clock_max_mhz, 1980);
    assert_int_equal(r.clock_event_reasons, 0x1);
    assert_int_equal(r.compute_processes, 1);
    assert_false(fb_disturbance_judge(&before, &r, 1e-3, NULL, 0)); /* idle bit: no matter */

    char why[160];
    fake_set(900, 1980, 0x4 | FB_GPU_REASON_HW_THERMAL, 3);
    fb_nvml_read(n, &r);
    assert_int_equal(r.sm_clock_mhz, 900);
    assert_int_equal(r.sm_clock_max_mhz, 1980); /* read once, at open */
    assert_int_equal(r.compute_processes, 3);
    assert_true(fb_disturbance_judge(&before, &r, 1e-3, why, sizeof why));
    assert_string_equal(why, "SM clock 900 of 1980 MHz; GPU clocks held down by hardware "
                             "thermal slowdown; 2 other processes on the GPU");

    fake_set(1980, 1980, 0, 0); /* NVML sees no process (another container's view) */
    fb_nvml_read(n, &r);
    assert_int_equal(r.compute_processes, 0);
    assert_false(fb_disturbance_judge(&before, &r, 1e-3, NULL, 0));
    fb_nvml_close(n);
    assert_int_equal(fake_initialised(), 0);
    fb_nvml_close(NULL);
}

/* The clock the GPU holds: the application clock, else the default one, else unknown (0),
 * read at open (a T4: 585 MHz of a 1590 MHz maximum). */
static void the_held_clock_is_the_application_clock_else_the_default(void **state)
{
    (void)state;
    static const struct {
        unsigned app, default_app, want;
    } cases[] = {{585, 585, 585}, {0, 585, 585}, {1200, 585, 1200}, {0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fb_nvml *n;
        struct fb_error err = {{0}};
        fake_set(900, 1590, 0, 1);
        fake_set_app_clocks(cases[i].app, cases[i].default_app);
        assert_int_equal(fb_nvml_open(&n, FAKE_NVML_PATH, BUS, &err), FB_OK);
        struct fb_disturbance_reading r;
        fb_disturbance_reading_clear(&r);
        fb_nvml_read(n, &r);
        assert_int_equal(r.sm_clock_held_mhz, cases[i].want);
        assert_int_equal(r.sm_clock_max_mhz, 1590);
        fb_nvml_close(n);
    }
    fake_set_app_clocks(0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_missing_library_is_unavailable_naming_it),
        cmocka_unit_test(a_library_without_nvml_is_unavailable_naming_the_function),
        cmocka_unit_test(an_unknown_device_is_unavailable_and_nvml_shut_down),
        cmocka_unit_test(no_bus_id_is_unavailable_without_loading_nvml),
        cmocka_unit_test(readings_carry_what_nvml_answers),
        cmocka_unit_test(the_held_clock_is_the_application_clock_else_the_default),
    };
    return cmocka_run_group_tests(tests, load_fake, unload_fake);
}
