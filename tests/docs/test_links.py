#!/usr/bin/env python3
"""Every relative link and image in README.md and docs/**/*.md resolves: the file or directory it
names exists inside the repository, and a #fragment names a heading of the Markdown file it
points at (GitHub's anchors: lower case, punctuation dropped, spaces as '-'). Text in code (a
fenced block, an inline code span) holds no links; absolute URLs are not followed (no network).
The second test holds the checker to a made-up tree with a broken link, image and anchor.

usage: test_links.py   (the repository root from FB_SOURCE_DIR, else two levels up)"""
import os
import re
import sys
import tempfile
import unittest

ROOT = os.environ.get("FB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")

# [text](target "title") and ![alt](target): the target up to a space or the closing ')'.
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
FENCE = re.compile(r"^ {0,3}(```|~~~)")


def prose_lines(text):
    """The lines of a Markdown text with code removed: fenced blocks blanked, inline code spans
    replaced by spaces (line numbers are kept)."""
    out, fence = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1) == fence:
                fence = None
            out.append("")
            continue
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"(`+)(.+?)\1", lambda c: " " * len(c.group(0)), line))
    return out


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"[`*_~]|<[^>]*>", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    with open(path, encoding="utf-8") as f:
        for line in prose_lines(f.read()):
            m = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def targets(path):
    """(line number, target) of every link, image and reference definition of a file."""
    with open(path, encoding="utf-8") as f:
        lines = prose_lines(f.read())
    for i, line in enumerate(lines, 1):
        for pattern in (INLINE, HTML):
            for m in pattern.finditer(line):
                yield i, m.group(1)
        m = REF_DEF.match(line)
        if m:
            yield i, m.group(1)


def broken_links(root, files):
    """'file:line: target: why' for each link of files (paths under root) that does not
    resolve."""
    root = os.path.realpath(root)
    problems = []
    for rel in files:
        path = os.path.join(root, rel)
        for line, target in targets(path):
            if SCHEME.match(target) or target.startswith("//"):
                continue  # a URL: not checked here
            where, _, fragment = target.partition("#")
            dest = os.path.realpath(os.path.join(os.path.dirname(path), where)) if where else path
            why = None
            if os.path.commonpath([root, dest]) != root:
                why = "points outside the repository"
            elif not os.path.exists(dest):
                why = "no such file"
            elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
                why = "no heading #%s in %s" % (fragment, os.path.relpath(dest, root))
            if why:
                problems.append("%s:%d: %s: %s" % (rel, line, target, why))
    return problems


def doc_files(root):
    """README.md and every .md under docs/, lab notes (docs/notes/) included."""
    out = []
    for d, _dirs, names in os.walk(os.path.join(root, "docs")):
        out += [os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(".md")]
    return ["README.md"] + sorted(out)


class Links(unittest.TestCase):
    def test_every_relative_link_and_image_resolves(self):
        files = doc_files(ROOT)
        self.assertGreater(len(files), 1, "no docs/*.md beside README.md")
        problems = broken_links(ROOT, files)
        self.assertEqual(problems, [], "broken links:\n" + "\n".join(problems))

    def test_a_broken_link_image_or_anchor_is_reported(self):
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "docs"))
            with open(os.path.join(d, "docs", "a.md"), "w") as f:
                f.write("# A page\n\n## Storage types: fp32, fp16\n\ntext\n")
            with open(os.path.join(d, "README.md"), "w") as f:
                f.write("# Top\n"
                        "[fine](docs/a.md) and [anchor](docs/a.md#storage-types-fp32-fp16)\n"
                        "[gone](docs/missing.md)\n"
                        "![chart](plots/none.png)\n"
                        "[bad anchor](docs/a.md#no-such-heading) [self](#top)\n"
                        "```\n[in code](not/there.md)\n```\n"
                        "`[inline](nor/here.md)` [web](https://example.org/x)\n"
                        "[out](../../etc/passwd)\n")
            problems = broken_links(d, doc_files(d))
        self.assertEqual(problems, [
            "README.md:3: docs/missing.md: no such file",
            "README.md:4: plots/none.png: no such file",
            "README.md:5: docs/a.md#no-such-heading: no heading #no-such-heading in docs/a.md",
            "README.md:10: ../../etc/passwd: points outside the repository"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
