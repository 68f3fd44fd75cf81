/* libfbpeer.so's entry point (src/peer/peer.h), used as tools/torch_inprocess.py uses it but
 * with a peer written in C: our variants verified and timed, a peer's output checked against
 * the reference of the variant it mirrors (a wrong one recorded failed, never timed), the
 * peer's calls timed in the same rounds under the config's stop rule, and the results file's
 * derived ours_ratio. Random inputs (the library's), poisoned outputs, odd sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/test_tmpdir.h"
#include "results/csv.h"
#include "peer/peer.h"

struct fixture {
    char dir[4096];
    char config[4200];
    char csv[4200];
};

/* The peer: relu(a + b) into its own output, over the library's inputs. */
struct c_peer {
    const float *a, *b;
    float *out;
    int64_t n;
    int64_t calls;    /* calls made, all samples together */
    int64_t samples;  /* times the callback was entered with calls > 0 */
    int64_t wrong_at; /* >= 0: this element comes out wrong */
    int fail;         /* non-zero: the callback reports failure */
    struct fbp_session *interrupt; /* set: the callback asks it to stop (a Ctrl-C) */
};

static void c_peer_call(struct c_peer *p)
{
    for (int64_t i = 0; i < p->n; i++) {
        float s = p->a[i] + p->b[i];
        p->out[i] = s <= 0.0f ? 0.0f : s;
    }
    if (p->wrong_at >= 0)
        p->out[p->wrong_at] += 1.0f;
}

static int c_peer_calls(void *user, int64_t calls)
{
    struct c_peer *p = user;
    if (p->fail)
        return p->fail;
    if (p->interrupt && calls > 0)
        fbp_interrupt(p->interrupt);
    for (int64_t i = 0; i < calls; i++)
        c_peer_call(p);
    p->calls += calls;
    p->samples += calls > 0;
    return 0;
}

static void write_config(struct fixture *f, const char *measure)
{
    FILE *fp = fopen(f->config, "w");
    assert_non_null(fp);
    fprintf(fp, "[sweep]\nsizes = 1, 7, 1000\nvariants = eager_add_relu, fused_add_relu\n"
                "[backend]\nbackend = cpu\ncpu_threads = 2\n[measure]\n%s\ncache = warm\n",
            measure);
    assert_int_equal(fclose(fp), 0);
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    fb_test_mkdtemp(f->dir, sizeof f->dir, "test_peer");
    snprintf(f->config, sizeof f->config, "%s/peer.ini", f->dir);
    snprintf(f->csv, sizeof f->csv, "%s/out/inprocess.csv", f->dir);
    write_config(f, "warmup = 1\nmin_reps = 8\nmax_reps = 40\nmin_time = 0\nmax_time = 0.2\n"
                    "target_noise = 0.5");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    fb_test_rmtree(f->dir);
    free(f);
    return 0;
}

static struct fbp_session *open_session(const struct fixture *f, const char *const *settings,
                                        int count)
{
    struct fbp_session *s = NULL;
    char msg[512];
    int rc = fbp_open(f->config, settings, count, &s, msg, sizeof msg);
    if (rc != FBP_OK)
        fprintf(stderr, "fbp_open: %s\n", msg);
    assert_int_equal(rc, FBP_OK);
    assert_non_null(s);
    assert_string_equal(fbp_backend(s), "cpu");
    return s;
}

/* A peer for the open size, its output poisoned with NaN. */
static struct c_peer peer_for(struct fbp_session *s, int64_t n, float *out)
{
    struct c_peer p = {fbp_input(s, 0), fbp_input(s, 1), out, n, 0, 0, -1, 0};
    assert_non_null(p.a);
    assert_non_null(p.b);
    for (int64_t i = 0; i < n; i++)
        out[i] = NAN;
    return p;
}

static void abi_and_config_are_what_the_caller_expects(void **state)
{
    struct fixture *f = *state;
    assert_int_equal(fbp_abi_version(), FBP_ABI_VERSION);
    const char *settings[] = {"sizes=5,9"};
    struct fbp_session *s = open_session(f, settings, 1);
    assert_int_equal(fbp_size_count(s), 2);
    assert_int_equal(fbp_size(s, 0), 5);
    assert_int_equal(fbp_size(s, 1), 9);
    assert_int_equal(fbp_size(s, 2), -1);
    assert_int_equal(fbp_cpu_threads(s), 2);
    assert_null(fbp_stream(s)); /* the CPU has no queue */
    assert_null(fbp_input(s, 0)); /* no size open */
    fbp_close(s);
}

