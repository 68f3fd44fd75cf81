"""Reading nvcc's machine code (SASS) per kernel and per architecture, with cuobjdump: the one
place that runs cuobjdump and parses what it prints, for tests/kernels/sass_audit.py (spills,
loads in flight).

    tools = find_tools(cuobjdump=None, nvcc=None)       # (cuobjdump, nvdisasm dir) or why not
    binary = read_binary(tools, "build/fusebench")      # every architecture in the file
    for arch, kernel in binary.kernels():               # arch: 90; kernel.name: mangled
        kernel.resources["REG"], kernel.resources["STACK"], kernel.resources["LOCAL"]
        kernel.instructions                             # [Instruction] in address order
        loop = kernel.main_loop()                       # (first, last) index or None

cuobjdump -sass needs nvdisasm beside it or on PATH: both ship as wheels
(nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm) where the toolkit has neither; find_tools looks
beside nvcc, on PATH and in python's nvidia/cu13/bin (the wheels' layout).
Python 3 standard library only.
"""

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

ARCH = re.compile(r"^arch = sm_(\d+)", re.M)
# "        /*0340*/                   LDG.E.128.CONSTANT R16, desc[UR12][R36.64] ;"
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)"
                         r"\s*([^;]*);")
FUNCTION = re.compile(r"^\s*Function : (\S+)\s*$")
RESOURCE_FUNCTION = re.compile(r"^\s*Function (\S+):\s*$")
RESOURCE = re.compile(r"([A-Z_]+(?:\[\d+\])?):(\d+)")
TARGET = re.compile(r"^(?:`\(\.L_x_\d+\)|0x([0-9a-f]+))")


class Instruction:
    """One SASS instruction: its address, guard predicate ('' when none), opcode with its
    modifiers (LDG.E.128.CONSTANT) and operand text."""

    def __init__(self, address, predicate, opcode, operands):
        self.address = address
        self.predicate = predicate
        self.opcode = opcode
        self.operands = operands

    @property
    def base(self):
        """The opcode without modifiers: LDG, STG, LDL, BRA."""
        return self.opcode.split(".")[0]

    def branch_target(self):
        """The address a BRA jumps to, or None."""
        if self.base != "BRA":
            return None
        m = TARGET.match(self.operands.strip())
        return int(m.group(1), 16) if m and m.group(1) else None

    def __repr__(self):
        return "/*%04x*/ %s%s %s" % (self.address, self.predicate, self.opcode, self.operands)


class Kernel:
    """One kernel of one architecture: its SASS and its resource usage (REG, STACK, SHARED,
    LOCAL, ... as cuobjdump -res-usage names them)."""

    def __init__(self, arch, name):
        self.arch = arch
        self.name = name
        self.instructions = []
        self.resources = {}

    def loops(self):
        """[(first, last)] instruction index ranges of the loops: a backward branch at `last`
        to the instruction at `first`, in program order."""
        index = {ins.address: i for i, ins in enumerate(self.instructions)}
        found = []
        for i, ins in enumerate(self.instructions):
            target = ins.branch_target()
            if target is not None and target <= ins.address and target in index:
                found.append((index[target], i))
        return sorted(found)

    def main_loop(self, is_memory=lambda ins: ins.base in ("LDG", "STG")):
        """The outermost loop that holds a global load or store (the grid-stride loop of the
        elementwise kernels), or None; ValueError when there are several."""
        loops = self.loops()
        outer = [l for l in loops
                 if not any(o != l and o[0] <= l[0] and l[1] <= o[1] for o in loops)]
        with_memory = [l for l in outer
                       if any(is_memory(ins) for ins in self.instructions[l[0]:l[1] + 1])]
        if len(with_memory) > 1:
            raise ValueError("%s (sm_%d): %d outermost loops with global memory accesses"
                             % (self.name, self.arch, len(with_memory)))
        return with_memory[0] if with_memory else None


class Binary:
    """Every kernel of every architecture of one file."""

    def __init__(self, sass_text, resource_text, ptx_archs):
        self.by_arch = {}  # arch -> {mangled name -> Kernel}
        self.ptx_archs = ptx_archs
        parse_sass(sass_text, self.by_arch)
        parse_resources(resource_text, self.by_arch)

    def archs(self):
        return sorted(self.by_arch)

    def kernels(self):
        """(arch, Kernel) for every kernel, by architecture then name."""
        for arch in self.archs():
            for name in sorted(self.by_arch[arch]):
                yield arch, self.by_arch[arch][name]


