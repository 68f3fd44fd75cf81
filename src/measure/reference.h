/* The host-side truth a measured point is checked against before it is timed. Arrays hold n
 * elements of a storage type (kernels/dtype.h: fp32, fp16, bf16). */
#ifndef FB_MEASURE_REFERENCE_H
#define FB_MEASURE_REFERENCE_H

#include <stdint.h>

#include "common/format.h"
#include "plan/variants.h"

/* Computes variant v on the host, one plain single-threaded loop per step, with the
 * element functions of kernels/elementwise_ops.h, into out (tmp is scratch for the
 * temporaries of eager chains, may be out itself, NULL when v has none); arrays of dtype.
 * Each step widens its inputs to fp32, computes in fp32 and rounds its result once to dtype
 * when it stores it, as every backend does: an eager chain's temporaries are rounded, a
 * fused chain's intermediates are not. */
void fb_reference_run(const struct fb_variant *v, enum fb_dtype dtype, const void *a,
                      const void *b, void *tmp, void *out, int64_t n);

/* Index of the first element of got that does not match want under the contract of
 * kernels/elementwise_contract.h at dtype (fb_dtype_result_matches: the same bits, except
 * that any NaN matches a NaN); -1 when all match. */
int64_t fb_first_mismatch(enum fb_dtype dtype, const void *got, const void *want, int64_t n);

/* The same for a variant with transcendental ops (fb_variant_ulp_bound(v) = ulps > 0): the
 * host reference calls glibc's expf, a GPU libdevice's (kernels/elementwise_contract.h), so
 * element i matches when it is within `ulps` units in the last place of want[i] (fp32; on
 * fp16 and bf16 FB_DTYPE_ULP_BOUND = 1 unit of the type, elementwise_contract.h says why:
 * fb_dtype_result_within_ulps), or, for an op after the transcendental one that cancelled
 * (sigmoid(x) - 0.5 through bias(-0.5) leaves a small result whose ULPs are tiny), when
 * |got - want| <= bound * u * max(|want|, 1), u the last place of 1.0 in the type (2^-23,
 * 2^-10, 2^-7): the bound carried as an absolute error on values of order 1, which is what
 * the runner's inputs in [-1, 1) give. A chain that scales such a difference up by a large
 * factor can exceed it on a GPU (and then fails there). On the CPU backend the kernels call
 * the same functions as this reference and agree bit for bit. ulps <= 0: fb_first_mismatch. */
int64_t fb_first_mismatch_ulps(enum fb_dtype dtype, const void *got, const void *want,
                               int64_t n, int ulps);

/* Fills x[0..n) (of dtype) with values uniform in [-1, 1), a pure function of (seed, i),
 * computed in parallel (counter-based: splitmix64 of seed + i), drawn as floats with 24
 * random bits and rounded to dtype when stored. Half the sums a + b are negative, so relu
 * has real work on both sides. */
void fb_fill_random(enum fb_dtype dtype, void *x, int64_t n, uint64_t seed);

#endif