static void bad_settings_and_configs_are_refused_with_a_message(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = (struct fbp_session *)1;
    char msg[512] = "";
    const char *bad[] = {"sizes"};
    assert_int_equal(fbp_open(f->config, bad, 1, &s, msg, sizeof msg), -2);
    assert_null(s);
    assert_non_null(strstr(msg, "key=value"));
    const char *unknown[] = {"no_such_key=1"};
    assert_int_equal(fbp_open(f->config, unknown, 1, &s, msg, sizeof msg), -2);
    assert_null(s);
    char missing[4300];
    snprintf(missing, sizeof missing, "%s/none.ini", f->dir);
    assert_int_equal(fbp_open(missing, NULL, 0, &s, msg, sizeof msg), -2);
    assert_null(s);
}

/* Issue 34, item 20: a 100 KB "label=..." was refused as "not key=value". */
static void an_over_long_setting_is_refused_as_too_long(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = (struct fbp_session *)1;
    char msg[512] = "";
    size_t len = 100 * 1000;
    char *big = malloc(len + 1);
    assert_non_null(big);
    memcpy(big, "label=", 6);
    memset(big + 6, 'x', len - 6);
    big[len] = '\0';
    const char *settings[] = {big};
    assert_int_equal(fbp_open(f->config, settings, 1, &s, msg, sizeof msg), -2);
    assert_null(s);
    assert_null(strstr(msg, "key=value"));
    assert_non_null(strstr(msg, "100000 bytes long"));
    free(big);
}

static void ours_and_a_right_peer_are_verified_and_timed_in_the_same_rounds(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    const int64_t sizes[] = {1, 7, 1000};
    for (size_t k = 0; k < 3; k++) {
        const int64_t n = sizes[k];
        assert_int_equal(fbp_size_begin(s, n), FBP_OK);
        float *out = malloc((size_t)n * sizeof *out);
        struct c_peer p = peer_for(s, n, out);
        c_peer_call(&p); /* the peer's verified call */
        assert_int_equal(fbp_add_ours(s, "eager_add_relu"), 0);
        assert_int_equal(fbp_add_ours(s, "fused_add_relu"), 1);
        assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1,
                                      out, c_peer_calls, &p), 2);
        assert_int_equal(fbp_time_round_robin(s), FBP_OK);
        for (int i = 0; i < 3; i++) {
            double median, noise;
            int64_t reps, batch;
            assert_int_equal(fbp_result(s, i, &median, &noise, &reps, &batch), FBP_OK);
            assert_true(median > 0 && isfinite(median));
            /* the stop rule: at least min_reps unless the time cap came first, at most max_reps */
            assert_true(reps >= 1 && reps <= 40);
            assert_true(batch >= 1);
            if (i == 2) {
                /* warm-up, batch choice, then every sample one callback of `batch` calls */
                assert_true(p.samples >= reps);
                assert_true(p.calls >= reps * batch);
            }
        }
        assert_int_equal(fbp_size_end(s), FBP_OK);
        free(out);
    }
    fbp_close(s);
}

/* The peer computes fp32 whatever the config's dtype list says: with only fp16 listed, the
 * size's arrays still hold n fp32 values (they were once sized for fp16, and the fp32 fill
 * ran past them), and ours verifies against the fp32 reference. */
static void a_config_without_fp32_still_gives_the_peer_fp32_arrays(void **state)
{
    struct fixture *f = *state;
    const char *const settings[] = {"dtype=fp16"};
    struct fbp_session *s = open_session(f, settings, 1);
    const int64_t n = 1000;
    assert_int_equal(fbp_size_begin(s, n), FBP_OK);
    float *out = malloc((size_t)n * sizeof *out);
    struct c_peer p = peer_for(s, n, out);
    c_peer_call(&p);
    assert_int_equal(fbp_add_ours(s, "fused_add_relu"), 0);
    assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1, out,
                                  c_peer_calls, &p), 1);
    for (int64_t i = 0; i < n; i++) /* the fp32 inputs: in [-1, 1), as drawn */
        assert_true(p.a[i] >= -1.0f && p.a[i] < 1.0f && p.b[i] >= -1.0f && p.b[i] < 1.0f);
    assert_int_equal(fbp_size_end(s), FBP_OK);
    free(out);
    fbp_close(s);
}

static void a_wrong_peer_output_is_recorded_failed_and_never_timed(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    const int64_t n = 7;
    assert_int_equal(fbp_size_begin(s, n), FBP_OK);
    float out[7];
    struct c_peer p = peer_for(s, n, out);
    p.wrong_at = n - 1; /* the odd tail */
    c_peer_call(&p);
    assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1, out,
                                  c_peer_calls, &p), -3);
    assert_non_null(strstr(fbp_error(s), "wrong result at element 6 of 7"));
    /* An output left as poisoned (the peer never wrote it) fails too. */
    struct c_peer q = peer_for(s, n, out);
    assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_unwritten", "fused_add_relu", "", 1, out,
                                  c_peer_calls, &q), -3);
    assert_int_equal(fbp_time_round_robin(s), FBP_OK);
    assert_int_equal(p.calls + q.calls, 0);
    double median, noise;
    int64_t reps, batch;
    assert_int_equal(fbp_result(s, 0, &median, &noise, &reps, &batch), -3);
    fbp_close(s);
}

