#include "peer/peer.h"

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/open.h"
#include "common/error.h"
#include "cupti/cupti_session.h"
#include "cupti/traffic.h"
#include "measure/fit.h"
#include "measure/pairing.h"
#include "measure/reference.h"
#include "measure/runner.h"
#include "measure/stats.h"
#include "plan/load.h"
#include "plan/plan.h"
#include "results/results.h"

#define FBP_MAX_SETTINGS 32

/* One variant timed at the open size: ours (call.variant) or the peer's (call.external). */
struct contestant {
    struct fb_call call;
    struct fb_record r;
    bool timed;    /* verified: takes part in the rounds */
    bool measured; /* its rounds are done */
    bool unmirrored; /* fbp_add_peer_unmirrored: its output was checked by the peer, not here */
    fbp_calls_fn calls;
    void *user;
};

struct fbp_session {
    struct fb_config cfg;
    const struct fb_backend_ops *ops;
    void *backend;
    struct fb_device_info dev;
    struct fb_plan *plan; /* the variants, sizes and stop rule; one format: fp32, normal */
    struct fb_sweep sweep;
    struct fb_format format; /* fp32, normal stores: what the peer computes */
    uint64_t seed;
    char error[sizeof ((struct fb_error *)0)->msg];

    bool size_open;
    int64_t n;
    struct fb_size_buffers sb;
    struct contestant c[FBP_MAX_CONTESTANTS];
    int count;

    bool results_open;
    struct fb_results results;
    struct fb_results_target where;
    struct fb_results_lock lock;
    double empty_call_s; /* fbp_empty_call_s, NaN until measured */
    volatile sig_atomic_t interrupted; /* fbp_interrupt: the runner stops between samples */
    bool in_callback;  /* a peer's callback may be running (fbp_time_round_robin, ...) */
    bool close_asked;  /* fbp_close from that callback: closed once the call returns */
};

static int fail(struct fbp_session *s, int rc, const struct fb_error *err)
{
    snprintf(s->error, sizeof s->error, "%s", err->msg);
    return rc;
}

static int usage(struct fbp_session *s, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s", what);
    return FB_ERR_USAGE;
}

/* Whether fn may act on s now: a session, and not from inside a peer's callback (the call
 * that runs it holds the size's buffers and contestants). */
static int may_act(struct fbp_session *s, const char *fn)
{
    if (!s)
        return FB_ERR_USAGE;
    if (s->in_callback) {
        snprintf(s->error, sizeof s->error, "%s: not from inside a peer's callback", fn);
        return FB_ERR_USAGE;
    }
    return FB_OK;
}

int fbp_abi_version(void)
{
    return FBP_ABI_VERSION;
}

/* The peer's regime numbers are measure/fit.h's: fbp_fit_model hands them through. */
_Static_assert(FBP_REGIME_MEMORY == FB_FIT_REGIME_MEMORY &&
                   FBP_REGIME_CACHE == FB_FIT_REGIME_CACHE &&
                   FBP_REGIME_BETWEEN == FB_FIT_REGIME_BETWEEN,
               "peer.h's FBP_REGIME_* differ from measure/fit.h's");

int fbp_fit_model(double launches, double bytes, double launch_s, double bandwidth,
                  double cache_bandwidth, double cache_bytes, double *model_s,
                  double *launch_share, double *traffic_share, double *bandwidth_used,
                  int *regime)
{
    struct fb_fit_call call;
    struct fb_error err = {0};
    int rc = fb_fit_model_call(launches, bytes, launch_s, bandwidth, cache_bandwidth,
                               cache_bytes, &call, &err);
    if (!model_s || !launch_share || !traffic_share || !bandwidth_used || !regime) {
        call = (struct fb_fit_call){NAN, NAN, NAN, NAN, FB_FIT_REGIME_MEMORY};
        rc = FB_ERR_USAGE;
    }
    if (model_s)
        *model_s = call.time_s;
    if (launch_share)
        *launch_share = call.launch_share;
    if (traffic_share)
        *traffic_share = call.traffic_share;
    if (bandwidth_used)
        *bandwidth_used = call.bandwidth;
    if (regime)
        *regime = (int)call.regime;
    return rc;
}

