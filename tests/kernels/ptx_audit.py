#!/usr/bin/env python3
"""Audit the global memory traffic of the elementwise kernels in nvcc's PTX.

The whole point of fusion is fewer bytes moved, so the kernels must issue exactly the loads
and stores the traffic model counts (kernels/elementwise_kernels.cuh):
    unary ops (and the generic kernel with a unary first op): 1 load, 1 store per element;
    binary ops, add_relu (and the generic kernel with a binary first op): 2 loads, 1 store.
And they must keep enough bytes in flight to reach the memory bandwidth
(kernels/launch_plan.h): each turn of the main loop issues P independent loads per input,
P = 4 with one input, 2 with two, all before the turn's first store.

The main loop carries `#pragma unroll 1`, so the PTX holds one copy of it, found here as a
label and the backward branch to it; after it comes the last turn (the P - 1 items or fewer
a thread has left, each access guarded) and, on the vector path, the scalar tail. Per kernel
entry, as (loads, stores):
    vector kernel: main loop   P * inputs ld.global[.nc].v4.f32, P st.global.v4.f32
                   remainder   (P - 1) * inputs v4 loads, P - 1 v4 stores (no loop)
                   tail        inputs ld.global[.nc].f32, 1 st.global.f32 (no loop)
    scalar kernel: main loop   P * inputs scalar loads, P scalar stores
                   remainder   (P - 1) * inputs scalar loads, P - 1 scalar stores (no loop)
In the main loop, each input's loads are told apart by following the address registers back
to the kernel parameter they come from: every input must have at least 2 (the bytes in
flight). In the main loop and in the remainder, no store may come before the last load.
The kernels come from the op table (--op-table kernels/op_table.h): per op its unary or
binary pair (P = 2 for a transcendental op, ULP_BOUND > 0), the handwritten add_relu pair,
and the generic fused kernel (fb_chain_functor<true>: exact ops only, 8 loads per thread per
turn, 8 of one input or 4 of each of two; fb_chain_functor<false>: any op, 16 lanes per turn,
4 loads per input of fp32, 2 of fp16 or bf16), unary and binary, at most 56 registers (88 for
the exact unary kernel on 16-bit storage); its loops over the chain's ops hold no memory
access, and its main loop is the one outermost loop that has.
Kernels of exact ops must hold no fma (built with -fmad=false: a multiply feeding an add
rounds twice, as on the host); kernels that call expf may hold libdevice's fma and its
ex2.approx.ftz.f32 (on a normal argument), no other .ftz.
Anything else is an error: other global loads or stores (other widths or types, generic
ld/st, which could reach global memory), atomics and reductions, shared, constant or local
memory (ld.local/st.local, a __local_depot: register spills), and `.ftz` arithmetic (which
would flush subnormals, breaking the contract of kernels/elementwise_contract.h). Kernel
parameters (ld.param) are the only other loads allowed.

With --ptxas PTXAS, the PTX is also assembled for sm_90 with `ptxas -v`: every kernel must
use at most 32 registers (65536 per SM / 2048 resident threads: what __maxnreg__(32)
promises the one-wave grid) with no spill stores or loads and no stack frame.

Every kernel exists once per storage type (kernels/dtype.h): fp32 (T = float), fp16
(__half) and bf16 (__nv_bfloat16). The fp32 kernels move ld.global[.nc].v4.f32 /
st.global.v4.f32 on the vector path and .f32 in the tail and on the scalar path; the fp16
and bf16 kernels move 16 bytes (8 elements) as ld.global[.nc].v4.u32 (or .b32) /
st.global.v4.u32 on the vector path and 2-byte .u16 (or .b16) accesses in the tail and on
the scalar path; the counts above are the same (a load is one 16-byte vector or one
element). The generic kernel's register caps and loads per turn are those of
kernels/elementwise_kernels.cuh (fb_chain_for, which says why).

Usage:
    ptx_audit.py --op-table OP_TABLE.h [--ptxas PTXAS] LAUNCHERS.ptx
                                                            audit; print the tables;
                                                            exit 1 on any mismatch
    ptx_audit.py --self-test --op-table OP_TABLE.h [--ptxas PTXAS] LAUNCHERS.ptx
                                                            check the audit itself: the real
                                                            PTX must pass and every doctored
                                                            copy of it must fail
Python 3 standard library only.
"""

import re
import subprocess
import sys