static void bad_contestants_are_refused(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    float out[8] = {0};
    struct c_peer p = {0};
    assert_int_equal(fbp_add_ours(s, "eager_add_relu"), -2); /* no size open */
    assert_int_equal(fbp_size_begin(s, 0), -2);
    assert_int_equal(fbp_size_begin(s, 8), FBP_OK);
    assert_int_equal(fbp_add_ours(s, "no_such_variant"), -2);
    assert_int_equal(fbp_add_ours(s, "copy"), -2); /* not enabled by the config */
    assert_non_null(strstr(fbp_error(s), "not enabled"));
    assert_int_equal(fbp_add_peer(s, "cpu", "x", "fused_add_relu", "", 1, out, c_peer_calls,
                                  &p), -2); /* our backend's name */
    assert_int_equal(fbp_add_peer(s, "cpeer", "x", "copy", "", 1, out, c_peer_calls, &p), -2);
    assert_int_equal(fbp_add_peer(s, "cpeer", "x", "fused_add_relu", "", 1, NULL,
                                  c_peer_calls, &p), -2);
    fbp_close(s);
}

static void a_failing_peer_call_stops_the_size_with_its_error(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_size_begin(s, 100), FBP_OK);
    float out[100];
    struct c_peer p = peer_for(s, 100, out);
    c_peer_call(&p);
    assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1, out,
                                  c_peer_calls, &p), 0);
    p.fail = 7;
    assert_int_equal(fbp_time_round_robin(s), -1);
    assert_non_null(strstr(fbp_error(s), "returned 7"));
    fbp_close(s);
}

static void an_interrupt_from_the_peer_stops_the_rounds(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_size_begin(s, 100), FBP_OK);
    float out[100];
    struct c_peer p = peer_for(s, 100, out);
    c_peer_call(&p);
    assert_true(fbp_add_ours(s, "fused_add_relu") >= 0);
    assert_true(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1, out,
                             c_peer_calls, &p) >= 0);
    p.interrupt = s;
    assert_int_equal(fbp_time_round_robin(s), -5);
    fbp_close(s);
}

static const struct fb_record *find_row(const struct fb_csv_table *t, const char *variant,
                                        int64_t n)
{
    for (size_t i = 0; i < t->n_records; i++)
        if (strcmp(t->records[i].variant, variant) == 0 && t->records[i].n == n)
            return &t->records[i];
    return NULL;
}

static void the_results_file_holds_both_and_ours_ratio_of_the_peer_rows(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_results_open(s, f->csv, 0), FBP_OK);
    assert_int_equal(fbp_set_meta(s, "peer", "c test"), FBP_OK);
    assert_int_equal(fbp_set_meta(s, "bad key", "x"), -2);
    const int64_t n = 1000;
    assert_int_equal(fbp_size_begin(s, n), FBP_OK);
    float *out = malloc((size_t)n * sizeof *out);
    struct c_peer p = peer_for(s, n, out);
    c_peer_call(&p);
    assert_true(fbp_add_ours(s, "eager_add_relu") >= 0);
    assert_true(fbp_add_ours(s, "fused_add_relu") >= 0);
    assert_true(fbp_add_peer(s, "cpeer", "cpeer_eager", "eager_add_relu", "cpeer_fused", 2,
                             out, c_peer_calls, &p) >= 0);
    assert_true(fbp_add_peer(s, "cpeer", "cpeer_fused", "fused_add_relu", "", 1, out,
                             c_peer_calls, &p) >= 0);
    assert_int_equal(fbp_add_failed(s, "cpeer", "cpeer_broken", "fused_add_relu", "",
                                    "compile error"), FBP_OK);
    assert_int_equal(fbp_time_round_robin(s), FBP_OK);
    assert_int_equal(fbp_size_end(s), FBP_OK);
    assert_int_equal(fbp_results_finish(s), FBP_OK);
    fbp_close(s);

    struct fb_csv_table t;
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_read(f->csv, &t, &err), FB_OK);
    assert_string_equal(fb_csv_meta_get(&t, "peer"), "c test");
    const struct fb_record *eager = find_row(&t, "eager_add_relu", n);
    const struct fb_record *fused = find_row(&t, "fused_add_relu", n);
    const struct fb_record *pe = find_row(&t, "cpeer_eager", n);
    const struct fb_record *pf = find_row(&t, "cpeer_fused", n);
    const struct fb_record *broken = find_row(&t, "cpeer_broken", n);
    assert_non_null(eager);
    assert_non_null(fused);
    assert_non_null(pe);
    assert_non_null(pf);
    assert_non_null(broken);
    assert_string_equal(pe->backend, "cpeer");
    assert_string_equal(pe->mirror, "eager_add_relu");
    assert_string_equal(pe->role, "eager");
    assert_int_equal(pe->bytes_model, eager->bytes_model); /* the mirror's model */
    assert_true(pe->verified);
    assert_int_equal(pe->launches, 2);
    /* ours / the peer's, as fusebench derives it (the file keeps 9 digits), where both rows
     * are ok: on a loaded machine a row may be noisy (its samples disturbed), and then has
     * none (test_pairing checks the formula on rows made there) */
    const struct fb_record *peers[2] = {pe, pf}, *mine[2] = {eager, fused};
    for (int i = 0; i < 2; i++) {
        const struct fb_record *row = peers[i], *m = mine[i];
        if (row->status == FB_POINT_OK && m->status == FB_POINT_OK) {
            assert_true(fabs(row->ours_ratio - m->time_median_s / row->time_median_s) <=
                        1e-7 * row->ours_ratio);
            assert_true(row->ours_ratio_lo <= row->ours_ratio);
        } else {
            assert_true(isnan(row->ours_ratio));
        }
    }
    if (pe->status == FB_POINT_OK && pf->status == FB_POINT_OK)
        assert_true(fabs(pe->speedup - pe->time_median_s / pf->time_median_s) <=
                    1e-7 * pe->speedup);
    assert_true(isnan(eager->ours_ratio));
    assert_int_equal(broken->status, FB_POINT_FAILED);
    assert_string_equal(broken->reason, "compile error");
    assert_true(isnan(broken->ours_ratio));
    fb_csv_table_free(&t);
    free(out);
}

