/* Just enough of CUDA for the host C++ compiler to compile kernels/elementwise_kernels.cuh
 * as it is: the function qualifiers become nothing (or inline), float4, uint4 and dim3 become
 * plain structs, and the built-in thread coordinates become ordinary variables that the
 * emulated launcher (emulated_launchers.cpp) sets before calling the kernel once per
 * thread. Single-threaded by design: one emulated GPU thread runs at a time.
 *
 * __half and __nv_bfloat16 (cuda_fp16.h, cuda_bf16.h) become 2-byte structs holding the
 * bits, and the conversions the kernels call (__half2float, __float2half_rn,
 * __bfloat162float, __float2bfloat16_rn, the bit casts) are kernels/dtype_convert.h's, the
 * host's own. So the emulated kernels prove the loops, the lane packing and the tails at
 * each storage type, with the host's rounding; that the toolkit's conversions round the same
 * way (to nearest even; any NaN for a NaN) is the CUDA documentation's word and
 * test_kernels_gpu's check on a GPU, not something this header can show.
 * C++17 (inline variables). Include before any kernel header. */
#ifndef FB_TESTS_KERNELS_CUDA_EMULATION_H
#define FB_TESTS_KERNELS_CUDA_EMULATION_H

#ifdef __CUDACC__
#error "cuda_emulation.h is for the host compiler; nvcc has the real thing"
#endif

#include "dtype_convert.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __maxnreg__(n)

/* CUDA's float4: 16 bytes, 16-byte aligned, so a misaligned float4 access is as wrong here
 * as on the GPU (the compiler may use aligned SSE moves for it). */
struct alignas(16) float4 {
    float x, y, z, w;
};

inline float4 make_float4(float x, float y, float z, float w)
{
    return float4{x, y, z, w};
}

/* CUDA's uint4: 16 bytes, 16-byte aligned (the vector item of 8 halves). */
struct alignas(16) uint4 {
    unsigned int x, y, z, w;
};

inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w)
{
    return uint4{x, y, z, w};
}

/* The 16-bit types: their bits, 2 bytes, 2-byte aligned, as in the toolkit. Zero when
 * default-constructed (the toolkit's leave them undefined): the kernels' last turn fills
 * its item array only where an item exists, which gcc cannot see and warns about. */
struct __half {
    unsigned short bits = 0;
};
struct __nv_bfloat16 {
    unsigned short bits = 0;
};

inline float __half2float(__half h)
{
    return fb_float_from_fp16(h.bits);
}
inline __half __float2half_rn(float v)
{
    return __half{fb_fp16_from_float(v)};
}
inline __half __ushort_as_half(unsigned short bits)
{
    return __half{bits};
}
inline unsigned short __half_as_ushort(__half h)
{
    return h.bits;
}
inline float __bfloat162float(__nv_bfloat16 h)
{
    return fb_float_from_bf16(h.bits);
}
inline __nv_bfloat16 __float2bfloat16_rn(float v)
{
    return __nv_bfloat16{fb_bf16_from_float(v)};
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits)
{
    return __nv_bfloat16{bits};
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h)
{
    return h.bits;
}

/* The built-ins are uint3 / dim3 of unsigned int in CUDA; keeping the type keeps the
 * kernels' index arithmetic (int64_t * unsigned) exactly as nvcc sees it. */
struct uint3 {
    unsigned int x, y, z;
};

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz)
    {
    }
};

inline uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;

#endif