# Loads per input per turn of the main loop (kernels/launch_plan.h, FB_LOADS_PER_INPUT),
# and the least the bytes-in-flight rule accepts.
LOADS_PER_INPUT = {1: 4, 2: 2}
MIN_LOADS_PER_INPUT = 2
MAX_REGISTERS = 32  # 65536 registers per SM / (16 blocks x 128 threads), FB_KERNEL_REGISTERS
# The generic fused kernel (kernels/elementwise_kernels.cuh, fb_chain_for): exact chains load
# CHAIN_LOADS_PER_THREAD items of 16 bytes per turn, all inputs together; chains with a
# transcendental op CHAIN_TRANSCENDENTAL_LANES lanes (16 / sizeof(T) per item). Registers:
# CHAIN_REGISTERS (9 blocks of 128 per SM), CHAIN_WIDE_REGISTERS for the exact unary kernel
# on 16-bit storage (64 widened lanes; 5 blocks).
CHAIN_LOADS_PER_THREAD = 8
CHAIN_TRANSCENDENTAL_LANES = 16
CHAIN_REGISTERS = 56
CHAIN_WIDE_REGISTERS = 88
DTYPE_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}


def chain_shape(exact, inputs, dtype):
    """(loads per input per turn, register cap) of the generic kernel (fb_chain_for)."""
    lanes = 16 // DTYPE_BYTES[dtype]
    p = CHAIN_LOADS_PER_THREAD // inputs if exact else CHAIN_TRANSCENDENTAL_LANES // lanes
    wide = exact and inputs == 1 and DTYPE_BYTES[dtype] == 2
    return p, CHAIN_WIDE_REGISTERS if wide else CHAIN_REGISTERS
# The storage types, as Itanium mangling names the kernels' second template argument.
DTYPES = (("fp32", "f"), ("fp16", "6__half"), ("bf16", "13__nv_bfloat16"))

# The ops, read from kernels/op_table.h (main() fills it): [(name, arity, ulp_bound)].
OP_TABLE = []
TABLE_LINE = re.compile(r'^\s*X\((\w+),\s*(\d+),\s*(\d+),\s*"[^"]*",\s*(\d+)\)', re.M)
# Per kernel: (inputs, {path: (loads, stores)}, max registers); filled by build_expected().
EXPECTED = {}
OP_ORDER = []


def read_op_table(path):
    """[(name, arity, ulp_bound)] of the X(...) lines of kernels/op_table.h."""
    with open(path, encoding="utf-8") as f:
        ops = [(m.group(1), int(m.group(2)), int(m.group(4))) for m in TABLE_LINE.finditer(f.read())]
    if len(ops) < 2:
        raise SystemExit("ptx_audit: no op table lines X(name, arity, n_params, \"...\", ulp) "
                         "in %s" % path)
    return ops


def op_loads_per_input(arity, ulp):
    """P of a table op's kernels (FB_OP_LOADS_PER_INPUT, elementwise_kernels.cuh): 4 / arity,
    or 2 for a transcendental op, which would spill at 4."""
    return 2 if ulp > 0 else LOADS_PER_INPUT[arity]


def build_expected(ops):
    """Every kernel the PTX must hold, derived from the op table: per op of the table its
    unary or binary kernel pair (P loads per input: 4 / arity, or 2 for a transcendental op,
    which would spill at 4), the handwritten add_relu pair, and the generic fused kernel in
    both shapes (first op unary or binary) and both forms (exact ops only; any op), with
    the loads per turn and registers of chain_shape (kernels/elementwise_kernels.cuh)."""
    EXPECTED.clear()
    del OP_ORDER[:]
    kernels = []  # (functor, inputs, P, max registers); P None: the generic kernel's
    for name, arity, ulp in ops:
        p = op_loads_per_input(arity, ulp)
        kernels.append(("fb_%s_op" % name, arity, p, MAX_REGISTERS))
    kernels.append(("fb_add_relu_op", 2, LOADS_PER_INPUT[2], MAX_REGISTERS))
    for inputs in (1, 2):
        kernels.append(("fb_chain_functor<true>", inputs, None, None))
        kernels.append(("fb_chain_functor<false>", inputs, None, None))
    for op, inputs, p0, registers in kernels:
        if op not in OP_ORDER:
            OP_ORDER.append(op)
        shape = "fb_unary" if inputs == 1 else "fb_binary"
        for dtype, _mangled in DTYPES:
            p, limit = p0, registers
            if p0 is None:
                p, limit = chain_shape(op == "fb_chain_functor<true>", inputs, dtype)
            EXPECTED[(shape + "_vector_kernel", op, dtype)] = (inputs, {
                "loop": (p * inputs, p), "remainder": ((p - 1) * inputs, p - 1),
                "tail": (inputs, 1)}, limit)
            EXPECTED[(shape + "_scalar_kernel", op, dtype)] = (inputs, {
                "loop": (p * inputs, p), "remainder": ((p - 1) * inputs, p - 1)}, limit)