/* A peer's function that mirrors none of ours (tools/torch_audit.py's user function): timed
 * in the same rounds as ours, its row with the caller's role, launches and model bytes (whence
 * its bandwidth), its speedup against its pair, no mirror and so no ours_ratio, and verified 0
 * with a reason that says the peer checked the output. */
static void an_unmirrored_peer_is_timed_with_ours_and_its_row_is_the_callers(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_results_open(s, f->csv, 0), FBP_OK);
    const int64_t n = 1000;
    assert_int_equal(fbp_size_begin(s, n), FBP_OK);
    float *out = malloc((size_t)n * sizeof *out);
    struct c_peer p = peer_for(s, n, out), q = peer_for(s, n, out);
    assert_int_equal(fbp_add_ours(s, "fused_add_relu"), 0);
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "cpeer_user_eager", "eager",
                                             "cpeer_user_fused", 3, 7.0 * 4 * n, c_peer_calls,
                                             &p), 1);
    /* not whole bytes: rounded; no pair, launches unknown */
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "cpeer_user_fused", "fused", NULL,
                                             -7, 12000.4, c_peer_calls, &q), 2);
    assert_int_equal(fbp_set_kernel_time(s, 2, 1e-7), FBP_OK);
    assert_int_equal(p.calls + q.calls, 0); /* nothing is run to check them */
    assert_int_equal(fbp_time_round_robin(s), FBP_OK);
    assert_true(p.samples > 0 && q.samples > 0);
    double median, noise;
    int64_t reps, batch;
    assert_int_equal(fbp_result(s, 1, &median, &noise, &reps, &batch), FBP_OK);
    assert_true(median > 0 && reps >= 1);
    assert_true(p.calls >= reps * batch);
    assert_int_equal(fbp_size_end(s), FBP_OK);
    assert_int_equal(fbp_results_finish(s), FBP_OK);
    fbp_close(s);

    struct fb_csv_table t;
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_read(f->csv, &t, &err), FB_OK);
    const struct fb_record *ue = find_row(&t, "cpeer_user_eager", n);
    const struct fb_record *uf = find_row(&t, "cpeer_user_fused", n);
    const struct fb_record *mine = find_row(&t, "fused_add_relu", n);
    assert_non_null(ue);
    assert_non_null(uf);
    assert_non_null(mine);
    assert_string_equal(ue->backend, "cpeer");
    assert_string_equal(ue->role, "eager");
    assert_string_equal(uf->role, "fused");
    assert_string_equal(ue->pair, "cpeer_user_fused");
    assert_string_equal(uf->pair, "");
    assert_int_equal(ue->launches, 3);
    assert_int_equal(uf->launches, -1);
    assert_int_equal(ue->bytes_model, 7 * 4 * n);
    assert_int_equal(uf->bytes_model, 12000);
    assert_true(mine->verified);
    const struct fb_record *rows[2] = {ue, uf};
    for (int i = 0; i < 2; i++) {
        const struct fb_record *r = rows[i];
        assert_string_equal(r->mirror, "");
        assert_false(r->verified);
        assert_true(strncmp(r->reason, "output checked by the peer, not by fusebench", 44) == 0);
        assert_true(isnan(r->ours_ratio));
        assert_true(r->status == FB_POINT_OK || r->status == FB_POINT_NOISY);
        /* the file keeps 4 decimals of GB/s */
        if (r->status == FB_POINT_OK)
            assert_true(fabs(r->bandwidth_gbps - (double)r->bytes_model / r->time_median_s /
                             1e9) <= 1e-4 + 1e-6 * r->bandwidth_gbps);
    }
    assert_true(fabs(uf->kernel_time_s - 1e-7) <= 1e-15);
    if (ue->status == FB_POINT_OK && uf->status == FB_POINT_OK)
        assert_true(fabs(ue->speedup - ue->time_median_s / uf->time_median_s) <=
                    1e-7 * ue->speedup);
    fb_csv_table_free(&t);
    free(out);
}