const char *fbp_fit_regime_name(int regime)
{
    return fb_fit_regime_name((enum fb_fit_regime)regime);
}

/* "key=value" texts into settings (pointing into copies kept in text). */
static int split_settings(const char *const *in, int count, struct fb_config_setting *out,
                          char text[][FB_PATH_MAX], char *msg, size_t msg_size)
{
    if (count < 0 || count > FBP_MAX_SETTINGS) {
        snprintf(msg, msg_size, "fbp_open: %d settings (at most %d)", count, FBP_MAX_SETTINGS);
        return FB_ERR_USAGE;
    }
    for (int i = 0; i < count; i++) {
        const char *eq = in[i] ? strchr(in[i], '=') : NULL;
        if (eq && strlen(in[i]) >= FB_PATH_MAX) { /* a key=value, but not one that fits */
            snprintf(msg, msg_size, "fbp_open: setting %d is %zu bytes long (at most %d): "
                     "\"%.40s...\"", i, strlen(in[i]), FB_PATH_MAX - 1, in[i]);
            return FB_ERR_USAGE;
        }
        if (!eq || eq == in[i]) {
            snprintf(msg, msg_size, "fbp_open: setting %d is not key=value: \"%.200s\"", i,
                     in[i] ? in[i] : "(null)");
            return FB_ERR_USAGE;
        }
        snprintf(text[i], FB_PATH_MAX, "%s", in[i]);
        text[i][eq - in[i]] = '\0';
        out[i] = (struct fb_config_setting){text[i], text[i] + (eq - in[i]) + 1};
    }
    return FB_OK;
}

int fbp_open(const char *config_path, const char *const *settings, int n_settings,
             struct fbp_session **out, char *msg, size_t msg_size)
{
    char scratch[8];
    if (!msg || msg_size == 0) {
        msg = scratch;
        msg_size = sizeof scratch;
    }
    msg[0] = '\0';
    if (!out) {
        snprintf(msg, msg_size, "fbp_open: no place for the session (out is NULL)");
        return FB_ERR_USAGE;
    }
    *out = NULL;
    if (!config_path) {
        snprintf(msg, msg_size, "fbp_open: no config path");
        return FB_ERR_USAGE;
    }
    if (!settings && n_settings > 0) {
        snprintf(msg, msg_size, "fbp_open: %d settings but no array of them", n_settings);
        return FB_ERR_USAGE;
    }
    struct fb_config_setting parsed[FBP_MAX_SETTINGS];
    struct fbp_session *s = calloc(1, sizeof *s);
    char (*text)[FB_PATH_MAX] = calloc(FBP_MAX_SETTINGS, FB_PATH_MAX);
    if (!s || !text) {
        free(s);
        free(text);
        snprintf(msg, msg_size, "fbp_open: out of memory");
        return FB_ERR_RUNTIME;
    }
    s->lock.fd = -1;
    int rc = split_settings(settings, n_settings, parsed, text, msg, msg_size);
    if (rc == FB_OK &&
        fb_plan_config_load(&s->cfg, config_path, parsed, (size_t)n_settings, stderr) != FB_OK) {
        snprintf(msg, msg_size, "%s: not a usable config (the messages above say why)",
                 config_path);
        rc = FB_ERR_USAGE;
    }
    free(text);
    if (rc != FB_OK) {
        free(s);
        return rc;
    }
    struct fb_error err = {{0}};
    rc = fb_plan_build(&s->cfg, FB_PLAN_DEFAULT_FORMAT, &s->plan, &err);
    if (rc == FB_OK)
        rc = fb_backend_open(s->plan, &s->ops, &s->backend, s->dev.backend_note,
                             sizeof s->dev.backend_note, &err);
    char note[sizeof s->dev.backend_note];
    snprintf(note, sizeof note, "%s", s->dev.backend_note);
    if (rc == FB_OK)
        rc = s->ops->describe(s->backend, &s->dev, &err);
    if (rc == FB_OK) {
        snprintf(s->dev.backend_note, sizeof s->dev.backend_note, "%s", note);
        s->format = s->plan->formats[0];
        rc = s->ops->check_format(s->backend, &s->format, &err);
    }
    if (rc != FB_OK) {
        snprintf(msg, msg_size, "%s", err.msg);
        if (s->ops && s->backend)
            s->ops->fini(s->backend);
        fb_plan_free(s->plan);
        free(s);
        return rc;
    }
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    s->seed = ((uint64_t)t.tv_sec << 20) ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 40);
    s->sweep = (struct fb_sweep){s->plan, s->ops, s->backend, &s->dev, NULL, s->seed,
                                 &s->interrupted};
    s->empty_call_s = NAN;
    *out = s;
    return FB_OK;
}

