/* The CUDA kernels themselves: one template per shape (unary, binary) and per path
 * (16-byte vector, scalar), instantiated with the element operations of
 * kernels/elementwise_ops.h and with the storage type T of the arrays: float (fp32),
 * __half (fp16) or __nv_bfloat16 (bf16). Both paths of a shape share one loop
 * (fb_unary_pass, fb_binary_pass), templated over the item type and the op. Items: on the
 * vector path 16 bytes, a float4 (4 floats) or 8 halves (fb_fp16x8, fb_bf16x8: a uint4,
 * loaded and stored as ld.global.v4.u32 / st.global.v4.u32); on the scalar path one element.
 *
 * Storage is T; arithmetic is fp32. An item's elements are widened to float (exact), the op
 * computes in float, and the result is rounded once, to nearest even, when it is stored
 * (__float2half_rn, __float2bfloat16_rn; kernels/dtype_convert.h states the rule the CPU and
 * the host reference share). The generic fused kernel keeps a chain's intermediates in
 * float: only its last result is rounded.
 *
 * This header is included by kernels/launchers.cu (nvcc, for the GPU) and by
 * tests/kernels/emulated_launchers.cpp (the host C++ compiler, with a small emulation of
 * threadIdx/blockIdx), so the exact code that runs on the GPU is also run on the CPU in
 * every test run. Keep it free of anything else CUDA-specific.
 *
 * The loop (kernels/launch_plan.h gives the numbers and why): with P loads per input
 * (each functor's loads_per_input: FB_LOADS_PER_INPUT, 4 for one input, 2 for two; 2 for
 * the transcendental ops and the generic fused kernel) and T threads in the grid, thread t's
 * turn of the main loop loads items i, i + T, ..., i + (P-1) T of every input (i starts at
 * t and grows by P T per turn), all before it stores any: P * inputs independent loads in
 * flight per thread. Each load instruction of a warp reads 32 consecutive items, so every
 * access coalesces. The main loop runs while all P items exist; the fewer than P a thread
 * has left then go in one last turn, each load and store guarded, loads first (remainder).
 * On the vector path the last n % L elements (L = 4 floats or 8 halves), past the last whole
 * vector, go one each to threads 0 .. n % L - 1 (scalar tail). Every index in [0, n) is written exactly once,
 * which test_kernels_emulated checks by running these very loops over items that count
 * their reads and writes.
 *
 * Memory traffic per element, which the PTX audit (tests/kernels/ptx_audit.py) checks:
 *   unary ops of the table (arity 1) and a chain whose first op is unary: 1 load, 1 store;
 *   binary ops (arity 2), add_relu and a chain whose first op is binary: 2 loads, 1 store.
 * The main loop carries `#pragma unroll 1` (and the P-way inner loops a full
 * `#pragma unroll`), so the PTX holds exactly one copy of it and the audit can count: per
 * input, P loads in the main loop, P - 1 in the remainder, 1 in the vector path's tail. */
#ifndef FB_KERNELS_ELEMENTWISE_KERNELS_CUH
#define FB_KERNELS_ELEMENTWISE_KERNELS_CUH

#include <stdint.h>

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

#include "dtype_convert.h"
#include "elementwise_ops.h"
#include "launch_plan.h"

/* At most 32 registers per thread on Hopper: 65536 per SM / (16 blocks x 128 threads), so
 * 16 blocks per SM fit on a GPU with 2048 threads per SM. __launch_bounds__(128, 16) would
 * say the same, but makes ptxas warn (and ignore it) on GPUs with fewer threads per SM, and
 * nvcc accepts only one of the two. Other architectures get other caps (fb_arch_registers,
 * below). ptx_audit.py checks the registers of sm_90 and that nothing spills there;
 * sass_audit.py the same on every architecture built. */
#define FB_KERNEL_REGISTERS 32

