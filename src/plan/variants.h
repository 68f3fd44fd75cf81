/* Variants are data: each is a chain of steps (one kernel launch each) that computes
 * c from a and b, with the traffic it moves.
 *
 *   bytes_model    = elements_moved * sizeof(float) * n
 *   bandwidth_gbps = bytes_model / time_median_s / 1e9
 *
 * elements_moved counts every array-sized read and write of the chain:
 *   eager add -> relu:  add reads a, b, writes tmp (3); relu reads tmp, writes c (2): 5
 *   fused add_relu:     reads a, b, writes c: 3
 *   copy:               reads a, writes c: 2 (the bandwidth ceiling)
 * Adding a chain is adding a row to the table in variants.c (and, for a new fused
 * operation, a kernel and an fb_op). */
#ifndef FB_PLAN_VARIANTS_H
#define FB_PLAN_VARIANTS_H

#include <stddef.h>

/* One step of a chain: a kernel launch (a parallel pass on the CPU), or for FB_OP_MEMCPY the
 * platform's own copy routine (cudaMemcpyAsync device to device; libc memcpy on the CPU),
 * which is a reference, not a kernel of ours. Inputs and output name buffers of the runner:
 * A, B, TMP, C. */
enum fb_op {
    FB_OP_COPY, FB_OP_ADD, FB_OP_RELU, FB_OP_THRESHOLD, FB_OP_ADD_RELU, FB_OP_MEMCPY,
    FB_OP_COUNT
};
enum fb_buffer { FB_BUF_NONE = -1, FB_BUF_A, FB_BUF_B, FB_BUF_TMP, FB_BUF_C, FB_BUF_COUNT };

struct fb_step {
    enum fb_op op;
    enum fb_buffer in0, in1, out; /* in1 is FB_BUF_NONE for unary ops */
    float threshold, value;       /* FB_OP_THRESHOLD only */
};

#define FB_MAX_STEPS 4
#define FB_MAX_VARIANTS 16 /* capacity of per-variant tables (config, runner) */

struct fb_variant {
    const char *name;
    const char *description;
    int elements_moved; /* per output element, for bytes_model */
    int n_steps;
    int launches;       /* declared kernel launches per call; the runner counts the real ones */
    struct fb_step steps[FB_MAX_STEPS];
};

/* The variant table, in the order a sweep runs them at each size (copy first, so that every
 * later variant's copy_fraction can be computed from it). */
extern const struct fb_variant fb_variants[];
extern const size_t fb_variant_count;

/* The variant named `name`, or NULL. */
const struct fb_variant *fb_variant_find(const char *name);

/* The kernel name of an operation ("add", "add_relu", ...), as kernel tables print it. */
const char *fb_op_name(enum fb_op op);

/* Whether op is one of our kernels (counted as a launch) rather than the platform's copy. */
int fb_op_is_kernel(enum fb_op op);

/* Whether a variant reads b / needs the tmp buffer (so the runner allocates only those). */
int fb_variant_uses_buffer(const struct fb_variant *v, enum fb_buffer buf);

#endif
