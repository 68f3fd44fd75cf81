#include "plan/variants.h"

#include <string.h>

#define UNARY(o, i, r) {.op = (o), .in0 = (i), .in1 = FB_BUF_NONE, .out = (r)}
#define BINARY(o, i, j, r) {.op = (o), .in0 = (i), .in1 = (j), .out = (r)}

const struct fb_variant fb_variants[] = {
    {.name = "copy",
     .description = "c = a: the bandwidth ceiling (1 load, 1 store)",
     .elements_moved = 2,
     .n_steps = 1,
     .launches = 1,
     .steps = {UNARY(FB_OP_COPY, FB_BUF_A, FB_BUF_C)}},
    {.name = "eager_add_relu",
     .description = "tmp = a + b; c = relu(tmp): PyTorch eager, 2 launches",
     .elements_moved = 5,
     .n_steps = 2,
     .launches = 2,
     .steps = {BINARY(FB_OP_ADD, FB_BUF_A, FB_BUF_B, FB_BUF_TMP),
               UNARY(FB_OP_RELU, FB_BUF_TMP, FB_BUF_C)}},
    {.name = "eager_add_threshold",
     .description = "tmp = a + b; c = threshold(tmp, 0, 0): relu as some PyTorch versions run it",
     .elements_moved = 5,
     .n_steps = 2,
     .launches = 2,
     .steps = {BINARY(FB_OP_ADD, FB_BUF_A, FB_BUF_B, FB_BUF_TMP),
               {.op = FB_OP_THRESHOLD, .in0 = FB_BUF_TMP, .in1 = FB_BUF_NONE, .out = FB_BUF_C,
                .threshold = 0.0f, .value = 0.0f}}},
    {.name = "fused_add_relu",
     .description = "c = relu(a + b) in one kernel: tmp never leaves the chip",
     .elements_moved = 3,
     .n_steps = 1,
     .launches = 1,
     .steps = {BINARY(FB_OP_ADD_RELU, FB_BUF_A, FB_BUF_B, FB_BUF_C)}},
    {.name = "memcpy",
     .description = "c = a by the platform's copy (cudaMemcpy device to device; libc memcpy "
                    "on the CPU): the reference for our copy kernel",
     .elements_moved = 2,
     .n_steps = 1,
     .launches = 0, /* not a kernel of ours: a copy-engine or library routine */
     .steps = {UNARY(FB_OP_MEMCPY, FB_BUF_A, FB_BUF_C)}},
};

const size_t fb_variant_count = sizeof fb_variants / sizeof fb_variants[0];

const struct fb_variant *fb_variant_find(const char *name)
{
    for (size_t i = 0; i < fb_variant_count; i++)
        if (strcmp(fb_variants[i].name, name) == 0)
            return &fb_variants[i];
    return NULL;
}

const char *fb_op_name(enum fb_op op)
{
    static const char *const names[FB_OP_COUNT] = {
        [FB_OP_COPY] = "copy",           [FB_OP_ADD] = "add",
        [FB_OP_RELU] = "relu",           [FB_OP_THRESHOLD] = "threshold",
        [FB_OP_ADD_RELU] = "add_relu",   [FB_OP_MEMCPY] = "memcpy",
    };
    return (unsigned)op < FB_OP_COUNT ? names[op] : "?";
}

int fb_op_is_kernel(enum fb_op op)
{
    return op != FB_OP_MEMCPY;
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
