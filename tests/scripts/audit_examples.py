"""Functions with known answers for tools/torch_audit.py (tests/scripts/test_torch_audit.py
checks them on the CPU) and for its docs (docs/torch-audit.md)."""
import torch


def add_relu(a, b):
    """The tutorial's chain: eager 2 kernels / 5 transfers, compiled 1 / 3; fusebench's
    chain add, relu."""
    return (a + b).relu()


def scale_bias_sigmoid_relu(x, b):
    """x * 2 + b, then sigmoid, then relu: fusebench's mul is of two arrays, so x * 2 is
    scale(2) and + b a binary add after it: not a chain (its first op reads one input, the
    second another)."""
    return torch.relu(torch.sigmoid(x * 2 + b))


def mul_bias_gelu_sigmoid(a, b):
    """A longer chain that maps: mul, bias(0.5), gelu (tanh), sigmoid."""
    y = torch.nn.functional.gelu(a * b + 0.5, approximate="tanh")
    return torch.sigmoid(y)


def gcd_split(x, y):
    """Inductor splits it: aten.gcd has no lowering, so it runs as ATen's kernel between two
    generated ones (mul, _to_copy before; _to_copy, relu after)."""
    g = torch.gcd((x * 100).int(), (y * 100).int())
    return g.float().relu()


def broadcast_bias(x, bias):
    """With --shape bias=1 (or N/k): bias is read at its own size."""
    return torch.relu(x + bias)


def view_in_middle(x, y):
    """A view between the ops is free: 2 kernels eagerly, one compiled."""
    z = (x + y).view(-1, 2)
    return torch.sigmoid(z).reshape(-1)


def reduction(x, y):
    """Not elementwise: refused naming aten.sum."""
    return (x + y).sum()


def matmul(x, y):
    return torch.mm(x, y)


NOT_A_FUNCTION = 3


def zeta(x, y):
    """Elementwise, but torch has no CPU kernel of zeta for fp16: --dtype fp16 is refused."""
    return torch.special.zeta(x + 2.0, y + 1.0)