/* The register cap is per architecture: each functor's `registers` is the Hopper cap, and
 * the SASS of each architecture gets at least fb_arch_registers() of it (read with ptxas -v
 * and cuobjdump over every architecture; tests/kernels/sass_audit.py checks that nothing
 * spills and that the loads stay in flight):
 * - Turing (sm_75) holds 1024 threads per SM, 8 blocks of 128, so 65536 / 1024 = 64
 *   registers cost no residency; at 32 nine kernels spilled (bf16 add, mul, add_relu...).
 * - Ampere, Ada and Hopper (sm_80 .. sm_90): 32, nothing spills; the 2048-thread parts
 *   (A100, H100) keep 16 blocks per SM, the 1536-thread ones (sm_86, sm_89) 12.
 * - Blackwell (sm_100 and later): 56. At 32, 24 kernels of sm_100 and 14 of sm_120 spilled
 *   to the stack, the fp32 copy kernel (the bandwidth ceiling) among them; at 40, and at 48
 *   once the unary kernels keep their loads ahead of their stores (fb_unary_pointer below),
 *   the unary vector kernels of sm_100 (fp32 copy and relu; fp16 and bf16 ones at 48) still
 *   spilled 8 to 32 bytes. 56 registers leave 9 blocks of 128 per SM: 1152 of the 2048
 *   threads of an sm_100 SM (B200), of the 1536 of an sm_120 one (RTX 5090); 9 x 128
 *   threads x 64 bytes = 72 KB in flight per SM still exceed the ~54 KB that a B200's
 *   ~8 TB/s x ~1 us / 148 SMs needs (launch_plan.h).
 * The launch plan takes blocks per SM from each kernel's real register count on the device
 * (cudaFuncGetAttributes), never from these numbers. Only the device pass defines
 * __CUDA_ARCH__; the host pass's value is unused. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define FB_ARCH_REGISTER_FLOOR 64
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
#define FB_ARCH_REGISTER_FLOOR 56
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ > 800 && __CUDA_ARCH__ < 900
#define FB_ARCH_REGISTER_FLOOR 40
#else
#define FB_ARCH_REGISTER_FLOOR FB_KERNEL_REGISTERS
#endif
/* sm_120 (RTX 50xx, DGX Spark): the generic kernel's exact unary chain on bf16, 64 widened
 * lanes (FB_CHAIN_WIDE_REGISTERS, the one kernel that declares more than 64), spilled 16
 * bytes at 88 registers (sass_audit.py on the default build); sm_75 (Turing) 8 bytes, once
 * its bf16 rounding was the integer one below; sm_107 (new in nvcc 13.5) 16 bytes, as ptxas
 * 13.5 schedules it (sass_audit_other_minors, CUDA 13.5 stage of .ci/run). 8 more cost it no
 * residency on any: 65536 / (88 or 96 x 128) = 5 blocks of 128 per SM either way. */
#if defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ >= 1200 || __CUDA_ARCH__ == 1070 || __CUDA_ARCH__ < 800)
#define FB_ARCH_WIDE_EXTRA 8
#else
#define FB_ARCH_WIDE_EXTRA 0
#endif
/* The cap of a kernel that declares `registers`, on the architecture being compiled. */
constexpr int fb_arch_registers(int registers)
{
    return registers > 64 ? registers + FB_ARCH_WIDE_EXTRA
           : registers > FB_ARCH_REGISTER_FLOOR ? registers
                                                 : FB_ARCH_REGISTER_FLOOR;
}

/* The unary kernels read their input through the read-only path (ld.global.nc, which the
 * __restrict__ pointers allow) only on sm_75, sm_80 and sm_90, the architectures whose SASS
 * was audited with it. Elsewhere ptxas, knowing that a .nc load cannot see a store, moved the
 * stores of a turn up between its loads: the unary vector kernels of sm_100, sm_110 and sm_120
 * issued 1 to 3 of their 4 16-byte loads before the first store (cuobjdump -sass,
 * sass_audit.py), the fp32 copy kernel 1: a quarter of the bytes in flight of launch_plan.h;
 * those of sm_86 and sm_89 (nvcc 13.0) 2 or 3, in 7 kernels. Any other architecture,
 * including a minor not yet audited, takes the safe path: the pass gets its pointers through
 * fb_unary_pointer, an empty asm that hides where they come from: nvcc then knows nothing of
 * their aliasing, emits plain ld.global, and ptxas must keep the turn's loads ahead of its
 * stores, which might alias them, in the order the source gives. The kernels keep their
 * __restrict__ parameters (a kernel's signature is the same in the host and device passes). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 750 && __CUDA_ARCH__ != 800 &&                  \
    __CUDA_ARCH__ != 900
#define FB_UNARY_RESTRICT
template <typename P>
__device__ inline P *fb_unary_pointer(P *p)
{
    asm("" : "+l"(p));
    __builtin_assume(__isGlobal(p)); /* still global memory: ld.global, not a generic ld */
    return p;
}
#else
#define FB_UNARY_RESTRICT __restrict__
template <typename P>
__device__ inline P *fb_unary_pointer(P *p)
{
    return p;
}
#endif

/* Loads per input per turn of a table op's kernels: FB_LOADS_PER_INPUT(arity) (4 for one
 * input, 2 for two), except for the transcendental ops (ULP_BOUND > 0): 2, because expf's
 * temporaries on top of 4 float4 in flight went past 32 registers and ptxas spilled. They
 * are compute-heavy; 2 float4 per thread still keep 64 KB per SM in flight (launch_plan.h). */
#define FB_OP_LOADS_PER_INPUT(arity, ulp) ((ulp) > 0 ? 2 : FB_LOADS_PER_INPUT(arity))

