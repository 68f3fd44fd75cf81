#!/usr/bin/env python3
"""svg_text.py CHECK FILE.svg [ARG]: layout checks on the text gnuplot's svg terminal writes
(each text in <g transform="translate(x,y)[ rotate(a)]" ... font-size="s">), for
tests/plots/test_plot.sh. Exit 0 when the check holds, 1 with the reason on stderr.
  below-all TEXT  the text that starts with TEXT, and each line after it, lies a line's
                  spacing below every other text: a footnote on its own line
  level TEXT      every text that contains TEXT is drawn level (not rotated), and there is one
  count TEXT N    exactly N texts contain TEXT
  columns TEXT N  the texts below TEXT (the x axis' title: the key), the footnote aside, start
                  at N different x or more: a key in N columns"""
import re
import sys

TEXT = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)( rotate\([-\d.]+\))?"'
                  r'[^>]*?font-size="([\d.]+)"[^>]*>\s*<text>(.*?)</text>', re.S)


def texts(path):
    svg = open(path, encoding="utf-8").read()
    for m in TEXT.finditer(svg):
        words = re.sub(r"<[^>]+>", "", m.group(5))
        yield float(m.group(2)), m.group(3) is not None, float(m.group(4)), words, \
            float(m.group(1))


def main():
    check, path, arg = sys.argv[1], sys.argv[2], sys.argv[3]
    all_texts = list(texts(path))
    if check == "below-all":
        start = [i for i, t in enumerate(all_texts) if t[3].startswith(arg)]
        if not start:
            sys.exit(f"{path}: no text starts with {arg!r}")
        foot = [t for t in all_texts[start[0]:] if t[0] >= all_texts[start[0]][0]]
        others = [t for t in all_texts if t not in foot and not t[1]]
        # gnuplot places a text by its middle: a line of its own is a line's spacing (1.2
        # of the type) below every other
        first = min(t[0] for t in foot)
        low = max(others, key=lambda t: t[0])
        if first - low[0] < 1.2 * max(low[2], foot[0][2]):
            sys.exit(f"{path}: {arg!r} (at {first:.1f}) is not a line below {low[3]!r} "
                     f"(at {low[0]:.1f})")
    elif check == "level":
        hits = [t for t in all_texts if arg in t[3]]
        if not hits or any(t[1] for t in hits):
            sys.exit(f"{path}: {arg!r}: {len(hits)} texts, rotated: {[t[1] for t in hits]}")
    elif check == "count":
        n = sum(arg in t[3] for t in all_texts)
        if n != int(sys.argv[4]):
            sys.exit(f"{path}: {n} texts contain {arg!r}, not {sys.argv[4]}")
    elif check == "columns":
        top = [t[0] for t in all_texts if t[3] == arg]
        key = {round(t[4]) for t in all_texts
               if top and t[0] > top[0] and not t[1] and not t[3].startswith("hollow")}
        if len(key) < int(sys.argv[4]):
            sys.exit(f"{path}: the texts below {arg!r} start at {sorted(key)}, "
                     f"not in {sys.argv[4]} columns")
    else:
        sys.exit(f"svg_text.py: no check {check!r}")


main()
