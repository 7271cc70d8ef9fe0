"""What the figure tools (rebuild_sweep.py, loop_failover.py) share: their command line (--out, --fcal-sim,
--jobs, --no-plots, --write PAGE, the page checked before any run) and the end of a sweep (the CSV, the
figure, the table printed and written between the tool's markers in PAGE)."""
from __future__ import annotations

import argparse
import os
from typing import Any, Callable, Sequence

from .cli import guard, require
from .page import check_page, write_between_markers
from .rows import write_csv


def figure_main(argv: list[str] | None, doc: str, name: str, tool: str, out: str,
                sweep: Callable[[argparse.Namespace], int]) -> int:
    """Parses the common command line of figure tool `name` (its markers are `tool`'s) and runs sweep(args) guarded."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=out)
    ap.add_argument("--fcal-sim", default="build/bin/fcal-sim")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-plots", action="store_true", help="write the CSV only")
    ap.add_argument("--write", metavar="PAGE", help=f"put the table into PAGE between its {tool} markers")
    a = ap.parse_args(argv)
    if a.write:
        try:
            check_page(a.write, tool)
        except (OSError, ValueError) as e:
            ap.error(f"--write {a.write}: {e}")

    def checked_sweep() -> int:
        if not a.no_plots:
            require(name, "matplotlib", "drawing the figure (or --no-plots)")
        os.makedirs(a.out, exist_ok=True)
        return sweep(a)
    return guard(name, checked_sweep)


def finish(a: argparse.Namespace, tool: str, rows: list[dict[str, Any]], csv_name: str, fields: Sequence[str],
           plot: Callable[[], None], lines: list[str]) -> int:
    """Writes the CSV (the `fields` of each row) into a.out, draws the figure unless --no-plots, prints the table
    and with --write puts it into the page."""
    write_csv([{k: r[k] for k in fields} for r in rows], os.path.join(a.out, csv_name), fields)
    if not a.no_plots:
        plot()
    print("\n".join(lines))
    if a.write:
        write_between_markers(a.write, lines, tool)
        print(f"table written to {a.write}")
    return 0
