"""Rows of a study written as CSV (the one-figure studies' output)."""
from __future__ import annotations

import csv
from typing import Any, Sequence


def write_csv(rows: Sequence[dict[str, Any]], path: str, fields: Sequence[str]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, list(fields))
        w.writeheader()
        w.writerows(rows)