PATHS = ("loop", "remainder", "tail")

ENTRY = re.compile(r"^\s*\.(?:visible\s+|weak\s+)?\.entry\s+([A-Za-z0-9_$]+)\s*\(", re.M)
# Itanium mangling of `template <typename Op, typename T> void fb_..._kernel(...)` with Op a
# plain struct: _Z <len><name> I <len><op> <T> E ..., or with Op =
# fb_chain_functor<bool, int>: _Z <len><name> I <len>fb_chain_functor I Lb0E|Lb1E Li<r>E E
# <T> E ...; T is f (float), 6__half or 13__nv_bfloat16.
MANGLED = re.compile(r"^_Z(\d+)(fb_\w+_kernel)I(\d+)")
VECTOR_LOAD = re.compile(r"^ld\.global(?:\.nc)?\.v4\.f32\b")
SCALAR_LOAD = re.compile(r"^ld\.global(?:\.nc)?\.f32\b")
VECTOR_STORE = re.compile(r"^st\.global\.v4\.f32\b")
SCALAR_STORE = re.compile(r"^st\.global\.f32\b")
# fp16 and bf16: 16-byte vectors of 32-bit words, 2-byte elements
VECTOR_LOAD16 = re.compile(r"^ld\.global(?:\.nc)?\.v4\.[ub]32\b")
SCALAR_LOAD16 = re.compile(r"^ld\.global(?:\.nc)?\.[ub]16\b")
VECTOR_STORE16 = re.compile(r"^st\.global\.v4\.[ub]32\b")
SCALAR_STORE16 = re.compile(r"^st\.global\.[ub]16\b")
ANY_VECTOR_LOAD = re.compile(r"^ld\.global(?:\.nc)?\.v4\.(?:f32|[ub]32)\b")
ANY_VECTOR_STORE = re.compile(r"^st\.global\.v4\.(?:f32|[ub]32)\b")
PARAM_LOAD = re.compile(r"^ld\.param\.\w+\s+(%\w+),\s*\[\w*_param_(\d+)\]")
# Any other instruction that reads or writes memory (or a PTX prefetch, which moves data).
MEMORY_OP = re.compile(r"^(?:ld|ldu|st|atom|red|cp\.async|prefetch|prefetchu|ld\.local|st\.local"
                       r"|multimem|tex|suld|sust|sured)\b")
LABEL = re.compile(r"^(\$?[A-Za-z_][\w$]*):$")
BRANCH = re.compile(r"^bra(?:\.uni)?\s+(\$?[A-Za-z_][\w$]*)\s*;")
ADDRESS = re.compile(r"\[\s*(%\w+)\s*(?:[+-]\s*\d+\s*)?\]")
REGISTER = re.compile(r"%\w+")


def demangle(name):
    """(fb_binary_vector_kernel, fb_add_relu_op, fp32) or (..., fb_chain_functor<true>, bf16)
    from a mangled kernel name; None if not ours."""
    m = MANGLED.match(name)
    if not m or int(m.group(1)) != len(m.group(2)):
        return None
    rest = name[m.end():]
    length = int(m.group(3))
    op, rest = rest[:length], rest[length:]
    if not re.match(r"^\w+$", op):
        return None
    t = re.match(r"^ILb([01])E(?:Li\d+E)+E", rest)
    if t:
        op, rest = op + ("<true>" if t.group(1) == "1" else "<false>"), rest[t.end():]
    for dtype, mangled in DTYPES:
        if rest.startswith(mangled + "E"):
            return m.group(2), op, dtype
    return None


def display(key):
    """fb_unary_vector_kernel<fb_relu_op, fp16>"""
    return "%s<%s, %s>" % key


def split_entries(ptx):
    """[(mangled name, body text)] for every kernel entry, body up to the next entry."""
    starts = list(ENTRY.finditer(ptx))
    out = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(ptx)
        out.append((m.group(1), ptx[m.start():end]))
    return out


def statements(body):
    """[('label', name) | ('ins', text)] of an entry in order, without guard predicates or
    comments; directives (lines starting with '.') are left out."""
    out = []
    for raw in body.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line or line.startswith("."):
            continue
        m = LABEL.match(line)
        if m:
            out.append(("label", m.group(1)))
            continue
        out.append(("ins", re.sub(r"^@!?%\w+\s+", "", line)))  # guard predicate
    return out


