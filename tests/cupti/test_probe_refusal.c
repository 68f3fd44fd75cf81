/* A counters refusal for one variant stays that variant's (src/measure/probe.h,
 * fb_cupti_probe_refusals): when the range profiler refuses one variant's call (a graph launch,
 * say, which is not checked on a GPU either way), that variant's DRAM columns stay empty with
 * the reason, and every other variant keeps its counters. Runs in every build: the counters
 * pass measures through an injected function in place of fb_cupti_measure_traffic. Before
 * issue 17 the first refusal switched the counters off for the rest of the sweep, so
 * other_variants_keep_their_counters fails on that code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "measure/probe.h"

#define REFUSAL "cuptiRangeProfilerSetConfig(&cfg) (src/cupti/cupti_counters.c:250): " \
                "CUPTI_ERROR_NOT_SUPPORTED (27)"

static const char *running;  /* the variant whose call the injected measure just ran */
static int measured;         /* calls of the injected measure */

static int sync_ok(void *state, struct fb_error *err)
{
    (void)state, (void)err;
    return FB_OK;
}

static const struct fb_backend_ops fake_ops = {.name = "fake", .synchronize = sync_ok};

static int run_variant(void *ctx, struct fb_error *err)
{
    (void)err;
    running = ctx;
    return FB_OK;
}

/* Refuses the graph variant's call, as the range profiler might; 1000 bytes read and 500
 * written for any other. */
static int fake_measure(struct fb_cupti_session *c, int (*prepare)(void *, struct fb_error *),
                        int (*run_once)(void *, struct fb_error *), void *ctx,
                        struct fb_traffic *out, struct fb_error *err)
{
    (void)c, (void)prepare;
    measured++;
    int rc = run_once(ctx, err);
    if (rc != FB_OK)
        return rc;
    if (strcmp(running, "eager_graph") == 0)
        return fb_fail(err, FB_ERR_RUNTIME, "%s", REFUSAL);
    memset(out, 0, sizeof *out);
    out->dram_read_bytes = 1000;
    out->dram_write_bytes = 500;
    return FB_OK;
}

static int traffic(const struct fb_probe *probe, const char *variant, int64_t *read)
{
    const struct fb_probe_call call = {run_variant, NULL, (void *)variant, variant};
    int64_t written = -1, l2 = -1;
    struct fb_error err = {{0}};
    *read = -1;
    return probe->traffic_pass(probe->self, &call, read, &written, &l2, &err);
}

/* A probe whose counters pass measures through fake_measure. */
static struct fb_cupti_probe *open_probe(struct fb_probe *probe)
{
    struct fb_cupti_probe *p = NULL;
    struct fb_error err = {{0}};
    assert_int_equal(fb_cupti_probe_open_counters(&p, probe, &fake_ops, NULL, fake_measure, &err),
                     FB_OK);
    return p;
}

static void other_variants_keep_their_counters(void **state)
{
    (void)state;
    struct fb_probe probe;
    struct fb_cupti_probe *p = open_probe(&probe);
    measured = 0;
    int64_t read;
    assert_int_equal(traffic(&probe, "fused", &read), FB_OK);
    assert_int_equal(read, 1000);
    /* the refusal leaves that variant's columns empty ... */
    assert_int_equal(traffic(&probe, "eager_graph", &read), FB_ERR_UNAVAILABLE);
    assert_int_equal(read, -1);
    /* ... and the others measured, before and after it */
    assert_int_equal(traffic(&probe, "fused", &read), FB_OK);
    assert_int_equal(read, 1000);
    assert_int_equal(traffic(&probe, "eager", &read), FB_OK);
    assert_int_equal(read, 1000);
    /* the refused variant is not asked again: its later points cost no replays */
    const int before = measured;
    assert_int_equal(traffic(&probe, "eager_graph", &read), FB_ERR_UNAVAILABLE);
    assert_int_equal(measured, before);
    fb_cupti_probe_close(p);
}

static void the_refusal_is_kept_with_its_reason_for_the_metadata(void **state)
{
    (void)state;
    struct fb_probe probe;
    struct fb_cupti_probe *p = open_probe(&probe);
    char text[1024];
    assert_false(fb_cupti_probe_refusals(p, text, sizeof text));
    assert_string_equal(text, "");
    int64_t read;
    assert_int_equal(traffic(&probe, "eager_graph", &read), FB_ERR_UNAVAILABLE);
    assert_int_equal(traffic(&probe, "eager_graph", &read), FB_ERR_UNAVAILABLE);
    assert_true(fb_cupti_probe_refusals(p, text, sizeof text));
    assert_string_equal(text, "eager_graph: " REFUSAL); /* once, not once per point */
    /* a short buffer is cut, still terminated */
    char small[16];
    assert_true(fb_cupti_probe_refusals(p, small, sizeof small));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_false(fb_cupti_probe_refusals(NULL, text, sizeof text));
    fb_cupti_probe_close(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(other_variants_keep_their_counters),
        cmocka_unit_test(the_refusal_is_kept_with_its_reason_for_the_metadata),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