/* One functor per op of the table (fb_<name>_op), holding the op's parameters: the unary
 * kernels call op(x), the binary ones op(a, b). Generated from FB_OP_TABLE, so an op added
 * to the table has its functor (and, in launchers.cu, its kernels and launcher). */
#define FB_OP_FUNCTOR(name, arity, n_params, param_names, ulp)                                 \
    struct fb_##name##_op {                                                                    \
        static constexpr int loads_per_input = FB_OP_LOADS_PER_INPUT(arity, ulp);              \
        static constexpr int registers = FB_KERNEL_REGISTERS;                                  \
        struct fb_op_params p;                                                                 \
        __device__ float operator()(float x) const { return fb_op_##name(x, 0.0f, p); }        \
        __device__ float operator()(float a, float b) const { return fb_op_##name(a, b, p); }  \
    };
FB_OP_TABLE(FB_OP_FUNCTOR)
#undef FB_OP_FUNCTOR

/* The handwritten fused kernel's functor: relu(a + b), the reference the generic fused
 * kernel is held against. */
struct fb_add_relu_op {
    static constexpr int loads_per_input = FB_LOADS_PER_INPUT(2);
    static constexpr int registers = FB_KERNEL_REGISTERS;
    __device__ float operator()(float a, float b) const { return fb_op_add_relu(a, b); }
};

/* ---- storage types ---- */

/* 16 bytes of fp16 or bf16: 8 elements, two per 32-bit word (element 2k in the low half of
 * word k, as in memory on a little-endian GPU). A uint4 inside, so that a copy is one
 * 16-byte load or store; two types, so that the item says how to widen its lanes. */
struct fb_fp16x8 {
    uint4 bits;
};
struct fb_bf16x8 {
    uint4 bits;
};

/* Per storage type T: its vector item and the number of elements in one. */
template <typename T>
struct fb_storage;
template <>
struct fb_storage<float> {
    typedef float4 vector;
    static constexpr int lanes = 4;
};
template <>
struct fb_storage<__half> {
    typedef fb_fp16x8 vector;
    static constexpr int lanes = 8;
};
template <>
struct fb_storage<__nv_bfloat16> {
    typedef fb_bf16x8 vector;
    static constexpr int lanes = 8;
};

/* One 16-bit element widened to float (exact), and a float rounded to one (to nearest
 * even, a NaN kept a NaN), by the toolkit's conversions. */
__device__ inline float fb_widen(__half x)
{
    return __half2float(x);
}
__device__ inline float fb_widen(__nv_bfloat16 x)
{
    return __bfloat162float(x);
}
__device__ inline __half fb_narrow(__half, float v)
{
    return __float2half_rn(v);
}
/* Rounding to bf16 on Turing (sm_75), which has no bf16 conversion (cvt.rn.bf16.f32 is
 * sm_80's): the toolkit's emulation there (a remainder compared with half, then an
 * increment) made the generic kernel's bf16 chains issue 11 instructions per element more
 * than its fp16 ones (counted in SASS, no GPU run: docs/notes/instruction-budget.md). Here
 * kernels/dtype_convert.h's integer rounding (fb_bf16_rounded_word: the fp32 word whose top
 * half is the result); two lanes are then packed by one byte permute of their top halves. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define FB_BF16_INTEGER_ROUNDING
#endif
__device__ inline __nv_bfloat16 fb_narrow(__nv_bfloat16, float v)
{
#ifdef FB_BF16_INTEGER_ROUNDING
    return __ushort_as_bfloat16((unsigned short)(fb_bf16_rounded_word(v) >> 16));
#else
    return __float2bfloat16_rn(v);
#endif
}

/* A lane's 16 bits widened, and a float rounded to 16 bits, for each vector type. */
__device__ inline float fb_lane_widen(const fb_fp16x8 &, unsigned short bits)
{
    return __half2float(__ushort_as_half(bits));
}
__device__ inline float fb_lane_widen(const fb_bf16x8 &, unsigned short bits)
{
    return __bfloat162float(__ushort_as_bfloat16(bits));
}
/* Two floats rounded to 16 bits each, lo into the low half of the word. */
__device__ inline uint32_t fb_pair_narrow(const fb_fp16x8 &, float lo, float hi)
{
    return (uint32_t)__half_as_ushort(__float2half_rn(lo)) |
           ((uint32_t)__half_as_ushort(__float2half_rn(hi)) << 16);
}
__device__ inline uint32_t fb_pair_narrow(const fb_bf16x8 &, float lo, float hi)
{
#ifdef FB_BF16_INTEGER_ROUNDING
    return __byte_perm(fb_bf16_rounded_word(lo), fb_bf16_rounded_word(hi), 0x7632);
#else
    return (uint32_t)__bfloat16_as_ushort(__float2bfloat16_rn(lo)) |
           ((uint32_t)__bfloat16_as_ushort(__float2bfloat16_rn(hi)) << 16);
#endif
}
/* An op applied to one item: a float, each lane of a float4, a 16-bit element or each lane
 * of a vector of 8 (widened, computed in float, rounded once). */
template <typename Op>
__device__ inline float fb_apply(const Op &op, float x)
{
    return op(x);
}
template <typename Op>
__device__ inline float4 fb_apply(const Op &op, float4 x)
{
    return make_float4(op(x.x), op(x.y), op(x.z), op(x.w));
}
template <typename Op>
__device__ inline float fb_apply(const Op &op, float a, float b)
{
    return op(a, b);
}
template <typename Op>
__device__ inline float4 fb_apply(const Op &op, float4 a, float4 b)
{
    return make_float4(op(a.x, b.x), op(a.y, b.y), op(a.z, b.z), op(a.w, b.w));
}
template <typename Op>
__device__ inline __half fb_apply(const Op &op, __half x)
{
    return fb_narrow(x, op(fb_widen(x)));
}
template <typename Op>
__device__ inline __half fb_apply(const Op &op, __half a, __half b)
{
    return fb_narrow(a, op(fb_widen(a), fb_widen(b)));
}
template <typename Op>
__device__ inline __nv_bfloat16 fb_apply(const Op &op, __nv_bfloat16 x)
{
    return fb_narrow(x, op(fb_widen(x)));
}
template <typename Op>
__device__ inline __nv_bfloat16 fb_apply(const Op &op, __nv_bfloat16 a, __nv_bfloat16 b)
{
    return fb_narrow(a, op(fb_widen(a), fb_widen(b)));
}
/* 8 lanes: widened, the op lane by lane in float, rounded back; one 32-bit word (two
 * lanes) at a time, so that only two floats are live (the transcendental ops' bf16 kernels
 * spilled with all eight). */
template <typename Op, typename V>
__device__ inline V fb_apply8(const Op &op, const V &x)
{
    const V kind = V();
    uint32_t w[4] = {x.bits.x, x.bits.y, x.bits.z, x.bits.w};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const float lo = op(fb_lane_widen(kind, (unsigned short)w[k]));
        const float hi = op(fb_lane_widen(kind, (unsigned short)(w[k] >> 16)));
        w[k] = fb_pair_narrow(kind, lo, hi);
    }
    V out;
    out.bits = make_uint4(w[0], w[1], w[2], w[3]);
    return out;
}
template <typename Op, typename V>
__device__ inline V fb_apply8(const Op &op, const V &a, const V &b)
{
    const V kind = V();
    uint32_t w[4] = {a.bits.x, a.bits.y, a.bits.z, a.bits.w};
    const uint32_t u[4] = {b.bits.x, b.bits.y, b.bits.z, b.bits.w};
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const float lo = op(fb_lane_widen(kind, (unsigned short)w[k]),
                            fb_lane_widen(kind, (unsigned short)u[k]));
        const float hi = op(fb_lane_widen(kind, (unsigned short)(w[k] >> 16)),
                            fb_lane_widen(kind, (unsigned short)(u[k] >> 16)));
        w[k] = fb_pair_narrow(kind, lo, hi);
    }
    V out;
    out.bits = make_uint4(w[0], w[1], w[2], w[3]);
    return out;
}
template <typename Op>
__device__ inline fb_fp16x8 fb_apply(const Op &op, fb_fp16x8 x)
{
    return fb_apply8(op, x);
}
template <typename Op>
__device__ inline fb_fp16x8 fb_apply(const Op &op, fb_fp16x8 a, fb_fp16x8 b)
{
    return fb_apply8(op, a, b);
}
template <typename Op>
__device__ inline fb_bf16x8 fb_apply(const Op &op, fb_bf16x8 x)
{
    return fb_apply8(op, x);
}
template <typename Op>
__device__ inline fb_bf16x8 fb_apply(const Op &op, fb_bf16x8 a, fb_bf16x8 b)
{
    return fb_apply8(op, a, b);
}

