#!/usr/bin/env python3
"""tools/audit_graph.py without torch: inductor's wrapper code (the call() of the gcd split,
as torch 2.11 generates it on the CPU, and a Triton one) read into kernels with the buffers
each reads and writes; the ops a kernel's name carries; the mapping of a graph onto
fusebench's op table (nodes made by hand); a view free and a reduction refused."""
import os
import sys
import unittest

SRC = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
import audit_graph as ag  # noqa: E402

# The parts of torch 2.11's wrapper for gcd_split (tests/scripts/audit_examples.py) at n=4096
# that the reader uses: the kernels' definitions (their signatures) and call().
GCD_WRAPPER = """
cpp_fused__to_copy_mul_0 = async_compile.cpp_pybinding(['const float*', 'const float*', 'int32_t*', 'int32_t*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0,
                       const float* in_ptr1,
                       int32_t* out_ptr0,
                       int32_t* out_ptr1)
{
}
''')


cpp_fused__to_copy_relu_1 = async_compile.cpp_pybinding(['const int32_t*', 'float*'], r'''
extern "C"  void  kernel(const int32_t* in_ptr0,
                       float* out_ptr0)
{
}
''')

class Runner:
    def call(self, args):
        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride(arg0_1, (4096, ), (1, ))
        assert_size_stride(arg1_1, (4096, ), (1, ))
        buf0 = empty_strided_cpu((4096, ), (1, ), torch.int32)
        buf1 = empty_strided_cpu((4096, ), (1, ), torch.int32)
        cpp_fused__to_copy_mul_0(arg0_1, arg1_1, buf0, buf1)
        del arg0_1
        del arg1_1
        # Topologically Sorted Source Nodes: [mul, int_1, mul_1, int_2, g], Original ATen: [aten.mul, aten._to_copy, aten.gcd]
        buf2 = torch.ops.aten.gcd.default(buf0, buf1)
        del buf0
        del buf1
        buf3 = buf2
        assert_size_stride(buf3, (4096, ), (1, ), 'torch.ops.aten.gcd.default')
        del buf2
        buf4 = empty_strided_cpu((4096, ), (1, ), torch.float32)
        cpp_fused__to_copy_relu_1(buf3, buf4)
        del buf3
        return (buf4, )
"""

TRITON_WRAPPER = """
triton_poi_fused_add_relu_0 = async_compile.triton('triton_poi_fused_add_relu_0', '''
@triton.jit
def triton_poi_fused_add_relu_0(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 1000
''', device_str='cuda')

class Runner:
    def call(self, args):
        arg0_1, arg1_1 = args
        assert_size_stride(arg0_1, (1000, ), (1, ))
        assert_size_stride(arg1_1, (1, ), (1, ))
        buf0 = empty_strided_cuda((1000, ), (1, ), torch.float32)
        buf1 = buf0; del buf0  # reuse
        stream0 = get_raw_stream(0)
        triton_poi_fused_add_relu_0.run(buf1, arg1_1, 1000, stream=stream0)
        return (buf1, )
"""


