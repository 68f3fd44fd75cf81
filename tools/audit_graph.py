"""What tools/torch_audit.py predicts of a user's elementwise function, from torch's own output:
pure functions over an ATen-level FX graph (torch.fx.experimental.proxy_tensor.make_fx) and
over the wrapper code inductor generated (torch._inductor.utils.run_and_get_code), and the
mapping of a graph onto fusebench's op table (docs/ops.md). No torch import here: the graph's
nodes are read through their attributes (op, target, args, kwargs, meta["val"]), so the tests
can build them by hand.

Eager (one kernel per elementwise ATen op): a node whose op carries torch.Tag.pointwise, or a
copy (clone, _to_copy, copy_), is a kernel; a view (VIEW_OPS) is free; any other op is refused
(NotElementwise). A kernel reads each distinct tensor operand once and writes its result:
"transfers" are those arrays, bytes their numel x dtype size. An operand that is a view of
another tensor is counted at the smaller of the view's and its base's size, so that a
broadcast (expand) operand costs its own size; Python scalars are free (they are constants of
the kernel).

Compiled: the kernels are the ones inductor's wrapper calls in call(): its generated kernels
(cpp_fused_*, triton_*_fused_*: defined in the wrapper, their pointer parameters in_ptrN read,
out_ptrN written, in_out_ptrN both) and its extern calls (an ATen op it did not lower, e.g.
aten.gcd: "buf2 = torch.ops.aten.gcd.default(buf0, buf1)"). The buffers' sizes come from the
wrapper's own assert_size_stride and empty_strided_* lines.
"""

import collections
import math
import re

# ATen ops that only make a new view of a tensor: no pass over memory, no kernel.
VIEW_OPS = frozenset((
    "view", "_unsafe_view", "reshape", "expand", "expand_as", "unsqueeze", "squeeze",
    "permute", "t", "transpose", "slice", "select", "alias", "detach", "as_strided",
    "view_as", "unflatten", "flatten", "split", "split_with_sizes", "unbind", "chunk",
    "narrow", "diagonal", "lift_fresh", "_reshape_alias",
))
# ATen ops that copy a tensor (one pass over memory each), not tagged pointwise.
COPY_OPS = frozenset(("clone", "_to_copy", "copy", "copy_", "to"))


class NotElementwise(Exception):
    """The function has an op that is neither elementwise nor a view: its name (aten.sum)."""

    def __init__(self, op):
        super().__init__(op)
        self.op = op


Kernel = collections.namedtuple("Kernel", "name ops kind reads writes why")
# An array a kernel moves: what it is called, its elements and its element size in bytes.
Array = collections.namedtuple("Array", "name numel itemsize")


def op_name(target):
    """"aten.add" of the overload aten.add.Tensor (or of any callable: its name)."""
    packet = getattr(target, "overloadpacket", None)
    if packet is not None:
        ns = getattr(target, "namespace", "aten")
        return "%s.%s" % (ns, packet.__name__)
    return getattr(target, "__name__", str(target))


def short_op(name):
    return name.split(".", 1)[1] if "." in name else name


def is_pointwise(target, pointwise_tag):
    return pointwise_tag is not None and pointwise_tag in getattr(target, "tags", ())


def _val(node):
    return node.meta.get("val") if hasattr(node, "meta") else None


def _numel(val):
    n = 1
    for d in getattr(val, "shape", ()):
        n *= int(d)
    return n


def _itemsize(val):
    dt = getattr(val, "dtype", None)
    return int(getattr(dt, "itemsize", 0)) if dt is not None else 0


def _is_node(x):
    return hasattr(x, "op") and hasattr(x, "target") and hasattr(x, "meta")


