#!/usr/bin/env python3
"""The generic fused kernel's instructions per element, counted from the SASS of every
architecture a build carries, against the memory-bound budget of an H200 (issue 22, item 4).

What is counted: the instructions one thread issues in one turn of the main loop of the
generic kernel's vector kernels (fb_unary_vector_kernel / fb_binary_vector_kernel of
fb_chain_functor<true> and <false>: the path of every array whose pointers are 16-byte
aligned, which fusebench's own are), followed by tests/kernels/sass_trace.py through the
switch on each op of a given chain (the chain's bytes are known kernel parameters, as the
launcher passes them), divided by the elements the turn holds (P items of 16 bytes per input:
4 fp32 or 8 fp16 / bf16 lanes each). Every issued instruction counts once, predicated off or
not.

The budget: an H200 (132 SMs, 1980 MHz under load, 4 schedulers per SM issuing one warp
instruction of 32 threads per cycle: 128 thread-instructions per cycle per SM) issues
132 x 1.98e9 x 128 = 3.345e13 thread-instructions per second. At its 4.8 TB/s (paper; the
4.3 TB/s measured is slower, which would allow more) a kernel moving B bytes per element
(the inputs read plus the output written: 2 x sizeof(T) unary, 3 x sizeof(T) binary) does
4.8e12 / B elements per second, so it stays memory-bound while it issues fewer than
    budget = 3.345e13 x B / 4.8e12 = 6.97 x B  instructions per element:
55.8 (fp32 unary), 83.6 (fp32 binary), 27.9 (fp16 / bf16 unary), 41.8 (fp16 / bf16 binary).
That is an upper bound (it takes every issue slot of every scheduler, while the loads, the
address arithmetic of other warps and the stalls share them), so the test asks for less:
below the budget, and the table says by how much.

Which chains: for each kernel, the costliest first op (over the table's ops the kernel can
start with) and the costliest later op (over the unary ops it runs), found by tracing; then
the chain of that first op and n - 1 of that later op, for n = 1 .. 16 (FB_CHAIN_MAX_OPS).
Each later op is one turn of the loop over the ops, entered afresh: the worst chain of n ops
is the worst first op plus n - 1 worst later ops, and the test checks that from 2 ops on each
op adds exactly the same count (else the path is not the chain's; the lengths between those
traced, LENGTHS, follow from that line). The exact kernel must stay below the budget at every
length, dtype and architecture, plus what a handwritten kernel of the same chain would
issue too, in one table of exceptions each with its reason: for an op whose own arithmetic
takes more than one instruction per element, that extra (OP_ARITHMETIC: threshold's compare
and select; OP_ARITHMETIC_BY_ARCH: relu on sm_75, without a NaN-propagating max), and a
storage type's rounding where the architecture has no conversion instruction for it
(STORE_ROUNDING_BY_ARCH: bf16 on sm_75, costed from the bias kernels' SASS); "costliest"
above is the count beyond that allowance. The kernel with transcendental ops cannot be held
to a memory-bound budget: its ops' own math (libdevice's expf, a divide: 44 to 55
instructions per element each, costed from their single-op kernels' SASS) makes every chain
it runs compute-bound, handwritten or not. What it adds is held: below the budget plus
every op's own arithmetic or math plus TRANSCENDENTAL_DISPATCH per op after the first.

Usage:
    sass_count.py --op-table OP_TABLE.h --archs 75,80,... [--cuobjdump PATH] [--nvcc PATH]
                  [--self-test] BINARY        count; exit 1 over the budget, 77 (skip)
                                              without cuobjdump; --self-test: then doctored
                                              copies must each be rejected
Python 3 standard library only.
"""

import argparse
import copy
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_audit  # noqa: E402  (the op table and the kernels' names)
import sass  # noqa: E402
import sass_trace  # noqa: E402

SKIP = 77

