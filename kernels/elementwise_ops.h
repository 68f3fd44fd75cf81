/* The element operations, written once for both compilers: one function per line of the op
 * table (kernels/op_table.h), named fb_op_<name>, all with one signature
 *
 *     float fb_op_<name>(float x, float y, struct fb_op_params p)
 *
 * x is the input (the first input of a binary op), y the second input of a binary op
 * (unary ops ignore it), p the op's parameters (p.v[0], p.v[1], in the order of the table's
 * PARAM_NAMES). That one signature is what lets every kernel, launcher, reference and test
 * be generated from the table.
 *
 * Arithmetic is fp32 whatever the storage type (common/format.h: fp32, fp16, bf16): the
 * kernels widen each stored input to float (exact), apply these functions in float (a fused
 * chain keeps its intermediates in float), and round the result once, to nearest even, when
 * they store it (kernels/dtype_convert.h on the CPU, __float2half_rn / __float2bfloat16_rn
 * on the GPU). So these functions are the same for every dtype, and the reference does the
 * same widening and rounding (src/measure/reference.c).
 *
 * nvcc compiles these into the CUDA kernels (kernels/elementwise_kernels.cuh) and the C
 * compiler into the CPU backend and the runner's reference, so every backend computes the
 * same function. kernels/elementwise_contract.h states what "the same" means (bit-exact but
 * for NaN payloads for the ops with ULP_BOUND 0; within the table's ULP bound of a
 * double-precision reference for the transcendental ones) and why.
 *
 * The ops themselves (arity, parameters, ULP bound) are listed in docs/ops.md, which
 * `fusebench --list-ops` writes from the table; each function below states its formula.
 * Semantics follow PyTorch's.
 * relu is threshold(x, 0, 0): this is why eager_add_threshold is a faithful second way
 * to spell the same chain. fb_op_add_relu is not an op of the table: it is the handwritten
 * fused kernel's element function, kept as the reference the generic fused kernel is held
 * against. */
#ifndef FB_KERNELS_ELEMENTWISE_OPS_H
#define FB_KERNELS_ELEMENTWISE_OPS_H

#include "op_table.h"

/* -ffast-math (and -Ofast) lets the compiler drop the NaN and signed-zero rules these
 * functions rely on, and links crtfastmath.o, which flushes subnormals process-wide. */
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "elementwise_ops.h must not be compiled with -ffast-math: see elementwise_contract.h"
#endif

#ifdef __CUDACC__
#define FB_ELEMENTWISE __host__ __device__ __forceinline__
#elif defined(__cplusplus)
#include <math.h>
#define FB_ELEMENTWISE inline
#else
#include <math.h>
/* always_inline: the CPU loops vectorise only what is inlined into them, and gcc's size
 * limits would leave a call to the larger ones (sigmoid with its exp) in some of the many
 * loops that use them (tests/kernels/check_cpu_vectorized.sh counts them). */
#define FB_ELEMENTWISE static inline __attribute__((always_inline))
#endif

/* copy(x) = x */
FB_ELEMENTWISE float fb_op_copy(float x, float y, struct fb_op_params p)
{
    (void)y, (void)p;
    return x;
}

/* add(a, b) = a + b */
FB_ELEMENTWISE float fb_op_add(float x, float y, struct fb_op_params p)
{
    (void)p;
    return x + y;
}

/* mul(a, b) = a * b */
FB_ELEMENTWISE float fb_op_mul(float x, float y, struct fb_op_params p)
{
    (void)p;
    return x * y;
}

/* threshold(x, th, val) = x <= th ? val : x; p.v[0]: th, p.v[1]: val. NaN compares false,
 * so NaN gives NaN. */
FB_ELEMENTWISE float fb_op_threshold(float x, float y, struct fb_op_params p)
{
    (void)y;
    return x <= p.v[0] ? p.v[1] : x;
}

/* relu(x) = x <= 0 ? 0 : x (PyTorch's clamp_min(x, 0)): relu(-0) = +0, NaN gives NaN. */
FB_ELEMENTWISE float fb_op_relu(float x, float y, struct fb_op_params p)
{
    (void)y, (void)p;
    return x <= 0.0f ? 0.0f : x; /* threshold(x, 0, 0), spelled out */
}

/* scale(x, c) = x * c */
FB_ELEMENTWISE float fb_op_scale(float x, float y, struct fb_op_params p)
{
    (void)y;
    return x * p.v[0];
}

/* bias(x, c) = x + c */
FB_ELEMENTWISE float fb_op_bias(float x, float y, struct fb_op_params p)
{
    (void)y;
    return x + p.v[0];
}

