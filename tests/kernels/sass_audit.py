#!/usr/bin/env python3
"""Audit the machine code (SASS) of the elementwise kernels on every architecture a build
carries, read with cuobjdump (tests/kernels/sass.py), where the PTX audit (ptx_audit.py)
sees only one virtual architecture and ptxas may still undo its promises:

- the binary holds SASS for exactly the architectures the build was configured for
  (--archs) and PTX for --ptx;
- each architecture has every kernel the op table implies (ptx_audit.build_expected) and
  none else of ours;
- no kernel has a stack frame or local memory (cuobjdump -res-usage STACK and LOCAL) or a
  local load or store (LDL, STL) anywhere: a spill costs DRAM traffic that the traffic model
  (kernels/elementwise_kernels.cuh) does not count;
- no kernel uses more registers than its architecture's cap (kernels/elementwise_kernels.cuh,
  fb_arch_registers: 64 on sm_7x, the functor's own on sm_80 and sm_90, at least 40 on sm_86 to
  sm_89, 56 from sm_100 on; a functor's own above 64, 8 more on sm_75, sm_107 and sm_120);
- in every vector kernel's main loop (the outermost loop with global accesses), the
  P x inputs independent 16-byte loads (LDG.E.128...) of a turn are all issued before the
  loop's first 16-byte store (STG.E.128): the bytes in flight of kernels/launch_plan.h.

Prints one table per architecture and the summary table of the note (docs/gpus.md):
    arch  kernels  max registers  with stack  local ld/st  loads before 1st store (min)

Usage:
    sass_audit.py --op-table OP_TABLE.h --archs 75,80,... [--ptx 120] [--cuobjdump PATH]
                  [--nvcc PATH] BINARY                    audit; exit 1 on any problem,
                                                          77 (skip) without cuobjdump
    sass_audit.py --self-test ... BINARY                  the same, then the audit must
                                                          reject each doctored copy of
                                                          BINARY (one cuobjdump read)
Python 3 standard library only.
"""

import argparse
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_audit  # noqa: E402  (the kernels the op table implies, and their names)
import sass  # noqa: E402

SKIP = 77  # meson's exit status for a skipped test


def register_cap(arch, declared):
    """fb_arch_registers() of kernels/elementwise_kernels.cuh for a kernel that declares
    `declared` registers (its Hopper cap)."""
    if arch < 80:
        floor = 64
    elif arch >= 100:
        floor = 56
    elif 80 < arch < 90:
        floor = 40  # sm_86 .. sm_89: FB_ARCH_REGISTER_FLOOR
    else:
        floor = ptx_audit.MAX_REGISTERS
    if declared > 64 and (arch >= 120 or arch == 107 or arch < 80):
        return declared + 8  # FB_ARCH_WIDE_EXTRA
    return max(declared, floor)


def declared_registers(key):
    """The functor's own cap (elementwise_kernels.cuh), as ptx_audit knows it."""
    return ptx_audit.EXPECTED[key][2]


def loads_before_first_store(kernel, loop):
    """(16-byte loads before the loop's first 16-byte store, 16-byte loads in the loop)."""
    body = kernel.instructions[loop[0]:loop[1] + 1]
    before, total, stored = 0, 0, False
    for ins in body:
        if ins.base == "LDG" and ".128" in ins.opcode:
            total += 1
            before += not stored
        elif ins.base == "STG" and ".128" in ins.opcode:
            stored = True
    return before, total


