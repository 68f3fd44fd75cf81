#!/usr/bin/env python3
"""Every hand-written list of the ops says what the op table (kernels/op_table.h) says: the
same names, no more and no fewer, and where a list writes an op's parameters, as many as the
table gives it. The lists are the ones docs/adding-an-op.md names as going stale (the
semantics block of kernels/elementwise_ops.h, the exact ops of kernels/elementwise_contract.h,
the ops paragraphs of docs/reference.md and docs/measurement.md); the others (configs/
default.ini, the peer's TORCH_OPS, the "unknown op" message) are checked by their own tests.
Each list is found by a phrase that opens it and one that closes it; a list that cannot be
found fails too, so a rewrite of the text cannot silently drop the check. The second test holds
the checker to made-up lists with an op missing, one too many and a wrong parameter count.

usage: test_op_lists.py   (the repository root from FB_SOURCE_DIR, else two levels up)"""
import os
import re
import sys
import unittest

ROOT = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")

# X(NAME, ARITY, N_PARAMS, PARAM_NAMES, ULP_BOUND) in FB_OP_TABLE.
TABLE_ROW = re.compile(r'^\s*X\(\s*(\w+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*"([^"]*)"\s*,\s*(\d+)\s*\)')


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def op_table(text):
    """{name: (n_params, ulp_bound)} from op_table.h's FB_OP_TABLE rows, in table order."""
    ops = {}
    for line in text.split("\n"):
        m = TABLE_ROW.match(line)
        if m:
            ops[m.group(1)] = (int(m.group(3)), int(m.group(5)))
    if not ops:
        raise AssertionError("kernels/op_table.h: no X(...) rows found in FB_OP_TABLE")
    return ops


def between(text, opening, closing, where):
    """The text from the phrase `opening` to the phrase `closing` after it."""
    start = text.find(opening)
    if start < 0:
        raise AssertionError(f"{where}: the op list's opening phrase {opening!r} is gone")
    end = text.find(closing, start + len(opening))
    if end < 0:
        raise AssertionError(f"{where}: the op list's closing phrase {closing!r} is gone")
    return text[start + len(opening):end]


def mentions(span, names):
    """{name: n_params or None} for each op name the span mentions as a word, with the number
    of comma-separated parameters when the name is followed by '(...)' (None without)."""
    found = {}
    for m in re.finditer(r"\b(\w+)\b(\(([^()]*)\))?", span):
        name = m.group(1)
        if name not in names:
            continue
        inner = m.group(3)
        count = None if inner is None else len([p for p in inner.split(",") if p.strip()])
        if found.get(name) is None:
            found[name] = count
    return found


def problems(where, found, expected, params, skip_params=()):
    """What is wrong with a list: missing ops, ops that should not be there, wrong counts.
    `params` maps an op to its parameter count; skip_params names ops whose parentheses in
    this list hold operands, not parameters (the semantics block writes relu(x))."""
    out = []
    missing = [n for n in expected if n not in found]
    extra = [n for n in found if n not in expected]
    if missing:
        out.append(f"{where}: missing {', '.join(missing)} (in the op table)")
    if extra:
        out.append(f"{where}: lists {', '.join(extra)}, which this list must not hold")
    for name, count in found.items():
        if name in expected and count is not None and name not in skip_params \
                and count != params[name]:
            out.append(f"{where}: {name} written with {count} parameter(s), "
                       f"the table gives it {params[name]}")
    return out


def check_repository():
    ops = op_table(read("kernels/op_table.h"))
    params = {n: p for n, (p, _) in ops.items()}
    every = list(ops)
    exact = [n for n, (_, ulp) in ops.items() if ulp == 0]
    # Words that are op names but mean something else in these texts ("copy" as a verb, "add"
    # in prose) are avoided by the spans: each is just the list.
    lists = [
        ("kernels/elementwise_ops.h (semantics block)",
         between(read("kernels/elementwise_ops.h"), "Semantics follow PyTorch:", "relu is threshold",
                 "kernels/elementwise_ops.h"), every, every),
        ("kernels/elementwise_contract.h (the exact ops)",
         between(read("kernels/elementwise_contract.h"), "is 0:\n", "(each one IEEE-754",
                 "kernels/elementwise_contract.h"), exact, ()),
        ("docs/reference.md (the ops paragraph)",
         between(read("docs/reference.md"), "the config\naccepts exactly those):", "Example:",
                 "docs/reference.md"), every, ()),
        ("docs/measurement.md (your own chains)",
         between(read("docs/measurement.md"), "[kernels/op_table.h](../kernels/op_table.h):",
                 "Exact ops are checked", "docs/measurement.md"), every, ()),
    ]
    out = []
    for where, span, expected, skip in lists:
        # The semantics block writes every op with its operands: x, a, b, then the parameters.
        found = mentions(span, set(ops))
        if skip:
            found = {n: None for n in found}
        out += problems(where, found, expected, params, skip)
    return out


class OpLists(unittest.TestCase):
    def test_every_hand_written_op_list_matches_the_table(self):
        self.assertEqual(check_repository(), [])

    def test_the_checker_catches_a_missing_an_extra_and_a_miscounted_op(self):
        table = op_table('X(add, 2, 0, "", 0) \\\n X(bias, 1, 1, "offset", 0) \\\n'
                         ' X(gelu, 1, 0, "", 256)\n')
        self.assertEqual(table, {"add": (0, 0), "bias": (1, 0), "gelu": (0, 256)})
        params = {n: p for n, (p, _) in table.items()}
        found = mentions("ops: `add`, `bias(a, b)`, `gelu`, `relu`", {"add", "bias", "gelu"})
        self.assertEqual(found, {"add": None, "bias": 2, "gelu": None})
        got = problems("x", found, ["add", "bias", "gelu"], params)
        self.assertEqual(got, ["x: bias written with 2 parameter(s), the table gives it 1"])
        got = problems("x", mentions("add, gelu", set(table)), ["add", "bias"], params)
        self.assertEqual(got, ["x: missing bias (in the op table)",
                               "x: lists gelu, which this list must not hold"])
        with self.assertRaises(AssertionError):
            between("no such text", "Semantics follow PyTorch:", "relu is", "f")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
