/* The CPU backend's kernels: one OpenMP parallel pass each (the CPU's "launch"), with the
 * loop body an element operation of kernels/elementwise_ops.h, so it computes exactly what
 * the CUDA kernels compute. `omp parallel for simd` splits the range statically over the
 * threads and lets the compiler vectorise each thread's chunk (check with
 * -fopt-info-vec: every loop here is reported vectorised). n may be 0 (the pass still
 * forks and joins: that cost is the CPU's launch overhead). */
#ifndef FB_BACKENDS_CPU_CPU_KERNELS_H
#define FB_BACKENDS_CPU_CPU_KERNELS_H

#include <stdint.h>

void fb_cpu_copy(const float *restrict x, float *restrict y, int64_t n);
void fb_cpu_relu(const float *restrict x, float *restrict y, int64_t n);
void fb_cpu_threshold(const float *restrict x, float *restrict y, int64_t n, float threshold,
                      float value);
void fb_cpu_add(const float *restrict a, const float *restrict b, float *restrict c, int64_t n);
void fb_cpu_add_relu(const float *restrict a, const float *restrict b, float *restrict c,
                     int64_t n);

#endif