def audit(binary, archs, ptx_arch, out):
    """Prints the tables; returns (problems, summary rows)."""
    problems = []
    summary = []
    built = binary.archs()
    if built != sorted(archs):
        problems.append("SASS for sm_%s; the build was configured for sm_%s"
                        % ("/".join(map(str, built)), "/".join(map(str, sorted(archs)))))
    if ptx_arch is not None and binary.ptx_archs != [ptx_arch]:
        problems.append("PTX for %s; expected compute_%d only"
                        % ("/".join("compute_%d" % a for a in binary.ptx_archs) or "nothing",
                           ptx_arch))
    for arch in built:
        kernels = binary.by_arch[arch]
        seen = set()
        rows = []
        for name in sorted(kernels):
            k = kernels[name]
            key = ptx_audit.demangle(name)
            if key is None or key not in ptx_audit.EXPECTED:
                if name.startswith("_Z") and "fb_" in name and "flush" not in name:
                    problems.append("sm_%d: unexpected kernel %s" % (arch, name))
                continue
            seen.add(key)
            label = "sm_%d %s" % (arch, ptx_audit.display(key))
            r = k.resources
            if not r:
                problems.append("%s: no resource usage from cuobjdump -res-usage" % label)
                continue
            local_ops = sum(1 for ins in k.instructions if ins.base in ("LDL", "STL"))
            cap = register_cap(arch, declared_registers(key))
            if r.get("STACK", 0) or r.get("LOCAL", 0) or local_ops:
                problems.append("%s: %d bytes of stack, %d of local memory, %d local loads and "
                                "stores (spills)" % (label, r.get("STACK", 0), r.get("LOCAL", 0),
                                                     local_ops))
            if r.get("REG", 0) > cap:
                problems.append("%s: %d registers; the cap on sm_%d is %d"
                                % (label, r["REG"], arch, cap))
            before = None
            if key[0].endswith("vector_kernel"):
                inputs, expected, _ = ptx_audit.EXPECTED[key]
                want = expected["loop"][0]
                try:
                    loop = k.main_loop()
                except ValueError as e:
                    problems.append("%s: %s" % (label, e))
                    loop = None
                if loop is None:
                    problems.append("%s: no main loop found in the SASS" % label)
                else:
                    before, total = loads_before_first_store(k, loop)
                    if total != want or before != want:
                        problems.append("%s main loop: %d of its %d 16-byte loads before the "
                                        "first store; expected all %d (%d per input) in flight"
                                        % (label, before, total, want, want // inputs))
            rows.append((key, r.get("REG", 0), cap, r.get("STACK", 0), local_ops, before))
        for key in sorted(set(ptx_audit.EXPECTED) - seen):
            problems.append("sm_%d: kernel %s missing" % (arch, ptx_audit.display(key)))
        out.write("sm_%d\n%-58s %9s %4s %6s %6s %s\n" % (arch, "kernel", "registers", "cap",
                                                          "stack", "ld/st", "loads before store"))
        for key, regs, cap, stack, local_ops, before in rows:
            out.write("%-58s %9d %4d %6d %6d %s\n" % (ptx_audit.display(key), regs, cap, stack,
                                                       local_ops,
                                                       "" if before is None else before))
        vector = [(key, b) for key, _r, _c, _s, _l, b in rows if b is not None]
        in_flight = sum(1 for key, b in vector if b == ptx_audit.EXPECTED[key][1]["loop"][0])
        summary.append((arch, len(rows), max((r[1] for r in rows), default=0),
                        sum(1 for r in rows if r[3]), sum(r[4] for r in rows),
                        "%d of %d" % (in_flight, len(vector))))
    out.write("\n| arch | kernels | max registers | kernels with stack | local loads/stores "
              "| vector main loops with every 16-byte load before the first store |\n"
              "| --- | --- | --- | --- | --- | --- |\n")
    for arch, count, regs, stacked, local_ops, in_flight in summary:
        out.write("| sm_%d | %d | %d | %d | %d | %s |\n" % (arch, count, regs, stacked, local_ops,
                                                         in_flight))
    return problems, summary


# ---- self-test: doctored copies of the real binary's parse must each be rejected ----

class _Null:
    def write(self, _text):
        pass


def _copy(binary):
    """A copy of binary that shares every kernel with it (doctor only what _vector_kernel
    hands out, which it copies): a deep copy of 500 kernels' SASS took minutes here."""
    b = copy.copy(binary)
    b.by_arch = {arch: dict(kernels) for arch, kernels in binary.by_arch.items()}
    return b


def _vector_kernel(binary, arch, op="fb_copy_op", dtype="fp32"):
    """fb_unary_vector_kernel<op, dtype> of sm_<arch>, copied into binary first."""
    for name, k in binary.by_arch[arch].items():
        if ptx_audit.demangle(name) == ("fb_unary_vector_kernel", op, dtype):
            binary.by_arch[arch][name] = copy.deepcopy(k)
            return binary.by_arch[arch][name]
    raise SystemExit("self-test: fb_unary_vector_kernel<%s, %s> not in sm_%d" % (op, dtype, arch))


def _doctored(binary, archs):
    """[(what, doctored binary, archs)]: each must fail the audit."""
    arch = binary.archs()[-1]
    cases = []

    b = _copy(binary)
    _vector_kernel(b, arch).resources["STACK"] = 24
    cases.append(("a 24-byte stack frame in the fp32 copy kernel of sm_%d" % arch, b, archs))

    b = _copy(binary)
    k = _vector_kernel(b, arch)
    first, _last = k.main_loop()
    k.instructions.insert(first + 1, sass.Instruction(k.instructions[first].address + 1, "",
                                                      "STL.64", "[R1+0x28], R6"))
    cases.append(("a local store in the copy kernel's main loop (sm_%d)" % arch, b, archs))

    b = _copy(binary)
    k = _vector_kernel(b, arch)
    first, last = k.main_loop()
    body = k.instructions[first:last + 1]
    store = next(i for i, ins in enumerate(body) if ins.base == "STG")
    loads = [i for i, ins in enumerate(body) if ins.base == "LDG" and ".128" in ins.opcode]
    moved = body.pop(store)
    body.insert(loads[0] + 1, moved)
    # keep the addresses in order so the loop's branch still finds its target
    for ins, address in zip(body, sorted(ins.address for ins in body)):
        ins.address = address
    k.instructions[first:last + 1] = body
    cases.append(("a store right after the first load of the copy kernel's main loop (sm_%d)"
                  % arch, b, archs))

    b = _copy(binary)
    _vector_kernel(b, arch, "fb_relu_op", "bf16").resources["REG"] = 80
    cases.append(("80 registers in the bf16 relu vector kernel of sm_%d" % arch, b, archs))

    b = _copy(binary)
    del b.by_arch[binary.archs()[0]]
    cases.append(("the oldest architecture's SASS missing", b, archs))

    b = _copy(binary)
    for name in list(b.by_arch[arch]):
        if ptx_audit.demangle(name) == ("fb_binary_scalar_kernel", "fb_add_relu_op", "fp16"):
            del b.by_arch[arch][name]
    cases.append(("the fp16 fused scalar kernel missing from sm_%d" % arch, b, archs))

    b = _copy(binary)
    b.ptx_archs = []
    cases.append(("no PTX in the binary", b, archs))
    return cases


def self_test(binary, archs, ptx_arch):
    problems, _ = audit(binary, archs, ptx_arch, _Null())
    if problems:
        print("self-test: the real binary does not pass the audit; run without --self-test")
        for p in problems[:20]:
            print("  " + p)
        return 1
    failures = 0
    cases = _doctored(binary, archs)
    for what, doctored, want_archs in cases:
        problems, _ = audit(doctored, want_archs, ptx_arch, _Null())
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
    parser.add_argument("--ptx", type=int, default=None,
                        help="PTX architecture built (left out: PTX is not checked)")
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
    ptx_audit.build_expected(ptx_audit.OP_TABLE)
    archs = [int(a) for a in args.archs.split(",") if a]
    binary = sass.read_binary(tools, args.binary)
    problems, _ = audit(binary, archs, args.ptx, sys.stdout)
    for p in problems:
        print("MISMATCH: " + p)
    print("sass_audit: %s (%s: sm_%s, cuobjdump %s)" % ("FAILED" if problems else "ok",
                                                       args.binary, "/".join(map(str, archs)),
                                                       tools[0]))
    if problems:
        return 1
    return self_test(binary, archs, args.ptx) if args.self_test else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