/* A bad argument takes no slot: the next good contestant gets the next index. */
static void bad_unmirrored_contestants_are_refused(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    struct c_peer p = {0};
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "u", "eager", "", 1, 8.0,
                                             c_peer_calls, &p), -2); /* no size open */
    assert_int_equal(fbp_size_begin(s, 10), FBP_OK);
    const char *roles[] = {NULL, "", "copy_ceiling", "platform_reference", "Eager"};
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++) {
        assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "u", roles[i], "", 1, 8.0,
                                                 c_peer_calls, &p), -2);
        assert_non_null(strstr(fbp_error(s), "role"));
    }
    const double bytes[] = {0.0, -8.0, NAN, INFINITY, 1e300};
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++)
        assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "u", "eager", "", 1, bytes[i],
                                                 c_peer_calls, &p), -2);
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "u", "eager", "", 1, 8.0, NULL, &p),
                     -2);
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpu", "u", "eager", "", 1, 8.0, c_peer_calls,
                                             &p), -2); /* our backend's name */
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", NULL, "eager", "", 1, 8.0,
                                             c_peer_calls, &p), -2);
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "", "eager", "", 1, 8.0,
                                             c_peer_calls, &p), -2);
    assert_int_equal(fbp_add_peer_unmirrored(NULL, "cpeer", "u", "eager", "", 1, 8.0,
                                             c_peer_calls, &p), -2);
    for (int i = 0; i < FBP_MAX_CONTESTANTS; i++)
        assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "u", "fused", "", 1, 8.0,
                                                 c_peer_calls, &p), i);
    assert_int_equal(fbp_add_peer_unmirrored(s, "cpeer", "u", "fused", "", 1, 8.0,
                                             c_peer_calls, &p), -2); /* full */
    assert_non_null(strstr(fbp_error(s), "more than"));
    fbp_close(s);
}

/* The CPU has no DRAM counters: unavailable, with the reason for the caller's NA, and the
 * peer never called; bad arguments are usage errors. */
static void measure_traffic_on_the_cpu_is_unavailable_with_the_reason(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    struct c_peer p = {0};
    double rd = 1.0, wr = 1.0;
    assert_int_equal(fbp_measure_traffic(s, c_peer_calls, &p, &rd, &wr), -4);
    assert_string_equal(fbp_error(s), "the CPU backend has no DRAM counters");
    assert_true(isnan(rd) && isnan(wr));
    assert_int_equal(p.calls + p.samples, 0);
    assert_int_equal(fbp_measure_traffic(s, NULL, &p, &rd, &wr), -2);
    assert_int_equal(fbp_measure_traffic(s, c_peer_calls, &p, NULL, &wr), -2);
    assert_int_equal(fbp_measure_traffic(s, c_peer_calls, &p, &rd, NULL), -2);
    assert_int_equal(fbp_measure_traffic(NULL, c_peer_calls, &p, &rd, &wr), -2);
    fbp_close(s);
}

/* A peer's kernel time (its profiler's, e.g. torch.profiler on a GPU) lands in its row as
 * kernel_time_s, with launch_overhead_s = median - kernel time, as the kernel pass gives ours;
 * only for a peer's verified contestant before its rounds. */
