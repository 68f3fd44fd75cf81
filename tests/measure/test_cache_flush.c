/* The CPU backend's cache flush (src/backends/cpu/cpu_flush.h, backend.h flush_cache): the
 * buffer is written once, then every flush READS one byte of every 64-byte line, the last
 * partial line included, and writes nothing, so the cache it leaves holds clean lines only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/cpu/cpu_flush.h"

static const size_t sizes[] = {1, 63, 64, 65, 127, 128, 64 * 1000 + 17, 1 << 20};

static unsigned char *random_buffer(size_t bytes, unsigned seed)
{
    unsigned char *p = malloc(bytes);
    assert_non_null(p);
    srand(seed);
    for (size_t i = 0; i < bytes; i++)
        p[i] = (unsigned char)(rand() & 0xff);
    return p;
}

static void the_read_pass_reads_every_line_and_writes_nothing(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const size_t bytes = sizes[k];
        unsigned char *buf = random_buffer(bytes, (unsigned)(1234 + k));
        unsigned char *copy = malloc(bytes);
        assert_non_null(copy);
        memcpy(copy, buf, bytes);
        uint64_t want = 0;
        for (size_t i = 0; i < bytes; i += FB_CPU_LINE_BYTES)
            want += buf[i];
        assert_int_equal(fb_cpu_flush_read(buf, bytes), want);
        assert_memory_equal(buf, copy, bytes); /* a read: no line made dirty */
        free(copy);
        free(buf);
    }
    assert_int_equal(fb_cpu_flush_read(NULL, 0), 0);
}

static void the_write_pass_touches_one_byte_of_every_line(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const size_t bytes = sizes[k];
        unsigned char *buf = random_buffer(bytes, (unsigned)(99 + k));
        unsigned char *before = malloc(bytes);
        assert_non_null(before);
        memcpy(before, buf, bytes);
        fb_cpu_flush_prepare(buf, bytes, 0x5a);
        for (size_t i = 0; i < bytes; i++) {
            if (i % FB_CPU_LINE_BYTES == 0)
                assert_int_equal(buf[i], 0x5a);
            else
                assert_int_equal(buf[i], before[i]);
        }
        free(before);
        free(buf);
    }
}

static void the_flush_buffer_is_more_than_twice_the_cache(void **state)
{
    (void)state;
    assert_true(fb_cache_flush_bytes(32u << 20) > 2ull * (32u << 20));
    assert_true(fb_cache_flush_bytes(60000000) > 2ull * 60000000);
    assert_true(fb_cache_flush_bytes(0) > 2ull * (64u << 20)); /* unknown: 64 MiB assumed */
}

static void the_cpu_backend_flushes_without_touching_the_measured_arrays(void **state)
{
    (void)state;
    void *backend = NULL;
    struct fb_error err = {{0}};
    const struct fb_backend_params params = {0, 0};
    assert_int_equal(fb_cpu_backend.init(&backend, &params, &err), FB_OK);
    void *array = NULL;
    assert_int_equal(fb_cpu_backend.alloc(backend, 4099 * sizeof(float), &array, &err), FB_OK);
    unsigned char *want = random_buffer(4099 * sizeof(float), 7);
    memcpy(array, want, 4099 * sizeof(float));
    for (int i = 0; i < 2; i++) /* the first allocates and writes the buffer, both read it */
        assert_int_equal(fb_cpu_backend.flush_cache(backend, &err), FB_OK);
    assert_memory_equal(array, want, 4099 * sizeof(float));
    free(want);
    fb_cpu_backend.free(backend, array);
    fb_cpu_backend.fini(backend);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_read_pass_reads_every_line_and_writes_nothing),
        cmocka_unit_test(the_write_pass_touches_one_byte_of_every_line),
        cmocka_unit_test(the_flush_buffer_is_more_than_twice_the_cache),
        cmocka_unit_test(the_cpu_backend_flushes_without_touching_the_measured_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