/* The copy of 16-bit storage (the bandwidth ceiling) moves the bits, as the CPU's copy does:
 * the same bytes as widening and rounding back would move, without the conversion work, and
 * a NaN's payload kept. fp32's copy (fb_op_copy: x itself) already is one. */
__device__ inline __half fb_apply(const fb_copy_op &, __half x)
{
    return x;
}
__device__ inline __nv_bfloat16 fb_apply(const fb_copy_op &, __nv_bfloat16 x)
{
    return x;
}
__device__ inline fb_fp16x8 fb_apply(const fb_copy_op &, fb_fp16x8 x)
{
    return x;
}
__device__ inline fb_bf16x8 fb_apply(const fb_copy_op &, fb_bf16x8 x)
{
    return x;
}

/* ---- the generic fused kernel: a chain of ops that arrives as data ---- */

/* Why it is shaped this way (SASS counted by a tracer that followed one thread through one
 * turn of the main loop for a given chain, on every architecture built, since removed; a
 * model no GPU has confirmed: docs/notes/instruction-budget.md has the tables and the
 * H200's budget). A chain is data
 * (kernels/op_table.h: up to 16 ops, by value in the kernel's parameters), so each op is
 * found by a switch on its id, and that dispatch costs about the same whatever the number
 * of lanes it then serves: the op's id and parameters read from the parameter bank, the
 * compare tree or jump table ptxas makes of the switch, the jump back, the loop over the
 * ops: 9 to 15 instructions per op. The first version took it once per 16-byte item (4 or
 * 8 lanes): on sm_90, 8 instructions per element for one op and 4.75 more per op, so 47
 * per element for 16 ops on fp16, where an H200 reading and writing fp16 at 4.8 TB/s
 * issues 28. Here it is taken once per op per *turn*, over every lane of every item the
 * turn holds in registers (all loaded before any op runs, so the loads stay in flight):
 * - chains of exact ops (ULP_BOUND 0): 8 items of 16 bytes per thread per turn, all
 *   inputs together (FB_CHAIN_LOADS_PER_THREAD): 32 fp32 or 64 16-bit lanes for a unary
 *   chain, 16 or 32 for a binary one (4 items of each input; 8 of each spilled). The 64
 *   widened lanes of a 16-bit unary chain need 86 to 88 registers (FB_CHAIN_WIDE_REGISTERS;
 *   at 80 ptxas spilled 8 to 20 bytes on sm_90 and sm_100), the others at most 56
 *   (FB_CHAIN_REGISTERS);
 * - chains with a transcendental op: 16 lanes (4 float4, 2 vectors of 8 halves: each op's
 *   expf code is then 16 copies long; 4 vectors of halves spilled at 56 registers).
 * The dispatch then costs 0.2 to 0.9 instructions per element per op. Alternatives
 * measured and left: the op loop unrolled by 2 (0.05 per element per op less, twice the
 * code); a kernel compiled per chain at run time (NVRTC) would save the rest, but needs
 * libnvrtc and a compiler at run time on the GPU machine, and its code would escape both
 * the CPU emulation and this audit.
 * Registers: 56 leave 9 blocks of 128 per SM on Hopper, 88 leave 5; 5 x 128 threads x 8 x
 * 16 bytes = 80 KB in flight per SM, still 2.2 times the 36 KB an H200 needs
 * (launch_plan.h). The launch plan takes blocks per SM from each kernel's real register
 * count on the device. */