static void size_free(struct fbp_session *s)
{
    if (s->size_open)
        fb_size_buffers_free(&s->sweep, &s->sb);
    s->size_open = false;
    s->count = 0;
}

void fbp_close(struct fbp_session *s)
{
    if (!s)
        return;
    if (s->in_callback) { /* the caller below us still uses s: it closes it on its return */
        s->close_asked = true;
        s->interrupted = 1;
        return;
    }
    size_free(s);
    if (s->results_open)
        fb_results_free(&s->results);
    fb_results_unlock(&s->lock);
    s->ops->fini(s->backend);
    fb_plan_free(s->plan);
    free(s);
}

const char *fbp_error(const struct fbp_session *s)
{
    return s ? s->error : "no session";
}

const char *fbp_backend(const struct fbp_session *s)
{
    return s ? s->ops->name : NULL;
}

const char *fbp_device(const struct fbp_session *s)
{
    return s ? s->dev.name : NULL;
}

void *fbp_stream(const struct fbp_session *s)
{
    return s && s->ops->stream ? s->ops->stream(s->backend) : NULL;
}

int fbp_size_count(const struct fbp_session *s)
{
    return s ? (int)s->plan->n_sizes : FB_ERR_USAGE;
}

int64_t fbp_size(const struct fbp_session *s, int i)
{
    return s && i >= 0 && (size_t)i < s->plan->n_sizes ? (int64_t)s->plan->sizes[i] : -1;
}

int fbp_cpu_threads(const struct fbp_session *s)
{
    return s ? s->plan->cpu_threads : FB_ERR_USAGE;
}

int fbp_results_open(struct fbp_session *s, const char *path, int force)
{
    struct fb_error err = {{0}};
    if (may_act(s, "fbp_results_open") != FB_OK)
        return FB_ERR_USAGE;
    if (s->results_open)
        return usage(s, "fbp_results_open: a results file is open already");
    if (!path)
        return usage(s, "fbp_results_open: no path");
    int rc = fb_results_judge(path, force != 0, &s->where, &err);
    if (rc == FB_OK)
        rc = fb_results_prepare(&s->where, &err);
    if (rc == FB_OK)
        rc = fb_results_lock(&s->lock, s->where.path, &err);
    if (rc != FB_OK)
        return fail(s, rc, &err);
    fb_results_init(&s->results, s->where.path, s->plan, s->ops->name, &s->dev, s->seed,
                    "not collected (in-process peer run)");
    s->results_open = true;
    return FB_OK;
}

int fbp_set_meta(struct fbp_session *s, const char *key, const char *value)
{
    if (may_act(s, "fbp_set_meta") != FB_OK)
        return FB_ERR_USAGE;
    if (!s->results_open)
        return usage(s, "fbp_set_meta: no results file open");
    if (!key || !key[0] || strpbrk(key, ": \t\r\n") || !value)
        return usage(s, "fbp_set_meta: a key must be non-empty, without ':' or whitespace");
    fb_results_set_meta(&s->results, key, value);
    return FB_OK;
}

int fbp_results_finish(struct fbp_session *s)
{
    struct fb_error err = {{0}};
    if (may_act(s, "fbp_results_finish") != FB_OK)
        return FB_ERR_USAGE;
    if (!s->results_open)
        return usage(s, "fbp_results_finish: no results file open");
    int rc = fb_results_finish(&s->results, &err);
    return rc == FB_OK ? FB_OK : fail(s, rc, &err);
}

