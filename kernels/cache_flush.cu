/* The GPU cache flush (contract in cache_flush.h). NVRTC (__CUDACC_RTC__: CI's CUDA 12 device
 * compile, .ci/check_cuda12.py) takes device code only: it sees the kernel, not the launcher. */
#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>

#include "cache_flush.h"
#include "common/cuda_check.h"
#endif
#include "launch_plan.h"

/* extern "C": the kernel's name in CUPTI's activity records is exactly "fb_cache_flush_read",
 * which the probes recognise by FB_CACHE_FLUSH_KERNEL_PREFIX (src/backends/backend.h) and do
 * not count as a launch of the measured call. */
extern "C" __global__ void fb_cache_flush_read(const uint4 *__restrict__ words, long long count,
                                               uint4 *result)
{
    unsigned acc = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        const uint4 v = __ldcg(words + i);
        acc += v.x ^ v.y ^ v.z ^ v.w;
    }
    /* The compiler cannot drop loads whose sum may be stored. The buffer holds one repeated
     * byte, so equal words xor to 0 and acc stays 0: the store never happens in practice (it
     * would dirty one 16-byte slot if it did). */
    if (acc == 0x9e3779b9u)
        result->x = acc;
}

#ifndef __CUDACC_RTC__
extern "C" int fb_cuda_cache_flush(const fb_cuda_launch_context *ctx, void *buffer, size_t bytes,
                                   struct fb_error *err)
{
    if (bytes < 2 * sizeof(uint4))
        return fb_fail(err, FB_ERR_USAGE, "fb_cuda_cache_flush: a buffer of %zu bytes is too "
                       "small", bytes);
    const long long count = (long long)(bytes / sizeof(uint4)) - 1;
    uint4 *words = static_cast<uint4 *>(buffer);
    const int blocks = (ctx->sm_count > 0 ? ctx->sm_count : 1) * FB_BLOCKS_PER_SM;
    cudaStream_t stream = static_cast<cudaStream_t>(ctx->stream);
    fb_cache_flush_read<<<blocks, FB_BLOCK_THREADS, 0, stream>>>(words, count, words + count);
    return fb_cuda_check(cudaGetLastError(), "fb_cache_flush_read<<<>>>", __FILE__, __LINE__,
                         err);
}
#endif
