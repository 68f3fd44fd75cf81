/* Variants are data: each is a list of steps (one kernel launch each) that computes c from
 * a (and b), with the traffic it moves and the launches it makes, both derived from the
 * steps (by fb_variant_set_build; the built-in table writes them out and a test holds it to
 * the derivation):
 *
 *   bytes_model    = elements_moved * sizeof(float) * n
 *   bandwidth_gbps = bytes_model / time_median_s / 1e9
 *   elements_moved = sum over steps of (inputs read + 1 output written), per element:
 *     a table op:          its arity + 1 (add: a, b, tmp = 3; relu: tmp, c = 2)
 *     the generic chain:   the distinct inputs of the chain (1 or 2, the first op's arity)
 *                          + 1 output: the intermediates stay in registers (GPU) or in an
 *                          L1-sized tile (CPU), never in memory
 *     handwritten add_relu: 2 + 1 = 3;  memcpy: 1 + 1 = 2
 *   so eager add -> relu moves 5, fused add_relu 3, copy 2 (the bandwidth ceiling), and a
 *   chain of k ops whose first is binary moves 3 + 2 (k - 1) eager against 3 fused.
 *   launches = the steps that are kernels of ours (every step but memcpy): the kernels a
 *     call runs, counted by the runner (backend launch_count) and by CUPTI's kernel records.
 *   host_launches = what the host issues per call to run them, the launch cost the fit's
 *     t(n) = host_launches * L + bytes_model / B pays (measure/fit.h):
 *       one_launch false: launches (each kernel is launched by itself: a CUDA launch on a
 *                         stream, a parallel region - fork and join - on the CPU);
 *       one_launch true:  1 (when launches > 0): every step goes in one launch, a CUDA graph
 *                         launch (the steps captured once, cudaGraphLaunch per call) or one
 *                         CPU parallel region whose passes are work-shared loops with a
 *                         barrier between them (backend.h, run_group).
 *   So eager_add_relu_graph runs eager's two kernels (launches 2, elements_moved 5) for
 *   (almost) fused's launch cost (host_launches 1): against eager it isolates what fusion
 *   saves in launches, against fused what it saves in bytes. "Almost": the kernels of a graph
 *   still start one after the other (about 1.3 us apart on an H200 against 2.5 us from a
 *   stream, CUDA13-NOTES.md), and the CPU's barrier costs a little less than a join and fork.
 *
 * The variants of a run are built once (fb_variant_set_build): the built-ins below, then for
 * every [chain NAME] of the config eager_NAME (one kernel per op, temporaries in memory) and
 * fused_NAME (the generic fused kernel, 1 launch). */
#ifndef FB_PLAN_VARIANTS_H
#define FB_PLAN_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "op_table.h"

struct fb_config;

/* What a step runs. Inputs and output name buffers of the runner. */
enum fb_step_kind {
    FB_STEP_OP,       /* one op of the table (chain.ops[0]): one kernel */
    FB_STEP_CHAIN,    /* the whole chain in the generic fused kernel: one kernel */
    FB_STEP_ADD_RELU, /* the handwritten fused add_relu kernel */
    FB_STEP_MEMCPY,   /* the platform's copy (cudaMemcpyAsync device to device; libc memcpy
                         on the CPU): a reference, not a kernel of ours */
};

/* The runner's buffers: the inputs a and b, two temporaries for eager chains (an op reads
 * one and writes the other, ping-pong, so no kernel reads and writes the same array), the
 * output c. */
enum fb_buffer {
    FB_BUF_NONE = -1, FB_BUF_A, FB_BUF_B, FB_BUF_TMP, FB_BUF_TMP2, FB_BUF_C, FB_BUF_COUNT
};

struct fb_step {
    enum fb_step_kind kind;
    enum fb_buffer in0, in1, out; /* in1 is FB_BUF_NONE when only one input is read */
    struct fb_chain chain;        /* FB_STEP_OP: the op (n_ops = 1); FB_STEP_CHAIN: the ops */
};

/* What a variant is for, so that nothing depends on its position in a table. */
enum fb_variant_role {
    FB_ROLE_COPY_CEILING,      /* our copy kernel: the bandwidth ceiling (copy_fraction) */
    FB_ROLE_PLATFORM_REFERENCE, /* the platform's own routine (memcpy) */
    FB_ROLE_EAGER,             /* one kernel per op, temporaries in memory */
    FB_ROLE_FUSED,             /* the whole chain in one kernel */
};

#define FB_MAX_STEPS FB_CHAIN_MAX_OPS
#define FB_BUILTIN_VARIANTS 7
/* Capacity of a variant set and of per-variant tables (config, runner): the built-ins and
 * two per chain of the config (FB_MAX_CHAINS, config/config.h). */