int fbp_size_begin(struct fbp_session *s, int64_t n)
{
    struct fb_error err = {{0}};
    if (may_act(s, "fbp_size_begin") != FB_OK)
        return FB_ERR_USAGE;
    size_free(s);
    if (n <= 0)
        return usage(s, "fbp_size_begin: n must be > 0");
    s->n = n;
    int rc = fb_size_buffers_alloc(&s->sweep, n, &s->sb, &err);
    if (rc != FB_OK)
        return fail(s, rc, &err);
    s->size_open = true;
    rc = fb_size_buffers_fill(&s->sweep, n, s->format.dtype, &s->sb, &err);
    if (rc != FB_OK) {
        size_free(s);
        return fail(s, rc, &err);
    }
    return FB_OK;
}

const float *fbp_input(const struct fbp_session *s, int which)
{
    if (!s || !s->size_open || (which != 0 && which != 1))
        return NULL;
    return which == 0 ? s->sb.host_a : s->sb.host_b;
}

/* The record of a contestant at the open size, named as fusebench names its rows
 * (runner.c's init_record), for `backend` and `name` (ours: the backend's and the variant's),
 * with its role's name and model bytes per call. */
static void init_record(const struct fbp_session *s, const char *role, int64_t bytes_model,
                        const char *backend, const char *name, const char *pair,
                        struct fb_record *r)
{
    fb_record_init(r);
    snprintf(r->backend, sizeof r->backend, "%s", backend);
    snprintf(r->device, sizeof r->device, "%s", s->dev.name);
    snprintf(r->variant, sizeof r->variant, "%s", name);
    snprintf(r->role, sizeof r->role, "%s", role);
    snprintf(r->pair, sizeof r->pair, "%s", pair);
    snprintf(r->dtype, sizeof r->dtype, "%s", fb_dtype_name(s->format.dtype));
    snprintf(r->stores, sizeof r->stores, "%s", fb_store_kind_name(s->format.stores));
    snprintf(r->cache, sizeof r->cache, "%s", fb_cache_mode_name(s->plan->measure.cache));
    r->n = s->n;
    r->bytes_model = bytes_model;
}

/* The model bytes of our variant v per call at the open size. */
static int64_t variant_bytes(const struct fbp_session *s, const struct fb_variant *v)
{
    return (int64_t)v->elements_moved * (int64_t)fb_dtype_size(s->format.dtype) * s->n;
}

/* The enabled variant of ours named `name`, or NULL with the error set. */
static const struct fb_variant *enabled_variant(struct fbp_session *s, const char *name)
{
    const struct fb_variant_set *set = &s->plan->set;
    for (size_t i = 0; name && i < set->count; i++)
        if (strcmp(set->v[i].name, name) == 0) {
            if (s->plan->enabled[i])
                return &set->v[i];
            snprintf(s->error, sizeof s->error, "variant %s: not enabled by the config ([sweep] "
                     "variants)", name);
            return NULL;
        }
    snprintf(s->error, sizeof s->error, "variant %.60s: no such variant in this config",
             name ? name : "(null)");
    return NULL;
}

/* A new contestant slot, or NULL with the error set. */
static struct contestant *next_slot(struct fbp_session *s)
{
    if (!s->size_open) {
        snprintf(s->error, sizeof s->error, "no size open (fbp_size_begin)");
        return NULL;
    }
    if (s->count >= FBP_MAX_CONTESTANTS) {
        snprintf(s->error, sizeof s->error, "more than %d variants at one size",
                 FBP_MAX_CONTESTANTS);
        return NULL;
    }
    struct contestant *c = &s->c[s->count];
    memset(c, 0, sizeof *c);
    return c;
}

/* A wrong result: the row is kept, failed with the reason, and never timed. */
static int record_failed(struct fbp_session *s, struct contestant *c, const char *reason)
{
    c->r.status = FB_POINT_FAILED;
    c->timed = false;
    snprintf(c->r.reason, sizeof c->r.reason, "%.255s", reason);
    snprintf(s->error, sizeof s->error, "%s n=%" PRId64 ": %.900s", c->r.variant, s->n, reason);
    s->count++;
    return FB_ERR_VERIFY;
}

