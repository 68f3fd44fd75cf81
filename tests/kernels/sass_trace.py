"""The instructions one thread issues in one turn of a kernel's main loop, read off its SASS
(tests/kernels/sass.py, read with elf=True) for given kernel parameters: a small
interpreter of the integer and control instructions, so that a runtime dispatch (the
generic fused kernel's switch over a chain held in its parameters) is followed exactly as
the GPU would follow it, and the count is the path's, not the code's.

    known = sass_trace.Params(size)          # every byte unknown
    known.set(offset, data)                  # the bytes the trace may rely on
    t = sass_trace.turn(kernel, known)
    t.count                                  # instructions issued in one turn
    t.opcodes                                # Counter of their opcodes
    t.guesses                                # [(address, target)]: branches on unknown values

How it runs: from the kernel's entry, values are known (constants, the known parameter
bytes, the kernel's own constant banks, which hold the jump tables) or unknown (thread
indices, pointers, loaded data), and every instruction the interpreter does not model makes
its destinations unknown. Branches on known predicates go where the GPU goes. A branch on an
unknown predicate is a guess: before the main loop (sass.Kernel.main_loop) it goes towards
the loop; in the loop it falls through (for the loop's own exits, branches out of the
loop that nothing jumps back in from: the path stays in the loop; for a branch on data: the
fall-through path, listed in `guesses`), and the loop's back
edge is taken. The count is that of the second turn (from the loop's head to its back edge,
both included); the first must give the same count where it starts at the head. An indirect
branch (BRX) on an unknown value, an exit before two turns, or a jump to an address that
holds no instruction is an error (TraceError), never a guess.

Every instruction on the path counts once, predicated off or not: each takes an issue slot.
Python 3 standard library only.
"""

import collections
import functools
import re
import struct

MASK = 0xffffffff

REGISTER = re.compile(r"^(U?R)(\d+|Z)$")
PREDICATE = re.compile(r"^(U?P)(\d+|T)$")
CONST = re.compile(r"^c\[(0x[0-9a-f]+)\]\[([^\]]+)\]$")
HEX = re.compile(r"^-?0x[0-9a-f]+$")
DEC = re.compile(r"^-?\d+$")

# Opcodes (the part before the first '.') that write no register or predicate.
NO_DEST = {"STG", "STS", "STL", "ST", "RED", "REDG", "BRA", "BRX", "BRXU", "CALL", "RET",
           "EXIT", "NOP", "BSSY", "BSYNC", "WARPSYNC", "BAR", "DEPBAR", "MEMBAR", "YIELD",
           "BMOV", "ERRBAR", "CCTL", "BPT", "KILL", "JMP", "JMX", "NANOSLEEP", "ACQBULK",
           "FENCE", "UCGABAR_ARV", "UCGABAR_WAIT"}
CONTROL = {"BRA", "BRX", "BRXU", "CALL", "RET", "EXIT"}


class TraceError(Exception):
    pass


class _Text:
    """What destinations() reads of an instruction (its opcode and operand text)."""

    def __init__(self, opcode, operands):
        self.opcode = opcode
        self.operands = operands
        self.base = opcode.split(".")[0]


class Params:
    """A kernel's parameter bytes, each known or not."""

    def __init__(self, size):
        self.data = bytearray(size)
        self.known = [False] * size

    def set(self, offset, data):
        self.data[offset:offset + len(data)] = data
        for i in range(offset, offset + len(data)):
            self.known[i] = True

    def read(self, offset, size):
        if offset < 0 or offset + size > len(self.data):
            return None
        if not all(self.known[offset:offset + size]):
            return None
        return int.from_bytes(self.data[offset:offset + size], "little")


class Trace:
    def __init__(self):
        self.count = 0
        self.opcodes = collections.Counter()
        self.guesses = []
        self.path = []  # addresses, in order


@functools.lru_cache(maxsize=None)
def _split(operands):
    """The operands, as a tuple (shared between calls: the same text recurs in every turn)."""
    return tuple(o.strip() for o in operands.split(",")) if operands.strip() else ()