def loops(stmts):
    """[(start, end)] statement index ranges of the loops: a label and a later branch back
    to it, in program order."""
    where = {}
    found = []
    for i, (kind, text) in enumerate(stmts):
        if kind == "label":
            where[text] = i
        else:
            m = BRANCH.match(text)
            if m and m.group(1) in where:
                found.append((where[m.group(1)], i))
    return sorted(found)


def param_sources(stmts):
    """A function register -> the set of kernel parameter indices its value may derive
    from, following every definition (PTX registers may be assigned more than once, in
    loops too) back to the ld.param that read it."""
    defs = {}
    params = {}
    for kind, text in stmts:
        if kind != "ins":
            continue
        m = PARAM_LOAD.match(text)
        if m:
            params[m.group(1)] = int(m.group(2))
            continue
        if MEMORY_OP.match(text) or text.startswith(("bra", "ret", "setp", "st.")):
            continue
        regs = REGISTER.findall(text)
        if len(regs) >= 1:
            defs.setdefault(regs[0], []).append(regs[1:])

    def sources(reg):
        seen, todo, found = set(), [reg], set()
        while todo:
            r = todo.pop()
            if r in seen:
                continue
            seen.add(r)
            if r in params:
                found.add(params[r])
            for operands in defs.get(r, []):
                todo.extend(operands)
        return found
    return sources


def classify(text, dtype="fp32"):
    """'ld.v4', 'ld', 'st.v4', 'st', 'param', 'other' (a memory access of another kind, or of
    another width than the storage type's) or None (not a memory access)."""
    wide = dtype == "fp32"
    if (VECTOR_LOAD if wide else VECTOR_LOAD16).match(text):
        return "ld.v4"
    if (SCALAR_LOAD if wide else SCALAR_LOAD16).match(text):
        return "ld"
    if (VECTOR_STORE if wide else VECTOR_STORE16).match(text):
        return "st.v4"
    if (SCALAR_STORE if wide else SCALAR_STORE16).match(text):
        return "st"
    if text.startswith("ld.param."):
        return "param"
    if MEMORY_OP.match(text):
        return "other"
    return None