H200_SMS = 132
H200_CLOCK_HZ = 1.98e9
ISSUE_PER_SM_PER_CYCLE = 4 * 32  # 4 schedulers x one warp instruction (32 threads)
H200_BYTES_PER_S = 4.8e12
# The budget is the H200's (its code is sm_90's), held on every architecture built: the
# generic kernel must not be what makes a chain issue-bound on any of them.
MAX_OPS = 16  # FB_CHAIN_MAX_OPS, kernels/op_table.h
CHAIN_BYTES = 4 + MAX_OPS * 12  # struct fb_chain: n_ops, then {op id, 2 floats} per op
DTYPE_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}
# Parameters for the ops that take them (they only reach data, never the path).
OP_PARAMS = (0.5, 0.25)
# Lengths traced: the others follow, as every length's count is checked to lie on one line.
# The kernel with transcendental ops is traced to 4 ops (a turn of 16 gelus is ~13000
# instructions, a minute of this interpreter on a loaded machine).
LENGTHS = (1, 2, 3, 4, 8, 16)
LENGTHS_TRANSCENDENTAL = (1, 2, 3, 4)
# Instructions per element of an exact op's own arithmetic, where not one (SASS of the
# handwritten kernels: relu FMNMX, scale FMUL, bias FADD, add FADD, mul FMUL; copy none;
# threshold `x <= th ? value : x` is FSETP.GTU + FSEL, /work/shared/CUDA13-NOTES.md): a chain
# is allowed the budget plus what its ops take beyond one each, which a handwritten kernel of
# the same chain would issue too.
OP_ARITHMETIC = {"copy": 0, "threshold": 2}
# Per architecture, where its hardware takes more (the one table of exceptions):
# - sm_75: relu is FSETP.GTU + FSEL, as threshold: Turing has no NaN-propagating max
#   (FMNMX.NAN is sm_80's; the plain FMNMX turns relu(NaN) into 0), so its handwritten
#   relu kernel issues the same two.
OP_ARITHMETIC_BY_ARCH = {75: {"relu": 2}}
# Per architecture, storage types whose rounding takes more than one conversion instruction,
# allowed what it costs beyond fp16's, per element, as the SASS of the table's bias kernels
# shows it (bf16 bias less fp16 bias: the same loop and FADD, only the conversions differ; not
# copy, whose 16-bit kernels move bits unconverted), which a handwritten kernel of the chain
# would issue too:
# - sm_75: bf16. Turing has no bf16 conversion (cvt.rn.bf16.f32 is sm_80's): its rounding
#   is integer arithmetic (dtype_convert.h, fb_bf16_rounded_word: a shift, a mask,
#   an add, the NaN compare and select, half a byte permute), about 4 instructions per
#   element more than fp16's F2F.
STORE_ROUNDING_BY_ARCH = {75: ("bf16",)}
# The kernel with transcendental ops: each chain it runs holds one at least, whose own math
# (44 to 55 instructions per element, transcendental_math) makes it compute-bound on any
# GPU, so no memory-bound budget can hold it. What is held is what the kernel adds: the
# budget plus every op's own arithmetic or math plus, per op after the first, at most
# TRANSCENDENTAL_DISPATCH per element. Its turn holds 16 lanes (elementwise_kernels.cuh:
# more spilled), so the switch costs about 1.2 per element per op; a gelu or sigmoid in the
# chain's code costs up to 3.9 per element more than in its single-op kernel (sm_100 ..
# sm_120, binary fp16 / bf16): 4 is the ceiling over those, a guard against growth, not a
# figure derived from the hardware.
TRANSCENDENTAL_DISPATCH = 4.0


def op_arithmetic(arch, op):
    """Instructions per element of an exact op's own arithmetic on arch."""
    return OP_ARITHMETIC_BY_ARCH.get(arch, {}).get(op, OP_ARITHMETIC.get(op, 1))


def budget(dtype, inputs):
    """Instructions per element an H200 issues in the time its DRAM moves that element."""
    issue = H200_SMS * H200_CLOCK_HZ * ISSUE_PER_SM_PER_CYCLE
    bytes_per_element = (inputs + 1) * DTYPE_BYTES[dtype]
    return issue * bytes_per_element / H200_BYTES_PER_S


def elements_per_turn(exact, inputs, dtype):
    """P items of 16 bytes per input (ptx_audit.chain_shape, from elementwise_kernels.cuh)."""
    p, _registers = ptx_audit.chain_shape(exact, inputs, dtype)
    return p * 16 // DTYPE_BYTES[dtype]


def chain_bytes(ops):
    """struct fb_chain for ops (names), as the launcher passes it."""
    ids = {name: i for i, (name, _arity, _ulp) in enumerate(ptx_audit.OP_TABLE)}
    out = struct.pack("<i", len(ops))
    for k in range(MAX_OPS):
        name = ops[k] if k < len(ops) else ops[0]
        out += struct.pack("<iff", ids[name], *OP_PARAMS)
    return out