/* The exponential the transcendental ops call: expf, unless the including file names a
 * function with the same contract first. The host's element functions take it only on
 * x <= 0 (fb_sigmoid_of: e^-|z|), through FB_EXP_NONPOSITIVE, which a file may name as an
 * exp correct on that half-line alone (the CPU kernels name their own vectorisable one:
 * src/backends/cpu/cpu_math.h). */
#ifndef FB_EXPF
#define FB_EXPF expf
#endif
#ifndef FB_EXP_NONPOSITIVE
#define FB_EXP_NONPOSITIVE FB_EXPF
#endif

/* 1 / (1 + e^-z), in the form that never overflows nor cancels: for z >= 0, e^-z <= 1; for
 * z < 0 the same quantity is e^z / (1 + e^z), whose e^z <= 1 too. The one rounding error
 * of expf is carried to the result with a gain under 1 (d sigma / sigma = (1 - sigma) dz),
 * plus one rounding each for the add and the divide. NaN gives NaN (z >= 0 is false: e^z of
 * the NaN, then e / (1 + e)).
 * Two spellings of the same operations on the same values (so the same bits): branches in
 * device code, where ptxas keeps fewer registers live that way (the select form spills in
 * the vector kernels: tests/kernels/ptx_audit.py); elsewhere one exp on a selected argument
 * (-|z|, never positive) and a selected numerator, no branch, which gcc can vectorise (it
 * if-converts no call, and a call has no vector form unless declared so). */
FB_ELEMENTWISE float fb_sigmoid_of(float z)
{
#ifdef __CUDA_ARCH__
    if (z >= 0.0f)
        return 1.0f / (1.0f + FB_EXPF(-z));
    const float e = FB_EXPF(z);
    return e / (1.0f + e);
#else
    const float e = FB_EXP_NONPOSITIVE(z >= 0.0f ? -z : z);
    return (z >= 0.0f ? 1.0f : e) / (1.0f + e);
#endif
}

/* sigmoid(x) = 1 / (1 + exp(-x)) */
FB_ELEMENTWISE float fb_op_sigmoid(float x, float y, struct fb_op_params p)
{
    (void)y, (void)p;
    return fb_sigmoid_of(x);
}

/* gelu(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3): PyTorch's
 * gelu(approximate='tanh').
 * The tanh form, computed through the identity 0.5 (1 + tanh(u)) = sigmoid(2u): the same
 * function, but 1 + tanhf(u) for u << 0 subtracts two numbers near 1 and keeps no correct
 * bit (gelu(-5) would come out 0, not -1.4e-6), where x sigmoid(2u) keeps its relative
 * accuracy down to the underflow. Constants: sqrt(2/pi) = 0.7978845608..., 2 of them
 * folded in (1.5957691216...). Each multiply and add is its own rounding on every
 * backend (no FMA contraction: -ffp-contract=off under -std=c11, nvcc -fmad=false), so the
 * argument 2u has the same bits everywhere and only expf's last bits differ. */
FB_ELEMENTWISE float fb_op_gelu(float x, float y, struct fb_op_params p)
{
    (void)y, (void)p;
    const float cube = x * x * x;
    const float inner = x + 0.044715f * cube;
    return x * fb_sigmoid_of(1.5957691216057308f * inner);
}

/* The handwritten fused kernel's element: relu(a + b). */
FB_ELEMENTWISE float fb_op_add_relu(float a, float b)
{
    const struct fb_op_params none = {{0.0f, 0.0f}};
    return fb_op_relu(fb_op_add(a, b, none), 0.0f, none);
}

/* One op of the table by id: the generic fused kernel's dispatch, the chain reference's,
 * and the tests'. A switch over a compile-time-known set that compilers turn into a jump
 * table (or, with a constant id, into the op itself). Unknown ids give NaN. */
FB_ELEMENTWISE float fb_op_apply(enum fb_op_id op, float x, float y, struct fb_op_params p)
{
    switch (op) {
#define FB_OP_APPLY_CASE(name, arity, n_params, param_names, ulp)                              \
    case FB_OPID_##name:                                                                       \
        return fb_op_##name(x, y, p);
        FB_OP_TABLE(FB_OP_APPLY_CASE)
#undef FB_OP_APPLY_CASE
    default:
        break;
    }
#ifdef __CUDACC_RTC__
    return __int_as_float(0x7fc00000); /* NVRTC has no __builtin_nanf: its quiet NaN's bits */
#else
    return __builtin_nanf("");
#endif
}

#endif
