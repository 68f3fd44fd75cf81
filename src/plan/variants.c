#include "plan/variants.h"

#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "plan/select.h"

_Static_assert(FB_MAX_VARIANTS >= FB_BUILTIN_VARIANTS + 2 * FB_MAX_CHAINS,
               "a variant set holds the built-ins and two variants per chain");

#define OP(id, ...) {.n_ops = 1, .ops = {{.op = (id), .params = {{__VA_ARGS__}}}}}
#define STEP(k, i, j, o, ch) {.kind = (k), .in0 = (i), .in1 = (j), .out = (o), .chain = ch}
#define NO_CHAIN {.n_ops = 0}
#define ADD_RELU_CHAIN                                                                         \
    {.n_ops = 2, .ops = {{.op = FB_OPID_add}, {.op = FB_OPID_relu}}}

/* elements_moved and launches are written out here for the users of this static table
 * (a static initializer cannot call the derivation); fb_variant_set_build derives them for
 * its copies, and tests/sweep/test_variants.c checks that both agree. */
const struct fb_variant fb_variants[FB_BUILTIN_VARIANTS] = {
    {.name = "copy",
     .description = "c = a: the bandwidth ceiling (1 load, 1 store)",
     .role = FB_ROLE_COPY_CEILING,
     .n_steps = 1,
     .steps = {STEP(FB_STEP_OP, FB_BUF_A, FB_BUF_NONE, FB_BUF_C, OP(FB_OPID_copy, 0))},
     .elements_moved = 2,
     .launches = 1,
     .host_launches = 1},
    {.name = "eager_add_relu",
     .description = "tmp = a + b; c = relu(tmp): PyTorch eager, 2 launches",
     .role = FB_ROLE_EAGER,
     .pair = "fused_add_relu",
     .n_steps = 2,
     .steps = {STEP(FB_STEP_OP, FB_BUF_A, FB_BUF_B, FB_BUF_TMP, OP(FB_OPID_add, 0)),
               STEP(FB_STEP_OP, FB_BUF_TMP, FB_BUF_NONE, FB_BUF_C, OP(FB_OPID_relu, 0))},
     .elements_moved = 5,
     .launches = 2,
     .host_launches = 2},
    {.name = "eager_add_threshold",
     .description = "tmp = a + b; c = threshold(tmp, 0, 0): relu as some PyTorch versions run it",
     .role = FB_ROLE_EAGER,
     .pair = "fused_add_relu",
     .n_steps = 2,
     .steps = {STEP(FB_STEP_OP, FB_BUF_A, FB_BUF_B, FB_BUF_TMP, OP(FB_OPID_add, 0)),
               STEP(FB_STEP_OP, FB_BUF_TMP, FB_BUF_NONE, FB_BUF_C,
                    OP(FB_OPID_threshold, 0.0f, 0.0f))},
     .elements_moved = 5,
     .launches = 2,
     .host_launches = 2},
    {.name = "fused_add_relu",
     .description = "c = relu(a + b) in one handwritten kernel: tmp never leaves the chip",
     .role = FB_ROLE_FUSED,
     .n_steps = 1,
     .steps = {STEP(FB_STEP_ADD_RELU, FB_BUF_A, FB_BUF_B, FB_BUF_C, ADD_RELU_CHAIN)},
     .elements_moved = 3,
     .launches = 1,
     .host_launches = 1},
    {.name = "memcpy",
     .description = "c = a by the platform's copy (cudaMemcpy device to device; libc memcpy "
                    "on the CPU): the reference for our copy kernel",
     .role = FB_ROLE_PLATFORM_REFERENCE,
     .n_steps = 1,
     .steps = {STEP(FB_STEP_MEMCPY, FB_BUF_A, FB_BUF_NONE, FB_BUF_C, NO_CHAIN)},
     .elements_moved = 2,
     .launches = 0, /* not a kernel of ours: a copy-engine or library routine */
     .host_launches = 0},
    {.name = "fused_generic_add_relu",
     .description = "c = relu(a + b) by the generic fused kernel (the chain add, relu): "
                    "held against the handwritten fused_add_relu",
     .role = FB_ROLE_FUSED,
     .pair = "fused_add_relu",
     .n_steps = 1,
     .steps = {STEP(FB_STEP_CHAIN, FB_BUF_A, FB_BUF_B, FB_BUF_C, ADD_RELU_CHAIN)},
     .elements_moved = 3,
     .launches = 1,
     .host_launches = 1},
    {.name = "eager_add_relu_graph",
     .description = "eager_add_relu's 2 kernels in one launch (a CUDA graph; one CPU parallel "
                    "region, a barrier between the passes): eager's bytes, fused's launches",
     .role = FB_ROLE_EAGER,
     .pair = "fused_add_relu",
     .n_steps = 2,
     .steps = {STEP(FB_STEP_OP, FB_BUF_A, FB_BUF_B, FB_BUF_TMP, OP(FB_OPID_add, 0)),
               STEP(FB_STEP_OP, FB_BUF_TMP, FB_BUF_NONE, FB_BUF_C, OP(FB_OPID_relu, 0))},
     .one_launch = true,
     .elements_moved = 5,
     .launches = 2, /* kernels: the graph's two kernel nodes, the region's two passes */
     .host_launches = 1},
};