class Wrapper(unittest.TestCase):
    def test_gcd_split(self):
        ks = ag.compiled_kernels(GCD_WRAPPER, [(4096, 4), (4096, 4)],
                                 ["mul", "_to_copy", "gcd", "relu"],
                                 extern_dtype=lambda op: 4, why_extern=lambda op: "no lowering")
        self.assertEqual([(k.name, k.kind, k.ops) for k in ks], [
            ("cpp_fused__to_copy_mul_0", "generated", ("_to_copy", "mul")),
            ("aten.gcd", "extern", ("gcd",)),
            ("cpp_fused__to_copy_relu_1", "generated", ("_to_copy", "relu"))])
        self.assertEqual([[a.name for a in k.reads] for k in ks],
                         [["arg0_1", "arg1_1"], ["buf0", "buf1"], ["buf2"]])
        self.assertEqual([[a.name for a in k.writes] for k in ks],
                         [["buf0", "buf1"], ["buf2"], ["buf4"]])
        self.assertEqual(ag.transfers(ks), (9, 9 * 4096 * 4))
        self.assertEqual(ag.split_reasons(ks), "aten.gcd: no lowering")

    def test_triton_in_out_and_broadcast(self):
        """in_out_ptr0 is read and written (one array, two transfers); the (1,) operand
        costs its own 4 bytes."""
        ks = ag.compiled_kernels(TRITON_WRAPPER, [(1000, 4), (1, 4)], ["add", "relu"])
        self.assertEqual(len(ks), 1)
        self.assertEqual(ks[0].ops, ("add", "relu"))
        self.assertEqual(ag.transfers(ks), (3, 1000 * 4 + 4 + 1000 * 4))

    def test_cpp_types_with_namespaces(self):
        """A bf16 kernel's parameters are at::BFloat16*: the :: is not an annotation."""
        code = GCD_WRAPPER.replace("const float* in_ptr0", "const at::BFloat16* in_ptr0")
        ks = ag.compiled_kernels(code, [(4096, 2), (4096, 2)], [])
        self.assertEqual([a.name for a in ks[0].reads], ["arg0_1", "arg1_1"])

    def test_kernel_ops(self):
        self.assertEqual(ag.kernel_ops("cpp_fused_add_relu_special_i0e_0",
                                       ["add", "special_i0e", "relu"]),
                         ("add", "relu", "special_i0e"))
        self.assertEqual(ag.kernel_ops("triton_poi_fused__to_copy_mul_3", ["mul", "_to_copy"]),
                         ("_to_copy", "mul"))
        self.assertEqual(ag.kernel_ops("cpp_fused_add_gelu_1", []), ("add", "gelu"))


class Target:
    def __init__(self, name, tags=("pointwise",)):
        self.__name__ = name
        self.overloadpacket = self
        self.namespace = "aten"
        self.tags = tags


class Val:
    def __init__(self, *shape, itemsize=4):
        self.shape = shape
        self.dtype = type("D", (), {"itemsize": itemsize})()


class Node:
    def __init__(self, name, op, target=None, args=(), kwargs=None, val=None):
        self.name, self.op, self.target = name, op, target
        self.args, self.kwargs = tuple(args), dict(kwargs or {})
        self.meta = {"val": val} if val is not None else {}
        self.users = {}
        for a in args:
            if isinstance(a, Node):
                a.users[self] = None


def graph(*specs, n=8):
    """Nodes of a chain: placeholders a, b then (op, args with "prev"/"a"/"b", kwargs)."""
    a = Node("a_1", "placeholder", val=Val(n))
    b = Node("b_1", "placeholder", val=Val(n))
    nodes, env = [a, b], {"a": a, "b": b}
    for i, (op, args, kw) in enumerate(specs):
        tags = () if op in ag.VIEW_OPS or op == "sum" else ("pointwise",)
        node = Node("n%d" % i, "call_function", Target(op, tags),
                    [env.get(x, x) if isinstance(x, str) else x for x in args], kw, Val(n))
        env["prev"] = node
        nodes.append(node)
    nodes.append(Node("output", "output", args=(env["prev"],)))
    return nodes