#define FB_CHAIN_LOADS_PER_THREAD 8
#define FB_CHAIN_TRANSCENDENTAL_LANES 16
#define FB_CHAIN_REGISTERS 56
#define FB_CHAIN_WIDE_REGISTERS 88

template <bool Exact, int LoadsPerInput, int Registers>
struct fb_chain_functor {
    static constexpr int loads_per_input = LoadsPerInput;
    static constexpr int registers = Registers;
    struct fb_chain chain;
};

/* The generic kernel's functor for a chain of exact ops only (Exact) or not, on arrays of
 * T, with `Inputs` inputs (the first op's arity). */
template <bool Exact, typename T, int Inputs>
struct fb_chain_for {
    static constexpr int vector_lanes = 16 / (int)sizeof(T);
    static constexpr int loads = Exact ? FB_CHAIN_LOADS_PER_THREAD / Inputs
                                       : FB_CHAIN_TRANSCENDENTAL_LANES / vector_lanes;
    static constexpr int registers = Exact && Inputs == 1 && sizeof(T) == 2
                                         ? FB_CHAIN_WIDE_REGISTERS
                                         : FB_CHAIN_REGISTERS;
    typedef fb_chain_functor<Exact, loads, registers> functor;
};

/* Whether an op's kernels apply it to a turn's items at once, the remainder's too
 * (fb_unary_pass): the generic kernel's chains do; the table's ops item by item. */
template <typename Op>
struct fb_turn_at_once {
    static constexpr bool value = false;
};
template <bool Exact, int Q, int R>
struct fb_turn_at_once<fb_chain_functor<Exact, Q, R>> {
    static constexpr bool value = true;
};

/* The lanes of an item: one element, the 4 of a float4, the 8 of a vector of halves. */
template <typename Item>
struct fb_item_lanes {
    static constexpr int count = 1;
};
template <>
struct fb_item_lanes<float4> {
    static constexpr int count = 4;
};
template <>
struct fb_item_lanes<fb_fp16x8> {
    static constexpr int count = 8;
};
template <>
struct fb_item_lanes<fb_bf16x8> {
    static constexpr int count = 8;
};

