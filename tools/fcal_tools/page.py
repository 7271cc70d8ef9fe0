"""A generated block in a docs page: the lines between `<!-- TOOL: begin ... -->` and `<!-- TOOL: end -->`
(each on a line of its own), written by the tool that measures them, never by hand."""
from __future__ import annotations


def replace_between_markers(text: str, lines: list[str], tool: str = "bench.py") -> str:
    """text with the lines between its begin and end markers for `tool` replaced by lines."""
    begin_marker, end_marker = f"<!-- {tool}: begin", f"<!-- {tool}: end -->"
    rows = text.split("\n")
    begin = [i for i, r in enumerate(rows) if r.startswith(begin_marker)]
    end = [i for i, r in enumerate(rows) if r.strip() == end_marker]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise ValueError(f"needs exactly one line starting {begin_marker!r} followed by one line {end_marker!r}")
    return "\n".join(rows[:begin[0] + 1] + lines + rows[end[0]:])


def check_page(path: str, tool: str) -> None:
    """Raises OSError or ValueError if `path` cannot take the block of `tool` (before a long run, not after)."""
    with open(path, encoding="utf-8") as f:
        replace_between_markers(f.read(), [], tool)


def write_between_markers(path: str, lines: list[str], tool: str) -> None:
    with open(path, encoding="utf-8") as f:
        page = replace_between_markers(f.read(), lines, tool)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