const size_t fb_variant_count = FB_BUILTIN_VARIANTS;

const char *fb_variant_role_name(enum fb_variant_role role)
{
    switch (role) {
    case FB_ROLE_COPY_CEILING: return "copy_ceiling";
    case FB_ROLE_PLATFORM_REFERENCE: return "platform_reference";
    case FB_ROLE_EAGER: return "eager";
    case FB_ROLE_FUSED: return "fused";
    }
    return "";
}

const struct fb_variant *fb_variant_find(const char *name)
{
    for (size_t i = 0; i < fb_variant_count; i++)
        if (strcmp(fb_variants[i].name, name) == 0)
            return &fb_variants[i];
    return NULL;
}

/* Inputs a step reads per element. */
static int step_inputs(const struct fb_step *st)
{
    return st->in1 == FB_BUF_NONE ? 1 : 2;
}

/* elements_moved, launches and host_launches from the steps (variants.h has the
 * formulas). */
static void variant_finish(struct fb_variant *v)
{
    v->elements_moved = 0;
    v->launches = 0;
    for (int s = 0; s < v->n_steps; s++) {
        v->elements_moved += step_inputs(&v->steps[s]) + 1;
        v->launches += fb_step_is_kernel(&v->steps[s]);
    }
    v->host_launches = v->one_launch && v->launches > 0 ? 1 : v->launches;
}

/* A one-launch variant holds kernels of ours only: the platform's copy (memcpy) cannot go
 * into a CUDA graph's capture or a CPU parallel region as one of our passes. */
static bool one_launch_ok(const struct fb_variant *v)
{
    for (int s = 0; v->one_launch && s < v->n_steps; s++)
        if (!fb_step_is_kernel(&v->steps[s]))
            return false;
    return true;
}

void fb_chain_text(const struct fb_chain *ch, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < ch->n_ops && len < size; k++) {
        const struct fb_op_info *info = &fb_op_infos[ch->ops[k].op];
        len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? ", " : "", info->name);
        for (int p = 0; p < info->n_params && len < size; p++)
            len += (size_t)snprintf(buf + len, size - len, "%s%g%s", p ? ", " : "(",
                                    (double)ch->ops[k].params.v[p],
                                    p + 1 == info->n_params ? ")" : "");
    }
}

/* eager_NAME: one step per op. The first reads a (and b), the last writes c, and between
 * them the temporaries alternate (tmp, tmp2, tmp, ...) so that no step reads the array it
 * writes. */
static void build_eager(const struct fb_config_chain *cc, struct fb_variant *v)
{
    const struct fb_chain *ch = &cc->chain;
    char text[96];
    fb_chain_text(ch, text, sizeof text);
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "eager_%s", cc->name);
    snprintf(v->description, sizeof v->description,
             "%s: one kernel per op, temporaries in memory", text);
    v->role = FB_ROLE_EAGER;
    snprintf(v->pair, sizeof v->pair, "fused_%s", cc->name);
    v->n_steps = ch->n_ops;
    enum fb_buffer in = FB_BUF_A;
    for (int k = 0; k < ch->n_ops; k++) {
        struct fb_step *st = &v->steps[k];
        st->kind = FB_STEP_OP;
        st->chain.n_ops = 1;
        st->chain.ops[0] = ch->ops[k];
        st->in0 = in;
        st->in1 = k == 0 && fb_op_infos[ch->ops[0].op].arity == 2 ? FB_BUF_B : FB_BUF_NONE;
        st->out = k == ch->n_ops - 1 ? FB_BUF_C : (k % 2 == 0 ? FB_BUF_TMP : FB_BUF_TMP2);
        in = st->out;
    }
    variant_finish(v);
}