def chain_kernels(binary, arch):
    """{(exact, inputs, dtype): Kernel} of the generic kernel's vector kernels."""
    found = {}
    for name, kernel in binary.by_arch.get(arch, {}).items():
        key = ptx_audit.demangle(name)
        if key is None or not key[1].startswith("fb_chain_functor") \
                or not key[0].endswith("vector_kernel"):
            continue
        inputs = 2 if key[0].startswith("fb_binary") else 1
        found[(key[1] == "fb_chain_functor<true>", inputs, key[2])] = kernel
    return found


def trace(kernel, ops):
    """The Trace of one turn of kernel's main loop for the chain ops."""
    if not kernel.params:
        raise sass_trace.TraceError("sm_%d %s: no parameter layout (cuobjdump -elf)"
                                    % (kernel.arch, kernel.name))
    _ordinal, offset, size = max(kernel.params)  # the functor, the last parameter
    if size != CHAIN_BYTES:
        raise sass_trace.TraceError("sm_%d %s: its last parameter has %d bytes; struct "
                                    "fb_chain has %d" % (kernel.arch, kernel.name, size,
                                                         CHAIN_BYTES))
    params = sass_trace.Params(offset + size)
    params.set(offset, chain_bytes(ops))
    return sass_trace.turn(kernel, params)


def candidate_ops(exact, inputs):
    """(first ops, later ops) a kernel runs (fb_chain_check, fb_chain_is_exact)."""
    allowed = [(name, arity) for name, arity, ulp in ptx_audit.OP_TABLE if not exact or ulp == 0]
    return ([name for name, arity in allowed if arity == inputs],
            [name for name, arity in allowed if arity == 1])


def allowance(arch, ops, math=None):
    """Instructions per element beyond the budget a chain's own arithmetic takes: beyond one
    per exact op, and (math: {op: per element}) a transcendental op's whole math."""
    return sum(math[op] if math and op in math else max(0, op_arithmetic(arch, op) - 1)
               for op in ops)