static void a_peers_kernel_time_gives_its_launch_overhead(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_results_open(s, f->csv, 0), FBP_OK);
    const int64_t n = 1000;
    assert_int_equal(fbp_size_begin(s, n), FBP_OK);
    float *out = malloc((size_t)n * sizeof *out);
    struct c_peer p = peer_for(s, n, out);
    c_peer_call(&p);
    int ours = fbp_add_ours(s, "fused_add_relu");
    assert_true(ours >= 0);
    int peer = fbp_add_peer(s, "cpeer", "cpeer_fused", "fused_add_relu", "", 1, out,
                            c_peer_calls, &p);
    assert_true(peer >= 0);
    assert_int_equal(fbp_add_failed(s, "cpeer", "cpeer_broken", "fused_add_relu", "", "x"),
                     FBP_OK);
    assert_int_equal(fbp_set_kernel_time(s, ours, 1e-7), -2);     /* ours: the runner's */
    assert_int_equal(fbp_set_kernel_time(s, peer + 1, 1e-7), -2); /* recorded failed */
    assert_int_equal(fbp_set_kernel_time(s, peer, -1.0), -2);
    assert_int_equal(fbp_set_kernel_time(s, peer, NAN), -2);
    assert_int_equal(fbp_set_kernel_time(s, 99, 1e-7), -2);
    assert_int_equal(fbp_set_kernel_time(NULL, peer, 1e-7), -2);
    assert_int_equal(fbp_set_kernel_time(s, peer, 1e-7), FBP_OK);
    assert_int_equal(fbp_time_round_robin(s), FBP_OK);
    assert_int_equal(fbp_set_kernel_time(s, peer, 1e-7), -2); /* timed already */
    assert_int_equal(fbp_size_end(s), FBP_OK);
    assert_int_equal(fbp_results_finish(s), FBP_OK);
    fbp_close(s);

    struct fb_csv_table t;
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_read(f->csv, &t, &err), FB_OK);
    const struct fb_record *pf = find_row(&t, "cpeer_fused", n);
    const struct fb_record *mine = find_row(&t, "fused_add_relu", n);
    assert_non_null(pf);
    assert_non_null(mine);
    assert_true(fabs(pf->kernel_time_s - 1e-7) <= 1e-15);
    assert_true(fabs(pf->launch_overhead_s - (pf->time_median_s - 1e-7)) <= 1e-12);
    assert_true(isnan(mine->kernel_time_s)); /* no kernel pass on the CPU: left empty */
    assert_true(isnan(find_row(&t, "cpeer_broken", n)->launch_overhead_s));
    fb_csv_table_free(&t);
    free(out);
}

static void the_stop_rule_caps_the_peer_like_ours(void **state)
{
    struct fixture *f = *state;
    /* Never stable (target 0 with a noisy peer cannot be met): every contestant stops at
     * max_reps (or the time cap), the peer as ours. */
    const char *settings[] = {"min_reps=3", "max_reps=5", "target_noise=0", "max_time=5"};
    struct fbp_session *s = open_session(f, settings, 4);
    assert_int_equal(fbp_size_begin(s, 1000), FBP_OK);
    float out[1000];
    struct c_peer p = peer_for(s, 1000, out);
    c_peer_call(&p);
    assert_true(fbp_add_ours(s, "fused_add_relu") >= 0);
    assert_true(fbp_add_peer(s, "cpeer", "cpeer_fused", "fused_add_relu", "", 1, out,
                             c_peer_calls, &p) >= 0);
    assert_int_equal(fbp_time_round_robin(s), FBP_OK);
    for (int i = 0; i < 2; i++) {
        double median, noise;
        int64_t reps, batch;
        assert_int_equal(fbp_result(s, i, &median, &noise, &reps, &batch), FBP_OK);
        assert_true(reps <= 5);
    }
    assert_true(fbp_empty_call_s(s, c_peer_calls, &p) >= 0);
    fbp_close(s);
}

/* Misuse through a NULL: every function refuses it (FB_ERR_USAGE, NULL, -1 or nothing, as
 * peer.h says), none crashes (each dereferenced it). */
static void null_sessions_and_outputs_are_refused(void **state)
{
    struct fixture *f = *state;
    float out[8] = {0};
    double median, noise;
    int64_t reps, batch;
    assert_null(fbp_backend(NULL));
    assert_null(fbp_device(NULL));
    assert_null(fbp_stream(NULL));
    assert_int_equal(fbp_size_count(NULL), -2);
    assert_int_equal(fbp_size(NULL, 0), -1);
    assert_int_equal(fbp_cpu_threads(NULL), -2);
    assert_int_equal(fbp_results_open(NULL, f->csv, 0), -2);
    assert_int_equal(fbp_set_meta(NULL, "k", "v"), -2);
    assert_int_equal(fbp_results_finish(NULL), -2);
    assert_int_equal(fbp_size_begin(NULL, 8), -2);
    assert_null(fbp_input(NULL, 0));
    assert_int_equal(fbp_add_ours(NULL, "fused_add_relu"), -2);
    assert_int_equal(fbp_add_peer(NULL, "cpeer", "x", "fused_add_relu", "", 1, out,
                                  c_peer_calls, NULL), -2);
    assert_int_equal(fbp_add_failed(NULL, "cpeer", "x", "fused_add_relu", "", "why"), -2);
    assert_int_equal(fbp_time_round_robin(NULL), -2);
    assert_int_equal(fbp_result(NULL, 0, &median, &noise, &reps, &batch), -2);
    assert_int_equal(fbp_size_end(NULL), -2);
    assert_true(fbp_empty_call_s(NULL, c_peer_calls, NULL) < 0);
    fbp_interrupt(NULL);
    fbp_close(NULL);
    assert_string_equal(fbp_error(NULL), "no session");
    /* fbp_open: no place for the session, settings counted but absent, a message buffer of
     * no bytes (its first byte was written) */
    char msg[256];
    assert_int_equal(fbp_open(f->config, NULL, 0, NULL, msg, sizeof msg), -2);
    assert_non_null(strstr(msg, "out is NULL"));
    struct fbp_session *s = NULL;
    assert_int_equal(fbp_open(f->config, NULL, 2, &s, msg, sizeof msg), -2);
    assert_null(s);
    assert_non_null(strstr(msg, "no array"));
    char none = 'x';
    assert_int_equal(fbp_open(NULL, NULL, 0, &s, &none, 0), -2);
    assert_int_equal(none, 'x');
    /* fbp_result's outputs on a real contestant */
    s = open_session(f, NULL, 0);
    assert_int_equal(fbp_size_begin(s, 8), FBP_OK);
    assert_int_equal(fbp_add_ours(s, "fused_add_relu"), 0);
    assert_int_equal(fbp_result(s, 0, NULL, &noise, &reps, &batch), -2);
    assert_int_equal(fbp_result(s, 0, &median, &noise, &reps, NULL), -2);
    assert_int_equal(fbp_result(s, 0, &median, &noise, &reps, &batch), FBP_OK);
    fbp_close(s);
}

