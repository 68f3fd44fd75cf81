#!/usr/bin/env python3
"""Audit the global memory traffic of the elementwise kernels in nvcc's PTX.

The whole point of fusion is fewer bytes moved, so the kernels must issue exactly the loads
and stores the traffic model counts (kernels/elementwise_kernels.cuh):
    copy, relu, threshold: 1 load, 1 store per element;  add, add_relu: 2 loads, 1 store.
With `#pragma unroll 1` each path holds one instance of each access, so per kernel entry:
    vector kernel: the float4 loop (ld.global[.nc].v4.f32, st.global.v4.f32) plus the scalar
                   tail (ld.global[.nc].f32, st.global.f32), each with that many accesses;
    scalar kernel: the scalar loop only.
Anything else touching memory is an error: other global loads or stores (other widths or
types, generic ld/st, which could reach global memory), atomics and reductions, shared,
constant or local memory (ld.local/st.local, a __local_depot: register spills), and `.ftz`
arithmetic (which would flush subnormals, breaking the contract of
kernels/elementwise_contract.h). Kernel parameters (ld.param) are the only other loads
allowed.

Usage:
    ptx_audit.py LAUNCHERS.ptx              audit; print the table; exit 1 on any mismatch
    ptx_audit.py --self-test LAUNCHERS.ptx  check the audit itself: the real PTX must pass
                                            and every doctored copy of it must fail
Python 3 standard library only.
"""

import re
import sys

# Expected accesses per path: (loads, stores).
UNARY_OPS = ("fb_copy_op", "fb_relu_op", "fb_threshold_op")
BINARY_OPS = ("fb_add_op", "fb_add_relu_op")
EXPECTED = {}
for _op in UNARY_OPS:
    EXPECTED[("fb_unary_vector_kernel", _op)] = {"vector": (1, 1), "tail": (1, 1)}
    EXPECTED[("fb_unary_scalar_kernel", _op)] = {"scalar": (1, 1)}
for _op in BINARY_OPS:
    EXPECTED[("fb_binary_vector_kernel", _op)] = {"vector": (2, 1), "tail": (2, 1)}
    EXPECTED[("fb_binary_scalar_kernel", _op)] = {"scalar": (2, 1)}

ENTRY = re.compile(r"^\s*\.(?:visible\s+|weak\s+)?\.entry\s+([A-Za-z0-9_$]+)\s*\(", re.M)
# Itanium mangling of `template <typename Op> void fb_..._kernel(...)` with Op a plain
# struct: _Z <len><name> I <len><op> E ...
MANGLED = re.compile(r"^_Z(\d+)(fb_\w+_kernel)I(\d+)(\w+?)E")
VECTOR_LOAD = re.compile(r"^ld\.global(?:\.nc)?\.v4\.f32\b")
SCALAR_LOAD = re.compile(r"^ld\.global(?:\.nc)?\.f32\b")
VECTOR_STORE = re.compile(r"^st\.global\.v4\.f32\b")
SCALAR_STORE = re.compile(r"^st\.global\.f32\b")
PARAM_LOAD = re.compile(r"^ld\.param\.")
# Any other instruction that reads or writes memory (or a PTX prefetch, which moves data).
MEMORY_OP = re.compile(r"^(?:ld|ldu|st|atom|red|cp\.async|prefetch|prefetchu|ld\.local|st\.local"
                       r"|multimem|tex|suld|sust|sured)\b")


def demangle(name):
    """fb_binary_vector_kernel<fb_add_relu_op> from its mangled name; None if not ours."""
    m = MANGLED.match(name)
    if not m or int(m.group(1)) != len(m.group(2)) or int(m.group(3)) != len(m.group(4)):
        return None
    return m.group(2), m.group(4)


def split_entries(ptx):
    """[(mangled name, body text)] for every kernel entry, body up to the next entry."""
    starts = list(ENTRY.finditer(ptx))
    out = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(ptx)
        out.append((m.group(1), ptx[m.start():end]))
    return out


def instructions(body):
    """The instruction texts of an entry, without predicates, labels or comments."""
    for raw in body.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line or line.endswith(":") or line.startswith("."):
            continue
        line = re.sub(r"^@!?%\w+\s+", "", line)  # guard predicate
        yield line