def table_kernel_per_element(binary, arch, op, dtype):
    """Instructions per element in one turn of the main loop of the table's own unary vector
    kernel of op (fb_unary_vector_kernel<fb_<op>_op, T>), or None if it is not there."""
    for name, kernel in binary.by_arch.get(arch, {}).items():
        key = ptx_audit.demangle(name)
        if key == ("fb_unary_vector_kernel", "fb_%s_op" % op, dtype) and kernel.params:
            _ordinal, offset, size = max(kernel.params)
            t = sass_trace.turn(kernel, sass_trace.Params(offset + size))
            ulp = {n: u for n, _a, u in ptx_audit.OP_TABLE}[op]
            loads = ptx_audit.op_loads_per_input(1, ulp)
            return t.count / (loads * 16 // DTYPE_BYTES[dtype])
    return None


def conversion_loop(binary, arch, dtype):
    """Instructions per element of a table kernel beyond its op's own arithmetic: the loads,
    the widening and rounding, the stores and the loop, as the bias kernel (one FADD per
    element) less that FADD; not the copy kernel, whose 16-bit forms convert nothing. None if
    the kernel is not there."""
    cost = table_kernel_per_element(binary, arch, "bias", dtype)
    return None if cost is None else cost - op_arithmetic(arch, "bias")


def store_rounding(binary, arch, dtype):
    """Instructions per element allowed for dtype's rounding on arch (STORE_ROUNDING_BY_ARCH):
    its conversion loop less fp16's, or 0."""
    if dtype not in STORE_ROUNDING_BY_ARCH.get(arch, ()):
        return 0.0
    costs = [conversion_loop(binary, arch, d) for d in (dtype, "fp16")]
    if None in costs:
        raise sass_trace.TraceError("sm_%d: no %s and fp16 bias kernels to cost the rounding "
                                    "by" % (arch, dtype))
    return max(0.0, costs[0] - costs[1])


def transcendental_math(binary, arch, dtype):
    """{op: instructions per element of its own math} for the transcendental ops, from the
    SASS of their single-op kernels: the op's kernel less the conversion loop (the loads, the
    stores, the conversions and the loop), on the same architecture and dtype."""
    loop_cost = conversion_loop(binary, arch, dtype)
    math = {}
    for name, _arity, ulp in ptx_audit.OP_TABLE:
        if ulp > 0:
            cost = table_kernel_per_element(binary, arch, name, dtype)
            if cost is None or loop_cost is None:
                raise sass_trace.TraceError("sm_%d: no %s kernel of %s to cost %s by"
                                            % (arch, dtype, "bias" if loop_cost is None
                                               else name, name))
            math[name] = cost - loop_cost
    return math


def count_kernel(kernel, exact, inputs, dtype, math, math_only=False):
    """(first op, later op, {n: instructions per turn} for n in LENGTHS, guesses): of the
    chains first + (n - 1) x later, the one whose count beyond its allowance is largest
    (math_only: of the chains of transcendental ops, those of math, after a binary first op
    where the kernel is binary)."""
    firsts, laters = candidate_ops(exact, inputs)
    if math_only:
        firsts = [f for f in firsts if f in math] or firsts
        laters = [op for op in laters if op in math]
    per = elements_per_turn(exact, inputs, dtype)

    def cost(ops):
        return trace(kernel, ops).count - per * allowance(kernel.arch, ops, math)
    first = max(firsts, key=lambda f: cost([f]))
    later = max(laters, key=lambda op: cost([first, op]))
    counts, guesses = {}, 0
    for n in LENGTHS if exact else LENGTHS_TRANSCENDENTAL:
        t = trace(kernel, [first] + [later] * (n - 1))
        counts[n] = t.count
        guesses += len(t.guesses)
    return first, later, counts, guesses


def bound(arch, exact, inputs, dtype, ops, math, rounding):
    """The instructions per element a generic kernel may issue for the chain ops: the
    budget, the ops' own arithmetic or math, the rounding (store_rounding) and, in the
    kernel with transcendental ops, TRANSCENDENTAL_DISPATCH per op after the first."""
    dispatch = 0.0 if exact else TRANSCENDENTAL_DISPATCH * (len(ops) - 1)
    return budget(dtype, inputs) + allowance(arch, ops, math) + rounding + dispatch


def check_kernel(kernel, arch, exact, inputs, dtype, math, rounding):
    """(problems, rows) of one generic vector kernel; math: transcendental_math's, for the
    kernel with transcendental ops, whose chains of transcendental ops are counted and held
    too; rounding: store_rounding's."""
    problems, rows = [], []
    for math_only in (False,) if exact else (False, True):
        p, row = check_chain(kernel, arch, exact, inputs, dtype, None if exact else math,
                             rounding, math_only)
        problems += p
        rows += [row] if row else []
    return problems, rows


def check_chain(kernel, arch, exact, inputs, dtype, math, rounding, math_only):
    """(problems, row) of one generic vector kernel's costliest chain (count_kernel)."""
    kind = "exact" if exact else "transc. ops" if math_only else "transcendental"
    where = "sm_%d %s %s %s" % (arch, kind, "unary" if inputs == 1 else "binary", dtype)
    try:
        first, later, counts, guesses = count_kernel(kernel, exact, inputs, dtype, math,
                                                     math_only)
    except sass_trace.TraceError as e:
        return ["%s: %s" % (where, e)], None
    problems = []
    # From 2 ops on each op adds one turn of the op loop: one step (the first such turn may
    # differ from n = 1 by the loop's entry).
    step = counts[3] - counts[2]
    off = [n for n in sorted(counts) if n >= 2 and counts[n] != counts[2] + (n - 2) * step]
    if off:
        problems.append("%s: %d ops issue %d instructions per turn, not %d + %d per op from 2 "
                        "ops (the path is not the chain's)"
                        % (where, off[0], counts[off[0]], counts[2], step))
    # The transcendental ops' own code branches on data (sigmoid's z >= 0): the trace takes
    # one side there, as it does in their single-op kernels that cost them.
    if exact and guesses:
        problems.append("%s: %d branches on unknown values in the traced turns (the count "
                        "would be a guess)" % (where, guesses))
    per = elements_per_turn(exact, inputs, dtype)
    per_element = {n: (counts[1] if n == 1 else counts[2] + (n - 2) * step) / per
                   for n in range(1, MAX_OPS + 1)}
    limit = budget(dtype, inputs)
    for n in range(1, MAX_OPS + 1):
        value = per_element[n]
        allowed = bound(arch, exact, inputs, dtype, [first] + [later] * (n - 1), math, rounding)
        if value >= allowed:
            problems.append("%s: %.1f instructions per element for %s + %d x %s (%d ops); the "
                            "H200 budget is %.1f%s" % (
                                where, value, first, n - 1, later, n, limit,
                                " + %.1f for the ops' own arithmetic%s%s"
                                % (allowed - limit, ", the rounding" if rounding else "",
                                   "" if exact else ", the dispatch")
                                if allowed > limit else ""))
            break
    own = math[later] if math and later in math else op_arithmetic(arch, later)
    return problems, (arch, kind, inputs, dtype, first, later, per_element,
                      bound(arch, exact, inputs, dtype, [first] + [later] * (MAX_OPS - 1),
                            math, rounding),
                      step / per - own)


def audit(binary, archs, out, only=None):
    """Prints the tables; returns (problems, rows: (arch, kind, inputs, dtype, first, later,
    {n: per element}, budget at 16 ops with the ops' allowance, the dispatch: per element per
    later op beyond its own arithmetic or math)). only: a set of (exact, inputs, dtype) to
    count, the others left out (the self-test's)."""
    problems, rows, maths = [], [], []
    for arch in archs:
        kernels = chain_kernels(binary, arch)
        for exact in (True, False):
            for inputs in (1, 2):
                for dtype in ("fp32", "fp16", "bf16"):
                    if only is not None and (exact, inputs, dtype) not in only:
                        continue
                    kernel = kernels.get((exact, inputs, dtype))
                    if kernel is None:
                        problems.append("sm_%d: the generic vector kernel %s %s %s is missing"
                                        % (arch, "exact" if exact else "transcendental",
                                           "unary" if inputs == 1 else "binary", dtype))
                        continue
                    math = None
                    try:
                        rounding = store_rounding(binary, arch, dtype)
                        if not exact:
                            math = transcendental_math(binary, arch, dtype)
                    except sass_trace.TraceError as e:
                        problems.append("sm_%d %s: %s" % (arch, dtype, e))
                        continue
                    if not exact and inputs == 1:
                        maths.append((arch, dtype, math, rounding))
                    p, kernel_rows = check_kernel(kernel, arch, exact, inputs, dtype, math,
                                                  rounding)
                    problems += p
                    rows += kernel_rows
    out.write("instructions per element in one turn of the main loop (vector kernels), chain "
              "= first + (n - 1) x later; budget: the H200's plus the 16-op chain's own "
              "arithmetic beyond one per op (a transcendental op's whole math); dispatch: what "
              "each later op adds per element beyond its own arithmetic or math\n")
    out.write("%-7s %-15s %-7s %-5s %-9s %-9s %6s %6s %6s %6s %6s %7s %6s\n"
              % ("arch", "kernel", "inputs", "dtype", "first", "later", "n=1", "n=2", "n=4",
                 "n=8", "n=16", "budget", "dispatch"))
    for arch, kind, inputs, dtype, first, later, per, limit, dispatch in rows:
        out.write("sm_%-4d %-15s %-7d %-5s %-9s %-9s %6.2f %6.2f %6.2f %6.2f %6.2f %7.1f %6.2f\n"
                  % (arch, kind, inputs, dtype, first,
                     later, per[1], per[2], per[4], per[8], per[16], limit, dispatch))
    out.write("\ntranscendental ops' own math, instructions per element (their single-op "
              "kernel less the bias kernel's loop), and the rounding allowed (STORE_ROUNDING_BY_ARCH)"
              "\n")
    for arch, dtype, math, rounding in maths:
        out.write("sm_%-4d %-5s %s  rounding %.2f\n" % (arch, dtype, "  ".join(
            "%s %.2f" % (op, cost) for op, cost in sorted(math.items())), rounding))
    out.write("\n| arch | kernel | dtype | inputs | chain | 1 op | 2 ops | 4 ops | 8 ops | "
              "16 ops | budget (16 ops) | dispatch per op |\n"
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
    for arch, kind, inputs, dtype, first, later, per, limit, dispatch in rows:
        out.write("| sm_%d | %s | %s | %d | %s, %s... | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f "
                  "| %.2f |\n"
                  % (arch, kind, dtype, inputs, first, later, per[1],
                     per[2], per[4], per[8], per[16], limit, dispatch))
    return problems, rows


# ---- self-test: doctored copies must each be rejected ----

class _Null:
    def write(self, _text):
        pass


def _doctored_kernel(binary, arch, exact, inputs, dtype):
    """A copy of binary whose kernel (exact, inputs, dtype) of sm_<arch> is its own copy."""
    b = copy.copy(binary)
    b.by_arch = {a: dict(kernels) for a, kernels in binary.by_arch.items()}
    for name, kernel in b.by_arch[arch].items():
        key = ptx_audit.demangle(name)
        if key and key[0] == ("fb_unary" if inputs == 1 else "fb_binary") + "_vector_kernel" \
                and key[1] == "fb_chain_functor<%s>" % ("true" if exact else "false") \
                and key[2] == dtype:
            b.by_arch[arch][name] = copy.deepcopy(kernel)
            return b, b.by_arch[arch][name]
    raise SystemExit("self-test: no generic vector kernel %s/%d/%s in sm_%d"
                     % (exact, inputs, dtype, arch))


def _pad(kernel, per_instruction, op_loop):
    """per_instruction NOPs (at most 15: they take the addresses between two instructions)
    after each instruction of the loop over the chain's ops (op_loop) or of the rest of the
    main loop, but after a control instruction (a BRX's targets count from the address
    after it)."""
    first, last = kernel.main_loop()
    inner = [l for l in kernel.loops() if first <= l[0] and l[1] <= last and l != (first, last)]
    if not inner:
        raise SystemExit("self-test: sm_%d %s: no loop over the ops inside the main loop"
                         % (kernel.arch, kernel.name))
    in_op_loop = set()
    for a, b in inner:
        in_op_loop.update(range(a, b + 1))
    chosen = in_op_loop if op_loop else set(range(first, last + 1)) - in_op_loop
    code = []
    for i, ins in enumerate(kernel.instructions):
        code.append(ins)
        if i in chosen and ins.base not in sass_trace.CONTROL:
            code += [sass.Instruction(ins.address + k + 1, "", "NOP", "")
                     for k in range(per_instruction)]
    kernel.instructions = code


def _doctored(binary, archs):
    """[(what, doctored binary, the kernels to count)]: each must fail."""
    arch = archs[-1]
    cases = []
    b, k = _doctored_kernel(binary, arch, True, 1, "fp32")
    b.by_arch[arch] = {n: kk for n, kk in b.by_arch[arch].items() if kk is not k}
    cases.append(("the fp32 unary exact kernel missing from sm_%d" % arch, b,
                  {(True, 1, "fp32")}))
    b, k = _doctored_kernel(binary, arch, True, 1, "fp32")
    last = max(k.params)[0]
    k.params = [(o, off, size + 4 if o == last else size) for o, off, size in k.params]
    cases.append(("a functor parameter of another size than struct fb_chain (sm_%d)" % arch,
                  b, {(True, 1, "fp32")}))
    b, k = _doctored_kernel(binary, arch, True, 1, "fp16")
    _pad(k, 8, op_loop=True)
    cases.append(("8 NOPs after each instruction of the op loop of the fp16 unary exact "
                  "kernel (sm_%d)" % arch, b, {(True, 1, "fp16")}))
    b, k = _doctored_kernel(binary, arch, True, 2, "bf16")
    _pad(k, 15, op_loop=False)
    cases.append(("15 NOPs after each instruction of the bf16 binary exact kernel's main "
                  "loop outside the op loop (sm_%d)" % arch, b, {(True, 2, "bf16")}))
    b, k = _doctored_kernel(binary, arch, False, 1, "fp32")
    _pad(k, 8, op_loop=True)
    cases.append(("8 NOPs after each instruction of the op loop of the fp32 unary kernel with "
                  "transcendental ops (sm_%d)" % arch, b, {(False, 1, "fp32")}))
    return cases


def self_test(binary, archs):
    """Every doctored copy (_doctored) must fail; the real binary passed already (main)."""
    failures = 0
    cases = _doctored(binary, archs)
    for what, doctored, only in cases:
        problems, _ = audit(doctored, [archs[-1]], _Null(), only)
        if problems:
            print("self-test: rejected %s: %s" % (what, problems[0]))
        else:
            print("self-test: FAILED to reject %s" % what)
            failures += 1
    print("self-test: %d of %d doctored binaries rejected" % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--op-table", required=True)
    parser.add_argument("--archs", required=True, help="SASS architectures built: 75,80,...")
    parser.add_argument("--cuobjdump", default="")
    parser.add_argument("--nvcc", default="")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("binary")
    args = parser.parse_args(argv[1:])
    tools, why = sass.find_tools(args.cuobjdump or None, args.nvcc or None)
    if tools is None:
        print("skip: %s" % why)
        return SKIP
    ptx_audit.OP_TABLE[:] = ptx_audit.read_op_table(args.op_table)
    archs = [int(a) for a in args.archs.split(",") if a]
    binary = sass.read_binary(tools, args.binary, elf=True)
    problems, _ = audit(binary, archs, sys.stdout)
    for p in problems:
        print("OVER: " + p)
    print("sass_count: %s (%s: sm_%s, H200 budget 6.97 x bytes per element)"
          % ("FAILED" if problems else "ok", args.binary, "/".join(map(str, archs))))
    if problems:
        return 1
    return self_test(binary, archs) if args.self_test else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