@functools.lru_cache(maxsize=None)
def _strip(name):
    """R4.reuse -> R4; a register with another modifier (.H1, .B2, .64 in an address) is
    returned as is (and reads as unknown)."""
    return name.replace(".reuse", "")


def _f16_bits(text):
    """The fp16 bits of a decimal HFMA2 immediate, or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    bits = struct.unpack("<H", struct.pack("<e", value))[0]
    if struct.unpack("<e", struct.pack("<H", bits))[0] != value:
        return None  # not exactly an fp16 value: not a constant we can rebuild
    return bits


class _Machine:
    def __init__(self, kernel, params):
        self.kernel = kernel
        self.params = params
        self.values = {}  # 'R4', 'UR3', 'P0', 'UP1' -> int / bool / None (absent: unknown)
        self.calls = []

    # ---- reading operands ----

    def reg(self, name):
        if name in ("RZ", "URZ"):
            return 0
        if name in ("PT", "UPT"):
            return True
        return self.values.get(name)

    def pair(self, name):
        """The 64-bit value of the register pair starting at name."""
        m = REGISTER.match(name)
        if not m:
            return None
        if m.group(2) == "Z":
            return 0
        lo = self.values.get(name)
        hi = self.values.get("%s%d" % (m.group(1), int(m.group(2)) + 1))
        if lo is None or hi is None:
            return None
        return lo | (hi << 32)

    def const(self, bank, where, size=4):
        offset = 0
        for term in re.findall(r"[+-]?[^+-]+", where.replace(" ", "")):
            sign = -1 if term.startswith("-") else 1
            term = term.lstrip("+-")
            if HEX.match(term):
                offset += sign * int(term, 16)
            elif REGISTER.match(term):
                v = self.reg(term)
                if v is None:
                    return None
                offset += sign * v
            else:
                return None
        offset &= MASK
        if bank == 0:
            base = self.kernel.param_base
            if base is None or offset < base:
                return None  # the driver's constants (block and grid size...): unknown
            return self.params.read(offset - base, size)
        data = self.kernel.banks.get(bank)
        if data is None or offset + size > len(data):
            return None
        return int.from_bytes(data[offset:offset + size], "little")

    def value(self, op):
        """A 32-bit source operand's value (an int in [0, 2^32)), or None."""
        op = op.strip()
        negate = invert = False
        if op.startswith("-") and not HEX.match(op) and not DEC.match(op):
            negate, op = True, op[1:]
        if op.startswith("~"):
            invert, op = True, op[1:]
        op = _strip(op)
        if HEX.match(op):
            v = int(op, 16) & MASK
        elif DEC.match(op):
            v = int(op) & MASK
        elif REGISTER.match(op):
            v = self.reg(op)
        else:
            m = CONST.match(op)
            v = self.const(int(m.group(1), 16), m.group(2)) if m else None
        if v is None:
            return None
        if invert:
            v = ~v & MASK
        if negate:
            v = -v & MASK
        return v

    def predicate(self, op):
        """A predicate operand (P0, !P0, PT, !UPT) as True / False / None."""
        op = op.strip()
        neg = op.startswith("!")
        name = op.lstrip("!")
        if not PREDICATE.match(name):
            return None
        v = self.reg(name)
        return None if v is None else (not v if neg else v)

    # ---- writing ----

    def write(self, name, value):
        if name in ("RZ", "URZ", "PT", "UPT"):
            return
        if value is None:
            self.values.pop(name, None)
        else:
            self.values[name] = value

    def write_wide(self, name, value, words):
        """name and the words - 1 registers after it (a predicate: name alone)."""
        m = REGISTER.match(name)
        if not m:
            self.write(name, value)
            return
        if m.group(2) == "Z":
            return
        for k in range(words):
            self.write("%s%d" % (m.group(1), int(m.group(2)) + k),
                       None if value is None else (value >> (32 * k)) & MASK)