class Mapping(unittest.TestCase):
    def test_add_relu(self):
        nodes = graph(("add", ["a", "b"], {}), ("relu", ["prev"], {}))
        self.assertEqual(ag.map_chain(nodes), (["add", "relu"], ["a_1", "b_1"], ""))
        ks = ag.eager_kernels(nodes, "pointwise")
        self.assertEqual(ag.transfers(ks), (5, 5 * 8 * 4))

    def test_params(self):
        nodes = graph(("mul", ["b", "a"], {}), ("add", ["prev", 0.5], {}),
                      ("mul", ["prev", 2], {}), ("sub", ["prev", 1.5], {}),
                      ("threshold", ["prev", 0.25, -1.0], {}),
                      ("gelu", ["prev"], {"approximate": "tanh"}), ("sigmoid", ["prev"], {}))
        self.assertEqual(ag.map_chain(nodes)[:2], (
            ["mul", "bias(0.5)", "scale(2)", "bias(-1.5)", "threshold(0.25, -1)", "gelu",
             "sigmoid"], ["b_1", "a_1"]))

    def test_not_mapped(self):
        erf = graph(("add", ["a", "b"], {}), ("gelu", ["prev"], {}))
        self.assertIn("aten.gelu is not in fusebench's op table", ag.map_chain(erf)[2])
        second_binary = graph(("mul", ["a", 2], {}), ("add", ["prev", "b"], {}))
        self.assertIsNone(ag.map_chain(second_binary)[0])
        alpha = graph(("add", ["a", "b"], {}), ("add", ["prev", 1.0], {"alpha": 2}))
        self.assertIsNone(ag.map_chain(alpha)[0])

    def test_view_free_reduction_refused(self):
        nodes = graph(("add", ["a", "b"], {}), ("view", ["prev", [-1, 2]], {}),
                      ("sigmoid", ["prev"], {}))
        self.assertEqual(len(ag.eager_kernels(nodes, "pointwise")), 2)
        summed = graph(("add", ["a", "b"], {}), ("sum", ["prev"], {}))
        with self.assertRaises(ag.NotElementwise) as e:
            ag.eager_kernels(summed, "pointwise")
        self.assertEqual(e.exception.op, "aten.sum")

    def test_expanded_operand_at_its_own_size(self):
        """bias.expand_as(x) + x: the expand is free and the add reads bias's 1 element."""
        x = Node("x_1", "placeholder", val=Val(8))
        bias = Node("bias_1", "placeholder", val=Val(1))
        exp = Node("expand", "call_function", Target("expand", ()), [bias, [8]], None, Val(8))
        add = Node("add", "call_function", Target("add"), [x, exp], None, Val(8))
        nodes = [x, bias, exp, add, Node("output", "output", args=(add,))]
        (k,) = ag.eager_kernels(nodes, "pointwise")
        self.assertEqual([(a.name, a.numel) for a in k.reads], [("x_1", 8), ("bias_1", 1)])
        self.assertEqual(ag.transfers([k]), (3, (8 + 1 + 8) * 4))


class Model(unittest.TestCase):
    """tools/torch_audit.py's fit_of: the fitted model's time and shares per mode, at the
    bandwidth of the call's regime, from libfbpeer's fbp_fit_model (no torch needed to import
    it)."""

    def test_regimes(self):
        if os.environ.get("FB_SANITIZED"):
            # python loads the sanitized libfbpeer without the sanitizers' runtime first;
            # test_peer and test_peer_ctypes test fbp_fit_model under them (LD_PRELOAD)
            self.skipTest("a %s build: libfbpeer does not load into python here"
                          % os.environ["FB_SANITIZED"])
        import fbpeer
        import torch_audit as ta
        build = os.path.dirname(os.environ.get("FB_FUSEBENCH") or
                                os.path.join(SRC, "build", "fusebench"))
        lib = fbpeer.load(fbpeer.default_path(build))
        fit = {"launch_s": 1e-6, "bandwidth_gbps": 20.0, "cache_bandwidth_gbps": 50.0}
        k = ag.Kernel("k", ("add",), "aten", (ag.Array("a", 1000, 4),),
                      (ag.Array("c", 1000, 4),), "")
        pred = {"eager": [k, k], "compiled": [k]}  # 16000 and 8000 bytes
        counted = {"eager": (2, None, []), "compiled": (1, None, [])}
        out = ta.fit_of(lib, fit, pred, counted, "x.csv", cache_bytes=20000)
        self.assertEqual(out["compiled"]["regime"], "cache-resident")  # 8000 <= 10000
        self.assertAlmostEqual(out["compiled"]["model_s"], 1e-6 + 8000 / 50e9)
        self.assertTrue(out["eager"]["regime"].startswith("between"))  # 16000 < 80000
        out = ta.fit_of(lib, fit, pred, counted, "x.csv", cache_bytes=2000)
        self.assertEqual(out["eager"]["regime"], "memory-bound")  # 16000 >= 8000
        self.assertAlmostEqual(out["eager"]["launch_share"],
                               2e-6 / (2e-6 + 16000 / 20e9))
        self.assertIn("no fit", ta.fit_of(lib, {"launch_s": None}, pred, counted)["na"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
