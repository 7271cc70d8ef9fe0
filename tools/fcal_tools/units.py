"""Units of parameters and results, for axis labels and values as people read them.

A parameter's unit comes from fcal-sim's own table (`--list-params --json`). Results have no such listing,
so their units follow the naming rules of fcal-sim's stats JSON, kept here (README.md, "Outputs (`results` in
the stats JSON)").
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .sim import Param

# Result names (the last part of a dotted path) -> unit. Checked first; then the suffix rules below.
RESULT_UNITS = {
    "mb_per_s": "MB/s",
    "iops": "IO/s",
    "utilisation": "fraction",
    "tenancy_share": "fraction",
    "wire_bytes": "bytes",
    "media_bytes": "bytes",
    "capacity_bytes": "bytes",
}
SUFFIX_UNITS = (("_us", "µs"), ("_ms", "ms"), ("_ns", "ns"), ("_s", "s"))
# fcal-sim writes microseconds "us" in its table; shown as µs.
SHOWN = {"us": "µs"}
SIZE_SUFFIXES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def result_unit(name: str) -> str:
    """The unit of a result (a dotted path such as `disks.3.utilisation`), "" for a count or a name."""
    leaf = name.rsplit(".", 1)[-1]
    if leaf in RESULT_UNITS:
        return RESULT_UNITS[leaf]
    for suffix, unit in SUFFIX_UNITS:
        if leaf.endswith(suffix):
            return unit
    return ""


def parse_number(text: object, size: bool = False) -> float | None:
    """A CSV cell as a number; with size=True also fcal-sim's size suffixes (4K, 1M, 2G); None if not one."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    if not isinstance(text, str):
        return None
    s = text.strip()
    if size:
        m = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?)\s*([KMG])", s)
        if m:
            return float(m.group(1)) * SIZE_SUFFIXES[m.group(2)]
    try:
        v = float(s)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


@dataclass(frozen=True)
class Axis:
    """How one column is shown: its label and the factor its values are divided by."""
    label: str
    scale: float = 1.0


class Units:
    """Units of the columns of a sweep: parameters (from fcal-sim's table) and results (RESULT_UNITS)."""

    def __init__(self, params: Iterable[Param] = ()):
        self.params = {p.key: p for p in params}

    def param(self, key: str) -> Param | None:
        if key in self.params:
            return self.params[key]
        m = re.fullmatch(r"disk\.[0-9]+\.(\w+)", key)  # a per-disk override has its key's unit
        return self.params.get(f"disk.{m.group(1)}") if m else None

    def is_size(self, column: str) -> bool:
        p = self.param(column)
        return p is not None and p.type == "bytes"

    def unit(self, column: str) -> str:
        """A parameter's unit from fcal-sim's table; any other column (a result, a label) by its name."""
        p = self.param(column)
        if p is not None:
            return SHOWN.get(p.unit, p.unit)
        return result_unit(column)

    def number(self, column: str, text: object) -> float | None:
        return parse_number(text, size=self.is_size(column))

    def axis(self, column: str, values: Sequence[float]) -> Axis:
        """The label of an axis for `column` and the scale for its values: sizes in bytes are shown in KiB
        when every value is a whole number of KiB."""
        unit = self.unit(column)
        scale = 1.0
        if unit == "bytes" and values and all(v % 1024 == 0 and v > 0 for v in values):
            unit, scale = "KiB", 1024.0
        return Axis(f"{column} ({unit})" if unit else column, scale)

    def value_text(self, column: str, text: str) -> str:
        """A value as a legend or a panel title shows it: sizes as 4 KiB / 1 MiB, others with their unit."""
        v = self.number(column, text)
        unit = self.unit(column)
        if v is None or not unit or unit == "fraction":
            return text
        if unit == "bytes":
            for name, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
                if v >= factor and v % factor == 0:
                    return f"{v / factor:g} {name}"
            return f"{v:g} bytes"
        return f"{v:g} {unit}"