/* A peer whose callback calls back into the session: the calls that would change the size
 * under the running rounds are refused; the queries answer; fbp_close is kept for when the
 * rounds return. */
struct meddler {
    struct c_peer peer;
    struct fbp_session *s;
    int close; /* close the session in the first sample */
    int refused, answered, entered;
};

static int meddling_calls(void *user, int64_t calls)
{
    struct meddler *m = user;
    if (m->entered++ == 0) {
        m->refused += fbp_size_begin(m->s, 8) == -2;
        m->refused += fbp_size_end(m->s) == -2;
        m->refused += fbp_time_round_robin(m->s) == -2;
        m->refused += fbp_add_ours(m->s, "eager_add_relu") == -2;
        m->refused += strstr(fbp_error(m->s), "not from inside a peer's callback") != NULL;
        m->refused += fbp_empty_call_s(m->s, c_peer_calls, &m->peer) < 0;
        m->refused += fbp_measure_traffic(m->s, c_peer_calls, &m->peer, &(double){0},
                                          &(double){0}) == -2;
        m->refused += fbp_add_peer_unmirrored(m->s, "cpeer", "u", "eager", "", 1, 8.0,
                                              c_peer_calls, &m->peer) == -2;
        m->answered += fbp_input(m->s, 0) == m->peer.a;
        m->answered += strcmp(fbp_backend(m->s), "cpu") == 0;
        if (m->close)
            fbp_close(m->s);
    }
    return c_peer_calls(&m->peer, calls);
}

static void calls_from_inside_a_callback_are_refused(void **state)
{
    struct fixture *f = *state;
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_size_begin(s, 100), FBP_OK);
    float out[100];
    struct meddler m = {peer_for(s, 100, out), s, 0, 0, 0, 0};
    c_peer_call(&m.peer);
    assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1, out,
                                  meddling_calls, &m), 0);
    assert_int_equal(fbp_time_round_robin(s), FBP_OK);
    assert_int_equal(m.refused, 8);
    assert_int_equal(m.answered, 2);
    assert_true(m.entered > 1);
    /* the session is whole: its row is there and the next size runs */
    double median, noise;
    int64_t reps, batch;
    assert_int_equal(fbp_result(s, 0, &median, &noise, &reps, &batch), FBP_OK);
    assert_true(median > 0);
    assert_int_equal(fbp_size_end(s), FBP_OK);
    fbp_close(s);
}

/* fbp_close from inside a callback stops the rounds and closes the session when they return
 * (it freed the session under them): the lock file is gone then, and NAME.partial kept. */
static void a_close_from_inside_a_callback_closes_when_the_rounds_return(void **state)
{
    struct fixture *f = *state;
    char lockfile[4300];
    snprintf(lockfile, sizeof lockfile, "%s.lock", f->csv);
    struct fbp_session *s = open_session(f, NULL, 0);
    assert_int_equal(fbp_results_open(s, f->csv, 0), FBP_OK);
    assert_int_equal(access(lockfile, F_OK), 0);
    assert_int_equal(fbp_size_begin(s, 100), FBP_OK);
    float out[100];
    struct meddler m = {peer_for(s, 100, out), s, 1, 0, 0, 0};
    c_peer_call(&m.peer);
    assert_int_equal(fbp_add_peer(s, "cpeer", "cpeer_add_relu", "fused_add_relu", "", 1, out,
                                  meddling_calls, &m), 0);
    assert_int_equal(fbp_time_round_robin(s), -5);
    assert_int_equal(access(lockfile, F_OK), -1);
    /* the same from fbp_empty_call_s (its calls are empty ones) */
    s = open_session(f, NULL, 0);
    assert_int_equal(fbp_results_open(s, f->csv, 0), FBP_OK);
    assert_int_equal(fbp_size_begin(s, 100), FBP_OK);
    m = (struct meddler){peer_for(s, 100, out), s, 1, 0, 0, 0};
    assert_true(fbp_empty_call_s(s, meddling_calls, &m) < 0);
    assert_int_equal(access(lockfile, F_OK), -1);
}

