"""The docs hold together: every `docs/<page>.md, "Heading"` (or `README, "Heading"`) citation in the source
tree names an existing file and a heading in it, and every relative Markdown link in README.md, CHANGELOG.md
and docs/**/*.md names an existing file and, with #anchor, a heading of it (GitHub's anchors)."""
from __future__ import annotations

import os
import re

import pytest

from conftest import ROOT
from fcal_tools.page import replace_between_markers

SKIP_DIRS = {".git", "out", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules"}
TEXT_EXT = {".cpp", ".hpp", ".h", ".cc", ".c", ".py", ".sh", ".txt", ".cmake", ".v", ".sv", ".toml", ".json",
            ".md", ".gtkw", ".in", ".yml", ".yaml", ".trace", ""}

# A line break inside a citation: newline, indentation, an optional comment marker (// # * --), spaces.
BREAK = r"(?:\n[ \t]*(?://+|#+|\*|--)?[ \t]*)"
Q = r'\\?"'  # a quote, escaped inside a C++ or Python string literal
HEADING = r'(?:[^"\\\n]|' + BREAK + r')+?'
FILE = r'(?:(?<![\w/.\'"-])docs/[A-Za-z0-9_./-]+?\.md|(?<![\w/.\'"-])README(?:\.md)?)'
SEP = r'(?:,|,? \(|,?' + BREAK + r'\(?)[ \t]*(?:' + BREAK + r')?'
CITE = re.compile(r'(?P<file>' + FILE + r')(?:' + SEP + r'|,? ?)' + Q + r'(?P<h>' + HEADING + r')' + Q +
                  r'(?P<more>(?:(?:,|,? and| and)(?:[ \t]|' + BREAK + r')+' + Q + HEADING + Q + r')*)')
MORE = re.compile(r'(?:,|,? and| and)(?:[ \t]|' + BREAK + r')+' + Q + r'(?P<h>' + HEADING + r')' + Q)
SELF = os.path.join("tools", "tests", "test_docs_links.py")  # its broken examples are on purpose
PLACEHOLDER = "Heading"  # `docs/<page>.md, "Heading"` describes the form, it cites nothing
LINK = re.compile(r'!?\[(?:[^\]\n]|\n(?!\n))*\]\(([^)\s]+)\)')


def flat(heading: str) -> str:
    return re.sub(BREAK, " ", heading).strip()


def headings(path: str) -> list[str]:
    """The headings of a Markdown file as text (without the leading #s), outside code fences."""
    out = []
    fence = False
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"^#{1,6} (.*?)\s*$", line)
            if m:
                out.append(m.group(1))
    return out


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    a = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return a.replace(" ", "-")


def anchors(path: str) -> set[str]:
    out: set[str] = set()
    for h in headings(path):
        a, n = anchor(h), 1
        while a in out:  # GitHub numbers repeated headings: x, x-1, x-2
            a, n = f"{anchor(h)}-{n}", n + 1
        out.add(a)
    return out


def source_files(root: str):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), root)
            if os.path.splitext(f)[1] in TEXT_EXT and rel != SELF:
                yield rel


def citations(root: str) -> list[tuple[str, str, str]]:
    """(where, cited file, heading) for every citation under root."""
    out = []
    for rel in source_files(root):
        try:
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        for m in CITE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            file = "README.md" if m.group("file") in ("README", "README.md") else m.group("file")
            hs = [m.group("h")] + [mm.group("h") for mm in MORE.finditer(m.group("more"))]
            # a heading has a letter or digit (`"README.md", "` between two string literals is no citation)
            out += [(f"{rel}:{line}", file, flat(h)) for h in hs
                    if flat(h) != PLACEHOLDER and re.search(r"[A-Za-z0-9]", h)]
    return out


def broken_citations(root: str) -> list[str]:
    bad = []
    for where, file, heading in citations(root):
        path = os.path.join(root, file)
        if not os.path.isfile(path):
            bad.append(f'{where}: {file}, "{heading}": no such file')
        elif heading not in headings(path):
            bad.append(f'{where}: {file}, "{heading}": no such heading in {file}')
    return bad


def markdown_pages(root: str) -> list[str]:
    pages = ["README.md", "CHANGELOG.md"]
    for d, _, files in os.walk(os.path.join(root, "docs")):
        pages += sorted(os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith(".md"))
    return pages


def broken_links(root: str) -> list[str]:
    bad = []
    for page in markdown_pages(root):
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)  # links inside code blocks are text
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            file, _, frag = target.partition("#")
            path = os.path.normpath(os.path.join(root, os.path.dirname(page), file)) if file else os.path.join(root, page)
            if not os.path.exists(path):
                bad.append(f"{page}: ({target}): no such file")
            elif frag and (not path.endswith(".md") or frag not in anchors(path)):
                bad.append(f"{page}: ({target}): no heading with that anchor")
    return bad


def test_every_citation_in_the_tree_names_a_page_and_a_heading_of_it():
    found = citations(ROOT)
    assert len(found) > 100  # the code cites the docs everywhere: a parser that finds none is broken
    assert broken_citations(ROOT) == []


def test_every_relative_link_of_the_docs_resolves():
    assert broken_links(ROOT) == []


def test_a_broken_citation_or_link_is_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "loop.md").write_text("# The loop\n\n## Fairness\n\n[ok](#fairness) [bad](#nowhere)\n"
                                               "[gone](missing.md) [ok](../README.md#set-up)\n")
    (tmp_path / "README.md").write_text("# fcal\n\n## Set-up\n")
    (tmp_path / "CHANGELOG.md").write_text("# Changelog\n")
    (tmp_path / "a.cpp").write_text('// the loop (docs/loop.md, "Fairness") and (docs/loop.md, "The\n'
                                    '// loop") and docs/loop.md, "Fairness", "TRANSFER" and\n'
                                    '// docs/gone.md, "X" and (README, "Set-up") and (README, "Tour")\n')
    assert broken_citations(str(tmp_path)) == [
        'a.cpp:2: docs/loop.md, "TRANSFER": no such heading in docs/loop.md',
        'a.cpp:3: docs/gone.md, "X": no such file',
        'a.cpp:3: README.md, "Tour": no such heading in README.md',
    ]
    assert broken_links(str(tmp_path)) == ["docs/loop.md: (#nowhere): no heading with that anchor",
                                           "docs/loop.md: (missing.md): no such file"]


@pytest.mark.parametrize("heading,expected", [
    ("The loop: fairness", "the-loop-fairness"), ("8b/10b", "8b10b"), ("AL_PAs", "al_pas"),
    ("The TLM-2.0 protocol", "the-tlm-20-protocol"), ("`fcal-sim` (the simulator)", "fcal-sim-the-simulator"),
])
def test_anchors_follow_github(heading, expected):
    assert anchor(heading) == expected


def test_the_speed_page_carries_the_benchmark_markers():
    with open(os.path.join(ROOT, "docs", "speed.md"), encoding="utf-8") as f:
        page = f.read()
    new = replace_between_markers(page, ["| scenario | x real time |", "| baseline | 1.0 |"])
    assert "| baseline | 1.0 |" in new and new.count("bench.py: begin") == 1
    assert replace_between_markers(new, []).count("| baseline") == 0
    with pytest.raises(ValueError):
        replace_between_markers("no markers here", [])
