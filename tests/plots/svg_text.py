#!/usr/bin/env python3
"""svg_text.py CHECK FILE.svg [ARG]: layout checks on the text gnuplot's svg terminal writes
(each text in <g transform="translate(x,y)[ rotate(a)]" ... font-size="s">), for
tests/plots/test_plot.sh. Exit 0 when the check holds, 1 with the reason on stderr.
  below-all TEXT  the text that starts with TEXT, and each line after it, lies a line's
                  spacing below every other text: a footnote on its own line
  level TEXT      every text that contains TEXT is drawn level (not rotated), and there is one
  count TEXT N    exactly N texts contain TEXT
  columns TEXT N  the texts below TEXT (the x axis' title: the key), the footnote aside, start
                  at N different x or more: a key in N columns
  tick-labels TEXT  every text that contains TEXT, and there is one, is anchored at its end:
                  a y tick label beside the axis, not a label over the data
  in-key TEXT     every text that starts with TEXT, and there is one, lies below the x axis'
                  title "n (elements ...)": in the key under the plot, not in the plot
  lines-apart TEXT  the texts that contain TEXT, and there are two, lie 1.3 of their type
                  (font-size) apart: none runs into the next (at 1.16 an underscore reached
                  the row below)
  y-ticks-apart   the y axis' tick labels (the plain numbers drawn furthest left, at one x)
                  lie a line of their type apart: none runs into the next
  clear-of-points TEXT...  each text in the plot (above the x axis' title) that starts with
                  one of TEXTs is clear of the data: no point drawn (a marker, centre and
                  size) reaches into its box (the text's estimated width, a character 0.6 of
                  its type, by its anchor; from 0.8 of the type above where gnuplot puts it
                  to 0.3 below); none in the plot passes"""
import re
import sys

POINT = re.compile(r"<use xlink:href='#gpPt\d+' transform='translate\(([-\d.]+),([-\d.]+)\)"
                   r" scale\(([\d.]+)\)'")
ANCHOR = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*?font-size="([\d.]+)"'
                    r'[^>]*?text-anchor="(\w+)"[^>]*>\s*<text>(.*?)</text>', re.S)

TEXT = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)( rotate\([-\d.]+\))?"'
                  r'[^>]*?font-size="([\d.]+)"[^>]*>\s*<text>(.*?)</text>', re.S)


def texts(path):
    svg = open(path, encoding="utf-8").read()
    for m in TEXT.finditer(svg):
        words = re.sub(r"<[^>]+>", "", m.group(5))
        yield float(m.group(2)), m.group(3) is not None, float(m.group(4)), words, \
            float(m.group(1))


def main():
    check, path, arg = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
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
    elif check == "tick-labels":
        hits = [m.group(4) for m in ANCHOR.finditer(open(path, encoding="utf-8").read())
                if arg in m.group(5)]
        if not hits or set(hits) != {"end"}:
            sys.exit(f"{path}: {arg!r}: {len(hits)} texts anchored {sorted(set(hits))}, "
                     f"not y tick labels (end)")
    elif check == "in-key":
        axis = [t[0] for t in all_texts if t[3].startswith("n (elements")]
        hits = [t for t in all_texts if t[3].startswith(arg)]
        if not axis or not hits or any(t[0] <= axis[0] for t in hits):
            sys.exit(f"{path}: {arg!r} at {[t[0] for t in hits]}, not below the x axis' "
                     f"title at {axis}")
    elif check == "lines-apart":
        hits = sorted((t[0], t[2]) for t in all_texts if arg in t[3])
        gaps = [(b[0] - a[0]) / max(a[1], b[1]) for a, b in zip(hits, hits[1:])]
        if len(hits) < 2 or min(gaps) < 1.3:
            sys.exit(f"{path}: {len(hits)} texts contain {arg!r}, the closest "
                     f"{min(gaps, default=0):.2f} of their type apart, not 1.3")
    elif check == "y-ticks-apart":
        nums = [t for t in all_texts if not t[1] and re.fullmatch(r"\s*-?[\d.]+\s*", t[3])]
        left = min(t[4] for t in nums) if nums else 0
        ticks = sorted(t[0] for t in nums if abs(t[4] - left) < 1)
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        size = max((t[2] for t in nums), default=0)
        if len(ticks) < 2 or min(gaps) < size:
            sys.exit(f"{path}: y tick labels at {ticks} ({size} type): closer than a line")
    elif check == "clear-of-points":
        svg = open(path, encoding="utf-8").read()
        axis = [t[0] for t in all_texts if t[3].startswith("n (elements")]
        bottom = axis[0] if axis else float("inf")
        points = [(float(x), float(y), float(r)) for x, y, r in POINT.findall(svg)
                  if float(y) < bottom]
        for m in ANCHOR.finditer(svg):
            x, y, size, anchor = float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4)
            words = re.sub(r"<[^>]+>", "", m.group(5))
            if y >= bottom or not any(words.startswith(a) for a in sys.argv[3:]):
                continue
            w = 0.6 * size * len(words)
            left = x if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
            top, low = y - 0.8 * size, y + 0.3 * size
            hits = [p for p in points if left - p[2] < p[0] < left + w + p[2]
                    and top - p[2] < p[1] < low + p[2]]
            if hits:
                sys.exit(f"{path}: {words!r} (x {left:.0f}..{left + w:.0f}, y {top:.0f}.."
                         f"{low:.0f}) lies on {len(hits)} data points, as at "
                         f"({hits[0][0]:.0f}, {hits[0][1]:.0f})")
    else:
        sys.exit(f"svg_text.py: no check {check!r}")


main()