def audit_entry(key, body):
    """(rows, problems) for one kernel: rows are (path, loads, stores, expected, per-input
    loads of the main loop or None)."""
    inputs, expected, _registers = EXPECTED[key]
    vector = key[0].endswith("vector_kernel")
    dtype = key[2]
    name = display(key)
    problems = []
    if "__local_depot" in body or re.search(r"^\s*\.local\b", body, re.M):
        problems.append("%s: .local frame (register spills or a stack array)" % name)
    stmts = statements(body)
    found_loops = loops(stmts)
    if key[1].startswith("fb_chain_functor"):
        # The generic kernel also loops over the chain's ops (inside the main loop, and in
        # the remainder and the tail): loops with no global memory access. Its main loop is
        # the one outermost loop that loads and stores.
        outer = [l for l in found_loops
                 if not any(o != l and o[0] <= l[0] and l[1] <= o[1] for o in found_loops)]
        with_memory = [l for l in outer
                       if any(kind == "ins" and classify(text, dtype) in ("ld.v4", "ld", "st.v4", "st")
                              for kind, text in stmts[l[0]:l[1] + 1])]
        if len(with_memory) != 1:
            problems.append("%s: %d outermost loops with global loads or stores; expected 1 "
                            "(the main loop)" % (name, len(with_memory)))
        found_loops = with_memory
    elif len(found_loops) != 1:
        problems.append("%s: %d loops; expected 1 (the main loop)" % (name, len(found_loops)))
    main = found_loops[0] if found_loops else (-1, -1)
    # libdevice's expf (CUDA Math API: 2 ulp, full range, subnormal results included) scales
    # its argument and calls ex2.approx.ftz.f32 on a value whose result is normal: the one
    # .ftz instruction allowed, and only in kernels that call expf.
    transcendental = key[1] == "fb_chain_functor<false>" or any(
        "fb_%s_op" % op == key[1] and ulp > 0 for op, _arity, ulp in OP_TABLE)

    counts = {p: [0, 0] for p in PATHS}
    accesses = {p: ([], []) for p in PATHS}  # (loads, stores) as (statement index, address)
    for i, (kind, text) in enumerate(stmts):
        if kind != "ins":
            continue
        if not transcendental and text.split()[0].startswith("fma."):
            problems.append("%s: %s: a multiply-add in a kernel of exact ops (built with "
                            "-fmad=false, none may appear)" % (name, text.split()[0]))
        if ".ftz" in text.split()[0] and not (transcendental and
                                              text.split()[0] == "ex2.approx.ftz.f32"):
            problems.append("%s: %s flushes subnormals to zero" % (name, text.split()[0]))
        what = classify(text, dtype)
        if what is None or what == "param":
            continue
        wide = what.endswith(".v4")
        if main[0] <= i <= main[1]:
            path = "loop"
        else:
            path = "remainder" if wide or not vector else "tail"
        # Vector kernels: v4 accesses but in the tail; scalar kernels: no v4 access at all.
        if what == "other" or (vector and wide != (path != "tail")) or (not vector and wide):
            problems.append("%s: unexpected memory access in the %s: %s"
                            % (name, "main loop" if path == "loop" else path, text.split()[0]))
            continue
        load = what.startswith("ld")
        counts[path][0 if load else 1] += 1
        m = ADDRESS.search(text)
        accesses[path][0 if load else 1].append((i, m.group(1) if m else None))

    # The bytes-in-flight rules: enough loads per input in the main loop, and in the main
    # loop and the remainder every load issued before the first store.
    sources = param_sources(stmts)
    main_loads = accesses["loop"][0]
    per_input = []
    for k in range(inputs):
        per_input.append(sum(1 for _, reg in main_loads if reg and sources(reg) == {k}))
    unattributed = len(main_loads) - sum(per_input)
    if found_loops:
        if unattributed:
            problems.append("%s main loop: %d loads not traced to one input parameter"
                            % (name, unattributed))
        for k, loads in enumerate(per_input):
            if loads < MIN_LOADS_PER_INPUT:
                problems.append("%s main loop: %d %sload(s) of input %d per turn; at least %d "
                                "are needed in flight" % (name, loads, "v4 " if vector else "",
                                                          k, MIN_LOADS_PER_INPUT))
    for path in ("loop", "remainder"):
        loads, stores = accesses[path]
        if loads and stores and stores[0][0] < loads[-1][0]:
            problems.append("%s %s: a store comes before the last load, so not all loads are "
                            "in flight together" % (name, "main loop" if path == "loop"
                                                    else path))

    rows = []
    for path in PATHS:
        if path not in expected:
            continue
        got = tuple(counts[path])
        want = expected[path]
        rows.append((path, got[0], got[1], want, per_input if path == "loop" else None))
        if got != want:
            problems.append("%s %s: %d loads, %d stores; expected %d, %d"
                            % (name, path, got[0], got[1], want[0], want[1]))
    return rows, problems


def audit(ptx, out):
    """Prints the table to out; returns the list of problems (empty: pass)."""
    problems = []
    rows = []
    seen = set()
    for mangled, body in split_entries(ptx):
        key = demangle(mangled)
        if key is None or key not in EXPECTED:
            problems.append("unexpected kernel entry %s" % mangled)
            continue
        if key in seen:
            problems.append("kernel %s appears twice" % display(key))
        seen.add(key)
        entry_rows, entry_problems = audit_entry(key, body)
        problems += entry_problems
        bad = " ".join(entry_problems)
        for path, loads, stores, want, per_input in entry_rows:
            ok = (loads, stores) == want and not bad
            rows.append((key, path, loads, stores, want, per_input, ok))
    for key in sorted(set(EXPECTED) - seen):
        problems.append("kernel %s missing from the PTX" % display(key))

    out.write("%-58s %-9s %5s %6s  %-8s %-9s %s\n"
              % ("kernel", "path", "loads", "stores", "expected", "per input", "result"))
    order = [d for d, _m in DTYPES]
    rows.sort(key=lambda r: (OP_ORDER.index(r[0][1]), order.index(r[0][2]),
                             "scalar" in r[0][0], "binary" in r[0][0], PATHS.index(r[1])))
    for key, path, loads, stores, want, per_input, ok in rows:
        name = display(key)
        out.write("%-58s %-9s %5d %6d  %-8s %-9s %s\n"
                  % (name, path, loads, stores, "%d/%d" % want,
                     "+".join(str(x) for x in per_input) if per_input else "",
                     "ok" if ok else "MISMATCH"))
    return problems


# ---- registers and spills, from ptxas ----