/* Lane l of an item, widened to float (exact; l is a constant once the loops unroll). */
__device__ inline float fb_lane(float x, int)
{
    return x;
}
__device__ inline float fb_lane(const float4 &x, int l)
{
    return l == 0 ? x.x : l == 1 ? x.y : l == 2 ? x.z : x.w;
}
__device__ inline float fb_lane(__half x, int)
{
    return fb_widen(x);
}
__device__ inline float fb_lane(__nv_bfloat16 x, int)
{
    return fb_widen(x);
}
template <typename V>
__device__ inline float fb_lane8(const V &x, int l)
{
    const uint32_t w = l < 2 ? x.bits.x : l < 4 ? x.bits.y : l < 6 ? x.bits.z : x.bits.w;
    return fb_lane_widen(x, (unsigned short)(w >> (16 * (l % 2))));
}
__device__ inline float fb_lane(const fb_fp16x8 &x, int l)
{
    return fb_lane8(x, l);
}
__device__ inline float fb_lane(const fb_bf16x8 &x, int l)
{
    return fb_lane8(x, l);
}

/* An item from its lanes v[0 .. count - 1], each rounded once (y's old value only picks
 * the overload). */
__device__ inline void fb_from_lanes(float &y, const float *v)
{
    y = v[0];
}
__device__ inline void fb_from_lanes(float4 &y, const float *v)
{
    y = make_float4(v[0], v[1], v[2], v[3]);
}
__device__ inline void fb_from_lanes(__half &y, const float *v)
{
    y = fb_narrow(y, v[0]);
}
__device__ inline void fb_from_lanes(__nv_bfloat16 &y, const float *v)
{
    y = fb_narrow(y, v[0]);
}
template <typename V>
__device__ inline void fb_from_lanes8(V &y, const float *v)
{
    uint32_t w[4];
#pragma unroll
    for (int k = 0; k < 4; k++)
        w[k] = fb_pair_narrow(y, v[2 * k], v[2 * k + 1]);
    y.bits = make_uint4(w[0], w[1], w[2], w[3]);
}
__device__ inline void fb_from_lanes(fb_fp16x8 &y, const float *v)
{
    fb_from_lanes8(y, v);
}
__device__ inline void fb_from_lanes(fb_bf16x8 &y, const float *v)
{
    fb_from_lanes8(y, v);
}

/* The chain's first op on a turn's P items of the input(s) (b: NULL for a unary chain)
 * into their P x L lanes v: the switch once, each lane widened where the op reads it, so
 * that a binary op's two inputs die lane by lane (widened first, the fp16 binary kernel
 * took 114 registers). The launcher runs only chains fb_chain_check accepts, in the kernel
 * of their arity and exactness: no other op can come first. */
template <bool Exact, int P, typename Item>
__device__ inline void fb_chain_first(const struct fb_chain_op &op, const Item *a,
                                      const Item *b, float *v)
{
    constexpr int L = fb_item_lanes<Item>::count;
    switch (op.op) {
#define FB_CHAIN_FIRST_CASE(name, arity, n_params, param_names, ulp)                           \
    case FB_OPID_##name:                                                                       \
        if ((!Exact || (ulp) == 0) && ((arity) == 2) == (b != NULL)) {                         \
            _Pragma("unroll") for (int k = 0; k < P; k++)                                      \
                _Pragma("unroll") for (int l = 0; l < L; l++)                                  \
                    v[k * L + l] = fb_op_##name(fb_lane(a[k], l), b ? fb_lane(b[k], l) : 0.0f, \
                                                op.params);                                    \
            return;                                                                            \
        }                                                                                      \
        break;
        FB_OP_TABLE(FB_CHAIN_FIRST_CASE)
#undef FB_CHAIN_FIRST_CASE
    default:
        break;
    }
    __builtin_unreachable();
}

/* A later op of the chain on N lanes: the switch once, the op lane by lane. Later ops are
 * unary (fb_chain_check) and, in the exact kernel, exact; an op id that cannot be here
 * leaves the lanes as they are, which costs nothing: every case then has code, and ptxas
 * builds a shallower dispatch than when those cases were unreachable (0.06 instructions
 * per element per op less on sm_90); an id outside the table cannot arrive. */
template <bool Exact, int N>
__device__ inline void fb_chain_later(const struct fb_chain_op &op, float *v)
{
    switch (op.op) {
#define FB_CHAIN_LATER_CASE(name, arity, n_params, param_names, ulp)                           \
    case FB_OPID_##name:                                                                       \
        if ((!Exact || (ulp) == 0) && (arity) == 1) {                                          \
            _Pragma("unroll") for (int l = 0; l < N; l++)                                      \
                v[l] = fb_op_##name(v[l], 0.0f, op.params);                                    \
        }                                                                                      \
        return;
        FB_OP_TABLE(FB_CHAIN_LATER_CASE)
#undef FB_CHAIN_LATER_CASE
    default:
        break;
    }
    __builtin_unreachable();
}