/* fbp_fit_model through the library as a peer loads it: the core's model of a call (its
 * regimes are tested in tests/measure/test_fit.c), the regime as an int and in words, and
 * NaN outputs with FB_ERR_USAGE for a NaN input or a NULL output. No session needed. */
static void the_fit_model_of_a_call_is_the_cores(void **state)
{
    (void)state;
    double t, ls, ts, bw;
    int regime = -1;
    /* L = 1 us, B = 50 GB/s, B_c = 200 GB/s, a 32 MiB cache: 80 bytes are cache-resident */
    assert_int_equal(fbp_fit_model(2, 80, 1e-6, 50e9, 200e9, 32 << 20, &t, &ls, &ts, &bw,
                                   &regime),
                     FBP_OK);
    assert_int_equal(regime, FBP_REGIME_CACHE);
    assert_true(fabs(t - 2.0004e-6) <= 1e-12 * 2.0004e-6);
    assert_true(fabs(ls - 2e-6 / 2.0004e-6) <= 1e-12);
    assert_true(fabs(ls + ts - 1) <= 1e-12);
    assert_true(bw == 200e9);
    assert_string_equal(fbp_fit_regime_name(regime), "cache-resident");
    /* 48 MiB: between; no cache known: memory-bound */
    assert_int_equal(fbp_fit_model(1, 48 << 20, 1e-6, 50e9, 200e9, 32 << 20, &t, &ls, &ts,
                                   &bw, &regime), FBP_OK);
    assert_int_equal(regime, FBP_REGIME_BETWEEN);
    assert_true(bw == 50e9);
    assert_int_equal(fbp_fit_model(1, 80, 1e-6, 50e9, NAN, NAN, &t, &ls, &ts, &bw, &regime),
                     FBP_OK);
    assert_int_equal(regime, FBP_REGIME_MEMORY);
    assert_string_equal(fbp_fit_regime_name(regime), "memory-bound");
    assert_string_equal(fbp_fit_regime_name(7), "?");
    /* no L fitted (NaN): refused, every output NaN */
    assert_int_equal(fbp_fit_model(2, 80, NAN, 50e9, 200e9, 32 << 20, &t, &ls, &ts, &bw,
                                   &regime), FB_ERR_USAGE);
    assert_true(isnan(t) && isnan(ls) && isnan(ts) && isnan(bw));
    assert_int_equal(regime, FBP_REGIME_MEMORY);
    assert_int_equal(fbp_fit_model(2, 80, 1e-6, 50e9, 200e9, 32 << 20, &t, &ls, &ts, &bw,
                                   NULL), FB_ERR_USAGE);
    assert_true(isnan(t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(abi_and_config_are_what_the_caller_expects, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(bad_settings_and_configs_are_refused_with_a_message,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            ours_and_a_right_peer_are_verified_and_timed_in_the_same_rounds, setup, teardown),
        cmocka_unit_test_setup_teardown(a_config_without_fp32_still_gives_the_peer_fp32_arrays,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(a_wrong_peer_output_is_recorded_failed_and_never_timed,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(an_over_long_setting_is_refused_as_too_long, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(bad_contestants_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(a_failing_peer_call_stops_the_size_with_its_error,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(an_interrupt_from_the_peer_stops_the_rounds, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            the_results_file_holds_both_and_ours_ratio_of_the_peer_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(the_stop_rule_caps_the_peer_like_ours, setup, teardown),
        cmocka_unit_test_setup_teardown(a_peers_kernel_time_gives_its_launch_overhead, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            an_unmirrored_peer_is_timed_with_ours_and_its_row_is_the_callers, setup, teardown),
        cmocka_unit_test_setup_teardown(bad_unmirrored_contestants_are_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            measure_traffic_on_the_cpu_is_unavailable_with_the_reason, setup, teardown),
        cmocka_unit_test_setup_teardown(null_sessions_and_outputs_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(calls_from_inside_a_callback_are_refused, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            a_close_from_inside_a_callback_closes_when_the_rounds_return, setup, teardown),
        cmocka_unit_test(the_fit_model_of_a_call_is_the_cores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
