/* The elementwise ops, as data: one line per op. Everything per op derives from this table
 * (the CUDA kernels and launchers, the CPU kernels, the host reference, the emulated
 * launchers, the names the config accepts, the PTX audit's expectations, the tests).
 *
 * Adding an op: docs/adding-an-op.md's checklist (five files, this table's line the first,
 * its element function `fb_op_<name>` in kernels/elementwise_ops.h the second; a test fails
 * until each is done).
 *
 * Columns: X(NAME, ARITY, N_PARAMS, PARAM_NAMES, ULP_BOUND)
 *   ARITY       1 (unary: reads x) or 2 (binary: reads a and b). In a chain only the first
 *               op may be binary; the others take the previous result.
 *   N_PARAMS    scalar parameters, written `op(p0, p1)` in a config (0..FB_OP_MAX_PARAMS).
 *   PARAM_NAMES for messages and documentation.
 *   ULP_BOUND   0: the op is one correctly rounded IEEE-754 fp32 operation (or a compare and
 *               select), so every backend returns the same bits as the reference (at fp16
 *               and bf16 storage too: the op computes in fp32 and its result is rounded once
 *               at the store, kernels/elementwise_ops.h). > 0: the op
 *               calls transcendental functions (expf, tanhf) whose last bit differs between
 *               glibc and CUDA's libdevice: results are checked against a double-precision
 *               reference within this many units in the last place of fp32 (the rule is in
 *               kernels/elementwise_contract.h; each bound's reasons are below the table); at
 *               fp16 and bf16 storage within 1 unit of the type (FB_DTYPE_ULP_BOUND:
 *               B x 2^-13 or B x 2^-16 of the type's unit before the rounding, under half of
 *               it, so at most one rounding boundary lies between two implementations).
 *
 * Plain C, C++ and CUDA: no CUDA types here. */
#ifndef FB_KERNELS_OP_TABLE_H
#define FB_KERNELS_OP_TABLE_H

#define FB_OP_MAX_PARAMS 2
#define FB_CHAIN_MAX_OPS 16

/* clang-format off */
#define FB_OP_TABLE(X)                                  \
    X(copy,      1, 0, "",                 0)           \
    X(add,       2, 0, "",                 0)           \
    X(mul,       2, 0, "",                 0)           \
    X(relu,      1, 0, "",                 0)           \
    X(threshold, 1, 2, "threshold, value", 0)           \
    X(scale,     1, 1, "factor",           0)           \
    X(bias,      1, 1, "offset",           0)           \
    X(sigmoid,   1, 0, "",                 4)           \
    X(gelu,      1, 0, "",                 256)
/* clang-format on */
/* The ULP bounds, measured on glibc (x86-64) by test_kernels_cpu over 2^24 inputs, and why
 * they hold on CUDA, whose expf is within 2 ulp (CUDA Math API, single precision):
 *   sigmoid 4: measured max 2 ulp (x near -9, computed as e^x / (1 + e^x)); expf's error
 *     enters with a gain <= 1, plus one rounding each for the add and the divide:
 *     2 + 0.5 + 0.5 + 0.5 on CUDA -> 4.
 *   gelu 256: its argument z = 2u = 1.5957691216 (x + 0.044715 x^3) is rounded 5 times
 *     (the cube's two multiplies, the coefficient, the add, the constant), with the same
 *     bits on every backend, but e^z amplifies the argument's relative error by |z| (up to
 *     ~85 where the result is still a normal float), so where gelu is tiny (x << 0) the
 *     float formula is off by up to ~|z| x 2.5 ulp: measured max 216 ulp, at x = -9.76
 *     (gelu ~ -2e-35). The formula's own conditioning in float, not an implementation
 *     error (PyTorch's float tanh-form gelu has it too); CUDA's expf adds its own 2 ulp to
 *     the same argument -> 256. Where gelu is of order 1 (x > -3) the error is a few ulp. */

enum fb_op_id {
#define FB_OP_ENUM_ENTRY(name, arity, n_params, param_names, ulp) FB_OPID_##name,
    FB_OP_TABLE(FB_OP_ENUM_ENTRY)
#undef FB_OP_ENUM_ENTRY
    FB_OPID_COUNT
};

/* An op's parameters, by value (small enough for a CUDA kernel argument). */
struct fb_op_params {
    float v[FB_OP_MAX_PARAMS];
};

/* One op of a chain, with its parameters. */
struct fb_chain_op {
    enum fb_op_id op;
    struct fb_op_params params;
};

/* A chain: ops applied in order, the first to the inputs (a, or a and b), each next one to
 * the previous result. Passed by value to the generic fused kernel (16 ops: 196 bytes, far
 * under CUDA's 4 KB of kernel parameters). */
struct fb_chain {
    int n_ops;
    struct fb_chain_op ops[FB_CHAIN_MAX_OPS];
};

/* What the table says of an op, for host code (config parsing, plan, tests). */
struct fb_op_info {
    const char *name;
    int arity;
    int n_params;
    const char *param_names;
    int ulp_bound;
};

#ifdef __cplusplus
extern "C" {
#endif

/* The table as an array indexed by enum fb_op_id (kernels/op_table.c). */
extern const struct fb_op_info fb_op_infos[FB_OPID_COUNT];

/* The op named `name` ("relu"): its id in *id and its info; NULL when there is none. */
const struct fb_op_info *fb_op_lookup(const char *name, enum fb_op_id *id);

/* True when every op of the chain has ULP_BOUND 0 (no transcendental function): its result
 * is bit-exact on every backend, and the generic CUDA kernel takes its exact, 32-register
 * form. */
int fb_chain_is_exact(const struct fb_chain *chain);

/* The sum of the ULP bounds of the chain's ops (0 for an exact chain). */
int fb_chain_ulp_bound(const struct fb_chain *chain);

/* Checks a chain against the table: 1..FB_CHAIN_MAX_OPS known ops, only the first binary.
 * Returns 0, or -1 with a message in msg (size bytes). */
int fb_chain_check(const struct fb_chain *chain, char *msg, unsigned long size);

#ifdef __cplusplus
}
#endif

#endif