def eager_kernels(graph_nodes, pointwise_tag):
    """The kernels eager PyTorch runs for the graph, in order: Kernel(name "aten.add", ops
    ("aten.add",), kind "aten", reads, writes: Arrays). NotElementwise on the first op that is
    neither pointwise, a copy nor a view."""
    base = {}  # node -> the node whose memory it views (itself for a tensor of its own)
    kernels = []
    for node in graph_nodes:
        if node.op != "call_function":
            base[node] = node
            continue
        name = op_name(node.target)
        short = short_op(name)
        if short in VIEW_OPS:
            src = next((a for a in node.args if _is_node(a)), None)
            base[node] = base.get(src, src) if src is not None else node
            continue
        if short == "getitem":  # an element of a multi-output op's tuple
            base[node] = node
            continue
        if not (is_pointwise(node.target, pointwise_tag) or short in COPY_OPS):
            raise NotElementwise(name)
        base[node] = node
        reads, seen = [], set()
        for a in list(node.args) + list(node.kwargs.values()):
            for x in (a if isinstance(a, (list, tuple)) else (a,)):
                if not _is_node(x) or _val(x) is None or not hasattr(_val(x), "shape"):
                    continue
                root = base.get(x, x)
                if root in seen:
                    continue
                seen.add(root)
                numel = min(_numel(_val(x)), _numel(_val(root)))
                reads.append(Array(root.name, numel, _itemsize(_val(x))))
        out = _val(node)
        outs = out if isinstance(out, (list, tuple)) else (out,)
        writes = [Array(node.name, _numel(v), _itemsize(v)) for v in outs if v is not None]
        kernels.append(Kernel(name, (name,), "aten", tuple(reads), tuple(writes), ""))
    return kernels


def transfers(kernels):
    """(arrays moved, bytes) of the kernels: each kernel's reads and writes."""
    arrays = sum(len(k.reads) + len(k.writes) for k in kernels)
    nbytes = sum(a.numel * a.itemsize for k in kernels for a in k.reads + k.writes)
    return arrays, nbytes


# --------------------------------------------------------------------------------------------
# inductor's wrapper code
# --------------------------------------------------------------------------------------------

_DEF = re.compile(r"^(\w+) = async_compile\.(\w+)\(", re.M)
_EMPTY = re.compile(r"^\s*(\w+) = empty_strided_\w+\(\(([^)]*)\), \(([^)]*)\), torch\.(\w+)")
_ASSERT = re.compile(r"^\s*assert_size_stride\((\w+), \(([^)]*)\)")
_ALIAS = re.compile(r"^\s*(\w+) = (\w+)\s*(;|#|$)")
_REINTERPRET = re.compile(r"reinterpret_tensor\((\w+), \(([^)]*)\)")
_EXTERN = re.compile(r"^\s*(\w+) = ((?:torch\.ops\.)?aten\.\w+(?:\.\w+)?|extern_kernels\.\w+)"
                     r"\((.*)\)\s*$")
_ORIGINS = re.compile(r"Original ATen: \[([^\]]*)\]")
_PREFIX = re.compile(r"^(cpp_fused_|triton_\w+?_fused_|cpp_)")

DTYPE_SIZES = {"float32": 4, "float": 4, "float16": 2, "half": 2, "bfloat16": 2,
               "float64": 8, "double": 8, "int32": 4, "int": 4, "int64": 8, "long": 8,
               "int16": 2, "int8": 1, "uint8": 1, "bool": 1}


def _dims(text):
    dims = [d.strip() for d in text.split(",") if d.strip()]
    n = 1
    for d in dims:
        n *= int(d)  # dynamic=False: every size is a number
    return n


def _params(source, name):
    """The parameter names of the kernel function in a kernel's source: C++ `kernel(...)`,
    Triton `def NAME(...)`."""
    m = re.search(r"\bdef %s\(([^)]*)\)" % re.escape(name), source) or \
        re.search(r"\bkernel\(([^)]*)\)", source)
    if not m:
        return []
    out = []
    for p in m.group(1).split(","):
        p = re.sub(r"(?<!:):(?!:).*$", "", p).strip()  # a Triton annotation, not C++'s ::
        if p:
            out.append(re.split(r"[\s*&]+", p)[-1])
    return out


def _role(param):
    if param.startswith("in_out_ptr"):
        return "rw"
    if param.startswith("in_ptr"):
        return "r"
    if param.startswith("out_ptr"):
        return "w"
    return ""


def kernel_ops(name, op_names):
    """The ops a generated kernel's name carries (inductor names a kernel after the ATen ops
    fused in it, sorted, joined by '_'): matched greedily, longest first, against op_names
    (short names: "add", "_to_copy"); a part matching none is kept as it is."""
    mid = _PREFIX.sub("", name)
    mid = re.sub(r"_\d+$", "", mid)
    names = sorted(set(op_names), key=len, reverse=True)
    ops, i = [], 0
    while i < len(mid):
        for op in names:
            if mid.startswith(op, i) and (i + len(op) == len(mid) or mid[i + len(op)] == "_"):
                ops.append(op)
                i += len(op) + 1
                break
        else:
            j = mid.find("_", i + 1)
            j = len(mid) if j < 0 else j
            ops.append(mid[i:j])
            i = j + 1
    return tuple(ops)