/* fused_NAME: the generic fused kernel, one step. */
static void build_fused(const struct fb_config_chain *cc, struct fb_variant *v)
{
    const struct fb_chain *ch = &cc->chain;
    char text[96];
    fb_chain_text(ch, text, sizeof text);
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "fused_%s", cc->name);
    snprintf(v->description, sizeof v->description,
             "%s in one generic fused kernel: intermediates stay in registers", text);
    v->role = FB_ROLE_FUSED;
    v->n_steps = 1;
    v->steps[0].kind = FB_STEP_CHAIN;
    v->steps[0].chain = *ch;
    v->steps[0].in0 = FB_BUF_A;
    v->steps[0].in1 = fb_op_infos[ch->ops[0].op].arity == 2 ? FB_BUF_B : FB_BUF_NONE;
    v->steps[0].out = FB_BUF_C;
    variant_finish(v);
}

int fb_variant_set_build(const struct fb_config *cfg, struct fb_variant_set *set,
                         struct fb_error *err)
{
    set->count = 0;
    for (size_t i = 0; i < fb_variant_count; i++) {
        if (!one_launch_ok(&fb_variants[i]))
            return fb_fail(err, FB_ERR_RUNTIME, "built-in variant %s: a step of a one-launch "
                           "variant is not a kernel of ours", fb_variants[i].name);
        set->v[set->count] = fb_variants[i];
        variant_finish(&set->v[set->count++]);
    }
    for (size_t c = 0; c < cfg->n_chains && c < FB_MAX_CHAINS; c++) {
        const struct fb_config_chain *cc = &cfg->chains[c];
        char msg[160];
        if (fb_chain_check(&cc->chain, msg, sizeof msg) != 0)
            return fb_fail(err, FB_ERR_USAGE, "%s:%d: [chain %s] ops: %s", cfg->path, cc->line,
                           cc->name, msg);
        if (strncmp(cc->name, "generic_", 8) == 0)
            return fb_fail(err, FB_ERR_USAGE,
                           "%s:%d: [chain %s]: names starting with generic_ are reserved for "
                           "the built-in fused_generic_* variants",
                           cfg->path, cc->line, cc->name);
        build_eager(cc, &set->v[set->count++]);
        build_fused(cc, &set->v[set->count++]);
    }
    return FB_OK;
}

bool fb_variant_set_enabled(const struct fb_config *cfg, const struct fb_variant_set *set,
                            size_t i)
{
    return i < set->count && fb_plan_variant_selected(cfg, set->v[i].name);
}

const struct fb_variant *fb_variant_set_find(const struct fb_variant_set *set, const char *name)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->v[i].name, name) == 0)
            return &set->v[i];
    return NULL;
}

bool fb_variant_name_at(const struct fb_config *cfg, size_t index, char *buf, size_t size)
{
    if (index < fb_variant_count) {
        snprintf(buf, size, "%s", fb_variants[index].name);
        return true;
    }
    size_t c = (index - fb_variant_count) / 2;
    if (c >= cfg->n_chains || c >= FB_MAX_CHAINS)
        return false;
    snprintf(buf, size, "%s_%s", (index - fb_variant_count) % 2 ? "fused" : "eager",
             cfg->chains[c].name);
    return true;
}

const char *fb_step_name(const struct fb_step *step)
{
    switch (step->kind) {
    case FB_STEP_OP:
        return (unsigned)step->chain.ops[0].op < FB_OPID_COUNT
                   ? fb_op_infos[step->chain.ops[0].op].name
                   : "?";
    case FB_STEP_CHAIN: return "chain";
    case FB_STEP_ADD_RELU: return "add_relu";
    case FB_STEP_MEMCPY: return "memcpy";
    }
    return "?";
}

bool fb_step_is_kernel(const struct fb_step *step)
{
    return step->kind != FB_STEP_MEMCPY;
}

int fb_variant_uses_buffer(const struct fb_variant *v, enum fb_buffer buf)
{
    for (int s = 0; s < v->n_steps; s++) {
        const struct fb_step *st = &v->steps[s];
        if (st->in0 == buf || st->in1 == buf || st->out == buf)
            return 1;
    }
    return 0;
}

int fb_variant_ulp_bound(const struct fb_variant *v)
{
    int sum = 0;
    for (int s = 0; s < v->n_steps; s++)
        if (v->steps[s].kind == FB_STEP_OP || v->steps[s].kind == FB_STEP_CHAIN)
            sum += fb_chain_ulp_bound(&v->steps[s].chain);
    return sum;
}