@functools.lru_cache(maxsize=None)
def _width(opcode):
    """Registers a destination spans."""
    parts = opcode.split(".")
    if "128" in parts:
        return 4
    if "64" in parts or "WIDE" in parts or "F64" in parts or parts[0] in ("DADD", "DMUL",
                                                                          "DFMA", "DMNMX"):
        return 2
    if parts[0] == "CS2R" and "32" not in parts:
        return 2
    return 1


def destinations(ins):
    """[(name, width)] an instruction may write: its leading register or predicate operand
    and the predicates right after it (ISETP's two, IADD3's carries). Over-approximate on
    purpose: forgetting a value is safe, keeping a stale one is not."""
    return _destinations(ins.opcode, ins.operands)


@functools.lru_cache(maxsize=None)
def _destinations(opcode, operands):
    ins = _Text(opcode, operands)
    if ins.base in NO_DEST:
        return ()
    ops = _split(ins.operands)
    out = []
    for i, op in enumerate(ops):
        name = _strip(op)
        if i == 0 and REGISTER.match(name):
            out.append((name, _width(ins.opcode)))
        elif PREDICATE.match(name):
            out.append((name, 1))
        else:
            break
    if ins.base == "R2P":  # writes the predicate register file
        out += [("P%d" % k, 1) for k in range(7)]
    return tuple(out)


def _compare(cmp, a, b, signed):
    if signed:
        a = a - (1 << 32) if a & 0x80000000 else a
        b = b - (1 << 32) if b & 0x80000000 else b
    return {"LT": a < b, "LE": a <= b, "GT": a > b, "GE": a >= b, "EQ": a == b,
            "NE": a != b}.get(cmp)


def _bool_op(bop, x, y):
    """Kleene logic: None is unknown."""
    if bop == "AND":
        if x is False or y is False:
            return False
        return None if x is None or y is None else True
    if bop == "OR":
        if x is True or y is True:
            return True
        return None if x is None or y is None else False
    if bop == "XOR":
        return None if x is None or y is None else x != y
    return None


def _signed(v, bits=32):
    return v - (1 << bits) if v & (1 << (bits - 1)) else v