/* The chain on a turn's P items (u: the first input's, replaced by the results; b: the
 * second input's): the first op into P x L float lanes, each later op's switch once for
 * all of them, the lanes rounded back into u. */
template <bool Exact, int Q, int R, int P, typename Item>
__device__ inline void fb_chain_turn(const fb_chain_functor<Exact, Q, R> &f, Item *u,
                                     const Item *b)
{
    constexpr int L = fb_item_lanes<Item>::count;
    float v[P * L];
    fb_chain_first<Exact, P>(f.chain.ops[0], u, b, v);
#pragma unroll 1
    for (int k = 1; k < f.chain.n_ops; k++)
        fb_chain_later<Exact, P * L>(f.chain.ops[k], v);
#pragma unroll
    for (int k = 0; k < P; k++)
        fb_from_lanes(u[k], v + k * L);
}
template <bool Exact, int Q, int R, int P, typename Item>
__device__ inline void fb_apply_turn(const fb_chain_functor<Exact, Q, R> &f, Item (&u)[P])
{
    fb_chain_turn<Exact, Q, R, P>(f, u, (const Item *)NULL);
}
template <bool Exact, int Q, int R, int P, typename Item>
__device__ inline void fb_apply_turn(const fb_chain_functor<Exact, Q, R> &f, Item (&u)[P],
                                     const Item (&b)[P])
{
    fb_chain_turn<Exact, Q, R, P>(f, u, b);
}
/* One element (the vector path's scalar tail): a turn of one item. One overload per
 * element type, so that these, not the table ops' fb_apply, are the chain's. */
#define FB_CHAIN_APPLY_ITEM(Item)                                                              \
    template <bool Exact, int Q, int R>                                                        \
    __device__ inline Item fb_apply(const fb_chain_functor<Exact, Q, R> &f, Item x)            \
    {                                                                                          \
        Item u[1] = {x};                                                                       \
        fb_apply_turn(f, u);                                                                   \
        return u[0];                                                                           \
    }                                                                                          \
    template <bool Exact, int Q, int R>                                                        \
    __device__ inline Item fb_apply(const fb_chain_functor<Exact, Q, R> &f, Item a, Item b)    \
    {                                                                                          \
        Item u[1] = {a};                                                                       \
        const Item w[1] = {b};                                                                 \
        fb_apply_turn(f, u, w);                                                                \
        return u[0];                                                                           \
    }
FB_CHAIN_APPLY_ITEM(float)
FB_CHAIN_APPLY_ITEM(__half)
FB_CHAIN_APPLY_ITEM(__nv_bfloat16)
#undef FB_CHAIN_APPLY_ITEM

/* Any other op on a turn: item by item. */
template <typename Op, int P, typename Item>
__device__ inline void fb_apply_turn(const Op &op, Item (&u)[P])
{
#pragma unroll
    for (int k = 0; k < P; k++)
        u[k] = fb_apply(op, u[k]);
}
template <typename Op, int P, typename Item>
__device__ inline void fb_apply_turn(const Op &op, Item (&u)[P], const Item (&b)[P])
{
#pragma unroll
    for (int k = 0; k < P; k++)
        u[k] = fb_apply(op, u[k], b[k]);
}

/* First global thread index and grid stride, in 64 bits: blockIdx.x * blockDim.x overflows
 * 32 bits long before n does. */
