#include "backends/cpu/cpu_kernels.h"

#include "elementwise_ops.h"

void fb_cpu_copy(const float *restrict x, float *restrict y, int64_t n)
{
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        y[i] = fb_op_copy(x[i]);
}

void fb_cpu_relu(const float *restrict x, float *restrict y, int64_t n)
{
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        y[i] = fb_op_relu(x[i]);
}

void fb_cpu_threshold(const float *restrict x, float *restrict y, int64_t n, float threshold,
                      float value)
{
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        y[i] = fb_op_threshold(x[i], threshold, value);
}

void fb_cpu_add(const float *restrict a, const float *restrict b, float *restrict c, int64_t n)
{
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        c[i] = fb_op_add(a[i], b[i]);
}

void fb_cpu_add_relu(const float *restrict a, const float *restrict b, float *restrict c,
                     int64_t n)
{
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++)
        c[i] = fb_op_add_relu(a[i], b[i]);
}