int fbp_add_ours(struct fbp_session *s, const char *variant)
{
    if (may_act(s, "fbp_add_ours") != FB_OK)
        return FB_ERR_USAGE;
    struct contestant *c = next_slot(s);
    const struct fb_variant *v = c ? enabled_variant(s, variant) : NULL;
    if (!v)
        return FB_ERR_USAGE;
    init_record(s, fb_variant_role_name(v->role), variant_bytes(s, v), s->ops->name, v->name,
                v->pair, &c->r);
    c->r.host_launches = v->host_launches;
    c->call = (struct fb_call){s->ops, s->backend, v, s->sb.dev, s->n, s->format, NULL, NULL};
    if (v->one_launch && !s->ops->run_group)
        return usage(s, fb_call_group_missing());
    struct fb_error err = {{0}};
    int rc = fb_call_verify(&s->sweep, &c->call, &s->sb, &c->r, &err);
    if (rc == FB_OK && c->r.launches != v->launches)
        rc = fb_fail(&err, FB_ERR_VERIFY, "%" PRId64 " launches counted, %d declared",
                     c->r.launches, v->launches);
    if (rc == FB_ERR_VERIFY)
        return record_failed(s, c, err.msg);
    if (rc != FB_OK)
        return fail(s, rc, &err);
    c->timed = true;
    return s->count++;
}

/* fb_call's external: the peer's calls through its callback. */
static int peer_calls(void *user, int64_t calls, struct fb_error *err)
{
    const struct contestant *c = user;
    int rc = c->calls(c->user, calls);
    return rc == 0 ? FB_OK
                   : fb_fail(err, FB_ERR_RUNTIME, "%s n=%" PRId64 ": the peer's call failed "
                             "(its callback returned %d)", c->r.variant, c->call.n, rc);
}

/* A peer contestant's new slot after its names are checked, or NULL with the error set. */
static struct contestant *peer_named_slot(struct fbp_session *s, const char *backend,
                                          const char *name, const char *pair)
{
    if (!backend || !backend[0] || !name || !name[0] || strlen(backend) >= 32 ||
        strlen(name) >= 48 || (pair && strlen(pair) >= 48)) {
        usage(s, "a peer's backend and variant must be non-empty names (at most 31 and 47 bytes)");
        return NULL;
    }
    if (strcmp(backend, s->ops->name) == 0) {
        usage(s, "a peer's rows need a backend name of their own (not ours)");
        return NULL;
    }
    return next_slot(s);
}

/* A peer contestant's slot with its record (names, model of the mirror), or NULL. */
static struct contestant *peer_slot(struct fbp_session *s, const char *backend,
                                    const char *name, const char *mirror, const char *pair)
{
    struct contestant *c = peer_named_slot(s, backend, name, pair);
    const struct fb_variant *m = c ? enabled_variant(s, mirror) : NULL;
    if (!m)
        return NULL;
    init_record(s, fb_variant_role_name(m->role), variant_bytes(s, m), backend, name,
                pair ? pair : "", &c->r);
    snprintf(c->r.mirror, sizeof c->r.mirror, "%s", m->name);
    return c;
}

int fbp_add_peer(struct fbp_session *s, const char *backend, const char *name,
                 const char *mirror, const char *pair, int64_t launches, const float *output,
                 fbp_calls_fn calls, void *user)
{
    if (may_act(s, "fbp_add_peer") != FB_OK)
        return FB_ERR_USAGE;
    struct contestant *c = peer_slot(s, backend, name, mirror, pair);
    if (!c)
        return FB_ERR_USAGE;
    if (!output || !calls)
        return usage(s, "fbp_add_peer: no output or no calls function");
    c->r.launches = launches >= 0 ? launches : -1;
    c->calls = calls;
    c->user = user;
    c->call = (struct fb_call){s->ops, s->backend, NULL, NULL, s->n, s->format, peer_calls, c};
    /* The same check as ours (runner.c, fb_call_verify): the mirror's reference on the same
     * inputs, exact or within its ULP bound. */
    const struct fb_variant *m = fb_variant_set_find(&s->plan->set, c->r.mirror);
    const enum fb_dtype dtype = s->format.dtype;
    fb_reference_run(m, dtype, s->sb.host_a, s->sb.host_b, s->sb.host_want, s->sb.host_want,
                     s->n);
    int64_t bad = fb_first_mismatch_ulps(dtype, output, s->sb.host_want, s->n,
                                         fb_variant_ulp_bound(m));
    if (bad >= 0) {
        char why[256];
        snprintf(why, sizeof why, "wrong result at element %" PRId64 " of %" PRId64
                 " (fp32): got %.9g, reference %.9g (a=%.9g b=%.9g)", bad, s->n,
                 (double)output[bad], (double)((const float *)s->sb.host_want)[bad],
                 (double)((const float *)s->sb.host_a)[bad],
                 (double)((const float *)s->sb.host_b)[bad]);
        return record_failed(s, c, why);
    }
    c->r.verified = true;
    c->timed = true;
    return s->count++;
}

