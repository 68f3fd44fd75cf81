/* Just enough of CUDA for the host C++ compiler to compile kernels/elementwise_kernels.cuh
 * as it is: the function qualifiers become nothing (or inline), float4 and dim3 become
 * plain structs, and the built-in thread coordinates become ordinary variables that the
 * emulated launcher (emulated_launchers.cpp) sets before calling the kernel once per
 * thread. Single-threaded by design: one emulated GPU thread runs at a time.
 * C++17 (inline variables). Include before any kernel header. */
#ifndef FB_TESTS_KERNELS_CUDA_EMULATION_H
#define FB_TESTS_KERNELS_CUDA_EMULATION_H

#ifdef __CUDACC__
#error "cuda_emulation.h is for the host compiler; nvcc has the real thing"
#endif

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