def run_ptxas(ptxas, ptx_path):
    """ptxas -v's report for the PTX assembled for sm_90."""
    done = subprocess.run([ptxas, "-arch=sm_90", "-v", ptx_path, "-o", "/dev/null"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit("ptx_audit: %s failed:\n%s%s" % (ptxas, done.stdout, done.stderr))
    return done.stdout + done.stderr


def check_ptxas(report, out):
    """Prints registers and spills per kernel; returns the problems."""
    problems = []
    kernels = {}
    current = None
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            key = demangle(m.group(1))
            current = key if key else m.group(1)
            kernels[current] = {}
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill "
                      r"loads", line)
        if m:
            kernels[current]["stack"], kernels[current]["spill_st"], \
                kernels[current]["spill_ld"] = (int(x) for x in m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            kernels[current]["registers"] = int(m.group(1))
    if len(kernels) != len(EXPECTED):
        problems.append("ptxas reported %d kernels; expected %d" % (len(kernels), len(EXPECTED)))
    out.write("%-58s %9s %12s %11s\n" % ("kernel", "registers", "spill bytes", "stack bytes"))
    for key in sorted(kernels, key=str):
        k = kernels[key]
        name = display(key) if isinstance(key, tuple) else key
        limit = EXPECTED[key][2] if key in EXPECTED else MAX_REGISTERS
        if set(k) != {"stack", "spill_st", "spill_ld", "registers"}:
            problems.append("%s: ptxas's report is incomplete: %s" % (name, k))
            continue
        spills = k["spill_st"] + k["spill_ld"]
        out.write("%-58s %9d %12d %11d\n" % (name, k["registers"], spills, k["stack"]))
        if k["registers"] > limit:
            problems.append("%s: %d registers; at most %d keep its blocks of 128 per SM "
                            "resident" % (name, k["registers"], limit))
        if spills or k["stack"]:
            problems.append("%s: %d bytes of spills, %d bytes of stack frame"
                            % (name, spills, k["stack"]))
    return problems


# ---- self-test ----

class _Null:
    def write(self, _text):
        pass


def _entry_span(ptx, kernel, op, dtype="fp32"):
    """(start, end) of the body of fb_<kernel><op, dtype> in ptx."""
    for m in ENTRY.finditer(ptx):
        if demangle(m.group(1)) == (kernel, op, dtype):
            nxt = ENTRY.search(ptx, m.end())
            return m.start(), nxt.start() if nxt else len(ptx)
    raise SystemExit("self-test: %s<%s, %s> not in the PTX" % (kernel, op, dtype))


def _doctor(ptx, kernel, op, pattern, edit, nth=0, dtype="fp32"):
    """ptx with edit(line) applied to the nth line (from 0) of kernel<op, dtype> matching
    pattern."""
    start, end = _entry_span(ptx, kernel, op, dtype)
    body = ptx[start:end].splitlines(keepends=True)
    hits = [i for i, line in enumerate(body) if re.search(pattern, line)]
    if len(hits) <= nth:
        raise SystemExit("self-test: no line %d matching %r in %s<%s>" % (nth, pattern, kernel,
                                                                         op))
    body[hits[nth]] = edit(body[hits[nth]])
    return ptx[:start] + "".join(body) + ptx[end:]


def _doctor_body(ptx, kernel, op, edit, dtype="fp32"):
    """ptx with edit(list of lines) applied to the body of kernel<op, dtype>."""
    start, end = _entry_span(ptx, kernel, op, dtype)
    body = edit(ptx[start:end].splitlines(keepends=True))
    return ptx[:start] + "".join(body) + ptx[end:]


def _main_loop_lines(lines):
    """Indices of the main loop's lines (its label to its backward branch) in lines."""
    for i, line in enumerate(lines):
        m = LABEL.match(line.strip())
        if m:
            for j in range(i + 1, len(lines)):
                if re.search(r"\bbra(?:\.uni)?\s+" + re.escape(m.group(1)) + r"\s*;", lines[j]):
                    return range(i, j + 1)
    raise SystemExit("self-test: no loop found")


def _one_load_per_input(lines):
    """The main loop cut back to one turn of one item: keep the first load of each input and
    the first store, as the kernels were before bytes in flight were raised."""
    loop = _main_loop_lines(lines)
    loads = [i for i in loop if ANY_VECTOR_LOAD.match(lines[i].strip())]
    stores = [i for i in loop if ANY_VECTOR_STORE.match(lines[i].strip())]
    drop = set(loads[2:] + stores[1:])  # binary kernel: the first two loads are a and b
    return [line for i, line in enumerate(lines) if i not in drop]


def _loads_from_one_input(lines):
    """The second turn's load of input b made to read input a instead: the same number of
    loads, but only one of them from b."""
    loop = _main_loop_lines(lines)
    loads = [i for i in loop if VECTOR_LOAD.match(lines[i].strip())]
    a_again = ADDRESS.search(lines[loads[2]]).group(0)
    lines[loads[3]] = ADDRESS.sub(a_again, lines[loads[3]])
    return lines


def _store_between_loads(lines):
    """The main loop's first store moved up before its last load."""
    loop = _main_loop_lines(lines)
    loads = [i for i in loop if VECTOR_LOAD.match(lines[i].strip())]
    store = next(i for i in loop if VECTOR_STORE.match(lines[i].strip()))
    moved = lines.pop(store)
    lines.insert(loads[-1], moved)
    return lines


def _remainder_store_first(lines):
    """The remainder's first store moved up before its last load."""
    loop = _main_loop_lines(lines)
    after = range(loop[-1] + 1, len(lines))
    loads = [i for i in after if VECTOR_LOAD.match(lines[i].strip())]
    store = next(i for i in after if VECTOR_STORE.match(lines[i].strip()))
    moved = lines.pop(store)
    lines.insert(loads[-1], moved)
    return lines


def self_test(ptx, ptxas_report):
    """The audit must pass the real PTX and fail each doctored copy. Returns an exit code."""
    if audit(ptx, _Null()) or (ptxas_report is not None and check_ptxas(ptxas_report, _Null())):
        print("self-test: the real PTX does not pass the audit; run without --self-test")
        return 1
    fused = ("fb_binary_vector_kernel", "fb_add_relu_op")
    cases = [
        ("an extra scalar load in the fused vector kernel's tail",
         _doctor(ptx, *fused, r"ld\.global\.nc\.f32", lambda l: l + l)),
        ("an extra vector load in the fused vector kernel's loop",
         _doctor(ptx, *fused, r"ld\.global\.nc\.v4\.f32", lambda l: l + l)),
        ("a vector store dropped from the fused vector kernel",
         _doctor(ptx, *fused, r"st\.global\.v4\.f32", lambda l: "")),
        ("a vector store dropped from the fused vector kernel's remainder",
         _doctor(ptx, *fused, r"st\.global\.v4\.f32", lambda l: "", nth=2)),
        ("only one v4 load per input in the fused vector kernel's main loop",
         _doctor_body(ptx, *fused, _one_load_per_input)),
        ("three loads of input a and one of b in the fused vector kernel's main loop",
         _doctor_body(ptx, *fused, _loads_from_one_input)),
        ("a store before the last load in the fused vector kernel's main loop",
         _doctor_body(ptx, *fused, _store_between_loads)),
        ("a store before the last load in the relu vector kernel's remainder",
         _doctor_body(ptx, "fb_unary_vector_kernel", "fb_relu_op", _remainder_store_first)),
        ("a flush-to-zero add in the fused vector kernel",
         _doctor(ptx, *fused, r"\badd\.rn\.f32",
                 lambda l: l.replace("add.rn.f32", "add.rn.ftz.f32"))),
        ("a fused multiply-add in the scale vector kernel",
         _doctor(ptx, "fb_unary_vector_kernel", "fb_scale_op", r"\bmul\.rn\.f32",
                 lambda l: l.replace("mul.rn.f32", "fma.rn.f32"))),
        ("a flush-to-zero exp2 in the relu scalar kernel, which calls no expf",
         _doctor(ptx, "fb_unary_scalar_kernel", "fb_relu_op", r"st\.global\.f32",
                 lambda l: l + "\tex2.approx.ftz.f32 \t%f9, %f1;\n")),
        ("an extra store in the scalar copy kernel",
         _doctor(ptx, "fb_unary_scalar_kernel", "fb_copy_op", r"st\.global\.f32",
                 lambda l: l + l)),
        ("a register spill (st.local) in the relu vector kernel",
         _doctor(ptx, "fb_unary_vector_kernel", "fb_relu_op", r"st\.global\.v4\.f32",
                 lambda l: l + "\tst.local.f32 \t[%rd99], %f1;\n")),
        ("a 64-bit global load in the add scalar kernel",
         _doctor(ptx, "fb_binary_scalar_kernel", "fb_add_op", r"ld\.global\.nc\.f32",
                 lambda l: l + "\tld.global.u64 \t%rd99, [%rd1];\n")),
        ("an atomic in the threshold scalar kernel",
         _doctor(ptx, "fb_unary_scalar_kernel", "fb_threshold_op", r"st\.global\.f32",
                 lambda l: l + "\tatom.global.add.f32 \t%f9, [%rd1], %f1;\n")),
        ("a generic (state-space-less) load in the add vector kernel",
         _doctor(ptx, "fb_binary_vector_kernel", "fb_add_op", r"ld\.global\.nc\.f32",
                 lambda l: l + "\tld.f32 \t%f9, [%rd1];\n")),
        ("only one v4 load per input in the generic kernel's main loop (first op binary)",
         _doctor_body(ptx, "fb_binary_vector_kernel", "fb_chain_functor<true>",
                      _one_load_per_input)),
        ("a store before the last load in the generic kernel's main loop",
         _doctor_body(ptx, "fb_binary_vector_kernel", "fb_chain_functor<false>",
                      _store_between_loads)),
        ("an extra 16-byte load in the fp16 fused vector kernel's loop",
         _doctor(ptx, *fused, r"ld\.global\.nc\.v4\.u32", lambda l: l + l, dtype="fp16")),
        ("a 4-byte float load in the bf16 relu vector kernel's tail",
         _doctor(ptx, "fb_unary_vector_kernel", "fb_relu_op", r"ld\.global\.nc\.u16",
                 lambda l: l.replace(".u16", ".f32"), dtype="bf16")),
        ("only one 16-byte load per input in the bf16 fused vector kernel's main loop",
         _doctor_body(ptx, *fused, _one_load_per_input, dtype="bf16")),
        ("a vector store dropped from the fp16 generic kernel (transcendental ops)",
         _doctor(ptx, "fb_binary_vector_kernel", "fb_chain_functor<false>",
                 r"st\.global\.v4\.u32", lambda l: "", dtype="fp16")),
        ("the fused scalar kernel missing",
         _doctor(ptx, "fb_binary_scalar_kernel", "fb_add_relu_op", r"\.entry",
                 lambda l: l.replace("fb_binary_scalar_kernel", "fb_binary_scalor_kernel"))),
    ]
    failures = 0
    for what, doctored in cases:
        problems = audit(doctored, _Null())
        if problems:
            print("self-test: rejected %s: %s" % (what, problems[0]))
        else:
            print("self-test: FAILED to reject %s" % what)
            failures += 1
    total = len(cases)
    if ptxas_report is not None:
        fused_name = "_Z23fb_binary_vector_kernelI14fb_add_relu_op"
        reports = [
            ("40 registers in the fused vector kernel",
             re.sub(r"(%s\w*' for 'sm_90'\n(?:.*\n)*?.*?Used )\d+" % fused_name, r"\g<1>40",
                    ptxas_report, count=1)),
            ("8 bytes of spill stores in the fused vector kernel",
             re.sub(r"(%s\w*' for 'sm_90'\n(?:.*\n)*?.*?)0 bytes spill stores" % fused_name,
                    r"\g<1>8 bytes spill stores", ptxas_report, count=1)),
        ]
        for what, doctored in reports:
            total += 1
            if doctored == ptxas_report:
                print("self-test: could not doctor ptxas's report for %s" % what)
                failures += 1
                continue
            problems = check_ptxas(doctored, _Null())
            if problems:
                print("self-test: rejected %s: %s" % (what, problems[0]))
            else:
                print("self-test: FAILED to reject %s" % what)
                failures += 1
    print("self-test: %d of %d doctored inputs rejected" % (total - failures, total))
    return 1 if failures else 0


def main(argv):
    args = argv[1:]
    selftest = "--self-test" in args
    args = [a for a in args if a != "--self-test"]
    table = None
    if "--op-table" in args:
        at = args.index("--op-table")
        if at + 1 >= len(args):
            sys.stderr.write(__doc__)
            return 2
        table = args[at + 1]
        del args[at:at + 2]
    if table is None:
        sys.stderr.write("ptx_audit: --op-table kernels/op_table.h is required\n" + __doc__)
        return 2
    OP_TABLE[:] = read_op_table(table)
    build_expected(OP_TABLE)
    ptxas = None
    if "--ptxas" in args:
        at = args.index("--ptxas")
        if at + 1 >= len(args):
            sys.stderr.write(__doc__)
            return 2
        ptxas = args[at + 1]
        del args[at:at + 2]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], encoding="utf-8") as f:
        ptx = f.read()
    report = run_ptxas(ptxas, args[0]) if ptxas else None
    if selftest:
        return self_test(ptx, report)
    problems = audit(ptx, sys.stdout)
    if report is not None:
        sys.stdout.write("\n")
        problems += check_ptxas(report, sys.stdout)
    for p in problems:
        print("MISMATCH: " + p)
    print("ptx_audit: %s (%s%s)" % ("FAILED" if problems else "ok", args[0],
                                    ", registers and spills from ptxas" if ptxas else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