def compiled_kernels(code, inputs, op_names=(), extern_dtype=None, why_extern=None):
    """The kernels call() of inductor's wrapper code runs, in order: Kernel(name, ops, kind
    "generated" | "extern", reads, writes, why). inputs: [(numel, itemsize)] of the compiled
    graph's arguments arg0_1, arg1_1, ... in order (their sizes are also read from the
    wrapper's asserts). op_names: the short ATen op names of the function (to split a kernel's
    name into its ops). extern_dtype(op) -> itemsize of an extern op's result (the wrapper
    says its shape, not its dtype); why_extern(op) -> why inductor left the op to ATen."""
    defs = {}
    starts = [(m.start(), m.group(1)) for m in _DEF.finditer(code)]
    for i, (pos, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(code)
        defs[name] = _params(code[pos:end], name)
    body = code[code.find("def call("):] if "def call(" in code else ""
    arrays = {}
    for i, (numel, itemsize) in enumerate(inputs):
        arrays["arg%d_1" % i] = Array("arg%d_1" % i, numel, itemsize)
    alias = {}

    def root(b):
        while b in alias:
            b = alias[b]
        return b

    kernels = []
    pending_origin = None
    for line in body.splitlines():
        m = _ORIGINS.search(line)
        if m:
            pending_origin = tuple(short_op(o.strip()) for o in m.group(1).split(",") if o.strip())
            continue
        m = _EMPTY.match(line)
        if m:
            arrays[m.group(1)] = Array(m.group(1), _dims(m.group(2)),
                                       DTYPE_SIZES.get(m.group(4), 0))
            continue
        m = _ASSERT.match(line)
        if m:
            b = root(m.group(1))
            a = arrays.get(b)
            arrays[b] = Array(b, _dims(m.group(2)), a.itemsize if a else 0)
            continue
        m = _EXTERN.match(line)
        if m and "(" not in m.group(1):
            out, fn, argtext = m.group(1), m.group(2), m.group(3)
            parts = fn.replace("torch.ops.", "").split(".")
            op = ".".join(parts[:2])  # aten.gcd of torch.ops.aten.gcd.default
            args = re.findall(r"\b(buf\d+|arg\d+_\d+)\b", argtext)
            outkw = re.search(r"\bout=(\w+)", argtext)
            reads, seen = [], set()
            for a in args:
                if outkw and a == outkw.group(1):
                    continue
                r = root(a)
                if r not in seen:
                    seen.add(r)
                    reads.append(r)
            target = root(outkw.group(1)) if outkw else out
            if not outkw:
                arrays.setdefault(out, Array(out, 0, extern_dtype(op) if extern_dtype else 0))
            kernels.append(["extern", op, (short_op(op),), reads, [target],
                            why_extern(op) if why_extern else "", op])
            pending_origin = None
            continue
        m = _ALIAS.match(line)
        if m and m.group(2) in arrays or (m and m.group(2) in alias):
            alias[m.group(1)] = m.group(2)
            continue
        m = _REINTERPRET.search(line)
        if m and "=" in line.split("reinterpret_tensor")[0]:
            alias[line.split("=")[0].strip()] = m.group(1)
        m = re.match(r"^\s*(\w+)(?:\.run)?\((.*)\)\s*$", line)
        if m and m.group(1) in defs:
            name = m.group(1)
            args = [a.strip() for a in m.group(2).split(",")]
            reads, writes = [], []
            for p, a in zip(defs[name], args):
                role = _role(p)
                if not role or not re.match(r"^\w+$", a):
                    continue
                r = root(a)
                if "r" in role and r not in reads:
                    reads.append(r)
                if "w" in role and r not in writes:
                    writes.append(r)
            ops = pending_origin or kernel_ops(name, op_names)
            kernels.append(["generated", name, ops, reads, writes, "", None])
            pending_origin = None
    out = []
    for kind, name, ops, reads, writes, why, _ in kernels:
        def arr(b):
            a = arrays.get(b)
            return a if a is not None else Array(b, 0, 0)
        out.append(Kernel(name, ops, kind, tuple(arr(b) for b in reads),
                          tuple(arr(b) for b in writes), why))
    return out


def split_reasons(kernels):
    """Why the compiled graph has more than one kernel, as far as inductor's output says: the
    extern kernels' reasons (an op left to ATen cuts the chain there); "" when one kernel."""
    if len(kernels) <= 1:
        return ""
    why = ["%s: %s" % (k.name, k.why) for k in kernels if k.kind == "extern" and k.why]
    return "; ".join(why) if why else "inductor's output gives no reason"


# --------------------------------------------------------------------------------------------
# fusebench's op table
# --------------------------------------------------------------------------------------------

def _fmt(x):
    """A parameter as the config writes it: the shortest repr that reads back the same."""
    x = float(x)
    return repr(int(x)) if x == int(x) and abs(x) < 1e15 else repr(x)


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def map_chain(graph_nodes, max_ops=16):
    """fusebench's chain for the graph, or why there is none: (ops, order, "") with ops the
    config's list ("add", "relu", "scale(2)", ...) and order the placeholders' names in the
    order the chain reads them (a, then b), or (None, None, reason). The inputs' dtype and
    shapes are the caller's to check (fp32, 1-D, one size)."""
    placeholders = [n for n in graph_nodes if n.op == "placeholder"]
    calls = [n for n in graph_nodes if n.op == "call_function"]
    outputs = [n for n in graph_nodes if n.op == "output"]
    if not calls:
        return None, None, "no op"
    if len(calls) > max_ops:
        return None, None, "%d ops (a chain has at most %d)" % (len(calls), max_ops)
    ops, order, prev = [], None, None
    for i, node in enumerate(calls):
        name = short_op(op_name(node.target))
        args, kw = list(node.args), dict(node.kwargs)
        tensors = [a for a in args if _is_node(a)]
        scalars = [a for a in args if not _is_node(a)]
        if i == 0:
            if not all(t.op == "placeholder" for t in tensors):
                return None, None, "the first op does not read the inputs"
            if len(tensors) == 2 and name in ("add", "mul") and not scalars and not kw \
                    and tensors[0] is not tensors[1] and len(placeholders) == 2:
                ops.append(name)
                order = [tensors[0].name, tensors[1].name]
                prev = node
                continue
            if len(tensors) != 1 or len(placeholders) != 1:
                return None, None, ("the function has %d input%s and its first op, aten.%s, "
                                    "reads %d (a chain's first op is add or mul of two "
                                    "inputs, or a unary op of the only one)"
                                    % (len(placeholders), "" if len(placeholders) == 1
                                       else "s", name, len(tensors)))
            order = [tensors[0].name]
        else:
            if tensors != [prev] or len(prev.users) != 1:
                return None, None, "aten.%s does not take the previous op's result alone" % name
        op = _unary(name, scalars, kw)
        if op is None:
            return None, None, "aten.%s%s is not in fusebench's op table" % (
                name, "(%s)" % ", ".join(map(str, scalars)) if scalars else "")
        ops.append(op)
        prev = node
    if not outputs or list(outputs[0].args[0] if isinstance(outputs[0].args[0], (list, tuple))
                           else [outputs[0].args[0]]) != [prev]:
        return None, None, "the function returns more than the chain's last result"
    return ops, order, ""


def _unary(name, scalars, kw):
    """The op-table entry of a unary ATen op with its scalar arguments, or None."""
    if name == "relu" and not scalars and not kw:
        return "relu"
    if name == "sigmoid" and not scalars and not kw:
        return "sigmoid"
    if name == "gelu" and not scalars and kw.get("approximate") == "tanh":
        return "gelu"
    if name == "clone" and not scalars and not kw:
        return "copy"
    if name == "mul" and len(scalars) == 1 and _number(scalars[0]) and not kw:
        return "scale(%s)" % _fmt(scalars[0])
    if name in ("add", "sub") and len(scalars) == 1 and _number(scalars[0]) and not kw:
        c = scalars[0] if name == "add" else -scalars[0]
        return "bias(%s)" % _fmt(c)
    if name == "threshold" and len(scalars) == 2 and all(map(_number, scalars)) and not kw:
        return "threshold(%s, %s)" % (_fmt(scalars[0]), _fmt(scalars[1]))
    return None