__device__ inline int64_t fb_thread_index(void)
{
    return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ inline int64_t fb_grid_stride(void)
{
    return (int64_t)gridDim.x * blockDim.x;
}

/* y[j] = op(x[j]) for j in [0, count), items of type Item (float4 or float): this thread's
 * share of the grid. Main loop: P loads, then P stores, per turn. Then the last turn, with
 * fewer than P items left (the loop ended, so i + (P-1) stride >= count): its loads, each
 * guarded, then its stores, so they too are in flight together. */
template <int P, typename Item, typename Op>
__device__ inline void fb_unary_pass(const Item *FB_UNARY_RESTRICT x, Item *FB_UNARY_RESTRICT y,
                                     int64_t count, const Op &op)
{
    static_assert(P >= 2, "the last turn holds P - 1 items");
    const int64_t stride = fb_grid_stride();
    int64_t i = fb_thread_index();
#pragma unroll 1
    for (; i + (P - 1) * stride < count; i += P * stride) {
        Item u[P];
#pragma unroll
        for (int k = 0; k < P; k++)
            u[k] = x[i + k * stride];
        fb_apply_turn(op, u);
#pragma unroll
        for (int k = 0; k < P; k++)
            y[i + k * stride] = u[k];
    }
    Item u[P - 1];
    if constexpr (fb_turn_at_once<Op>::value) {
        /* all P - 1 items through the op at once (one dispatch), those that do not exist
         * as zeros, whose results are not stored */
#pragma unroll
        for (int k = 0; k < P - 1; k++)
            u[k] = i + k * stride < count ? x[i + k * stride] : Item();
        fb_apply_turn(op, u);
#pragma unroll
        for (int k = 0; k < P - 1; k++)
            if (i + k * stride < count)
                y[i + k * stride] = u[k];
    } else {
#pragma unroll
        for (int k = 0; k < P - 1; k++)
            if (i + k * stride < count)
                u[k] = x[i + k * stride];
#pragma unroll
        for (int k = 0; k < P - 1; k++)
            if (i + k * stride < count)
                y[i + k * stride] = fb_apply(op, u[k]);
    }
}

/* c[j] = op(a[j], b[j]) for j in [0, count): as fb_unary_pass, P items of each input. */
template <int P, typename Item, typename Op>
__device__ inline void fb_binary_pass(const Item *__restrict__ a, const Item *__restrict__ b,
                                      Item *__restrict__ c, int64_t count, const Op &op)
{
    static_assert(P >= 2, "the last turn holds P - 1 items");
    const int64_t stride = fb_grid_stride();
    int64_t i = fb_thread_index();
#pragma unroll 1
    for (; i + (P - 1) * stride < count; i += P * stride) {
        Item u[P], v[P];
#pragma unroll
        for (int k = 0; k < P; k++) {
            u[k] = a[i + k * stride];
            v[k] = b[i + k * stride];
        }
        fb_apply_turn(op, u, v);
#pragma unroll
        for (int k = 0; k < P; k++)
            c[i + k * stride] = u[k];
    }
    Item u[P - 1], v[P - 1];
    if constexpr (fb_turn_at_once<Op>::value) {
#pragma unroll
        for (int k = 0; k < P - 1; k++) {
            const bool here = i + k * stride < count;
            u[k] = here ? a[i + k * stride] : Item();
            v[k] = here ? b[i + k * stride] : Item();
        }
        fb_apply_turn(op, u, v);
#pragma unroll
        for (int k = 0; k < P - 1; k++)
            if (i + k * stride < count)
                c[i + k * stride] = u[k];
    } else {
#pragma unroll
        for (int k = 0; k < P - 1; k++) {
            if (i + k * stride < count) {
                u[k] = a[i + k * stride];
                v[k] = b[i + k * stride];
            }
        }
#pragma unroll
        for (int k = 0; k < P - 1; k++)
            if (i + k * stride < count)
                c[i + k * stride] = fb_apply(op, u[k], v[k]);
    }
}

/* The kernels, per op and storage type T (float, __half, __nv_bfloat16). The vector path
 * reads and writes 16-byte items (fb_storage<T>::vector); the n % lanes elements past the
 * last whole one go to the scalar tail. */
template <typename Op, typename T>
__global__ void __maxnreg__(fb_arch_registers(Op::registers))
    fb_unary_vector_kernel(const T *__restrict__ x, T *__restrict__ y, int64_t n, Op op)
{
    typedef typename fb_storage<T>::vector V;
    const int64_t vectors = n / fb_storage<T>::lanes;
    fb_unary_pass<Op::loads_per_input>(fb_unary_pointer(reinterpret_cast<const V *>(x)),
                                       fb_unary_pointer(reinterpret_cast<V *>(y)), vectors, op);
    const int64_t tail = vectors * fb_storage<T>::lanes + fb_thread_index();
    if (tail < n)
        y[tail] = fb_apply(op, x[tail]);
}

template <typename Op, typename T>
__global__ void __maxnreg__(fb_arch_registers(Op::registers))
    fb_unary_scalar_kernel(const T *__restrict__ x, T *__restrict__ y, int64_t n, Op op)
{
    fb_unary_pass<Op::loads_per_input>(fb_unary_pointer(x), fb_unary_pointer(y), n, op);
}

template <typename Op, typename T>
__global__ void __maxnreg__(fb_arch_registers(Op::registers))
    fb_binary_vector_kernel(const T *__restrict__ a, const T *__restrict__ b,
                            T *__restrict__ c, int64_t n, Op op)
{
    typedef typename fb_storage<T>::vector V;
    const int64_t vectors = n / fb_storage<T>::lanes;
    fb_binary_pass<Op::loads_per_input>(reinterpret_cast<const V *>(a),
                                        reinterpret_cast<const V *>(b),
                                        reinterpret_cast<V *>(c), vectors, op);
    const int64_t tail = vectors * fb_storage<T>::lanes + fb_thread_index();
    if (tail < n)
        c[tail] = fb_apply(op, a[tail], b[tail]);
}

template <typename Op, typename T>
__global__ void __maxnreg__(fb_arch_registers(Op::registers))
    fb_binary_scalar_kernel(const T *__restrict__ a, const T *__restrict__ b,
                            T *__restrict__ c, int64_t n, Op op)
{
    fb_binary_pass<Op::loads_per_input>(a, b, c, n, op);
}

#endif
