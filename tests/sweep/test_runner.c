/* The runner against backends that misbehave on purpose: a wrong result must fail the point
 * before any timing, a launch count that contradicts the variant must fail it too, and a
 * correct backend must give ok points with counted launches and the model's bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "backends/backend.h"
#include "config/config.h"
#include "measure/runner.h"

enum fault { FAULT_NONE, FAULT_WRONG_ELEMENT, FAULT_EXTRA_PASS };
static enum fault fault;

/* The CPU backend with one fault injected into run_step. */
static int faulty_run_step(void *state, const struct fb_step *step,
                           void *const buffers[FB_BUF_COUNT], int64_t n, struct fb_error *err)
{
    int rc = fb_cpu_backend.run_step(state, step, buffers, n, err);
    if (rc != FB_OK || step->op != FB_OP_ADD_RELU)
        return rc;
    if (fault == FAULT_WRONG_ELEMENT && n > 0)
        ((float *)buffers[step->out])[n / 2] += 1.0f;
    if (fault == FAULT_EXTRA_PASS)
        rc = fb_cpu_backend.run_step(state, step, buffers, n, err);
    return rc;
}

static struct fb_backend_ops faulty_backend(void)
{
    struct fb_backend_ops ops = fb_cpu_backend;
    ops.run_step = faulty_run_step;
    return ops;
}

struct collected {
    struct fb_record records[64];
    int count;
};

static int collect(void *user, const struct fb_record *r, struct fb_error *err)
{
    (void)err;
    struct collected *c = user;
    assert_true(c->count < 64);
    c->records[c->count++] = *r;
    return FB_OK;
}

static const struct fb_record *find(const struct collected *c, const char *variant, int64_t n)
{
    for (int i = 0; i < c->count; i++)
        if (c->records[i].n == n && strcmp(c->records[i].variant, variant) == 0)
            return &c->records[i];
    return NULL;
}

/* Runs a tiny sweep (sizes 1000 and 4099, every variant) on ops. */
static int run_sweep(const struct fb_backend_ops *ops, struct collected *out, int *failed)
{
    static struct fb_config cfg;
    fb_config_defaults(&cfg);
    cfg.n_sizes = 2;
    cfg.sizes[0] = 1000;
    cfg.sizes[1] = 4099;
    cfg.warmup = 1;
    cfg.min_reps = 3;
    cfg.max_reps = 5;
    cfg.min_time_s = 0.0;
    cfg.max_time_s = 0.01;
    void *state = NULL;
    struct fb_error err;
    const struct fb_backend_params params = {0, 0};
    assert_int_equal(ops->init(&state, &params, &err), FB_OK);
    struct fb_device_info dev;
    assert_int_equal(ops->describe(state, &dev, &err), FB_OK);
    const struct fb_sweep sweep = {&cfg, ops, state, &dev, NULL, 42, NULL};
    const struct fb_sweep_callbacks cb = {out, NULL, NULL, collect};
    memset(out, 0, sizeof *out);
    int rc = fb_sweep_run(&sweep, &cb, failed, &err);
    ops->fini(state);
    return rc;
}

static void correct_backend_gives_ok_points_with_counted_launches(void **unused)
{
    (void)unused;
    struct collected c;
    int failed = -1;
    fault = FAULT_NONE;
    struct fb_backend_ops ops = faulty_backend();
    assert_int_equal(run_sweep(&ops, &c, &failed), FB_OK);
    assert_int_equal(failed, 0);
    assert_int_equal(c.count, 2 * (int)fb_variant_count);
    /* copy runs first at each size, so copy_fraction can be filled as rows arrive */
    assert_string_equal(c.records[0].variant, "copy");
    const struct fb_record *eager = find(&c, "eager_add_relu", 4099);
    const struct fb_record *fused = find(&c, "fused_add_relu", 4099);
    assert_non_null(eager);
    assert_non_null(fused);
    assert_int_equal(eager->status, FB_POINT_OK);
    assert_true(eager->verified);
    assert_int_equal(eager->launches, 2);
    assert_int_equal(fused->launches, 1);
    assert_int_equal(find(&c, "memcpy", 4099)->launches, 0); /* libc's copy: no pass of ours */
    assert_int_equal(find(&c, "memcpy", 4099)->status, FB_POINT_OK);
    assert_int_equal(eager->bytes_model, 5 * 4 * 4099);
    assert_int_equal(fused->bytes_model, 3 * 4 * 4099);
    assert_true(fused->reps >= 1 && fused->reps <= 5);
    assert_true(fused->time_median_s > 0);
    assert_true(fused->time_p10_s <= fused->time_median_s &&
                fused->time_median_s <= fused->time_p90_s);
    assert_true(fabs(fused->bandwidth_gbps - fused->bytes_model / fused->time_median_s / 1e9) <
                1e-9 * fused->bandwidth_gbps + 1e-12);
}

static void wrong_result_fails_the_point_before_timing(void **unused)
{
    (void)unused;
    struct collected c;
    int failed = 0;
    fault = FAULT_WRONG_ELEMENT;
    struct fb_backend_ops ops = faulty_backend();
    assert_int_equal(run_sweep(&ops, &c, &failed), FB_OK);
    assert_int_equal(failed, 2); /* fused_add_relu at both sizes */
    const struct fb_record *fused = find(&c, "fused_add_relu", 1000);
    assert_non_null(fused);
    assert_int_equal(fused->status, FB_POINT_FAILED);
    assert_false(fused->verified);
    assert_int_equal(fused->reps, -1);
    assert_true(isnan(fused->time_median_s));
    assert_non_null(strstr(fused->reason, "element 500"));
    /* the other variants are unaffected */
    assert_int_equal(find(&c, "eager_add_relu", 1000)->status, FB_POINT_OK);
}

static void contradicted_launch_count_fails_the_point(void **unused)
{
    (void)unused;
    struct collected c;
    int failed = 0;
    fault = FAULT_EXTRA_PASS;
    struct fb_backend_ops ops = faulty_backend();
    assert_int_equal(run_sweep(&ops, &c, &failed), FB_OK);
    const struct fb_record *fused = find(&c, "fused_add_relu", 4099);
    assert_int_equal(fused->status, FB_POINT_FAILED);
    assert_int_equal(fused->launches, 2);
    assert_non_null(strstr(fused->reason, "2 launches counted, 1 declared"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_backend_gives_ok_points_with_counted_launches),
        cmocka_unit_test(wrong_result_fails_the_point_before_timing),
        cmocka_unit_test(contradicted_launch_count_fails_the_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
