#!/usr/bin/env python3
"""docs/colab.ipynb as committed: valid JSON in nbformat 4, every code cell with its outputs
cleared (no execution count, no output: a run's numbers and images never land in the tree),
each code cell after a markdown cell that says what it does, each code cell valid Python, the
clone URL a variable of the first code cell, and the config it runs in the repository. Running
it is .ci/check_notebook.sh's job (minutes). The second test holds the checker to a made-up
notebook with each of those faults.

usage: test_notebook.py   (the repository root from FB_SOURCE_DIR, else two levels up)"""
import ast
import json
import os
import re
import sys
import unittest

ROOT = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
NOTEBOOK = os.path.join("docs", "colab.ipynb")


def source(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def problems(root, rel):
    """What is wrong with the notebook root/rel, one line each."""
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, ValueError) as e:
        return ["%s: not a readable JSON file: %s" % (rel, e)]
    if nb.get("nbformat") != 4:
        return ["%s: nbformat %r, not 4" % (rel, nb.get("nbformat"))]
    out = []
    cells = nb.get("cells", [])
    codes = [(i, c) for i, c in enumerate(cells) if c.get("cell_type") == "code"]
    if not codes:
        out.append("%s: no code cell" % rel)
    for i, cell in codes:
        where = "%s: cell %d" % (rel, i)
        if cell.get("outputs"):
            out.append("%s: has outputs (clear them before committing)" % where)
        if cell.get("execution_count") is not None:
            out.append("%s: has an execution count (clear the outputs)" % where)
        if i == 0 or cells[i - 1].get("cell_type") != "markdown" or not source(cells[i - 1]).strip():
            out.append("%s: no markdown cell before it saying what it does" % where)
        try:
            ast.parse(source(cell))
        except SyntaxError as e:
            out.append("%s: not valid Python: %s (line %s)" % (where, e.msg, e.lineno))
    if codes and not re.search(r"^REPO_URL = ", source(codes[0][1]), re.M):
        out.append("%s: the first code cell does not set REPO_URL" % rel)
    for config in sorted(set(re.findall(r"\bconfigs/[\w.-]+\.ini\b",
                                        "".join(source(c) for _, c in codes)))):
        if not os.path.isfile(os.path.join(root, config)):
            out.append("%s: runs %s, which is not in the repository" % (rel, config))
    return out


class Notebook(unittest.TestCase):
    def test_the_committed_notebook_is_clean_and_valid(self):
        found = problems(ROOT, NOTEBOOK)
        self.assertEqual(found, [], "\n".join(found))

    def test_each_fault_is_reported(self):
        import tempfile
        nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
            {"cell_type": "code", "metadata": {}, "execution_count": 3,
             "source": ["URL = 'x'\n", "!./sweep configs/none.ini\n"],
             "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\n"}]},
            {"cell_type": "markdown", "metadata": {}, "source": "runs it"},
            {"cell_type": "code", "metadata": {}, "execution_count": None,
             "source": "print('fine')", "outputs": []}]}
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "nb.ipynb"), "w") as f:
                json.dump(nb, f)
            with open(os.path.join(d, "broken.ipynb"), "w") as f:
                f.write("{\"cells\": [")
            found = problems(d, "nb.ipynb")
            broken = problems(d, "broken.ipynb")
        self.assertEqual(found, [
            "nb.ipynb: cell 0: has outputs (clear them before committing)",
            "nb.ipynb: cell 0: has an execution count (clear the outputs)",
            "nb.ipynb: cell 0: no markdown cell before it saying what it does",
            "nb.ipynb: cell 0: not valid Python: invalid syntax (line 2)",
            "nb.ipynb: the first code cell does not set REPO_URL",
            "nb.ipynb: runs configs/none.ini, which is not in the repository"])
        self.assertEqual(len(broken), 1)
        self.assertIn("not a readable JSON file", broken[0])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