/* What an unmirrored row says in its reason (its verified column is 0: fusebench had no
 * reference to check it against). */
static const char unmirrored_note[] = "output checked by the peer, not by fusebench (no variant "
                                      "of ours mirrors it)";

int fbp_add_peer_unmirrored(struct fbp_session *s, const char *backend, const char *name,
                            const char *role, const char *pair, int64_t launches,
                            double model_bytes, fbp_calls_fn calls, void *user)
{
    if (may_act(s, "fbp_add_peer_unmirrored") != FB_OK)
        return FB_ERR_USAGE;
    /* The arguments first, so that a bad one takes no slot. The bytes go into an int64_t
     * column: at most 2^62, far beyond any array this runs. */
    if (!role || (strcmp(role, "eager") != 0 && strcmp(role, "fused") != 0))
        return usage(s, "fbp_add_peer_unmirrored: the role must be \"eager\" or \"fused\"");
    if (!(model_bytes > 0 && model_bytes <= 0x1p62))
        return usage(s, "fbp_add_peer_unmirrored: model_bytes must be > 0 (and finite)");
    if (!calls)
        return usage(s, "fbp_add_peer_unmirrored: no calls function");
    struct contestant *c = peer_named_slot(s, backend, name, pair);
    if (!c)
        return FB_ERR_USAGE;
    init_record(s, role, (int64_t)llround(model_bytes), backend, name, pair ? pair : "", &c->r);
    c->r.launches = launches >= 0 ? launches : -1;
    snprintf(c->r.reason, sizeof c->r.reason, "%s", unmirrored_note);
    c->unmirrored = true;
    c->calls = calls;
    c->user = user;
    c->call = (struct fb_call){s->ops, s->backend, NULL, NULL, s->n, s->format, peer_calls, c};
    c->timed = true; /* verified stays false: not by us */
    return s->count++;
}

int fbp_add_failed(struct fbp_session *s, const char *backend, const char *name,
                   const char *mirror, const char *pair, const char *reason)
{
    if (may_act(s, "fbp_add_failed") != FB_OK)
        return FB_ERR_USAGE;
    struct contestant *c = peer_slot(s, backend, name, mirror, pair);
    if (!c)
        return FB_ERR_USAGE;
    record_failed(s, c, reason ? reason : "failed");
    return FB_OK;
}

int fbp_set_kernel_time(struct fbp_session *s, int i, double kernel_time_s)
{
    if (may_act(s, "fbp_set_kernel_time") != FB_OK)
        return FB_ERR_USAGE;
    if (!s->size_open || i < 0 || i >= s->count)
        return usage(s, "fbp_set_kernel_time: no such contestant at the open size");
    struct contestant *c = &s->c[i];
    if (!c->calls || !c->timed || c->measured)
        return usage(s, "fbp_set_kernel_time: only a peer's verified contestant, before its "
                        "rounds");
    if (!isfinite(kernel_time_s) || kernel_time_s < 0)
        return usage(s, "fbp_set_kernel_time: the time must be finite and >= 0");
    c->r.kernel_time_s = kernel_time_s;
    return FB_OK;
}