def count(body):
    """{'ld.v4', 'ld', 'st.v4', 'st', 'other': [texts]} for one entry."""
    c = {"ld.v4": 0, "ld": 0, "st.v4": 0, "st": 0, "other": []}
    if "__local_depot" in body or re.search(r"^\s*\.local\b", body, re.M):
        c["other"].append(".local frame (register spills or a stack array)")
    for ins in instructions(body):
        if ".ftz" in ins.split()[0]:
            c["other"].append(ins.split()[0] + " (flushes subnormals to zero)")
        if VECTOR_LOAD.match(ins):
            c["ld.v4"] += 1
        elif SCALAR_LOAD.match(ins):
            c["ld"] += 1
        elif VECTOR_STORE.match(ins):
            c["st.v4"] += 1
        elif SCALAR_STORE.match(ins):
            c["st"] += 1
        elif PARAM_LOAD.match(ins):
            pass
        elif MEMORY_OP.match(ins):
            c["other"].append(ins.split()[0])
    return c


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
            problems.append("kernel %s<%s> appears twice" % key)
        seen.add(key)
        name = "%s<%s>" % key
        c = count(body)
        got = {}
        if key[0].endswith("vector_kernel"):
            got["vector"] = (c["ld.v4"], c["st.v4"])
            got["tail"] = (c["ld"], c["st"])
        else:
            got["scalar"] = (c["ld"], c["st"])
            if c["ld.v4"] or c["st.v4"]:
                problems.append("%s: %d vector loads and %d vector stores in the scalar kernel"
                                % (name, c["ld.v4"], c["st.v4"]))
        for path, want in EXPECTED[key].items():
            ok = got[path] == want
            rows.append((name, path, got[path][0], got[path][1], want, ok))
            if not ok:
                problems.append("%s %s path: %d loads, %d stores; expected %d, %d"
                                % (name, path, got[path][0], got[path][1], want[0], want[1]))
        for other in c["other"]:
            problems.append("%s: unexpected memory access: %s" % (name, other))
    for key in sorted(set(EXPECTED) - seen):
        problems.append("kernel %s<%s> missing from the PTX" % key)

    out.write("%-42s %-7s %5s %6s  %-8s %s\n"
              % ("kernel", "path", "loads", "stores", "expected", "result"))
    ops = UNARY_OPS + BINARY_OPS
    paths = ("vector", "tail", "scalar")
    rows.sort(key=lambda r: (ops.index(r[0].split("<")[1][:-1]), "scalar" in r[0],
                             paths.index(r[1])))
    for name, path, loads, stores, want, ok in rows:
        out.write("%-42s %-7s %5d %6d  %-8s %s\n"
                  % (name, path, loads, stores, "%d/%d" % want, "ok" if ok else "MISMATCH"))
    return problems


class _Null:
    def write(self, _text):
        pass


def _entry_span(ptx, kernel, op):
    """(start, end) of the body of fb_<kernel><op> in ptx."""
    for m in ENTRY.finditer(ptx):
        if demangle(m.group(1)) == (kernel, op):
            nxt = ENTRY.search(ptx, m.end())
            return m.start(), nxt.start() if nxt else len(ptx)
    raise SystemExit("self-test: %s<%s> not in the PTX" % (kernel, op))


def _doctor(ptx, kernel, op, pattern, edit):
    """ptx with edit(line) applied to the first line of kernel<op> matching pattern."""
    start, end = _entry_span(ptx, kernel, op)
    body = ptx[start:end].splitlines(keepends=True)
    for i, line in enumerate(body):
        if re.search(pattern, line):
            body[i] = edit(line)
            return ptx[:start] + "".join(body) + ptx[end:]
    raise SystemExit("self-test: no line matching %r in %s<%s>" % (pattern, kernel, op))


def self_test(ptx):
    """The audit must pass the real PTX and fail each doctored copy. Returns an exit code."""
    if audit(ptx, _Null()):
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
        ("a flush-to-zero add in the fused vector kernel",
         _doctor(ptx, *fused, r"\badd\.f32", lambda l: l.replace("add.f32", "add.ftz.f32"))),
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
    print("self-test: %d of %d doctored PTX files rejected" % (len(cases) - failures, len(cases)))
    return 1 if failures else 0


def main(argv):
    args = argv[1:]
    selftest = "--self-test" in args
    args = [a for a in args if a != "--self-test"]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], encoding="utf-8") as f:
        ptx = f.read()
    if selftest:
        return self_test(ptx)
    problems = audit(ptx, sys.stdout)
    for p in problems:
        print("MISMATCH: " + p)
    print("ptx_audit: %s (%s)" % ("FAILED" if problems else "ok", args[0]))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
