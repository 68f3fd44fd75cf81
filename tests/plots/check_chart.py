#!/usr/bin/env python3
"""check_chart.py [--min-pt P] [--in-page] [--edges] FILE...: exit 0 when every file is a complete chart of its format, checked
independently of fusebench's own checks (src/chart/chart_file.c): a PNG's signature, every
chunk's CRC (zlib), IHDR first, IEND last with nothing after; an SVG parsed by expat (well-
formed XML, valid UTF-8) with an <svg> root; a PDF's header, its %%EOF trailer, startxref
pointing at an xref table whose entries point at their objects, and every font embedded
(as many /FontFile streams as font descriptors) and, with --min-pt, no text in it under P
points at 1:1 and, with --in-page, no word of it outside the page (pdftotext -bbox's word
boxes, poppler-utils: gnuplot says nothing of a key line or an axis title drawn past the
page's edge) and every word of the SVG beside it drawn in it (cairo drops key rows silently) and, with --edges, a PNG with nothing drawn in the two pixels at its left and
right edges (a key's samples or a tick label run off the page: cut, which no text position
shows). Prints
what is wrong with each bad file."""
import math
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib


def png_problem(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    at, first = 8, True
    while True:
        if len(data) - at < 12:
            return "truncated (no IEND)"
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if len(body) < length or len(data) < at + 12 + length:
            return "a chunk runs past the end"
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            return "bad CRC in %r" % kind
        if first and kind != b"IHDR":
            return "first chunk is not IHDR"
        first = False
        at += 12 + length
        if kind == b"IEND":
            return None if at == len(data) else "bytes after IEND"


def svg_problem(path):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, UnicodeError) as e:
        return "not well-formed XML: %s" % e
    return None if root.tag.endswith("svg") else "root is not <svg>"


def png_edges_drawn(data):
    """The rows of an 8-bit RGB(A) PNG that have a pixel other than the top left one (the
    background) in their two leftmost or two rightmost columns: the IDAT data inflated and
    unfiltered (PNG's five filters)."""
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None:
        return ["not 8-bit RGB or RGBA (%d, %d)" % (depth, colour)]
    raw, at = b"", 8
    chunks = []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            chunks.append(data[at + 8:at + 8 + length])
        at += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b, c = prev[i], prev[i - channels] if i >= channels else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    background = rows[0][:channels]
    edges = [x * channels for x in (0, 1, width - 2, width - 1)]
    return ["row %d" % y for y, line in enumerate(rows)
            if any(line[x:x + channels] != background for x in edges)]


def pdf_type_sizes(data):
    """The sizes in points of the PDF's texts: each BT..ET block's Tf size times its Tm
    matrix's scale, in every content stream (cairo's are deflated; its page matrix is
    1 0 0 -1 0 h, no scale)."""
    sizes = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            body = zlib.decompress(m.group(1))
        except zlib.error:
            body = m.group(1)
        for bt in re.findall(rb"\bBT\b(.*?)\bET\b", body, re.S):
            tf = re.search(rb"([-\d.]+)\s+Tf\b", bt)
            tm = re.search(rb"([-\d.]+)\s+([-\d.]+)\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+"
                           rb"[-\d.]+\s+Tm\b", bt)
            if tf:
                scale = 1.0 if not tm else math.hypot(float(tm.group(1)), float(tm.group(2)))
                sizes.append(float(tf.group(1)) * scale)
    return sizes


def pdf_words_outside(data):
    """The words of the PDF that lie outside its page, more than a quarter point (pdftotext's
    word boxes: the glyphs' advance widths and the font's ascent and descent). pdftotext drops
    every character wholly outside the page, so it reads a copy whose MediaBox is 1000 points
    wider on every side (poppler rebuilds the xref the longer box shifts)."""
    box = re.search(rb"/MediaBox \[ *0 0 ([\d.]+) ([\d.]+) *\]", data)
    if not box:
        return ["no MediaBox [ 0 0 w h ]"]
    width, height = float(box.group(1)), float(box.group(2))
    wide = data.replace(box.group(0), b"/MediaBox [ -1000 -1000 %g %g ]" % (width + 1000,
                                                                          height + 1000))
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(wide)
        f.flush()
        out = subprocess.run(["pdftotext", "-bbox", f.name, "-"], capture_output=True,
                             check=True, text=True, errors="replace").stdout
    num = r'="([-\d.]+)"'
    outside = []
    for w in re.finditer(r"<word xMin%s yMin%s xMax%s yMax%s>(.*)</word>" % ((num,) * 4), out):
        x0, y0, x1, y1 = (float(w.group(i)) - 1000 for i in range(1, 5))
        if x0 < -0.25 or x1 > width + 0.25:
            outside.append("%s (x %.1f..%.1f of %g)" % (w.group(5), x0, x1, width))
        elif y0 < -0.25 or y1 > height + 0.25:
            outside.append("%s (y %.1f..%.1f of %g)" % (w.group(5), y0, y1, height))
    return outside