int fbp_time_round_robin(struct fbp_session *s)
{
    if (may_act(s, "fbp_time_round_robin") != FB_OK)
        return FB_ERR_USAGE;
    if (!s->size_open)
        return usage(s, "no size open (fbp_size_begin)");
    struct fb_call calls[FBP_MAX_CONTESTANTS];
    struct fb_record records[FBP_MAX_CONTESTANTS];
    int index[FBP_MAX_CONTESTANTS], count = 0;
    for (int i = 0; i < s->count; i++)
        if (s->c[i].timed && !s->c[i].measured) {
            calls[count] = s->c[i].call;
            records[count] = s->c[i].r;
            index[count++] = i;
        }
    struct fb_error err = {{0}};
    s->in_callback = true;
    int rc = fb_sweep_time_calls(&s->sweep, calls, records, count, &err);
    s->in_callback = false;
    if (s->close_asked) {
        fbp_close(s);
        return FB_ERR_INTERRUPTED;
    }
    if (rc != FB_OK)
        return fail(s, rc, &err);
    for (int i = 0; i < count; i++) {
        struct fb_record *r = &s->c[index[i]].r;
        *r = records[i];
        s->c[index[i]].measured = true;
        /* A noisy row's reason is the runner's: the peer's check goes first (the runner's
         * reason may fill the column). */
        if (s->c[index[i]].unmirrored && !strstr(r->reason, unmirrored_note)) {
            char why[sizeof r->reason];
            snprintf(why, sizeof why, "%s; %s", unmirrored_note, r->reason);
            snprintf(r->reason, sizeof r->reason, "%s", why);
        }
        /* The peer's kernel time (fbp_set_kernel_time): the rest of a call is its launch
         * overhead, as for ours (runner.c, probe_point). */
        if (!isnan(r->kernel_time_s) && r->status != FB_POINT_FAILED)
            r->launch_overhead_s = r->time_median_s - r->kernel_time_s;
    }
    return FB_OK;
}

int fbp_result(const struct fbp_session *s, int i, double *median_s, double *noise,
               int64_t *reps, int64_t *batch)
{
    if (!s || !s->size_open || i < 0 || i >= s->count || !median_s || !noise || !reps ||
        !batch)
        return FB_ERR_USAGE;
    const struct fb_record *r = &s->c[i].r;
    *median_s = r->time_median_s;
    *noise = r->noise;
    *reps = r->reps;
    *batch = r->batch;
    return r->status == FB_POINT_FAILED ? FB_ERR_VERIFY : FB_OK;
}

int fbp_size_end(struct fbp_session *s)
{
    if (may_act(s, "fbp_size_end") != FB_OK)
        return FB_ERR_USAGE;
    if (!s->size_open)
        return usage(s, "no size open (fbp_size_begin)");
    int rc = FB_OK;
    struct fb_error err = {{0}};
    for (int i = 0; s->results_open && rc == FB_OK && i < s->count; i++)
        rc = fb_results_add(&s->results, &s->c[i].r, &err);
    size_free(s);
    return rc == FB_OK ? FB_OK : fail(s, rc, &err);
}

void fbp_interrupt(struct fbp_session *s)
{
    if (s)
        s->interrupted = 1;
}

/* One empty peer sample, timed as a sample is. */
static int time_empty(const struct fbp_session *s, fbp_calls_fn calls, void *user, double *t,
                      struct fb_error *err)
{
    int rc = s->ops->timer_start(s->backend, err);
    if (rc == FB_OK && calls(user, 0) != 0)
        rc = fb_fail(err, FB_ERR_RUNTIME, "the peer's empty call failed");
    if (rc == FB_OK)
        rc = s->ops->timer_stop(s->backend, t, err);
    return rc;
}

double fbp_empty_call_s(struct fbp_session *s, fbp_calls_fn calls, void *user)
{
    enum { SAMPLES = 101 };
    if (may_act(s, "fbp_empty_call_s") != FB_OK)
        return -1.0;
    if (!isnan(s->empty_call_s))
        return s->empty_call_s;
    double t[SAMPLES];
    struct fb_error err = {{0}};
    int rc = calls ? FB_OK : fb_fail(&err, FB_ERR_USAGE, "no calls function");
    s->in_callback = true;
    for (int i = 0; rc == FB_OK && i < SAMPLES && !s->close_asked; i++)
        rc = time_empty(s, calls, user, &t[i], &err);
    s->in_callback = false;
    if (s->close_asked) {
        fbp_close(s);
        return -1.0;
    }
    if (rc != FB_OK) {
        snprintf(s->error, sizeof s->error, "%s", err.msg);
        return -1.0;
    }
    fb_stats_sort(t, SAMPLES);
    s->empty_call_s = fb_stats_percentile_sorted(t, SAMPLES, 50);
    return s->empty_call_s;
}

