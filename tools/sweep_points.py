"""What the one-figure sweep scripts (tools/raid_sweep.py, tools/decode_sweep.py) share: run every point
in a thread pool, write the rows as CSV, draw the figures if matplotlib is there."""
import csv
import os
import sys
from concurrent.futures import ThreadPoolExecutor


def run_and_save(points, run, jobs, csv_path, fields, plot, out):
    """Rows of run(point) for every point, in order; written to csv_path; plot(rows, out) unless matplotlib
    is missing."""
    with ThreadPoolExecutor(jobs) as pool:
        rows = list(pool.map(run, points))
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        w.writerows(rows)
    try:
        plot(rows, out)
    except ImportError:
        print("%s: no matplotlib; wrote the CSV only" % os.path.basename(sys.argv[0]), file=sys.stderr)
    return rows