def pdf_problem(data, min_pt=None):
    if not re.match(rb"%PDF-[12]\.[0-9]", data):
        return "no %PDF-1.x header"
    if not data.rstrip().endswith(b"%%EOF"):
        return "no %%EOF at the end"
    m = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data)
    if not m:
        return "no startxref before %%EOF"
    xref = int(m.group(1))
    if data[xref:xref + 4] != b"xref":
        return "startxref (%d) does not point at an xref table" % xref
    head = re.match(rb"xref\s+(\d+)\s+(\d+)\s+", data[xref:])
    if not head:
        return "a malformed xref table"
    first, count = int(head.group(1)), int(head.group(2))
    at = xref + head.end()
    for i in range(count):
        entry = data[at + 20 * i:at + 20 * i + 18].split()
        if len(entry) != 3:
            return "a malformed xref entry %d" % (first + i)
        if entry[2] == b"n":
            off = int(entry[0])
            if not re.match(rb"%d\s+\d+\s+obj" % (first + i), data[off:off + 32]):
                return "xref entry %d does not point at its object" % (first + i)
    descriptors = len(re.findall(rb"/Type\s*/FontDescriptor", data))
    embedded = len(re.findall(rb"/FontFile[23]?\b", data))
    if descriptors > embedded:
        return "%d fonts, %d embedded" % (descriptors, embedded)
    if min_pt is not None:
        sizes = pdf_type_sizes(data)
        if not sizes or min(sizes) < min_pt - 0.005:
            return "text at %s points, under %g" % (
                sorted({round(x, 2) for x in sizes if x < min_pt}) or "no", min_pt)
    return None


def pdf_words_missing(path, data):
    """The words of the SVG drawn beside a PDF (same name, .svg) that the PDF lacks: cairo
    leaves out key rows it cannot place (a key `at` a point with more rows than its count of
    columns holds) without a warning, where gnuplot's svg terminal, measuring text its own
    way, draws them. Words of three characters or more (fp16), each found once at least (the
    SVG draws a boxed label twice); the PDF's text read with its spaces and hyphens taken
    out (a label split over two lines, "memory-" "bound")."""
    try:
        svg = open(path[:-4] + ".svg", encoding="utf-8").read()
    except OSError:
        return []
    texts = re.findall(r"<text>(.*?)</text>", svg, re.S)
    words = [w for t in texts for w in re.findall(r"[A-Za-z_][A-Za-z_0-9]{2,}", re.sub(r"<[^>]+>", "", t))]
    pdf = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True,
                         check=True).stdout.decode("utf-8", "replace")
    flat = re.sub(r"[\s\-]+", "", pdf)
    return sorted({w for w in words if w not in flat})


def main(paths):
    min_pt, in_page = None, False
    if paths[:1] == ["--min-pt"]:
        min_pt, paths = float(paths[1]), paths[2:]
    if paths[:1] == ["--in-page"]:
        in_page, paths = True, paths[1:]
    edges = paths[:1] == ["--edges"]
    paths = paths[1:] if edges else paths
    bad = 0
    for p in paths:
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError as e:
            print("%s: %s" % (p, e))
            bad += 1
            continue
        problem = png_problem(data) if p.endswith(".png") else svg_problem(p) \
            if p.endswith(".svg") else pdf_problem(data, min_pt) if p.endswith(".pdf") \
            else "not a .png, .svg or .pdf"
        if not problem and in_page and p.endswith(".pdf"):
            outside = pdf_words_outside(data)
            missing = pdf_words_missing(p, data)
            if outside:
                problem = "text outside the page: " + ", ".join(outside)
            elif missing:
                problem = "words of the SVG not drawn in the PDF: " + ", ".join(missing)
        if not problem and edges and p.endswith(".png"):
            drawn = png_edges_drawn(data)
            if drawn:
                problem = "drawn at the page's left or right edge: %s" % ", ".join(
                    drawn[:3] + (["..."] if len(drawn) > 3 else []))
        if problem:
            print("%s: %s" % (p, problem))
            bad += 1
    return 1 if bad or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