/* One call of the peer for the range profiler: its callback, then a wait for the backend's
 * queue it enqueued on (the profiler's ranges close on kernels that have run). */
struct traffic_call {
    struct fbp_session *s;
    fbp_calls_fn calls;
    void *user;
};

static int traffic_run(void *ctx, struct fb_error *err)
{
    const struct traffic_call *t = ctx;
    int rc = t->calls(t->user, 1);
    if (rc != 0)
        return fb_fail(err, FB_ERR_RUNTIME, "fbp_measure_traffic: the peer's call failed (its "
                       "callback returned %d)", rc);
    return t->s->ops->synchronize(t->s->backend, err);
}

/* Cold mode, before a pass: the backend's L2 flush, waited for outside the profiled range
 * (as measure/probe.c's flush_synced), so the flush's own bytes are not counted. */
static int traffic_flush(void *ctx, struct fb_error *err)
{
    const struct traffic_call *t = ctx;
    int rc = t->s->ops->flush_cache(t->s->backend, err);
    return rc == FB_OK ? t->s->ops->synchronize(t->s->backend, err) : rc;
}

int fbp_measure_traffic(struct fbp_session *s, fbp_calls_fn calls, void *user,
                        double *dram_read_bytes, double *dram_write_bytes)
{
    if (may_act(s, "fbp_measure_traffic") != FB_OK)
        return FB_ERR_USAGE;
    if (!calls || !dram_read_bytes || !dram_write_bytes)
        return usage(s, "fbp_measure_traffic: no calls function or no place for the bytes");
    *dram_read_bytes = *dram_write_bytes = NAN;
    /* A backend without a queue is the CPU's (measure/probe.c: CUPTI not applicable). */
    if (!s->ops->stream) {
        snprintf(s->error, sizeof s->error, "the %s backend has no DRAM counters",
                 strcmp(s->ops->name, "cpu") == 0 ? "CPU" : s->ops->name);
        return FB_ERR_UNAVAILABLE;
    }
    if (!s->plan->cupti_counters) {
        snprintf(s->error, sizeof s->error, "DRAM counters off ([cupti] counters = false)");
        return FB_ERR_UNAVAILABLE;
    }
    /* A CUPTI session of its own, closed again before returning: one CUPTI client per
     * process (cupti_session.h), and the peer's profiler (torch.profiler's Kineto) may want
     * CUPTI between two of these calls. Opening it tries the counters once and says why not
     * (FB_ERR_UNAVAILABLE with CUPTI's words, or the stub's in a build without CUPTI). */
    struct fb_error err = {{0}};
    struct fb_cupti_session *cupti = NULL;
    int rc = fb_cupti_session_open(&cupti, s->plan->device, false, true, &err);
    struct traffic_call t = {s, calls, user};
    struct fb_traffic traffic;
    fb_traffic_init(&traffic);
    const bool cold = s->plan->measure.cache == FB_CACHE_COLD;
    s->in_callback = true;
    /* Warm mode: one call first, so that the counted one finds the data where calls leave it
     * (runner.c, rewarm_for_probe); cold mode flushes before each pass instead. */
    if (rc == FB_OK && !cold)
        rc = traffic_run(&t, &err);
    if (rc == FB_OK)
        rc = fb_cupti_measure_traffic(cupti, cold ? traffic_flush : NULL, traffic_run, &t,
                                      &traffic, &err);
    s->in_callback = false;
    fb_cupti_session_close(cupti);
    if (s->close_asked) {
        fbp_close(s);
        return FB_ERR_INTERRUPTED;
    }
    if (rc == FB_OK && (traffic.dram_read_bytes < 0 || traffic.dram_write_bytes < 0))
        rc = fb_fail(&err, FB_ERR_UNAVAILABLE, "the range profiler has no DRAM metric on this "
                     "chip");
    if (rc != FB_OK)
        return fail(s, rc, &err);
    *dram_read_bytes = (double)traffic.dram_read_bytes;
    *dram_write_bytes = (double)traffic.dram_write_bytes;
    return FB_OK;
}