def _sections(text):
    """[(arch, section text)] of cuobjdump's output, one per ELF image."""
    starts = list(ARCH.finditer(text))
    out = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        out.append((int(m.group(1)), text[m.end():end]))
    return out


def parse_sass(text, by_arch):
    """Fills by_arch (arch -> name -> Kernel) with the instructions of `cuobjdump -sass`."""
    for arch, section in _sections(text):
        kernels = by_arch.setdefault(arch, {})
        current = None
        for line in section.splitlines():
            m = FUNCTION.match(line)
            if m:
                current = kernels.setdefault(m.group(1), Kernel(arch, m.group(1)))
                continue
            m = INSTRUCTION.match(line)
            if m and current is not None:
                current.instructions.append(Instruction(
                    int(m.group(1), 16), (m.group(2) or "").strip(), m.group(3),
                    m.group(4).strip()))


def parse_resources(text, by_arch):
    """Fills by_arch with the REG/STACK/LOCAL/... of `cuobjdump -res-usage`."""
    for arch, section in _sections(text):
        kernels = by_arch.setdefault(arch, {})
        current = None
        for line in section.splitlines():
            m = RESOURCE_FUNCTION.match(line)
            if m:
                current = kernels.setdefault(m.group(1), Kernel(arch, m.group(1)))
                continue
            if current is not None and "REG:" in line:
                current.resources = {k: int(v) for k, v in RESOURCE.findall(line)}
                current = None


def parse_ptx_list(text):
    """The architectures of the PTX files `cuobjdump -lptx` lists: [120]."""
    return sorted({int(m.group(1)) for m in re.finditer(r"\.sm_(\d+)\.ptx", text)})


def _wheel_bins():
    """python's site-packages nvidia/cu13/bin directories (the CUDA 13 wheels)."""
    out = []
    for p in sys.path:
        d = os.path.join(p, "nvidia", "cu13", "bin")
        if p and os.path.isdir(d) and d not in out:
            out.append(d)
    return out


def find_tools(cuobjdump=None, nvcc=None):
    """((cuobjdump path, nvdisasm directory), None) or (None, why not): cuobjdump as given,
    beside nvcc, on PATH or in a wheel; nvdisasm beside it, beside nvcc, on PATH or in a
    wheel."""
    dirs = []
    if nvcc:
        dirs.append(os.path.dirname(os.path.realpath(nvcc)))
        dirs.append(os.path.dirname(os.path.abspath(nvcc)))
    dirs += _wheel_bins()

    def look(name, first=None):
        for d in ([first] if first else []) + dirs:
            path = os.path.join(d, name)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
        return shutil.which(name)
    tool = cuobjdump if cuobjdump and os.access(cuobjdump, os.X_OK) else look("cuobjdump")
    where = "beside nvcc, on PATH or in python's nvidia/cu13/bin"
    if not tool:
        return None, ("cuobjdump not found (%s): pip install nvidia-cuda-cuobjdump "
                      "nvidia-cuda-nvdisasm (docs/gpus.md)" % where)
    nvdisasm = look("nvdisasm", os.path.dirname(tool))
    if not nvdisasm:
        return None, ("nvdisasm not found (%s), which cuobjdump -sass runs: pip install "
                      "nvidia-cuda-nvdisasm (docs/gpus.md)" % where)
    return (tool, os.path.dirname(nvdisasm)), None


def run(tools, args):
    """cuobjdump's output for args, with nvdisasm reachable."""
    cuobjdump, nvdisasm_dir = tools
    env = dict(os.environ)
    env["PATH"] = nvdisasm_dir + os.pathsep + env.get("PATH", "")
    done = subprocess.run([cuobjdump] + args, capture_output=True, text=True, env=env,
                          check=False)
    if done.returncode != 0 and "No PTX file found" not in done.stderr:
        raise RuntimeError("%s %s failed (exit %d): %s" % (cuobjdump, " ".join(args),
                                                           done.returncode, done.stderr.strip()))
    return done.stdout


def read_binary(tools, path):
    """Every architecture's kernels of the executable or object at path (the cuobjdump runs
    at once: -sass alone takes tens of seconds for six architectures)."""
    flags = ["-sass", "-res-usage", "-lptx"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(flags)) as pool:
        runs = [pool.submit(run, tools, [flag, path]) for flag in flags]
        return Binary(runs[0].result(), runs[1].result(), parse_ptx_list(runs[2].result()))