def _execute(m, ins):
    """Applies one (unpredicated or predicated-on) instruction to the machine."""
    parts = ins.opcode.split(".")
    base = parts[0]
    ops = _split(ins.operands)
    dests = destinations(ins)
    results = {}  # name -> value; anything in dests not set here becomes unknown

    def v(i):
        return m.value(ops[i]) if i < len(ops) else None

    def p(i):
        return m.predicate(ops[i]) if i < len(ops) else None

    def known(*xs):
        return all(x is not None for x in xs)

    first = _strip(ops[0]) if ops else None
    wide = _width(ins.opcode)
    if base in ("MOV", "UMOV", "R2UR") and len(ops) >= 2:
        if wide == 2:
            src = _strip(ops[1])
            val = m.pair(src) if REGISTER.match(src) else v(1)
            m.write_wide(first, val, 2)
            return
        results[first] = v(1)
    elif base in ("IMAD", "UIMAD") and len(ops) >= 4:
        if "HI" in parts:
            pass
        elif "WIDE" in parts:
            a, b = v(1), v(2)
            c = m.pair(_strip(ops[3])) if REGISTER.match(_strip(ops[3])) else v(3)
            if known(a, b, c):
                if "U32" not in parts:
                    a, b = _signed(a), _signed(b)
                m.write_wide(first, (a * b + c) & ((1 << 64) - 1), 2)
            else:
                m.write_wide(first, None, 2)
            return
        else:
            a, b, c = v(1), v(2), v(3)
            carry = 0
            if "X" in parts:
                carry = p(4) if len(ops) > 4 else None
                carry = None if carry is None else int(carry)
            if known(a, b, c, carry):
                results[first] = (a * b + c + carry) & MASK
    elif base in ("IADD3", "UIADD3") and "64" not in parts:
        srcs = ops[len(dests):]  # a, b, c, then (.X) the carries in
        vals = [m.value(o) for o in srcs[:3]]
        extra = 0
        if "X" in parts:
            cs = [m.predicate(o) for o in srcs[3:]]
            extra = None if None in cs else sum(int(c) for c in cs)
        if len(vals) == 3 and known(*vals) and extra is not None:
            results[first] = (sum(vals) + extra) & MASK
    elif base in ("VIADD", "UIADD3", "IADD") and len(ops) >= 3:
        if wide == 2:
            a, b = (m.pair(_strip(o)) if REGISTER.match(_strip(o)) else m.value(o)
                    for o in ops[1:3])
            extra = 0
            if len(ops) > 3:
                c = _strip(ops[3])
                extra = m.pair(c) if REGISTER.match(c) else m.value(c)
            m.write_wide(first, (a + b + extra) & ((1 << 64) - 1)
                         if known(a, b, extra) else None, 2)
            return
        a, b = v(1), v(2)
        if known(a, b):
            results[first] = (a + b) & MASK
    elif base in ("IMNMX", "VIMNMX", "UIMNMX", "UVIMNMX") and len(ops) >= 4:
        a, b, lo = v(1), v(2), p(3)
        if known(a, b, lo):
            signed = "U32" not in parts
            x, y = (_signed(a), _signed(b)) if signed else (a, b)
            results[first] = (min(x, y) if lo else max(x, y)) & MASK
    elif base in ("VIADDMNMX", "UVIADDMNMX") and len(ops) >= 5:
        a, b, c, lo = v(1), v(2), v(3), p(4)
        if known(a, b, c, lo):
            s = (a + b) & MASK
            signed = "U32" not in parts
            x, y = (_signed(s), _signed(c)) if signed else (s, c)
            results[first] = (min(x, y) if lo else max(x, y)) & MASK
    elif base in ("SEL", "USEL", "FSEL") and len(ops) >= 4:
        a, b, c = v(1), v(2), p(3)
        if c is not None:
            results[first] = a if c else b
    elif base in ("SHF", "USHF") and len(ops) >= 4:
        lo, s, hi = v(1), v(2), v(3)
        if known(lo, s, hi):
            wide64 = "U64" in parts or "S64" in parts
            s = s & 63 if wide64 else min(s, 32)
            whole = lo | (hi << 32)
            if "S32" in parts or "S64" in parts:
                whole = _signed(whole, 64)
            r = (whole << s if parts[1] == "L" else whole >> s) & ((1 << 64) - 1)
            results[first] = (r >> 32) & MASK if "HI" in parts else r & MASK
    elif base in ("LEA", "ULEA") and len(ops) >= 4:
        srcs = ops[len(dests):]  # a, b, shift (LEA.HI: a, b, c, shift; .X: a carry in)
        if "HI" not in parts and "SX32" not in parts and len(srcs) >= 3:
            a, b, s = (m.value(o) for o in srcs[:3])
            if known(a, b, s):
                results[first] = ((a << (s & 31)) + b) & MASK
    elif base in ("ISETP", "UISETP") and len(ops) >= 5:
        cmp, bop = parts[1], parts[-1] if parts[-1] in ("AND", "OR", "XOR") else None
        if "EX" in parts:
            bop = parts[-2]
        signed = "U32" not in parts
        if "S64" in parts or "U64" in parts:
            a, b = m.pair(_strip(ops[2])), m.pair(_strip(ops[3]))
            r = None
            if known(a, b):
                x, y = (_signed(a, 64), _signed(b, 64)) if "S64" in parts else (a, b)
                r = {"LT": x < y, "LE": x <= y, "GT": x > y, "GE": x >= y, "EQ": x == y,
                     "NE": x != y}[cmp]
        else:
            a, b = v(2), v(3)
            r = _compare(cmp, a, b, signed) if known(a, b) else None
            if "EX" in parts:
                prev = p(5)
                if known(a, b, prev):
                    x, y = (_signed(a), _signed(b)) if signed else (a, b)
                    if cmp in ("GE", "GT"):
                        r = x > y or (x == y and prev)
                    elif cmp in ("LE", "LT"):
                        r = x < y or (x == y and prev)
                    elif cmp == "EQ":
                        r = x == y and prev
                    elif cmp == "NE":
                        r = x != y or prev
                else:
                    r = None
        c = p(4)
        results[_strip(ops[0])] = _bool_op(bop, r, c)
        results[_strip(ops[1])] = _bool_op(bop, None if r is None else not r, c)
    elif base in ("LOP3", "ULOP3") and len(ops) >= 5 and REGISTER.match(first or ""):
        a, b, c, lut = v(1), v(2), v(3), v(4)
        if known(a, b, c, lut):
            r = 0
            for bit in range(32):
                idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1)
                r |= ((lut >> idx) & 1) << bit
            results[first] = r
    elif base in ("HFMA2",) and len(ops) == 5 and _strip(ops[1]).lstrip("-") == "RZ" \
            and _strip(ops[2]).lstrip("-") == "RZ":
        hi, lo = _f16_bits(ops[3]), _f16_bits(ops[4])
        if known(hi, lo):
            results[first] = (hi << 16) | lo  # ptxas's way to make a constant
    elif base in ("LDC", "LDCU", "ULDC") and len(ops) >= 2:
        c = CONST.match(_strip(ops[1]))
        size = 4 * wide
        for tag, n in (("U8", 1), ("S8", 1), ("U16", 2), ("S16", 2)):
            if tag in parts:
                size = n
        val = m.const(int(c.group(1), 16), c.group(2), size) if c else None
        if val is not None and size < 4 and parts[1].startswith("S"):
            val = _signed(val, 8 * size) & MASK
        m.write_wide(first, val, max(1, size // 4))
        return
    elif base == "CS2R" and len(ops) == 2 and ops[1].strip() == "SRZ":
        m.write_wide(first, 0, wide)
        return
    for name, width in dests:
            m.write_wide(name, results.get(name), width)


def _target(ins):
    """A BRA/CALL's target address from its last operand, or None."""
    ops = _split(ins.operands)
    if not ops:
        return None
    last = ops[-1].strip()
    return int(last, 16) if HEX.match(last) and not last.startswith("-") else None


def _outer_loops(kernel):
    """The outermost loops that hold a global load or store: the main loop, or (where
    ptxas made versions of it, e.g. one per chain length class) its versions."""
    loops = kernel.loops()
    outer = [l for l in loops
             if not any(o != l and o[0] <= l[0] and l[1] <= o[1] for o in loops)]
    return [l for l in outer
            if any(ins.base in ("LDG", "STG") for ins in kernel.instructions[l[0]:l[1] + 1])]


def _leaves_loop(kernel, loop, target):
    """Whether a branch to instruction index target is an exit of the loop (first, last):
    it goes outside the loop and no instruction outside the loop jumps back into its body
    (ptxas's exit on sm_80, `@P0 CALL.REL.NOINC` to just past the back edge, is one; code
    put out of line that returns into the loop is not, and a branch to it stays a guess)."""
    first, last = loop
    if first <= target <= last:
        return False
    code = kernel.instructions
    inside = range(code[first].address + 1, code[last].address + 1)
    return not any(_target(ins) in inside for i, ins in enumerate(code)
                   if (i < first or i > last) and ins.base in ("BRA", "CALL"))


def turn(kernel, params, max_steps=3000000):
    """The Trace of one turn of kernel's main loop with `params` (Params) known: the loop
    the path enters first, of those that hold global loads or stores."""
    candidates = _outer_loops(kernel)
    if not candidates:
        raise TraceError("%s (sm_%d): no main loop" % (kernel.name, kernel.arch))
    code = kernel.instructions
    index = {ins.address: i for i, ins in enumerate(code)}
    m = _Machine(kernel, params)
    loop = None  # (first, last) of the loop entered
    turns = []  # finished Traces
    current = None
    where = "sm_%d %s" % (kernel.arch, kernel.name)
    i = 0
    for _ in range(max_steps):
        if i >= len(code):
            raise TraceError("%s: the path ran off the end of the code" % where)
        if loop is None:
            for c in candidates:
                if c[0] <= i <= c[1]:
                    loop = c
        ins = code[i]
        if loop is not None and i == loop[0]:
            current = Trace()
            current.starts_at_head = True
        if current is None and loop is not None:
            current = Trace()
            current.starts_at_head = False
        if current is not None:
            current.count += 1
            current.opcodes[ins.opcode] += 1
            current.path.append(ins.address)
        guard = True
        if ins.predicate:
            guard = m.predicate(ins.predicate.lstrip("@"))
        nxt = i + 1
        if ins.base not in CONTROL:
            if guard is None:
                for name, width in destinations(ins):
                    m.write_wide(name, None, width)
            elif guard:
                _execute(m, ins)
            i = nxt
            continue
        if ins.base == "EXIT":
            if guard is False:
                i = nxt
                continue
            raise TraceError("%s: the path exits at /*%04x*/ before two turns of the main "
                             "loop" % (where, ins.address))
        taken = guard
        ops = _split(ins.operands)
        if ins.base == "BRA" and len(ops) == 2 and PREDICATE.match(ops[0].lstrip("!")):
            taken = _bool_op("AND", guard, m.predicate(ops[0]))  # BRA.U !UP0, 0x...
        if taken is False:
            i = nxt
            continue
        if ins.base in ("BRX", "BRXU"):
            words = ins.operands.split()
            offset = m.value(_strip(words[0]))
            if taken is None or offset is None:
                raise TraceError("%s: indirect branch at /*%04x*/ on an unknown value"
                                 % (where, ins.address))
            imm = int(words[1], 16) if len(words) > 1 else 0
            following = code[nxt].address if nxt < len(code) else ins.address + 16
            target = (offset + following + imm) & MASK
            allowed = kernel.indirect_targets.get(ins.address)
            if (allowed is not None and target not in allowed) or target not in index:
                raise TraceError("%s: indirect branch at /*%04x*/ to 0x%x, not one of its "
                                 "targets %s" % (where, ins.address, target, allowed))
            i = index[target]
            continue
        if ins.base == "RET":
            if taken is None or not m.calls:
                raise TraceError("%s: RET at /*%04x*/ %s" % (where, ins.address,
                                                             "on an unknown value" if m.calls
                                                             else "with no call"))
            i = m.calls.pop()
            continue
        target = _target(ins)
        if target is None or target not in index:
            raise TraceError("%s: branch at /*%04x*/ to %r, no instruction"
                             % (where, ins.address, ins.operands))
        t = index[target]
        back_edge = loop is not None and i == loop[1]
        if taken is None:
            if back_edge:
                taken = True  # another turn
            elif current is not None:
                taken = False  # the loop's exits, and branches on data: fall through
                if not _leaves_loop(kernel, loop, t):
                    current.guesses.append((ins.address, target))
            else:
                heads = [c for c in candidates]
                towards = [x for x in (t, nxt)
                           if any(x <= c[0] or c[0] <= x <= c[1] for c in heads)]
                if len(towards) != 1:
                    raise TraceError("%s: branch at /*%04x*/ before the main loop on an "
                                     "unknown value, %s" % (where, ins.address,
                                                            "both ways lead to it" if towards
                                                            else "both ways leave it"))
                taken = towards[0] == t
        if back_edge and current is not None:
            turns.append(current)
            current = None
            if len(turns) == 2:
                break
        if taken:
            if ins.base == "CALL":
                m.calls.append(nxt)
            i = t
        else:
            i = nxt
    else:
        raise TraceError("%s: no two turns of the main loop in %d steps" % (where, max_steps))
    one, two = turns
    if one.starts_at_head and one.count != two.count:
        raise TraceError("%s: the first turn issued %d instructions, the second %d: the path "
                         "depends on the turn" % (where, one.count, two.count))
    two.loop = loop
    return two