#define FB_MAX_VARIANTS (FB_BUILTIN_VARIANTS + 2 * 16)
#define FB_VARIANT_NAME_MAX 48

struct fb_variant {
    char name[FB_VARIANT_NAME_MAX];
    char description[160];
    enum fb_variant_role role;
    /* The variant this one's speedup is taken against (measure/pairing.h): for an eager
     * variant the fused variant of the same chain; for fused_generic_add_relu the
     * handwritten fused_add_relu; "" for the others. */
    char pair[FB_VARIANT_NAME_MAX];
    int n_steps;
    struct fb_step steps[FB_MAX_STEPS];
    /* All steps as one launch (backend.h, run_group), only for steps that are kernels of
     * ours (fb_variant_set_build refuses memcpy in one). A backend without run_group skips
     * such a variant with a reason rather than launch its steps one by one. */
    bool one_launch;
    /* Derived from the steps (formulas above). */
    int elements_moved; /* per output element, for bytes_model */
    int launches;       /* kernel launches per call; the runner counts the real ones */
    int host_launches;  /* launches the host issues per call (one_launch: 1) */
};

/* The built-in variants, in the order a sweep runs them at each size (copy first):
 * copy, eager_add_relu, eager_add_threshold, fused_add_relu (handwritten), memcpy,
 * fused_generic_add_relu (the generic fused kernel on add, relu; its name cannot clash with
 * a chain's variants, which are eager_NAME and fused_NAME with NAME a chain's name, because
 * plan refuses a chain named generic_*), eager_add_relu_graph (eager_add_relu's two steps as
 * one launch; role eager, paired with fused_add_relu; a chain cannot be named add_relu, so
 * no chain's eager_NAME clashes with it either). */
extern const struct fb_variant fb_variants[FB_BUILTIN_VARIANTS];
extern const size_t fb_variant_count;

/* The role's name as the CSV's role column writes it: "copy_ceiling",
 * "platform_reference", "eager", "fused". */
const char *fb_variant_role_name(enum fb_variant_role role);

/* The built-in variant named `name`, or NULL. */
const struct fb_variant *fb_variant_find(const char *name);

/* The variants of a run: the built-ins, then eager_NAME and fused_NAME for each chain of
 * the config, in file order; variant i is enabled when cfg selects its name (plan/select.h). */
struct fb_variant_set {
    size_t count;
    struct fb_variant v[FB_MAX_VARIANTS];
};

/* Builds the set from cfg (built once per run: about 130 KB, allocate it, don't put it on
 * the stack). Returns FB_OK, or FB_ERR_USAGE when a chain is malformed (fb_chain_check),
 * named generic_* or holds too many ops, with err naming the chain (FB_ERR_RUNTIME for a
 * built-in one_launch variant with a step that is not a kernel: a mistake in the table). */
int fb_variant_set_build(const struct fb_config *cfg, struct fb_variant_set *set,
                         struct fb_error *err);

/* Whether variant i of a set built from cfg is enabled by cfg. */
bool fb_variant_set_enabled(const struct fb_config *cfg, const struct fb_variant_set *set,
                            size_t i);

/* The variant named `name` in the set, or NULL. */
const struct fb_variant *fb_variant_set_find(const struct fb_variant_set *set, const char *name);

/* The names of the variants cfg's chains would make, after the built-ins: the name of
 * variant `index` of fb_variant_set_build's set into buf, without building it. Returns
 * false when index is past the set. For the config's variants key. */
bool fb_variant_name_at(const struct fb_config *cfg, size_t index, char *buf, size_t size);

/* "mul, bias(0.5), relu": the chain as a config writes it, into buf (size bytes, cut when
 * longer), for descriptions and the charts' labels. */
void fb_chain_text(const struct fb_chain *ch, char *buf, size_t size);

/* The kernel name of a step ("add", "chain", "add_relu", "memcpy"), as kernel tables print
 * it. */
const char *fb_step_name(const struct fb_step *step);

/* Whether a step is one of our kernels (counted as a launch) rather than the platform's
 * copy. */
bool fb_step_is_kernel(const struct fb_step *step);

/* Whether a variant reads or writes buffer buf (so the runner allocates only those). */
int fb_variant_uses_buffer(const struct fb_variant *v, enum fb_buffer buf);

/* The ULP bound its output is checked with (kernels/elementwise_contract.h): 0 for an exact
 * variant, else the sum of the bounds of its transcendental ops. */
int fb_variant_ulp_bound(const struct fb_variant *v);

#endif
